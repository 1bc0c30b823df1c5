package bot

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/connect4/connect4/bot/match"
	"github.com/connect4/connect4/sessions"
	"github.com/connect4/connect4/sessions/storetest"
)

// TestWorkerRetries: a rate-limited edit is tried again after the
// platform's retry-after; one that keeps failing is dropped after a bounded
// number of attempts, with its entry, never looping.
func TestWorkerRetries(t *testing.T) {
	for _, tc := range []struct {
		name                     string
		fail                     func(n int) error
		handled, failed, retried int
		minElapsed               time.Duration
	}{
		{"rate limited", func(n int) error {
			if n <= 2 {
				return &RateLimitError{After: 50 * time.Millisecond, Err: errors.New("HTTP 429")}
			}
			return nil
		}, 1, 0, 2, 100 * time.Millisecond},
		{"always failing", func(int) error { return errors.New("HTTP 500") }, 0, 1, 3, 0},
		{"undeliverable", func(int) error { return fmt.Errorf("%w: message gone", ErrUndeliverable) }, 0, 1, 0, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h, m := timedHarness(t)
			rec := h.record(h.say("UA", "<@UB>"))
			if _, err := h.store.Update(t.Context(), h.key, rec.ID, func(r *match.Record) (match.Tally, error) {
				r.Message = match.MessageRef{Channel: "C1", Timestamp: "2.0"}
				return match.Tally{}, nil
			}); err != nil {
				t.Fatal(err)
			}
			h.clock.Advance(testTTL)
			nf := &fakeNotifier{fail: tc.fail}
			var c counter
			ctx, cancel := context.WithCancel(t.Context())
			done := make(chan struct{})
			start := time.Now()
			go func() {
				defer close(done)
				h.svc.RunSchedule(ctx, m, map[string]Notifier{"test": nf}, WorkerOptions{Poll: 5 * time.Millisecond,
					Attempts: 4, Backoff: 10 * time.Millisecond, MaxWait: time.Second, Hooks: c.hooks()})
			}()
			waitFor(t, "the entry to be handled or dropped", func() bool {
				return c.get("handled:expire")+c.get("failed:expire") > 0
			})
			elapsed := time.Since(start)
			cancel()
			<-done
			if c.get("handled:expire") != tc.handled || c.get("failed:expire") != tc.failed || c.get("retried:expire") != tc.retried || c.get("due:expire") != 1 {
				t.Fatalf("hooks %v, want handled %d failed %d retried %d due 1", c.n, tc.handled, tc.failed, tc.retried)
			}
			if elapsed < tc.minElapsed {
				t.Fatalf("handled after %v: the retry-after of %v was not honoured", elapsed, tc.minElapsed)
			}
			if m.Pending() != 0 {
				t.Fatalf("%d entries left: a dropped notice must take its entry", m.Pending())
			}
		})
	}
}

// TestWorkersRace runs 2 and 3 workers, each a replica with a store of its
// own on one Redis, over the same challenges expiring: each is edited
// exactly once.
func TestWorkersRace(t *testing.T) {
	t.Parallel() // it waits (its own servers, timers) and shares nothing
	c := storetest.Redis(t)
	for _, n := range []int{2, 3} {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			t.Parallel() // its own key prefix; most of it is waiting
			prefix := storetest.Prefix(t, c)
			const games = 8
			const ttl = 300 * time.Millisecond
			nf := &fakeNotifier{}
			var hooks counter
			ctx, cancel := context.WithCancel(t.Context())
			var wg sync.WaitGroup
			svcs := make([]*Service, n)
			for i := range n {
				st := storetest.NewRedis(t, c, sessions.Options{Prefix: prefix})
				svcs[i] = New(st, Options{ChallengeTTL: ttl, AI: lowestColumn})
				wg.Add(1)
				go func() {
					defer wg.Done()
					svcs[i].RunSchedule(ctx, st, map[string]Notifier{"test": nf}, WorkerOptions{Poll: 10 * time.Millisecond, Hooks: hooks.hooks()})
				}()
			}
			var made atomic.Int64
			for g := range games {
				k := match.Key{Platform: "test", Workspace: "T1", Channel: fmt.Sprintf("W%d", g)}
				rec := &match.Record{Key: k, Status: match.StatusPending, Challenger: player("UA"), Opponent: player("UB"),
					Game: newTestGame(t), FirstTo: 1, ExpiresAt: time.Now().Add(ttl), Message: match.MessageRef{Channel: k.Channel, Timestamp: "1.0"}}
				if err := svcs[g%n].store.Create(t.Context(), rec); err != nil {
					t.Fatal(err)
				}
				made.Add(1)
			}
			waitFor(t, "every challenge's edit", func() bool { return len(nf.snapshot()) >= games })
			time.Sleep(5 * ttl) // room for a second edit of any of them
			cancel()
			wg.Wait()
			sent := nf.snapshot()
			if len(sent) != games || hooks.get("handled:expire") != games || hooks.get("due:expire") != games {
				t.Fatalf("%d edits, hooks %v, want %d each: %q", len(sent), hooks.n, games, sent)
			}
		})
	}
}

// blockingNotifier holds every delivery until its context ends.
type blockingNotifier struct{ called chan struct{} }

func (b *blockingNotifier) Edit(ctx context.Context, _ match.Key, _ match.MessageRef, _ Reply) error {
	select {
	case b.called <- struct{}{}:
	default:
	}
	<-ctx.Done()
	return ctx.Err()
}

func (b *blockingNotifier) Post(ctx context.Context, k match.Key, ref match.MessageRef, r Reply) error {
	return b.Edit(ctx, k, ref, r)
}

// TestWorkerStopsWithServer: cancelling the worker's context stops it with
// a delivery in flight; the entry stays, for a worker to claim after the
// lease, and nothing is counted as failed.
func TestWorkerStopsWithServer(t *testing.T) {
	h, m := timedHarness(t)
	rec := h.record(h.say("UA", "<@UB>"))
	if err := h.svc.Attach(t.Context(), h.key, rec.ID, match.MessageRef{Channel: "C1", Timestamp: "3.0"}); err != nil {
		t.Fatal(err)
	}
	h.clock.Advance(testTTL)
	nf := &blockingNotifier{called: make(chan struct{}, 1)}
	var c counter
	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan struct{})
	go func() {
		defer close(done)
		h.svc.RunSchedule(ctx, m, map[string]Notifier{"test": nf}, WorkerOptions{Poll: 5 * time.Millisecond, Hooks: c.hooks()})
	}()
	select {
	case <-nf.called:
	case <-time.After(10 * time.Second):
		t.Fatal("the worker never delivered")
	}
	cancel()
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		t.Fatal("RunSchedule did not return after its context was cancelled")
	}
	if c.get("failed:expire") != 0 || c.get("handled:expire") != 0 || m.Pending() != 1 {
		t.Fatalf("after the stop: hooks %v, %d entries; want nothing counted and the entry kept", c.n, m.Pending())
	}
	h.clock.Advance(3 * time.Minute) // past the lease: another replica fires it again
	kinds, ns := fired(t, h, m)
	if len(kinds) != 1 || ns[0].Edit == nil || ns[0].Message.Timestamp != "3.0" {
		t.Fatalf("after the lease: %v %+v, want the expiry edit of message 3.0 again", kinds, ns)
	}
}
