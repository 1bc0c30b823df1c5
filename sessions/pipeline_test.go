package sessions_test

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/connect4/connect4/bot/match"
	"github.com/connect4/connect4/sessions"
	"github.com/connect4/connect4/sessions/storetest"
)

// TestPipelineSharesRoundTrips holds a private Redis still (SIGSTOP) while
// eight games' moves are sent: the first goes at once, in a batch of its
// own, and the seven that arrive while it waits go together in the next,
// in one round trip, each with its own outcome. Unpipelined, each move is a
// round trip of its own (and the connections dialed for them add theirs).
func TestPipelineSharesRoundTrips(t *testing.T) {
	for _, tt := range []struct {
		name        string
		unpipelined bool
		want        int64
	}{{"pipelined", false, 2}, {"unpipelined", true, 8 /* at least */}} {
		t.Run(tt.name, func(t *testing.T) {
			srv := storetest.StartServer(t)
			c := redis.NewClient(&redis.Options{Addr: srv.Addr, ReadTimeout: 10 * time.Second, ContextTimeoutEnabled: true})
			t.Cleanup(func() { c.Close() })
			h := &roundTrips{}
			c.AddHook(h)
			s := storetest.NewRedis(t, c, sessions.Options{Prefix: storetest.Prefix(t, c), Unpipelined: tt.unpipelined})
			ctx := t.Context()
			const n = 8
			ids := make([]string, n)
			for i := range ids {
				k := channel(i)
				g := storetest.Playing(t, k)
				if err := s.Create(ctx, g); err != nil {
					t.Fatal(err)
				}
				ids[i] = g.ID
				// The first move loads the script (NOSCRIPT, then EVAL).
				if _, err := s.Update(ctx, k, g.ID, moveFn(storetest.Alice.ID, 0, 3)); err != nil {
					t.Fatal(err)
				}
			}
			srv.Pause()
			paused := true
			defer func() {
				if paused {
					srv.Resume()
				}
			}()
			before := h.n.Load()
			var wg sync.WaitGroup
			errs := make([]error, n)
			move := func(i int) {
				_, errs[i] = s.Update(ctx, channel(i), ids[i], moveFn(storetest.Bob.ID, 1, i%7))
			}
			wg.Go(func() { move(0) })
			// The first move's batch is on its way when the others come.
			waitFor(t, func() bool { return h.n.Load() > before })
			for i := 1; i < n; i++ {
				wg.Go(func() { move(i) })
			}
			if tt.unpipelined {
				waitFor(t, func() bool { return h.n.Load() >= before+n })
			} else {
				waitFor(t, func() bool { return sessions.QueuedWrites(s) == n-1 })
			}
			srv.Resume()
			paused = false
			wg.Wait()
			if err := errors.Join(errs...); err != nil {
				t.Fatal(err)
			}
			if got := h.n.Load() - before; got != tt.want && !(tt.unpipelined && got > tt.want) {
				t.Errorf("%d moves of as many games cost %d round trips, want %d", n, got, tt.want)
			}
			for i, id := range ids {
				r, err := s.Load(context.WithoutCancel(ctx), channel(i), id)
				if err != nil || r.Game.Moves() != 2 {
					t.Errorf("game %d after the moves: %v, err %v; want 2 moves", i, r, err)
				}
			}
		})
	}
}

// channel returns the i-th of the test's channels, each with a game.
func channel(i int) match.Key {
	k := storetest.Channel
	k.Channel = "C" + string(rune('A'+i))
	return k
}

// waitFor polls cond until it holds, failing t after 10 s.
func waitFor(t *testing.T, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); !cond(); time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("condition not reached in 10s")
		}
	}
}
