package sessions_test

import (
	"context"
	"encoding/json"
	"errors"
	"maps"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/connect4/connect4/bot/match"
	"github.com/connect4/connect4/engine"
	"github.com/connect4/connect4/sessions"
	"github.com/connect4/connect4/sessions/storetest"
)

// dump returns a snapshot of key: its type and serialized value ("" when
// the key does not exist).
func dump(t *testing.T, c redis.UniversalClient, key string) string {
	t.Helper()
	typ, err := c.Type(t.Context(), key).Result()
	if err != nil {
		t.Fatal(err)
	}
	if typ == "none" {
		return ""
	}
	v, err := c.Dump(t.Context(), key).Result()
	if err != nil {
		t.Fatal(err)
	}
	return typ + ":" + v
}

// winningMove plays Alice's winning disc in a game set up with
// storetest.Playing(t, k, 0, 0, 1, 1, 2, 2), tallying her win.
func winningMove(r *match.Record) (match.Tally, error) {
	if err := r.Game.Play(engine.Red, 3); err != nil {
		return match.Tally{}, err
	}
	r.Status, r.Finish = match.StatusFinished, match.FinishWin
	r.Rounds = append(r.Rounds, match.RoundResult{Winner: storetest.Alice.ID, Finish: match.FinishWin})
	return match.Tally{Winner: storetest.Alice, Loser: storetest.Bob, Rated: true}, nil
}

// TestRedisScriptsAllOrNothing damages each key a script touches, in each
// way it can be damaged, and shows that the script refuses before its
// first write: the record and the leaderboard are exactly as they were, and
// the caller is told the data is corrupt. The refused move carries a
// request's nonce, which the move script records before its checks: it is
// gone again, so the same request lands once Repair cleared what cannot be
// read and kept the rest.
func TestRedisScriptsAllOrNothing(t *testing.T) {
	c := storetest.Redis(t)
	prefix := storetest.Prefix(t, c)
	s := storetest.NewRedis(t, c, sessions.Options{Prefix: prefix})
	ctx := t.Context()
	k := storetest.Channel
	key := func(name string) string { return prefix + "{" + k.String() + "}:" + name }
	var gameKey string // the record's key, set once each case has created it
	lbKey := key("lb")
	rtKey, rtzKey, rthKey, h2hKey, genKey := key("rt"), key("rtz"), key("rth"), key("h2h"), key("gen")
	indexKey, playersKey, legacyKey := key("games"), key("players"), key("game")
	nonceKey := key("once:all-or-nothing")
	nctx := match.WithNonce(ctx, "all-or-nothing")

	damages := []struct {
		name   string
		key    *string
		damage func(ctx context.Context) error
		// repaired is what Repair should report.
		repaired match.Repair
		// updates is set when the damage is to a key a move does not touch.
		updates bool
	}{
		{"leaderboard is a list", &lbKey, func(ctx context.Context) error { return c.RPush(ctx, lbKey, "x").Err() },
			match.Repair{Record: match.RecordFine, LeaderboardCleared: true}, false},
		{"leaderboard is a string", &lbKey, func(ctx context.Context) error { return c.Set(ctx, lbKey, "x", 0).Err() },
			match.Repair{Record: match.RecordFine, LeaderboardCleared: true}, false},
		{"leaderboard is a set", &lbKey, func(ctx context.Context) error { return c.SAdd(ctx, lbKey, "x").Err() },
			match.Repair{Record: match.RecordFine, LeaderboardCleared: true}, false},
		{"winner's count is a word", &lbKey, func(ctx context.Context) error {
			return c.HSet(ctx, lbKey, "w:UALICE", "many", "w:UCAROL", "2", "n:UCAROL", "Carol").Err()
		}, match.Repair{Record: match.RecordFine, EntriesDropped: 1}, false},
		{"loser's count is negative", &lbKey, func(ctx context.Context) error {
			return c.HSet(ctx, lbKey, "l:UBOB", "-1", "w:UCAROL", "2").Err()
		}, match.Repair{Record: match.RecordFine, EntriesDropped: 1}, false},
		{"winner's count overflows", &lbKey, func(ctx context.Context) error {
			return c.HSet(ctx, lbKey, "w:UALICE", "99999999999999999999").Err()
		}, match.Repair{Record: match.RecordFine, EntriesDropped: 1}, false},
		{"ratings are a list", &rtKey, func(ctx context.Context) error { return c.RPush(ctx, rtKey, "x").Err() },
			match.Repair{Record: match.RecordFine, LeaderboardCleared: true}, false},
		{"the winner's rating is garbage", &rtKey, func(ctx context.Context) error { return c.HSet(ctx, rtKey, "UALICE", "{nope").Err() },
			match.Repair{Record: match.RecordFine, EntriesDropped: 1}, false},
		{"the ratings' sorted set is a hash", &rtzKey, func(ctx context.Context) error { return c.HSet(ctx, rtzKey, "x", "1").Err() },
			match.Repair{Record: match.RecordFine, LeaderboardCleared: true}, false},
		{"the loser's history is garbage", &rthKey, func(ctx context.Context) error { return c.HSet(ctx, rthKey, "UBOB", "1,x,3").Err() },
			match.Repair{Record: match.RecordFine, EntriesDropped: 1}, false},
		{"the head-to-head count is a word", &h2hKey, func(ctx context.Context) error { return c.HSet(ctx, h2hKey, "UALICE>UBOB", "lots").Err() },
			match.Repair{Record: match.RecordFine, EntriesDropped: 1}, false},
		{"the write counter is a word", &genKey, func(ctx context.Context) error { return c.Set(ctx, genKey, "many", 0).Err() },
			match.Repair{Record: match.RecordFine, LeaderboardCleared: true}, false},
		{"record is a list", &gameKey, func(ctx context.Context) error {
			c.Del(ctx, gameKey)
			return c.RPush(ctx, gameKey, "x").Err()
		}, match.Repair{Record: match.RecordCleared, IndexDropped: 3}, false},
		{"record is a hash", &gameKey, func(ctx context.Context) error {
			c.Del(ctx, gameKey)
			return c.HSet(ctx, gameKey, "version", "1").Err()
		}, match.Repair{Record: match.RecordCleared, IndexDropped: 3}, false},
		{"record is a sorted set", &gameKey, func(ctx context.Context) error {
			c.Del(ctx, gameKey)
			return c.ZAdd(ctx, gameKey, redis.Z{Score: 1, Member: "x"}).Err()
		}, match.Repair{Record: match.RecordCleared, IndexDropped: 3}, false},
		{"index is a list", &indexKey, func(ctx context.Context) error {
			c.Del(ctx, indexKey)
			return c.RPush(ctx, indexKey, "x").Err()
		}, match.Repair{Record: match.RecordFine, IndexDropped: 1}, false},
		{"players index is a string", &playersKey, func(ctx context.Context) error {
			c.Del(ctx, playersKey)
			return c.Set(ctx, playersKey, "x", 0).Err()
		}, match.Repair{Record: match.RecordFine, IndexDropped: 1}, false},
		{"legacy record is a list", &legacyKey, func(ctx context.Context) error {
			return c.RPush(ctx, legacyKey, "x").Err()
		}, match.Repair{Record: match.RecordCleared}, true},
	}
	for _, tc := range damages {
		t.Run(tc.name, func(t *testing.T) {
			c.Del(ctx, lbKey, rtKey, rtzKey, rthKey, h2hKey, genKey, indexKey, playersKey, legacyKey, nonceKey)
			rec := storetest.Playing(t, k, 0, 0, 1, 1, 2, 2)
			if err := s.Create(ctx, rec); err != nil {
				t.Fatal(err)
			}
			gameKey = key("game:" + rec.ID)
			t.Cleanup(func() { c.Del(ctx, gameKey) })
			if err := tc.damage(ctx); err != nil {
				t.Fatal(err)
			}
			all := []string{gameKey, lbKey, rtKey, rtzKey, rthKey, h2hKey, genKey, indexKey, playersKey, legacyKey, nonceKey}
			snapshot := func() []string {
				out := make([]string, len(all))
				for i, k := range all {
					out[i] = dump(t, c, k)
				}
				return out
			}
			before := snapshot()
			lb := before[1]

			if !tc.updates {
				_, err := s.Update(nctx, k, rec.ID, winningMove)
				if !errors.Is(err, match.ErrCorrupt) {
					t.Errorf("winning move with the %s: err = %v, want ErrCorrupt", tc.name, err)
				}
			}
			// (A damaged legacy key blocks nothing since no write reads it.)
			if *tc.key == gameKey || *tc.key == indexKey || *tc.key == playersKey {
				err := s.Create(ctx, storetest.Challenge(k))
				if !errors.Is(err, match.ErrCorrupt) {
					t.Errorf("Create with the %s: err = %v, want ErrCorrupt", tc.name, err)
				}
			}
			for i, after := range snapshot() {
				if after != before[i] {
					t.Errorf("a refused script wrote %s", all[i])
				}
			}

			rep, err := s.Repair(ctx, k)
			if err != nil {
				t.Fatalf("Repair: %v", err)
			}
			if rep != tc.repaired {
				t.Errorf("Repair = %+v, want %+v", rep, tc.repaired)
			}
			if _, err := s.Leaderboard(ctx, k, 0); err != nil {
				t.Errorf("Leaderboard after Repair: %v", err)
			}
			if had, _ := c.HExists(ctx, lbKey, "w:UCAROL").Result(); had || strings.Contains(lb, "UCAROL") {
				// The readable entry beside the damaged one is kept.
				if st, err := s.Stats(ctx, k, "UCAROL"); err != nil || st.Wins != 2 {
					t.Errorf("Carol after Repair: %+v, %v; want her 2 wins kept", st, err)
				}
			}
			switch {
			case *tc.key == gameKey:
				if _, err := s.Load(ctx, k, rec.ID); !errors.Is(err, match.ErrNoGame) {
					t.Errorf("Load after Repair = %v, want ErrNoGame", err)
				}
				if recs, err := s.Active(ctx, k); err != nil || len(recs) != 0 {
					t.Errorf("Active after Repair = %v, %v; want none", recs, err)
				}
				if err := s.Create(ctx, storetest.Challenge(k)); err != nil {
					t.Errorf("Create after Repair freed the players: %v", err)
				}
			default:
				// The game goes on, still indexed: the winning move now lands and is tallied once.
				if got, err := s.PlayerGame(ctx, k, storetest.Bob.ID); err != nil || got.ID != rec.ID {
					t.Errorf("Bob's game after Repair = %v, %v; want %s", got, err, rec.ID)
				}
				if err := s.Create(ctx, storetest.Challenge(k)); !errors.Is(err, match.ErrBusy) {
					t.Errorf("Create for Alice after Repair = %v, want ErrBusy", err)
				}
				if _, err := s.Update(nctx, k, rec.ID, winningMove); err != nil {
					t.Fatalf("winning move after Repair, the refused one's request again: %v", err)
				}
				if st, err := s.Stats(ctx, k, storetest.Alice.ID); err != nil || st.Wins != 1 {
					t.Errorf("Alice after the repaired win: %+v, %v; want 1 win", st, err)
				}
			}
			if again, err := s.Repair(ctx, k); err != nil || again.Changed() {
				t.Errorf("a second Repair = %+v, %v; want nothing to do", again, err)
			}
		})
	}
	c.Del(ctx, lbKey, rtKey, rtzKey, rthKey, h2hKey, genKey, indexKey, playersKey, legacyKey, nonceKey)
}

// replicaBehind creates a game in storetest.Channel through s and returns
// it with behind, a second store on the same keys (another replica) that
// has read it at version 1.
func replicaBehind(t *testing.T) (c redis.UniversalClient, prefix string, s, behind *sessions.Redis, rec *match.Record) {
	t.Helper()
	c = storetest.Redis(t)
	prefix = storetest.Prefix(t, c)
	s = storetest.NewRedis(t, c, sessions.Options{Prefix: prefix})
	behind = storetest.NewRedis(t, c, sessions.Options{Prefix: prefix})
	rec = storetest.Playing(t, storetest.Channel)
	if err := s.Create(t.Context(), rec); err != nil {
		t.Fatal(err)
	}
	if _, err := behind.Load(t.Context(), storetest.Channel, rec.ID); err != nil { // caches version 1
		t.Fatal(err)
	}
	return c, prefix, s, behind, rec
}

// TestRedisMoveOverOtherJSON shows the move script's compare on a record
// whose JSON is not in the form this version writes (its fields in another
// order, as another writer may store them): the script decodes it instead
// of reading its head, lands a move at the stored version and refuses one
// from a replica that is behind.
func TestRedisMoveOverOtherJSON(t *testing.T) {
	c, prefix, s, behind, rec := replicaBehind(t)
	ctx := t.Context()
	k := storetest.Channel
	gameKey := prefix + "{" + k.String() + "}:game:" + rec.ID
	resort := func() {
		raw, err := c.Get(ctx, gameKey).Result()
		if err != nil {
			t.Fatal(err)
		}
		var fields map[string]any
		d := json.NewDecoder(strings.NewReader(raw))
		d.UseNumber()
		if err := d.Decode(&fields); err != nil {
			t.Fatal(err)
		}
		sorted, _ := json.Marshal(fields) // "challenger" first, "version" late
		if string(sorted) == raw {
			t.Fatal("re-sorting the fields left the JSON as it was")
		}
		if err := c.Set(ctx, gameKey, sorted, time.Hour).Err(); err != nil {
			t.Fatal(err)
		}
	}
	resort()
	got, err := s.Update(ctx, k, rec.ID, moveFn(storetest.Alice.ID, 0, 3))
	if err != nil || got.Version != 2 {
		t.Fatalf("move over re-sorted JSON = %v, %v; want version 2", got, err)
	}
	resort()
	// The replica behind starts from version 1: the script refuses it and
	// returns the stored record, on which its retry lands.
	got, err = behind.Update(ctx, k, rec.ID, moveFn(storetest.Bob.ID, 1, 4))
	if err != nil || got.Version != 3 || got.Game.Moves() != 2 {
		t.Fatalf("move from a replica behind = %v, %v; want version 3 with 2 moves", got, err)
	}
}

// TestRedisNonceOfARefusedMove shows that a move the compare-and-set
// refuses leaves its request's nonce unrecorded (the move script records it
// before its checks and deletes it again): the replica behind retries the
// same request on the stored record and lands, and only then is the
// request a replay.
func TestRedisNonceOfARefusedMove(t *testing.T) {
	_, _, s, behind, rec := replicaBehind(t)
	ctx := t.Context()
	k := storetest.Channel
	if _, err := s.Update(ctx, k, rec.ID, moveFn(storetest.Alice.ID, 0, 3)); err != nil {
		t.Fatal(err)
	}
	tries := 0
	move := func(r *match.Record) (match.Tally, error) { // the turn's disc, on any version
		tries++
		return match.Tally{}, r.Game.Play(r.Game.Turn(), 6)
	}
	nctx := match.WithNonce(ctx, "behind")
	got, err := behind.Update(nctx, k, rec.ID, move)
	if err != nil || got.Version != 3 || tries != 2 {
		t.Fatalf("move from a replica behind = %v, %v after %d tries; want version 3 after 2", got, err, tries)
	}
	if _, err := s.Update(nctx, k, rec.ID, move); !errors.Is(err, match.ErrReplay) {
		t.Errorf("the same request again: err = %v, want ErrReplay", err)
	}
}

// TestRedisMoveExpiries shows when a move sets the expiries of the
// channel's keys beside the records: not on every move, but when a key is
// created again (here, deleted behind the store's back) and at the first
// move of each slot of time, which also binds the players again. A plain
// move of the same slot (see plainMove) writes the record alone, and
// leaves a lost key lost until a write that writes it.
func TestRedisMoveExpiries(t *testing.T) {
	c, prefix, clk, s, rec := clockedGame(t)
	ctx := t.Context()
	k := storetest.Channel
	key := func(name string) string { return prefix + "{" + k.String() + "}:" + name }
	index, players, due := key("games"), key("players"), key("due")
	pttl := func(key string) time.Duration {
		t.Helper()
		d, err := c.PTTL(ctx, key).Result()
		if err != nil {
			t.Fatal(err)
		}
		return d
	}
	lives := func(when, key string) {
		t.Helper()
		if d := pttl(key); d <= sessions.DefaultIdleTTL-time.Minute || d > sessions.DefaultIdleTTL+2*time.Minute {
			t.Errorf("%s: %s expires in %v, want about the idle TTL %v", when, key, d, sessions.DefaultIdleTTL)
		}
	}
	timed := func(n int) func(r *match.Record) (match.Tally, error) { return timedMove(n, clk.Now().Add(time.Hour)) }
	if _, err := s.Update(ctx, k, rec.ID, timed(0)); err != nil {
		t.Fatal(err)
	}
	for _, key := range []string{index, players, due} {
		lives("after the first move", key)
	}
	// Keys lost behind the store's back: a plain move of the same slot
	// (its timer put off) leaves them lost...
	c.Del(ctx, index, due, players)
	clk.Advance(time.Second)
	if _, err := s.Update(ctx, k, rec.ID, timed(1)); err != nil {
		t.Fatal(err)
	}
	if n := c.Exists(ctx, index, due).Val(); n != 0 {
		t.Errorf("a plain move wrote %d of the index and the schedule", n)
	}
	// ...and a move of the same slot that writes them (its timer brought
	// forward) creates them again, each with its expiry.
	clk.Advance(time.Second)
	if _, err := s.Update(ctx, k, rec.ID, timedMove(2, clk.Now().Add(time.Minute))); err != nil {
		t.Fatal(err)
	}
	lives("index written again", index)
	lives("schedule written again", due)
	// Shorten the expiries by hand: a move in the same slot leaves them...
	for _, key := range []string{index, due} {
		c.PExpire(ctx, key, time.Hour)
	}
	clk.Advance(time.Second)
	if _, err := s.Update(ctx, k, rec.ID, timed(3)); err != nil {
		t.Fatal(err)
	}
	if d := pttl(index); d > time.Hour {
		t.Errorf("a move in the same slot set the index's expiry: %v", d)
	}
	// ...and the first move of the next slot sets them, and binds the
	// players again.
	clk.Advance(time.Minute)
	if _, err := s.Update(ctx, k, rec.ID, timed(4)); err != nil {
		t.Fatal(err)
	}
	for _, key := range []string{index, players, due} {
		lives("after the first move of a slot", key)
	}
	if got, err := s.PlayerGame(ctx, k, storetest.Bob.ID); err != nil || got.ID != rec.ID {
		t.Errorf("Bob's game after the refresh = %v, %v; want %s", got, err, rec.ID)
	}
}

func TestRedisPutOffTimerNeedsNoHint(t *testing.T) {
	c, prefix, clk, s, rec := clockedGame(t)
	ctx := t.Context()
	k := storetest.Channel
	// The bucket's writes, as INFO commandstats counts them on this shared
	// server, can't be told from others'; its generations hash can.
	gens := func() map[string]string {
		t.Helper()
		out := map[string]string{}
		for n := range sessions.ScheduleBuckets {
			g, err := c.HGetAll(ctx, prefix+"{sched:"+strconv.Itoa(n)+"}:gen").Result()
			if err != nil {
				t.Fatal(err)
			}
			for ch, v := range g {
				out[strconv.Itoa(n)+"/"+ch] = v
			}
		}
		return out
	}
	start := clk.Now()
	if _, err := s.Update(ctx, k, rec.ID, timedMove(0, start.Add(time.Hour))); err != nil {
		t.Fatal(err)
	}
	hinted := gens()
	if len(hinted) != 1 {
		t.Fatalf("bucket generations after a new timer: %v, want the channel's", hinted)
	}
	clk.Advance(time.Second)
	if _, err := s.Update(ctx, k, rec.ID, timedMove(1, start.Add(2*time.Hour))); err != nil {
		t.Fatal(err)
	}
	if got := gens(); !maps.Equal(got, hinted) {
		t.Errorf("putting a timer off hinted the bucket: generations %v, then %v", hinted, got)
	}
	clk.Advance(2*time.Hour - time.Second)
	if got, err := s.Claim(ctx, 10, time.Minute); err != nil || len(got) != 1 || got[0].GameID != rec.ID || got[0].Kind != match.TimerTimeout {
		t.Fatalf("Claim when the put-off timer is due = %+v, %v; want its entry", got, err)
	}
	// Brought forward, over the lease Claim took, in a new slot of time:
	// each of the three calls for a hint.
	if _, err := s.Update(ctx, k, rec.ID, timedMove(2, clk.Now().Add(time.Minute))); err != nil {
		t.Fatal(err)
	}
	if got := gens(); maps.Equal(got, hinted) {
		t.Errorf("bringing a timer forward left the bucket's generations at %v", got)
	}
}

// clockedGame returns a store on a private prefix, run by a clock of its
// own, holding a new game between Alice and Bob. The clock starts on a
// whole minute, the start of a slot of time for the expiries (see
// Redis.ttlRefresh), so that moves a few seconds apart share their slot.
func clockedGame(t *testing.T) (redis.UniversalClient, string, *storetest.Clock, *sessions.Redis, *match.Record) {
	t.Helper()
	c := storetest.Redis(t)
	prefix := storetest.Prefix(t, c)
	clk := storetest.NewClock(time.Now().Truncate(time.Minute))
	s := storetest.NewRedis(t, c, sessions.Options{Prefix: prefix, Now: clk.Now})
	rec := storetest.Playing(t, storetest.Channel)
	if err := s.Create(t.Context(), rec); err != nil {
		t.Fatal(err)
	}
	return c, prefix, clk, s, rec
}

// timedMove plays move n (Alice on even moves, Bob on odd, in column n % 7)
// and sets the turn's timeout to due.
func timedMove(n int, due time.Time) func(r *match.Record) (match.Tally, error) {
	return func(r *match.Record) (match.Tally, error) {
		who := storetest.Alice.ID
		if n%2 == 1 {
			who = storetest.Bob.ID
		}
		tl, err := moveFn(who, n, n%7)(r)
		r.Timers = []match.Timer{{Kind: match.TimerTimeout, Due: due}}
		return tl, err
	}
}

// TestRedisRatedFinishRoundTrips: a rated game's finishing move plans the
// ratings from what the store last saw (none, for players new to the
// channel) and is then one script call, a round trip; a replica whose
// guess is behind (another replica rated the players since) is told the
// stored ratings by the script and plans again from those, so that every
// game counts in the players' histories once, in order.
func TestRedisRatedFinishRoundTrips(t *testing.T) {
	ca, rta := countingClient(t)
	cb, _ := countingClient(t)
	prefix := storetest.Prefix(t, ca)
	a := storetest.NewRedis(t, ca, sessions.Options{Prefix: prefix})
	b := storetest.NewRedis(t, cb, sessions.Options{Prefix: prefix})
	ctx := t.Context()
	k := storetest.Channel
	play := func(s *sessions.Redis) int64 {
		t.Helper()
		rec := storetest.Playing(t, k, 0, 0, 1, 1, 2, 2)
		if err := s.Create(ctx, rec); err != nil {
			t.Fatal(err)
		}
		before := rta.n.Load()
		if _, err := s.Update(ctx, k, rec.ID, winningMove); err != nil {
			t.Fatal(err)
		}
		return rta.n.Load() - before
	}
	if n := play(a); n != 1 {
		t.Errorf("first rated finish in a new channel: %d round trips, want 1 (the script)", n)
	}
	play(b) // b has not seen the ratings a wrote: the script tells it
	if n := play(a); n != 2 {
		t.Errorf("rated finish after another replica's: %d round trips, want 2 (the script, told the stored ratings, then again)", n)
	}
	st, err := a.Stats(ctx, k, storetest.Alice.ID)
	if err != nil {
		t.Fatal(err)
	}
	if st.Wins != 3 || st.Rating == nil || len(st.History) != 3 {
		t.Fatalf("Alice after 3 rated wins on two replicas: %+v, want 3 wins and 3 ratings in her history", st)
	}
	for i := 1; i < 3; i++ {
		if st.History[i] <= st.History[i-1] {
			t.Errorf("Alice's history %v: each win should raise her rating", st.History)
		}
	}
}
