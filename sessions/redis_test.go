package sessions_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/connect4/connect4/bot/match"

	"github.com/redis/go-redis/v9"

	"github.com/connect4/connect4/engine"
	"github.com/connect4/connect4/sessions"
	"github.com/connect4/connect4/sessions/storetest"
)

func TestRedisConformance(t *testing.T) {
	c := storetest.Redis(t)
	storetest.Conformance(t, func(t *testing.T, now func() time.Time) storetest.Store {
		return storetest.NewRedis(t, c, sessions.Options{Prefix: storetest.Prefix(t, c), Now: now})
	})
}

// roundTrips counts commands and pipelines sent through a client.
type roundTrips struct{ n atomic.Int64 }

func (h *roundTrips) DialHook(next redis.DialHook) redis.DialHook { return next }
func (h *roundTrips) ProcessHook(next redis.ProcessHook) redis.ProcessHook {
	return func(ctx context.Context, cmd redis.Cmder) error {
		h.n.Add(1)
		return next(ctx, cmd)
	}
}
func (h *roundTrips) ProcessPipelineHook(next redis.ProcessPipelineHook) redis.ProcessPipelineHook {
	return func(ctx context.Context, cmds []redis.Cmder) error {
		h.n.Add(1)
		return next(ctx, cmds)
	}
}

// countingClient returns a fresh client for RedisURL with a round-trip counter.
func countingClient(t *testing.T) (redis.UniversalClient, *roundTrips) {
	t.Helper()
	storetest.Redis(t) // skip or fail when unreachable
	opt, err := redis.ParseURL(storetest.RedisURL())
	if err != nil {
		t.Fatal(err)
	}
	c := redis.NewClient(opt)
	t.Cleanup(func() { c.Close() })
	h := &roundTrips{}
	c.AddHook(h)
	return c, h
}

func moveFn(id string, moveNo, col int) func(r *match.Record) (match.Tally, error) {
	return func(r *match.Record) (match.Tally, error) {
		g := r.Game
		if g.Moves() != moveNo {
			return match.Tally{}, errors.New("stale")
		}
		me := engine.Yellow
		if id == r.RedID {
			me = engine.Red
		}
		if err := g.Play(me, col); err != nil {
			return match.Tally{}, err
		}
		return match.Tally{}, nil
	}
}

func TestRedisRoundTrips(t *testing.T) {
	c, h := countingClient(t)
	prefix := storetest.Prefix(t, c)
	s := storetest.NewRedis(t, c, sessions.Options{Prefix: prefix})
	ctx := t.Context()
	g := storetest.Playing(t, storetest.Channel)
	if err := s.Create(ctx, g); err != nil {
		t.Fatal(err)
	}
	// Other games in the channel cost a move nothing.
	for _, p := range []string{"UCAROL", "UDAVE"} {
		o := storetest.Playing(t, storetest.Channel)
		o.Challenger.ID, o.RedID = p, p
		o.Opponent.ID = p + "2"
		if err := s.Create(ctx, o); err != nil {
			t.Fatal(err)
		}
	}
	// The first move may find the script uncached (NOSCRIPT, then EVAL).
	if _, err := s.Update(ctx, storetest.Channel, g.ID, moveFn(storetest.Alice.ID, 0, 3)); err != nil {
		t.Fatal(err)
	}
	for i, id := range []string{storetest.Bob.ID, storetest.Alice.ID, storetest.Bob.ID} {
		before := h.n.Load()
		if _, err := s.Update(ctx, storetest.Channel, g.ID, moveFn(id, i+1, 3)); err != nil {
			t.Fatal(err)
		}
		if n := h.n.Load() - before; n != 1 {
			t.Errorf("move %d cost %d round trips, want 1 (the record is cached)", i+2, n)
		}
	}
	// Another replica (a store with its own cache) plays the next move: this
	// store's cache is now behind, and its next move costs the failed
	// compare-and-set (which returns the stored record) and the one that lands.
	other := storetest.NewRedis(t, c, sessions.Options{Prefix: prefix})
	if _, err := other.Update(ctx, storetest.Channel, g.ID, moveFn(storetest.Alice.ID, 4, 4)); err != nil {
		t.Fatal(err)
	}
	before0 := h.n.Load()
	if _, err := s.Update(ctx, storetest.Channel, g.ID, moveFn(storetest.Bob.ID, 5, 4)); err != nil {
		t.Fatalf("move after another replica's: %v", err)
	}
	if n := h.n.Load() - before0; n != 2 {
		t.Errorf("a move after another replica's cost %d round trips, want 2", n)
	}
	// Without a cache (a fresh replica) a move is a read and a write.
	fresh := storetest.NewRedis(t, c, sessions.Options{Prefix: prefix, CacheSize: -1})
	before0 = h.n.Load()
	if _, err := fresh.Update(ctx, storetest.Channel, g.ID, moveFn(storetest.Alice.ID, 6, 5)); err != nil {
		t.Fatal(err)
	}
	if n := h.n.Load() - before0; n != 2 {
		t.Errorf("a move on an uncached store cost %d round trips, want 2", n)
	}
	// A rejected click costs the read only.
	before := h.n.Load()
	if _, err := s.Update(ctx, storetest.Channel, g.ID, moveFn(storetest.Alice.ID, 7, 3)); err == nil {
		t.Fatal("a move out of turn was accepted")
	}
	if n := h.n.Load() - before; n != 1 {
		t.Errorf("a rejected click cost %d round trips, want 1", n)
	}
	// A Create is one script call; a refused one adds the read of the game
	// in the way, to name it.
	before = h.n.Load()
	if err := s.Create(ctx, storetest.Challenge(match.Key{Platform: "slack", Workspace: "T1", Channel: "C9"})); err != nil {
		t.Fatal(err)
	}
	if n := h.n.Load() - before; n != 1 {
		t.Errorf("a Create cost %d round trips, want 1", n)
	}
	before = h.n.Load()
	if err := s.Create(ctx, storetest.Challenge(storetest.Channel)); !errors.Is(err, match.ErrBusy) {
		t.Fatalf("Create for Alice, who is playing: %v", err)
	}
	if n := h.n.Load() - before; n != 2 {
		t.Errorf("a refused Create cost %d round trips, want 2", n)
	}
	for _, op := range []struct {
		name string
		run  func() error
		want int64
	}{
		{"Load", func() error { _, err := s.Load(ctx, storetest.Channel, g.ID); return err }, 1},
		{"Active", func() error {
			recs, err := s.Active(ctx, storetest.Channel)
			if err == nil && len(recs) != 3 {
				err = fmt.Errorf("%d active games, want 3", len(recs))
			}
			return err
		}, 2},
		{"PlayerGame", func() error {
			r, err := s.PlayerGame(ctx, storetest.Channel, storetest.Bob.ID)
			if err == nil && r.ID != g.ID {
				err = fmt.Errorf("Bob's game %s, want %s", r.ID, g.ID)
			}
			return err
		}, 2},
		{"Leaderboard", func() error { _, err := s.Leaderboard(ctx, storetest.Channel, 10); return err }, 1},
		{"Stats", func() error { _, err := s.Stats(ctx, storetest.Channel, storetest.Alice.ID); return err }, 1},
	} {
		// Once to warm the pool: a pipeline may open a connection of its
		// own (HELLO and CLIENT SETINFO), which is not the operation's cost.
		op.run()
		before := h.n.Load()
		if err := op.run(); err != nil {
			t.Fatalf("%s: %v", op.name, err)
		}
		if n := h.n.Load() - before; n != op.want {
			t.Errorf("%s cost %d round trips, want %d", op.name, n, op.want)
		}
	}
}

// TestRedisNoScript shows what a cold script cache costs: on a fresh server
// the first move pays one more round trip (EVALSHA is refused with NOSCRIPT,
// then EVAL), later ones do not.
func TestRedisNoScript(t *testing.T) {
	srv := storetest.StartServer(t)
	c := srv.Client(t)
	h := &roundTrips{}
	c.AddHook(h)
	s := storetest.NewRedis(t, c, sessions.Options{})
	ctx := t.Context()
	g := storetest.Playing(t, storetest.Channel)
	if err := s.Create(ctx, g); err != nil {
		t.Fatal(err)
	}
	for i, want := range []int64{2, 1, 1} {
		id := storetest.Alice.ID
		if i%2 == 1 {
			id = storetest.Bob.ID
		}
		before := h.n.Load()
		if _, err := s.Update(ctx, storetest.Channel, g.ID, moveFn(id, i, 3)); err != nil {
			t.Fatal(err)
		}
		if n := h.n.Load() - before; n != want {
			t.Errorf("move %d on a fresh server cost %d round trips, want %d", i+1, n, want)
		}
	}
}

func TestRedisCorrupt(t *testing.T) {
	c := storetest.Redis(t)
	prefix := storetest.Prefix(t, c)
	var hookErrs atomic.Int64
	s := storetest.NewRedis(t, c, sessions.Options{Prefix: prefix, Hooks: sessions.Hooks{
		Error: func(op string, err error) { hookErrs.Add(1) },
	}})
	ctx := t.Context()
	k := storetest.Channel
	tag := prefix + "{" + k.String() + "}:"
	good := storetest.Playing(t, k, 3)
	if err := s.Create(ctx, good); err != nil {
		t.Fatal(err)
	}
	raw, err := c.Get(ctx, tag+"game:"+good.ID).Result()
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name, value, why string
		replaceable      bool // unused: the index still says the game is active, so Create reads it
	}{
		{"garbage", "\x00\xffnot json", "not a JSON object", false},
		{"empty", "", "not a JSON object", false},
		{"array", "[1,2,3]", "not a JSON object", false},
		{"no schema", `{"id":"x"}`, "no schema version", false},
		{"future schema", strings.Replace(raw, `"schema":1`, `"schema":2`, 1), "schema version 2", false},
		{"unknown field", strings.Replace(raw, `"schema":1`, `"schema":1,"extra":true`, 1), "unknown field", false},
		{"other channel", strings.Replace(raw, `"channel":"C1"`, `"channel":"C2"`, 1), "for channel slack:T1:C2", false},
		{"version 0", strings.Replace(raw, `"version":1`, `"version":0`, 1), "version 0", false},
		{"status 9", strings.Replace(raw, `"status":2`, `"status":9`, 1), "unknown status", false},
		{"finished without finish", strings.Replace(raw, `"status":2`, `"status":3`, 1), "finished with finish none", true},
		{"illegal game", strings.Replace(raw, `"game":"AQYHBAEBAw=="`, `"game":"AQYHBAEXAw=="`, 1), "decode game", false},
		{"game of another variant", strings.Replace(raw, `"cols":7`, `"cols":8`, 1), "variant", false},
		{"bad variant", strings.Replace(raw, `"rows":6`, `"rows":60`, 1), "variant", false},
		{"stranger red", strings.Replace(raw, `"red":"UALICE"`, `"red":"UEVE"`, 1), "neither player", false},
		{"long name", strings.Replace(raw, `"name":"Alice"`, `"name":"`+strings.Repeat("A", 300)+`"`, 1), "longer than", false},
		{"huge", `{"schema":1,"id":"` + strings.Repeat("x", 70000) + `"}`, "more than", false},
		{"expiry mismatch", strings.Replace(raw, `"expires_ms":0`, `"expires_ms":5`, 1), "expires_ms", false},
		{"wrong type", strings.Replace(raw, `"version":1`, `"version":"1"`, 1), "parse", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.value == raw {
				t.Fatalf("the replacement did not apply to %s", raw)
			}
			c.Del(ctx, tag+"games", tag+"players")
			good := storetest.Playing(t, k, 3)
			if err := s.Create(ctx, good); err != nil {
				t.Fatal(err)
			}
			gameKey := tag + "game:" + good.ID
			if err := c.Set(ctx, gameKey, tc.value, 0).Err(); err != nil {
				t.Fatal(err)
			}
			_, err := s.Load(ctx, k, good.ID)
			var ce *match.CorruptError
			if !errors.As(err, &ce) || !errors.Is(err, match.ErrCorrupt) || ce.Key != k || !strings.Contains(err.Error(), tc.why) {
				t.Fatalf("Load = %v, want a match.CorruptError for %v saying %q", err, k, tc.why)
			}
			_, err = s.Update(ctx, k, good.ID, func(r *match.Record) (match.Tally, error) {
				t.Error("Update ran fn on a corrupt record")
				return match.Tally{}, nil
			})
			if !errors.Is(err, match.ErrCorrupt) {
				t.Errorf("Update = %v, want match.ErrCorrupt", err)
			}
			// Alice is in the damaged game: a new game of hers reads it to say so.
			if err := s.Create(ctx, storetest.Challenge(k)); !errors.Is(err, match.ErrCorrupt) {
				t.Errorf("Create for a player of a corrupt record = %v, want match.ErrCorrupt", err)
			}
			if err := s.Delete(ctx, k, good.ID); err != nil {
				t.Fatalf("Delete: %v", err)
			}
			if _, err := s.Load(ctx, k, good.ID); !errors.Is(err, match.ErrNoGame) {
				t.Errorf("Load after Delete = %v, want match.ErrNoGame", err)
			}
		})
	}
	if hookErrs.Load() == 0 {
		t.Error("corrupt records never reached the Error hook")
	}

	lbKey := prefix + "{" + k.String() + "}:lb"
	for _, field := range []string{"w:UALICE", "nonsense", "x:UALICE"} {
		c.Del(ctx, lbKey)
		c.HSet(ctx, lbKey, field, "-3")
		if _, err := s.Leaderboard(ctx, k, 0); !errors.Is(err, match.ErrCorrupt) {
			t.Errorf("Leaderboard with field %s=-3: err = %v, want match.ErrCorrupt", field, err)
		}
	}
	c.HSet(ctx, lbKey, "w:UALICE", "many")
	if _, err := s.Stats(ctx, k, "UALICE"); !errors.Is(err, match.ErrCorrupt) {
		t.Errorf("Stats with a negative count: err = %v, want match.ErrCorrupt", err)
	}
}

// TestRedisExpiry checks, against the server's own clock, that idle and
// finished records expire and that writes refresh the TTL.
func TestRedisExpiry(t *testing.T) {
	t.Parallel() // its own servers or key prefix: it waits, mostly, and shares nothing
	c := storetest.Redis(t)
	s := storetest.NewRedis(t, c, sessions.Options{Prefix: storetest.Prefix(t, c),
		IdleTTL: 600 * time.Millisecond, FinishedTTL: 300 * time.Millisecond, LeaderboardTTL: 900 * time.Millisecond})
	ctx := t.Context()
	k := storetest.Channel
	g := storetest.Playing(t, k, 0, 0, 1, 1, 2)
	if err := s.Create(ctx, g); err != nil {
		t.Fatal(err)
	}
	time.Sleep(400 * time.Millisecond)
	if _, err := s.Update(ctx, k, g.ID, moveFn(storetest.Bob.ID, 5, 2)); err != nil { // refreshes to 600ms
		t.Fatal(err)
	}
	time.Sleep(400 * time.Millisecond) // 800ms after Create: alive only if refreshed
	if _, err := s.Load(ctx, k, g.ID); err != nil {
		t.Fatalf("Load 400ms after a write with IdleTTL 600ms: %v", err)
	}
	if _, err := s.Update(ctx, k, g.ID, func(r *match.Record) (match.Tally, error) {
		r.Status, r.Finish = match.StatusFinished, match.FinishResign
		r.Rounds = []match.RoundResult{{Winner: storetest.Bob.ID, Finish: match.FinishResign}}
		return match.Tally{Winner: storetest.Bob, Loser: storetest.Alice}, nil
	}); err != nil {
		t.Fatal(err)
	}
	gt, l, err := s.TTL(ctx, k, g.ID)
	if err != nil || gt <= 0 || gt > 300*time.Millisecond || l <= 300*time.Millisecond || l > 900*time.Millisecond {
		t.Errorf("TTL after finishing = %v, %v, %v; want ≤300ms and ≤900ms", gt, l, err)
	}
	time.Sleep(350 * time.Millisecond)
	if _, err := s.Load(ctx, k, g.ID); !errors.Is(err, match.ErrNoGame) {
		t.Errorf("Load 350ms after finishing with FinishedTTL 300ms: err = %v, want match.ErrNoGame", err)
	}
	if st, err := s.Stats(ctx, k, storetest.Bob.ID); err != nil || st.Wins != 1 {
		t.Errorf("Stats after the record expired = %+v, %v; want 1 win", st, err)
	}
	time.Sleep(600 * time.Millisecond)
	if lb, err := s.Leaderboard(ctx, k, 0); err != nil || len(lb) != 0 {
		t.Errorf("Leaderboard after LeaderboardTTL = %+v, %v; want empty", lb, err)
	}
}

// TestRedisUnavailable checks that every operation fails within its
// deadline, with match.ErrUnavailable, when nothing listens.
func TestRedisUnavailable(t *testing.T) {
	t.Parallel() // its own servers or key prefix: it waits, mostly, and shares nothing
	c := redis.NewClient(&redis.Options{Addr: "127.0.0.1:1", DialTimeout: 100 * time.Millisecond})
	defer c.Close()
	var hooked atomic.Int64
	s := storetest.NewRedis(t, c, sessions.Options{Hooks: sessions.Hooks{Error: func(string, error) { hooked.Add(1) }}})
	k := storetest.Channel
	ops := []struct {
		name string
		run  func(ctx context.Context) error
	}{
		{"Ping", s.Ping},
		{"Create", func(ctx context.Context) error { return s.Create(ctx, storetest.Challenge(k)) }},
		{"Delete", func(ctx context.Context) error { return s.Delete(ctx, k, "g1") }},
		{"Load", func(ctx context.Context) error { _, err := s.Load(ctx, k, "g1"); return err }},
		{"Update", func(ctx context.Context) error { _, err := s.Update(ctx, k, "g1", moveFn("x", 0, 0)); return err }},
		{"Active", func(ctx context.Context) error { _, err := s.Active(ctx, k); return err }},
		{"PlayerGame", func(ctx context.Context) error { _, err := s.PlayerGame(ctx, k, "U1"); return err }},
		{"Leaderboard", func(ctx context.Context) error { _, err := s.Leaderboard(ctx, k, 0); return err }},
		{"Stats", func(ctx context.Context) error { _, err := s.Stats(ctx, k, "U1"); return err }},
	}
	const deadline = 300 * time.Millisecond
	for _, op := range ops {
		ctx, cancel := context.WithTimeout(t.Context(), deadline)
		start := time.Now()
		err := op.run(ctx)
		took := time.Since(start)
		cancel()
		if !errors.Is(err, match.ErrUnavailable) || !strings.HasPrefix(err.Error(), "sessions: ") {
			t.Errorf("%s with Redis down: err = %v, want match.ErrUnavailable", op.name, err)
		}
		// The deadline reaches the socket: well under go-redis's own 5 s
		// waits and retries, with room for a busy machine's scheduling.
		if took > deadline+1500*time.Millisecond {
			t.Errorf("%s with Redis down took %v, deadline %v", op.name, took, deadline)
		}
	}
	if hooked.Load() != int64(len(ops)) {
		t.Errorf("Error hook called %d times for %d failures", hooked.Load(), len(ops))
	}
}

func newGame(t testing.TB, rows, cols, connect int) *engine.Game {
	g, err := engine.New(engine.Config{Rows: rows, Cols: cols, Connect: connect})
	if err != nil {
		t.Fatal(err)
	}
	return g
}

// resend sends every script call twice, as go-redis does when a reply is lost
// and it retries a command that had in fact run.
type resend struct{}

func (resend) DialHook(next redis.DialHook) redis.DialHook { return next }
func (resend) ProcessHook(next redis.ProcessHook) redis.ProcessHook {
	return func(ctx context.Context, cmd redis.Cmder) error {
		if err := next(ctx, cmd); err != nil || cmd.Name() != "evalsha" {
			return err
		}
		return next(ctx, cmd)
	}
}
func (resend) ProcessPipelineHook(next redis.ProcessPipelineHook) redis.ProcessPipelineHook {
	return next
}

// TestRedisResentWrite shows that a write the client sends twice lands once,
// is tallied once, and is reported as a success rather than as a conflict
// (Update) or a busy channel (Create).
func TestRedisResentWrite(t *testing.T) {
	c, _ := countingClient(t)
	c.AddHook(resend{})
	s := storetest.NewRedis(t, c, sessions.Options{Prefix: storetest.Prefix(t, c)})
	ctx := t.Context()
	k := storetest.Channel
	g := storetest.Playing(t, k)
	if err := s.Create(ctx, g); err != nil {
		t.Fatalf("resent Create: %v", err)
	}
	calls := 0
	r, err := s.Update(ctx, k, g.ID, func(r *match.Record) (match.Tally, error) {
		calls++
		if r.Status != match.StatusPlaying {
			return match.Tally{}, errors.New("already over")
		}
		r.Status, r.Finish = match.StatusFinished, match.FinishResign
		r.Rounds = []match.RoundResult{{Winner: storetest.Bob.ID, Finish: match.FinishResign}}
		return match.Tally{Winner: storetest.Bob, Loser: storetest.Alice}, nil
	})
	if err != nil || calls != 1 || r.Version != 2 {
		t.Fatalf("resent finishing Update = version %v, %v after %d calls; want version 2, nil after 1", r.Version, err, calls)
	}
	if got := mustLoad(t, s, k, g.ID); got.Version != 2 {
		t.Errorf("stored Version %d, want 2", got.Version)
	}
	if st, err := s.Stats(ctx, k, storetest.Bob.ID); err != nil || st.Wins != 1 || st.Games() != 1 {
		t.Errorf("Stats after a resent finish = %+v, %v; want exactly 1 win", st, err)
	}
}

// TestRedisLegacyRecord: a game written by the version before several games
// per channel, at {chan}:game without an id, is not lost on upgrade: Load
// by its id finds it and moves it to its own key, indexed; then Active and
// PlayerGame see it, it counts against the limits, it plays on, and its end
// frees its players.
func TestRedisLegacyRecord(t *testing.T) {
	c := storetest.Redis(t)
	prefix := storetest.Prefix(t, c)
	s := storetest.NewRedis(t, c, sessions.Options{Prefix: prefix, MaxGames: 2})
	ctx := t.Context()
	k := storetest.Channel
	tag := prefix + "{" + k.String() + "}:"
	old := storetest.Playing(t, k, 0, 0, 1, 1, 2, 2)
	if err := s.Create(ctx, old); err != nil {
		t.Fatal(err)
	}
	// Make it what the previous version left: the record at the bare key,
	// no index. A fresh store has no cache of it.
	if err := c.Rename(ctx, tag+"game:"+old.ID, tag+"game").Err(); err != nil {
		t.Fatal(err)
	}
	c.Del(ctx, tag+"games", tag+"players")
	s = storetest.NewRedis(t, c, sessions.Options{Prefix: prefix, MaxGames: 2})

	got, err := s.Load(ctx, k, old.ID)
	if err != nil || got.ID != old.ID || got.Game.Moves() != 6 {
		t.Fatalf("Load of the legacy game = %v, %v; want it with 6 moves", got, err)
	}
	if _, err := s.Load(ctx, k, "someothergame"); !errors.Is(err, match.ErrNoGame) {
		t.Errorf("Load of another id = %v, want ErrNoGame", err)
	}
	if recs, err := s.Active(ctx, k); err != nil || len(recs) != 1 || recs[0].ID != old.ID {
		t.Errorf("Active = %v, %v; want the legacy game", recs, err)
	}
	if r, err := s.PlayerGame(ctx, k, storetest.Bob.ID); err != nil || r.ID != old.ID {
		t.Errorf("PlayerGame(Bob) = %v, %v; want the legacy game", r, err)
	}
	var busy *match.BusyError
	if err := s.Create(ctx, storetest.Challenge(k)); !errors.As(err, &busy) || busy.Existing.ID != old.ID {
		t.Errorf("Create for Alice = %v, want a *BusyError naming the legacy game", err)
	}
	other := storetest.Playing(t, k)
	other.Challenger, other.Opponent, other.RedID = match.Player{ID: "UC", Name: "C"}, match.Player{ID: "UD", Name: "D"}, "UC"
	if err := s.Create(ctx, other); err != nil {
		t.Fatalf("Create beside the legacy game: %v", err)
	}
	third := storetest.Playing(t, k)
	third.Challenger, third.Opponent, third.RedID = match.Player{ID: "UE", Name: "E"}, match.Player{ID: "UF", Name: "F"}, "UE"
	if err := s.Create(ctx, third); !errors.Is(err, match.ErrFull) {
		t.Errorf("a third game with MaxGames 2 = %v, want ErrFull (the legacy game counts)", err)
	}
	// The winning move lands in place, once, tallied; the players are free.
	if _, err := s.Update(ctx, k, old.ID, winningMove); err != nil {
		t.Fatalf("winning move in the legacy game: %v", err)
	}
	// The first Load moved it to its own key: the bare key is gone, and no
	// read looks there again.
	if typ, _ := c.Type(ctx, tag+"game:"+old.ID).Result(); typ != "string" {
		t.Errorf("the legacy game is not at game:<id> (%s), want it moved there", typ)
	}
	if n, _ := c.Exists(ctx, tag+"game").Result(); n != 0 {
		t.Errorf("the legacy key is still there after the game moved")
	}
	if r, err := s.Load(ctx, k, old.ID); err != nil || r.Status != match.StatusFinished {
		t.Errorf("the legacy game after the win = %v, %v; want finished", r, err)
	}
	if st, err := s.Stats(ctx, k, storetest.Alice.ID); err != nil || st.Wins != 1 {
		t.Errorf("Alice = %+v, %v; want 1 win", st, err)
	}
	if err := s.Create(ctx, storetest.Challenge(k)); err != nil {
		t.Errorf("Alice's new challenge after the legacy game ended: %v", err)
	}
}

// TestRedisRepairIndex: index entries that point at a record gone missing
// (evicted, deleted by hand) or finished are removed by Repair, with the
// players they held, so that those players can play again; live entries
// are kept.
func TestRedisRepairIndex(t *testing.T) {
	c := storetest.Redis(t)
	prefix := storetest.Prefix(t, c)
	s := storetest.NewRedis(t, c, sessions.Options{Prefix: prefix})
	ctx := t.Context()
	k := storetest.Channel
	tag := prefix + "{" + k.String() + "}:"
	gone := storetest.Playing(t, k)
	if err := s.Create(ctx, gone); err != nil {
		t.Fatal(err)
	}
	c.Del(ctx, tag+"game:"+gone.ID) // the record vanishes, its entry stays
	done := storetest.Playing(t, k)
	done.Challenger, done.Opponent, done.RedID = match.Player{ID: "UC", Name: "C"}, match.Player{ID: "UD", Name: "D"}, "UC"
	if err := s.Create(ctx, done); err != nil {
		t.Fatal(err)
	}
	entry, err := c.HGet(ctx, tag+"games", done.ID).Result()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.Update(ctx, k, done.ID, func(r *match.Record) (match.Tally, error) {
		r.Status, r.Finish = match.StatusFinished, match.FinishResign
		r.Rounds = []match.RoundResult{{Winner: "UD", Finish: match.FinishResign}}
		return match.Tally{}, nil
	}); err != nil {
		t.Fatal(err)
	}
	if n, _ := c.HLen(ctx, tag+"games").Result(); n != 1 {
		t.Fatalf("index holds %d entries after a game finished, want 1 (the finish removes its own)", n)
	}
	// Put back the finished game's entry and bindings, as a crash between
	// versions might have left them.
	c.HSet(ctx, tag+"games", done.ID, entry)
	c.HSet(ctx, tag+"players", "UC", done.ID, "UD", done.ID)
	live := storetest.Playing(t, k)
	live.Challenger, live.Opponent, live.RedID = match.Player{ID: "UE", Name: "E"}, match.Player{ID: "UF", Name: "F"}, "UE"
	if err := s.Create(ctx, live); err != nil {
		t.Fatal(err)
	}
	if err := s.Create(ctx, storetest.Challenge(k)); !errors.Is(err, match.ErrCorrupt) {
		t.Errorf("Create for Alice, bound to a vanished game = %v; want ErrCorrupt (reset repairs it)", err)
	}
	rep, err := s.Repair(ctx, k)
	if want := (match.Repair{Record: match.RecordFine, IndexDropped: 6}); err != nil || rep != want {
		t.Fatalf("Repair = %+v, %v; want %+v (2 entries, 4 bindings)", rep, err, want)
	}
	if recs, err := s.Active(ctx, k); err != nil || len(recs) != 1 || recs[0].ID != live.ID {
		t.Errorf("Active after Repair = %v, %v; want only %s", recs, err, live.ID)
	}
	for _, id := range []string{"UALICE", "UBOB", "UC", "UD"} {
		if n, _ := c.HExists(ctx, tag+"players", id).Result(); n {
			t.Errorf("%s is still bound after Repair", id)
		}
	}
	if r, err := s.PlayerGame(ctx, k, "UF"); err != nil || r.ID != live.ID {
		t.Errorf("PlayerGame(UF) after Repair = %v, %v; want %s", r, err, live.ID)
	}
	if again, err := s.Repair(ctx, k); err != nil || again.Changed() {
		t.Errorf("a second Repair = %+v, %v; want nothing to do", again, err)
	}
}

// TestRedisRepairLastFinished: a damaged pointer to a player's last
// finished game (a key of the wrong type, or a value that is no game id)
// makes LastFinished report corrupt data, and Repair clears it; a
// finishing move over a damaged pointer key still lands.
func TestRedisRepairLastFinished(t *testing.T) {
	c := storetest.Redis(t)
	prefix := storetest.Prefix(t, c)
	s := storetest.NewRedis(t, c, sessions.Options{Prefix: prefix})
	ctx := t.Context()
	k := storetest.Channel
	key := prefix + "{" + k.String() + "}:finished"
	for _, damage := range []func() error{
		func() error { return c.Set(ctx, key, "x", 0).Err() },
		func() error { return c.HSet(ctx, key, storetest.Alice.ID, "no such id!").Err() },
	} {
		c.Del(ctx, key)
		if err := damage(); err != nil {
			t.Fatal(err)
		}
		if _, err := s.LastFinished(ctx, k, storetest.Alice.ID); !errors.Is(err, match.ErrCorrupt) {
			t.Fatalf("LastFinished over a damaged pointer: %v, want match.ErrCorrupt", err)
		}
		rep, err := s.Repair(ctx, k)
		if err != nil || rep.IndexDropped != 1 {
			t.Fatalf("Repair = %+v, %v; want one index entry dropped", rep, err)
		}
		if _, err := s.LastFinished(ctx, k, storetest.Alice.ID); !errors.Is(err, match.ErrNoGame) {
			t.Errorf("LastFinished after Repair: %v, want match.ErrNoGame", err)
		}
	}
	// The finishing move's script points its players at the game, and a
	// pointer key of the wrong type does not refuse the move: the pointer
	// is a convenience for /connect4 analyze, which the move writes after
	// everything else and leaves alone where it cannot.
	finish := func(r *match.Record) (match.Tally, error) {
		r.Status, r.Finish = match.StatusFinished, match.FinishResign
		r.Rounds = []match.RoundResult{{Winner: storetest.Bob.ID, Finish: match.FinishResign}}
		return match.Tally{Winner: storetest.Bob, Loser: storetest.Alice}, nil
	}
	for _, damaged := range []bool{false, true} {
		c.Del(ctx, key)
		if damaged {
			if err := c.Set(ctx, key, "x", 0).Err(); err != nil {
				t.Fatal(err)
			}
		}
		g := storetest.Playing(t, k, 0, 0, 1, 1)
		if err := s.Create(ctx, g); err != nil {
			t.Fatal(err)
		}
		got, err := s.Update(ctx, k, g.ID, finish)
		if err != nil || got.Status != match.StatusFinished {
			t.Fatalf("damaged %v: finishing Update = %v, %v; want it finished", damaged, got, err)
		}
		last, err := s.LastFinished(ctx, k, storetest.Alice.ID)
		switch {
		case damaged && !errors.Is(err, match.ErrCorrupt):
			t.Errorf("LastFinished over a damaged pointer key after the move: %v, %v; want match.ErrCorrupt", last, err)
		case !damaged && (err != nil || last.ID != g.ID):
			t.Errorf("LastFinished after the move = %v, %v; want game %s", last, err, g.ID)
		}
		if typ := c.Type(ctx, key).Val(); damaged && typ != "string" {
			t.Errorf("damaged pointer key is a %s after the move, want it left alone", typ)
		}
		if ttl := c.PTTL(ctx, key).Val(); !damaged && ttl <= 0 {
			t.Errorf("pointer key TTL %v after the move, want the finished TTL", ttl)
		}
	}
	c.Del(ctx, key)
}

// TestRedisRepairKeepsNewerRecord: a record of a newer schema, which a
// replica of a newer version wrote during a rolling upgrade, is unreadable
// here but not damaged: /connect4 reset on this replica leaves it for the
// replicas that can read it.
func TestRedisRepairKeepsNewerRecord(t *testing.T) {
	c := storetest.Redis(t)
	prefix := storetest.Prefix(t, c)
	s := storetest.NewRedis(t, c, sessions.Options{Prefix: prefix, CacheSize: -1})
	ctx := t.Context()
	k := storetest.Channel
	good := storetest.Playing(t, k, 3)
	if err := s.Create(ctx, good); err != nil {
		t.Fatal(err)
	}
	key := prefix + "{" + k.String() + "}:game:" + good.ID
	raw, err := c.Get(ctx, key).Result()
	if err != nil {
		t.Fatal(err)
	}
	newer := strings.Replace(raw, `"schema":1`, `"schema":9`, 1)
	if err := c.Set(ctx, key, newer, time.Hour).Err(); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Load(ctx, k, good.ID); !errors.Is(err, match.ErrCorrupt) || !strings.Contains(err.Error(), "newer version") {
		t.Fatalf("Load of a newer record = %v, want ErrCorrupt naming a newer version", err)
	}
	if _, err := s.Load(ctx, k, good.ID); !errors.Is(err, sessions.ErrNewerSchema) {
		t.Errorf("Load of a newer record = %v, want ErrNewerSchema", err)
	}
	if _, err := s.Active(ctx, k); !errors.Is(err, sessions.ErrNewerSchema) {
		t.Errorf("Active with a newer record = %v, want ErrNewerSchema", err)
	}
	if _, err := s.Update(ctx, k, good.ID, func(*match.Record) (match.Tally, error) { return match.Tally{}, nil }); !errors.Is(err, sessions.ErrNewerSchema) {
		t.Errorf("Update of a newer record = %v, want ErrNewerSchema", err)
	}
	rep, err := s.Repair(ctx, k)
	if err != nil || rep.Record != match.RecordNewer {
		t.Fatalf("Repair = %+v, %v; want the newer record kept (RecordNewer)", rep, err)
	}
	if got, err := c.Get(ctx, key).Result(); err != nil || got != newer {
		t.Fatalf("after Repair the record is %q, %v; want it untouched", got, err)
	}
	// A damaged record is not taken for a newer one.
	if err := c.Set(ctx, key, strings.Replace(raw, `"schema":1`, `"schema":"x"`, 1), time.Hour).Err(); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Load(ctx, k, good.ID); !errors.Is(err, match.ErrCorrupt) || errors.Is(err, sessions.ErrNewerSchema) {
		t.Errorf("Load of a damaged record = %v, want ErrCorrupt and not ErrNewerSchema", err)
	}
}

// TestRedisRepairMovesLegacyRecord: /connect4 reset moves a legacy record
// that no Load has moved yet; until then no other read looks at the bare
// key.
func TestRedisRepairMovesLegacyRecord(t *testing.T) {
	c := storetest.Redis(t)
	prefix := storetest.Prefix(t, c)
	s := storetest.NewRedis(t, c, sessions.Options{Prefix: prefix, CacheSize: -1})
	ctx := t.Context()
	k := storetest.Channel
	tag := prefix + "{" + k.String() + "}:"
	old := storetest.Playing(t, k, 0, 0, 1)
	if err := s.Create(ctx, old); err != nil {
		t.Fatal(err)
	}
	if err := c.Rename(ctx, tag+"game:"+old.ID, tag+"game").Err(); err != nil {
		t.Fatal(err)
	}
	c.Del(ctx, tag+"games", tag+"players")
	if recs, err := s.Active(ctx, k); err != nil || len(recs) != 0 {
		t.Fatalf("Active before the move = %v, %v; want none (the bare key is not read)", recs, err)
	}
	if _, err := s.Repair(ctx, k); err != nil {
		t.Fatal(err)
	}
	if recs, err := s.Active(ctx, k); err != nil || len(recs) != 1 || recs[0].ID != old.ID {
		t.Errorf("Active after Repair = %v, %v; want the moved game", recs, err)
	}
	if r, err := s.PlayerGame(ctx, k, storetest.Bob.ID); err != nil || r.ID != old.ID || r.Game.Moves() != 3 {
		t.Errorf("PlayerGame(Bob) after Repair = %v, %v; want the moved game", r, err)
	}
	if n, _ := c.Exists(ctx, tag+"game").Result(); n != 0 {
		t.Errorf("the legacy key is still there after Repair")
	}
}
