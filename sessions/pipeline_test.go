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
				// Every move waits: the first on its way, the others
				// queued behind it (some perhaps taken from the queue
				// by the pipeliner's flusher, to go when it may).
				waitFor(t, func() bool { return sessions.WaitingWrites(s) == n })
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

// TestPipelineQueueBounded holds a private Redis still while eight moves
// with a short deadline come for a store whose pipeliner holds at most
// four writes: four are taken (one in flight, three queued) and answered
// unavailable at their deadline, the other four refused at once, also as
// unavailable, and the queue never holds more. Once Redis goes on, no
// refused move has landed, and every game goes on.
func TestPipelineQueueBounded(t *testing.T) {
	defer sessions.SetPipelineQueue(4)()
	srv := storetest.StartServer(t)
	c := redis.NewClient(&redis.Options{Addr: srv.Addr, ReadTimeout: 10 * time.Second, ContextTimeoutEnabled: true})
	t.Cleanup(func() { c.Close() })
	s := storetest.NewRedis(t, c, sessions.Options{Prefix: storetest.Prefix(t, c)})
	ctx := t.Context()
	const n = 8
	ids := make([]string, n)
	for i := range ids {
		g := storetest.Playing(t, channel(i))
		if err := s.Create(ctx, g); err != nil {
			t.Fatal(err)
		}
		ids[i] = g.ID
	}
	srv.Pause()
	paused := true
	defer func() {
		if paused {
			srv.Resume()
		}
	}()
	var wg sync.WaitGroup
	errs := make([]error, n)
	most := 0
	stop, done := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(done)
		for {
			most = max(most, sessions.QueuedWrites(s))
			select {
			case <-stop:
				return
			case <-time.After(time.Millisecond):
			}
		}
	}()
	for i := range n {
		wg.Go(func() {
			ctx, cancel := context.WithTimeout(ctx, 300*time.Millisecond)
			defer cancel()
			_, errs[i] = s.Update(ctx, channel(i), ids[i], moveFn(storetest.Alice.ID, 0, 3))
		})
	}
	wg.Wait()
	close(stop)
	<-done
	taken := map[int]bool{}
	refused := 0
	for i, err := range errs {
		switch {
		case errors.Is(err, redis.ErrAutoPipelineQueueFull) && errors.Is(err, match.ErrUnavailable):
			refused++
		case errors.Is(err, match.ErrUnavailable):
			taken[i] = true
		default:
			t.Errorf("move %d on a paused Redis: %v, want ErrUnavailable", i, err)
		}
	}
	if refused != n-4 || len(taken) != 4 || most > 4 {
		t.Errorf("%d moves refused, %d taken, at most %d queued; want %d, 4, at most 4", refused, len(taken), most, n-4)
	}
	srv.Resume()
	paused = false
	// A taken move may land yet (a move whose reply was lost) or not; a
	// refused one never does. Either way the game goes on.
	for i, id := range ids {
		r, err := s.Load(ctx, channel(i), id)
		if err != nil || r.Game.Moves() > 1 || !taken[i] && r.Game.Moves() != 0 {
			t.Errorf("game %d (taken %v) after Redis went on: %v, err %v", i, taken[i], r, err)
			continue
		}
		// The writes given up hold their places until Redis has
		// answered them.
		waitFor(t, func() bool {
			_, err = s.Update(ctx, channel(i), id, func(r *match.Record) (match.Tally, error) {
				who := storetest.Alice.ID
				if r.Game.Moves() == 1 {
					who = storetest.Bob.ID
				}
				return moveFn(who, r.Game.Moves(), 4)(r)
			})
			return !errors.Is(err, redis.ErrAutoPipelineQueueFull)
		})
		if err != nil {
			t.Errorf("game %d (taken %v): the next move: %v", i, taken[i], err)
		}
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
