package sessions_test

import (
	"context"
	"errors"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/connect4/connect4/bot/match"
	"github.com/connect4/connect4/sessions"
	"github.com/connect4/connect4/sessions/storetest"
)

// installs is what the tests use of both installation stores.
type installs interface {
	Installation(ctx context.Context, id string) (*match.Installation, error)
	PutInstallation(ctx context.Context, inst *match.Installation) error
	RenewInstallation(ctx context.Context, next *match.Installation, was int64) error
	ClaimRenewal(ctx context.Context, id string, version int64, lease time.Duration) (bool, error)
	WorkspaceOrg(ctx context.Context, team string) (string, error)
	LinkWorkspace(ctx context.Context, team, org string) error
	UseOnce(ctx context.Context, nonce string, ttl time.Duration) (bool, error)
	HomeOpened(ctx context.Context, team, user string, every time.Duration) (bool, error)
	SeenChannel(ctx context.Context, team, user, channel string) error
	RecentChannels(ctx context.Context, team, user string) ([]string, error)
	Uninstall(ctx context.Context, id string, at time.Time, delay time.Duration) error
	ClaimPurge(ctx context.Context, lease time.Duration) (match.Purge, bool, error)
	RenewPurge(ctx context.Context, p *match.Purge, lease time.Duration) error
	FinishPurge(ctx context.Context, p match.Purge) error
	Purge(ctx context.Context, p match.Purge, batch int, progress func(ctx context.Context) error) error
}

var (
	_ installs = (*sessions.Installs)(nil)
	_ installs = (*sessions.MemoryInstalls)(nil)
)

// dataStore is what the tests write a workspace's data with.
type dataStore interface {
	storetest.Store
	SetSettings(ctx context.Context, k match.Key, change match.Settings) (match.Settings, error)
}

// instEnv is one store under test: its installations, its data, and (for
// Redis) a way to list the keys holding a string.
type instEnv struct {
	in   installs
	data dataStore
	clk  *storetest.Clock
	// keys returns every key of the test, with its value's dump; nil for
	// Memory.
	keys func(t *testing.T) map[string]string
	// restart returns the installations as a restarted process sees
	// them: on Redis a new store on the same keys; Memory's, which no
	// restart keeps, are the same.
	restart func(t *testing.T) installs
}

func memoryEnv(t *testing.T) instEnv {
	clk := storetest.NewClock(time.Now().UTC().Truncate(time.Millisecond))
	m := storetest.NewMemory(t, sessions.Options{Now: clk.Now})
	in := sessions.NewMemoryInstalls(m)
	return instEnv{in: in, data: m, clk: clk, restart: func(*testing.T) installs { return in }}
}

func redisEnv(t *testing.T, c redis.UniversalClient) instEnv {
	clk := storetest.NewClock(time.Now().UTC().Truncate(time.Millisecond))
	prefix := storetest.Prefix(t, c)
	s := storetest.NewRedis(t, c, sessions.Options{Prefix: prefix, Now: clk.Now})
	return instEnv{in: sessions.NewRedisInstalls(s), data: s, clk: clk, keys: func(t *testing.T) map[string]string {
		return storetest.Dump(t, c, prefix)
	}, restart: func(t *testing.T) installs {
		return sessions.NewRedisInstalls(storetest.NewRedis(t, c, sessions.Options{Prefix: prefix, Now: clk.Now}))
	}}
}

func TestInstalls(t *testing.T) {
	t.Parallel()
	envs := map[string]func(t *testing.T) instEnv{
		"memory": memoryEnv,
		"redis":  func(t *testing.T) instEnv { return redisEnv(t, storetest.Redis(t)) },
	}
	for name, env := range envs {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			runInstallTests(t, env)
		})
	}
}

// TestInstallsCluster runs the same tests on a Redis Cluster started for
// it: every script touches one hash tag, and a purge scans every master.
func TestInstallsCluster(t *testing.T) {
	t.Parallel()
	c := storetest.SharedCluster(t)
	runInstallTests(t, func(t *testing.T) instEnv { return redisEnv(t, c) })
}

func runInstallTests(t *testing.T, env func(t *testing.T) instEnv) {
	for _, tc := range []struct {
		name string
		test func(*testing.T, instEnv)
	}{
		{"PutGet", testPutGet},
		{"Renewal", testRenewal},
		{"Once", testOnce},
		{"Home", testHome},
		{"PurgeExactlyOneWorkspace", testPurgeOne},
		{"PurgeOrg", testPurgeOrg},
		{"PurgeResumes", testPurgeResumes},
		{"PurgeSkipsReinstall", testPurgeReinstall},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			tc.test(t, env(t))
		})
	}
}

func install(id string, at time.Time) *match.Installation {
	inst := &match.Installation{ID: id, Team: id, Name: "Team " + id, BotUserID: "UBOT" + id[1:], Sealed: []byte("sealed-" + id), Installed: at}
	if id[0] == 'E' {
		inst.Team, inst.Enterprise, inst.OrgWide = "", id, true
	}
	return inst
}

func testPutGet(t *testing.T, e instEnv) {
	ctx := t.Context()
	if _, err := e.in.Installation(ctx, "T1"); !errors.Is(err, match.ErrNotInstalled) {
		t.Fatalf("Installation before any = %v, want ErrNotInstalled", err)
	}
	in := install("T1", e.clk.Now())
	in.Expires = e.clk.Now().Add(12 * time.Hour)
	if err := e.in.PutInstallation(ctx, in); err != nil || in.Version != 1 {
		t.Fatalf("PutInstallation = %v, version %d, want nil, 1", err, in.Version)
	}
	got, err := e.in.Installation(ctx, "T1")
	if err != nil {
		t.Fatal(err)
	}
	if got.ID != "T1" || string(got.Sealed) != "sealed-T1" || got.Version != 1 || !got.Expires.Equal(in.Expires) || !got.Installed.Equal(in.Installed) || got.BotUserID != "UBOTT1"[:5] && got.BotUserID != in.BotUserID {
		t.Errorf("Installation = %+v, want %+v", got, in)
	}
	again := install("T1", e.clk.Now())
	if err := e.in.PutInstallation(ctx, again); err != nil || again.Version != 2 {
		t.Errorf("reinstall: %v, version %d, want 2", err, again.Version)
	}
	for _, bad := range []*match.Installation{
		{ID: "X1", Sealed: []byte("s")}, {ID: "T1"}, {ID: "E1", Sealed: []byte("s")}, {ID: "T1", OrgWide: true, Sealed: []byte("s")},
		{ID: "T1", BotUserID: "U{1}", Sealed: []byte("s")},
	} {
		if err := e.in.PutInstallation(ctx, bad); !errors.Is(err, match.ErrInvalid) {
			t.Errorf("PutInstallation(%+v) = %v, want ErrInvalid", bad, err)
		}
	}
	if _, err := e.in.Installation(ctx, "T1}x"); !errors.Is(err, match.ErrInvalid) {
		t.Errorf("Installation(bad id) = %v, want ErrInvalid", err)
	}
	if org, err := e.in.WorkspaceOrg(ctx, "T5"); org != "" || err != nil {
		t.Errorf("WorkspaceOrg(unlinked) = %q, %v", org, err)
	}
	if err := e.in.LinkWorkspace(ctx, "T5", "E1"); err != nil {
		t.Fatal(err)
	}
	if org, err := e.in.WorkspaceOrg(ctx, "T5"); org != "E1" || err != nil {
		t.Errorf("WorkspaceOrg = %q, %v, want E1", org, err)
	}
}

// testRenewal: one of many concurrent claims wins the lease; a renewal
// at a stale version is refused; a successful one releases the lease.
func testRenewal(t *testing.T, e instEnv) {
	ctx := t.Context()
	in := install("T1", e.clk.Now())
	if err := e.in.PutInstallation(ctx, in); err != nil {
		t.Fatal(err)
	}
	var wins int
	var mu sync.Mutex
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			ok, err := e.in.ClaimRenewal(ctx, "T1", 1, time.Minute)
			if err != nil {
				t.Error(err)
			}
			if ok {
				mu.Lock()
				wins++
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	if wins != 1 {
		t.Fatalf("%d of 8 concurrent claims won the renewal lease, want 1", wins)
	}
	next := install("T1", in.Installed)
	next.Sealed = []byte("renewed")
	if err := e.in.RenewInstallation(ctx, next, 7); !errors.Is(err, match.ErrConflict) {
		t.Errorf("RenewInstallation at a stale version = %v, want ErrConflict", err)
	}
	if err := e.in.RenewInstallation(ctx, next, 1); err != nil || next.Version != 2 {
		t.Fatalf("RenewInstallation = %v, version %d", err, next.Version)
	}
	if ok, _ := e.in.ClaimRenewal(ctx, "T1", 1, time.Minute); ok {
		t.Error("a claim at the version before the renewal won the lease")
	}
	if ok, _ := e.in.ClaimRenewal(ctx, "T1", 2, time.Minute); !ok {
		t.Error("the lease is still held after the renewal")
	}
	if err := e.in.RenewInstallation(ctx, install("T9", in.Installed), 1); !errors.Is(err, match.ErrNotInstalled) {
		t.Errorf("RenewInstallation of nothing = %v, want ErrNotInstalled", err)
	}
}

func testOnce(t *testing.T, e instEnv) {
	ctx := t.Context()
	var firsts int
	var mu sync.Mutex
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			ok, err := e.in.UseOnce(ctx, "nonce1", 10*time.Minute)
			if err != nil {
				t.Error(err)
			}
			if ok {
				mu.Lock()
				firsts++
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	if firsts != 1 {
		t.Errorf("%d of 8 uses of one state were first, want 1", firsts)
	}
	if ok, _ := e.in.UseOnce(ctx, "nonce2", 10*time.Minute); !ok {
		t.Error("another state was refused")
	}
}

func testHome(t *testing.T, e instEnv) {
	ctx := t.Context()
	if ok, err := e.in.HomeOpened(ctx, "T1", "U1", time.Minute); !ok || err != nil {
		t.Fatalf("first open = %v, %v", ok, err)
	}
	if ok, _ := e.in.HomeOpened(ctx, "T1", "U1", time.Minute); ok {
		t.Error("a second open within the minute may publish")
	}
	if ok, _ := e.in.HomeOpened(ctx, "T1", "U2", time.Minute); !ok {
		t.Error("another user's open was throttled")
	}
	for i, ch := range []string{"C1", "C2", "C3", "C1"} {
		e.clk.Advance(time.Second)
		if err := e.in.SeenChannel(ctx, "T1", "U1", ch); err != nil {
			t.Fatalf("SeenChannel %d: %v", i, err)
		}
	}
	got, err := e.in.RecentChannels(ctx, "T1", "U1")
	if want := []string{"C1", "C3", "C2"}; err != nil || !slices.Equal(got, want) {
		t.Errorf("RecentChannels = %q, %v, want %q", got, err, want)
	}
	for i := range sessions.MaxRecentChannels + 5 {
		e.clk.Advance(time.Second)
		e.in.SeenChannel(ctx, "T1", "U3", "C"+string(rune('A'+i)))
	}
	if got, _ := e.in.RecentChannels(ctx, "T1", "U3"); len(got) != sessions.MaxRecentChannels || got[0] != "C"+string(rune('A'+sessions.MaxRecentChannels+4)) {
		t.Errorf("RecentChannels after %d = %q, want the newest %d", sessions.MaxRecentChannels+5, got, sessions.MaxRecentChannels)
	}
}

// fill writes a workspace's data in n channels: a game with a timer (a
// schedule entry and its hint), a finished rated game (leaderboard,
// ratings), settings, a season, the App Home's state, and the
// installation.
func fill(t *testing.T, e instEnv, team string, n int) {
	t.Helper()
	ctx := t.Context()
	for i := range n {
		k := match.Key{Platform: "slack", Workspace: team, Channel: "C" + string(rune('A'+i))}
		r := storetest.Playing(t, k)
		r.Timers = []match.Timer{{Kind: match.TimerTimeout, Due: e.clk.Now().Add(time.Hour)}}
		if err := e.data.Create(ctx, r); err != nil {
			t.Fatal(err)
		}
		done := storetest.Playing(t, k)
		done.Challenger, done.Opponent = match.Player{ID: "UC" + team, Name: "C"}, match.Player{ID: "UD" + team, Name: "D"}
		done.RedID = done.Challenger.ID
		if err := e.data.Create(ctx, done); err != nil {
			t.Fatal(err)
		}
		if _, err := e.data.Update(ctx, k, done.ID, func(r *match.Record) (match.Tally, error) {
			r.Status, r.Finish = match.StatusFinished, match.FinishResign
			r.Rounds = append(r.Rounds, match.RoundResult{Winner: r.Challenger.ID, Finish: match.FinishResign})
			return match.Tally{Winner: r.Challenger, Loser: r.Opponent, Rated: true}, nil
		}); err != nil {
			t.Fatal(err)
		}
		if _, err := e.data.SetSettings(ctx, k, match.Settings{Board: match.BoardEmoji}); err != nil {
			t.Fatal(err)
		}
		if err := e.in.SeenChannel(ctx, team, "UC"+team, k.Channel); err != nil {
			t.Fatal(err)
		}
	}
	e.in.HomeOpened(ctx, team, "UC"+team, time.Minute)
	if err := e.in.PutInstallation(ctx, install(team, e.clk.Now())); err != nil {
		t.Fatal(err)
	}
}

// hasData reports whether the store holds anything of team that a user
// could read: its channels' records, leaderboards and settings, and its
// installation.
func hasData(t *testing.T, e instEnv, team string, n int) []string {
	t.Helper()
	ctx := t.Context()
	var found []string
	for i := range n {
		k := match.Key{Platform: "slack", Workspace: team, Channel: "C" + string(rune('A'+i))}
		if recs, _ := e.data.Active(ctx, k); len(recs) > 0 {
			found = append(found, k.String()+" games")
		}
		if lb, _ := e.data.Leaderboard(ctx, k, 0); len(lb) > 0 {
			found = append(found, k.String()+" leaderboard")
		}
		if st, _ := e.data.SetSettings(ctx, k, match.Settings{}); st != (match.Settings{}) {
			found = append(found, k.String()+" settings")
		}
	}
	if _, err := e.in.Installation(ctx, team); err == nil {
		found = append(found, team+" installation")
	}
	if chs, _ := e.in.RecentChannels(ctx, team, "UC"+team); len(chs) > 0 {
		found = append(found, team+" home")
	}
	return found
}

// runPurge claims and runs every due purge job to its end.
func runPurge(t *testing.T, e instEnv, batch int) {
	t.Helper()
	ctx := t.Context()
	for range 10 {
		p, ok, err := e.in.ClaimPurge(ctx, time.Minute)
		if err != nil {
			t.Fatal(err)
		}
		if !ok {
			return
		}
		if err := e.in.Purge(ctx, p, batch, func(ctx context.Context) error { return e.in.RenewPurge(ctx, &p, time.Minute) }); err != nil {
			t.Fatal(err)
		}
		if err := e.in.FinishPurge(ctx, p); err != nil {
			t.Fatal(err)
		}
	}
	t.Fatal("purge jobs never ran out")
}

// workspaceKeys returns the keys (with their dumps) that belong to team,
// by the tags the store documents, and the rest.
func workspaceKeys(keys map[string]string, team string) (mine, rest map[string]string) {
	mine, rest = map[string]string{}, map[string]string{}
	for k, v := range keys {
		if strings.Contains(k, "{slack:"+team+":") || strings.Contains(k, "{slack:inst:"+team+"}") || strings.Contains(k, "{slack:home:"+team+"}") {
			mine[k] = v
		} else {
			rest[k] = v
		}
	}
	return mine, rest
}

// testPurgeOne: an uninstall purges exactly that workspace: on Redis, a
// SCAN finds none of its keys and every other key (the other workspace's,
// and the schedule's buckets but for T1's hints) as it was.
func testPurgeOne(t *testing.T, e instEnv) {
	ctx := t.Context()
	fill(t, e, "T1", 4)
	fill(t, e, "T2", 4)
	var before map[string]string
	if e.keys != nil {
		before = e.keys(t)
		if mine, _ := workspaceKeys(before, "T1"); len(mine) < 20 {
			t.Fatalf("T1 has %d keys before the purge; the test would not test much", len(mine))
		}
	}
	if err := e.in.Uninstall(ctx, "T1", e.clk.Now(), 0); err != nil {
		t.Fatal(err)
	}
	if err := e.in.Uninstall(ctx, "T1", e.clk.Now(), 0); err != nil { // tokens_revoked after app_uninstalled
		t.Fatal(err)
	}
	if _, err := e.in.Installation(ctx, "T1"); !errors.Is(err, match.ErrNotInstalled) {
		t.Errorf("Installation after Uninstall = %v, want ErrNotInstalled", err)
	}
	runPurge(t, e, 3)
	if left := hasData(t, e, "T1", 4); len(left) > 0 {
		t.Errorf("after the purge T1 still has %q", left)
	}
	if left := hasData(t, e, "T2", 4); len(left) != 4*3+2 {
		t.Errorf("after T1's purge T2 has %q, want all of its data", left)
	}
	if e.keys == nil {
		return
	}
	after := e.keys(t)
	mine, rest := workspaceKeys(after, "T1")
	if len(mine) > 0 {
		t.Errorf("SCAN finds T1's keys after the purge: %v", keysOf(mine))
	}
	_, restBefore := workspaceKeys(before, "T1")
	for k, v := range restBefore {
		if strings.Contains(k, "{sched:") || strings.Contains(k, "{slack:purge}") {
			if strings.Contains(after[k], "slack:T1:") {
				t.Errorf("%s still hints a T1 channel", k)
			}
			continue
		}
		if after[k] != v {
			t.Errorf("key %s changed in T1's purge", k)
		}
	}
	for k := range rest {
		if _, ok := restBefore[k]; !ok && !strings.Contains(k, "{sched:") {
			t.Errorf("key %s appeared in the purge", k)
		}
	}
}

func keysOf(m map[string]string) []string {
	var out []string
	for k := range m {
		out = append(out, k)
	}
	slices.Sort(out)
	return out
}

// testPurgeOrg: an org-wide install's uninstall purges every workspace it
// served, and nothing of a workspace it did not.
func testPurgeOrg(t *testing.T, e instEnv) {
	ctx := t.Context()
	fill(t, e, "T1", 2)
	fill(t, e, "T2", 2)
	fill(t, e, "T3", 2)
	if err := e.in.PutInstallation(ctx, install("E1", e.clk.Now())); err != nil {
		t.Fatal(err)
	}
	for _, team := range []string{"T1", "T2"} {
		if err := e.in.LinkWorkspace(ctx, team, "E1"); err != nil {
			t.Fatal(err)
		}
	}
	if err := e.in.Uninstall(ctx, "E1", e.clk.Now(), 0); err != nil {
		t.Fatal(err)
	}
	runPurge(t, e, 0)
	for _, team := range []string{"T1", "T2"} {
		if left := hasData(t, e, team, 2); len(left) > 1 || len(left) == 1 && left[0] != team+" installation" {
			t.Errorf("after E1's purge %s has %q", team, left)
		}
		if org, _ := e.in.WorkspaceOrg(ctx, team); org != "" {
			t.Errorf("%s still links to %s", team, org)
		}
	}
	if left := hasData(t, e, "T3", 2); len(left) != 2*3+2 {
		t.Errorf("after E1's purge T3 has %q, want all of it", left)
	}
	if _, err := e.in.Installation(ctx, "E1"); !errors.Is(err, match.ErrNotInstalled) {
		t.Errorf("E1 after its purge: %v", err)
	}
	if e.keys != nil {
		if mine, _ := workspaceKeys(e.keys(t), "E1"); len(mine) > 0 {
			t.Errorf("E1's keys left: %v", keysOf(mine))
		}
	}
}

var errKilled = errors.New("killed")

// testPurgeResumes: a purge killed after its first batch leaves its job
// queued; once the lease ends another worker claims it and finishes.
func testPurgeResumes(t *testing.T, e instEnv) {
	ctx := t.Context()
	fill(t, e, "T1", 4)
	fill(t, e, "T2", 1)
	if err := e.in.Uninstall(ctx, "T1", e.clk.Now(), 0); err != nil {
		t.Fatal(err)
	}
	p, ok, err := e.in.ClaimPurge(ctx, time.Minute)
	if err != nil || !ok {
		t.Fatalf("ClaimPurge = %v, %v", ok, err)
	}
	batches := 0
	err = e.in.Purge(ctx, p, 2, func(context.Context) error {
		batches++
		return errKilled // the process dies after its first batch
	})
	if !errors.Is(err, errKilled) || batches != 1 {
		t.Fatalf("Purge = %v after %d batches, want the kill after 1", err, batches)
	}
	if _, ok, _ := e.in.ClaimPurge(ctx, time.Minute); ok {
		t.Fatal("the job was claimed again while its lease runs")
	}
	e.clk.Advance(time.Minute + time.Second)
	e.in = e.restart(t) // the process restarts
	runPurge(t, e, 2)
	if left := hasData(t, e, "T1", 4); len(left) > 0 {
		t.Errorf("after the resumed purge T1 has %q", left)
	}
	if left := hasData(t, e, "T2", 1); len(left) != 5 {
		t.Errorf("T2 has %q, want all of it", left)
	}
	if e.keys != nil {
		if mine, _ := workspaceKeys(e.keys(t), "T1"); len(mine) > 0 {
			t.Errorf("T1's keys left: %v", keysOf(mine))
		}
	}
	if err := e.in.FinishPurge(ctx, p); !errors.Is(err, sessions.ErrLeaseLost) {
		t.Errorf("the dead worker's FinishPurge = %v, want ErrLeaseLost", err)
	}
}

// testPurgeReinstall: a workspace installed again before its purge ran
// keeps its new installation and data.
func testPurgeReinstall(t *testing.T, e instEnv) {
	ctx := t.Context()
	fill(t, e, "T1", 1)
	if err := e.in.Uninstall(ctx, "T1", e.clk.Now(), 0); err != nil {
		t.Fatal(err)
	}
	e.clk.Advance(time.Second)
	if err := e.in.PutInstallation(ctx, install("T1", e.clk.Now())); err != nil { // installed again
		t.Fatal(err)
	}
	runPurge(t, e, 0)
	if _, err := e.in.Installation(ctx, "T1"); err != nil {
		t.Errorf("the reinstalled workspace lost its installation: %v", err)
	}
	if left := hasData(t, e, "T1", 1); len(left) < 4 {
		t.Errorf("the reinstalled workspace has %q", left)
	}
}
