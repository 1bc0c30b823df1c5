package bot

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/connect4/connect4/bot/match"
)

// unreached is a notifier that reaches no channel.
type unreached struct{ fakeNotifier }

func (*unreached) Reaches(match.Key) bool { return false }

// TestParkedUntilSettled: for a channel its notifier does not reach, the
// worker claims a due expiry but neither fires nor sends it, holding it
// parked; Settle then carries it out and returns its notice, once; and
// the worker's next look removes the parked entry without sending.
func TestParkedUntilSettled(t *testing.T) {
	h, m := timedHarness(t)
	rec := h.record(h.say("UA", "<@UB>"))
	h.clock.Advance(testTTL)
	nf := &unreached{}
	var mu sync.Mutex
	claims := 0
	run := func() {
		ctx, cancel := context.WithCancel(t.Context())
		done := make(chan struct{})
		go func() {
			defer close(done)
			h.svc.RunSchedule(ctx, m, map[string]Notifier{h.key.Platform: nf}, WorkerOptions{Poll: 5 * time.Millisecond,
				Hooks: WorkerHooks{Due: func(string) { mu.Lock(); claims++; mu.Unlock() }}})
		}()
		waitFor(t, "a claim", func() bool { mu.Lock(); defer mu.Unlock(); return claims > 0 })
		cancel()
		<-done
	}
	run()
	if got, err := h.store.Load(t.Context(), h.key, rec.ID); err != nil || got.Status != match.StatusPending {
		t.Fatalf("after the worker: %+v, %v; want the challenge untouched", got, err)
	}
	if len(nf.sent) != 0 || m.Pending() != 1 {
		t.Fatalf("sent %v, %d entries; want nothing sent and the entry kept", nf.sent, m.Pending())
	}

	ns, err := h.svc.Settle(t.Context(), h.key, rec.ID)
	if err != nil || len(ns) != 1 || ns[0].Edit == nil {
		t.Fatalf("Settle: %+v, %v; want the expiry's edit", ns, err)
	}
	if again, err := h.svc.Settle(t.Context(), h.key, ""); err != nil || len(again) != 0 {
		t.Fatalf("second Settle: %+v, %v; want nothing", again, err)
	}

	h.clock.Advance(parkLease + time.Minute)
	claims = 0
	run()
	waitFor(t, "the parked entry to go", func() bool { return m.Pending() == 0 })
	if len(nf.sent) != 0 {
		t.Fatalf("sent %v after settling; want nothing", nf.sent)
	}
}
