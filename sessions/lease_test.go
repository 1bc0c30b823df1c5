package sessions_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/connect4/connect4/bot/match"
	"github.com/connect4/connect4/sessions"
	"github.com/connect4/connect4/sessions/storetest"
)

// TestRenew: a renewed lease keeps its entry from other replicas past the
// end of the first lease, until Done; a lease that is not the caller's
// (another token, or an entry a write moved) is not renewed, and says so.
func TestRenew(t *testing.T) {
	t.Run("memory", func(t *testing.T) {
		clk := storetest.NewClock(time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC))
		m := storetest.NewMemory(t, sessions.Options{Now: clk.Now})
		testRenew(t, clk, m, m)
	})
	t.Run("redis", func(t *testing.T) {
		c := storetest.Redis(t)
		prefix := storetest.Prefix(t, c)
		clk := storetest.NewClock(time.Now())
		a := storetest.NewRedis(t, c, sessions.Options{Prefix: prefix, Now: clk.Now})
		b := storetest.NewRedis(t, c, sessions.Options{Prefix: prefix, Now: clk.Now})
		testRenew(t, clk, a, b)
	})
}

type renewer interface {
	storetest.ScheduleStore
	Renew(ctx context.Context, d match.Due, lease time.Duration) error
}

func testRenew(t *testing.T, clk *storetest.Clock, mine, other renewer) {
	rec := storetest.Playing(t, storetest.Channel, 3)
	rec.Timers = []match.Timer{{Kind: match.TimerRemind, Due: clk.Now().Add(time.Second)}}
	if err := mine.Create(t.Context(), rec); err != nil {
		t.Fatal(err)
	}
	clk.Advance(2 * time.Second)
	got, err := mine.Claim(t.Context(), 10, time.Minute)
	if err != nil || len(got) != 1 {
		t.Fatalf("Claim = %v, %v; want the reminder", got, err)
	}
	d := got[0]
	for range 3 { // three renewals carry the entry well past its first lease
		clk.Advance(50 * time.Second)
		if err := mine.Renew(t.Context(), d, time.Minute); err != nil {
			t.Fatalf("Renew of a lease held = %v", err)
		}
		if stolen, err := other.Claim(t.Context(), 10, time.Minute); err != nil || len(stolen) != 0 {
			t.Fatalf("another replica's Claim %v after the lease was renewed = %v, %v; want none", clk.Now().Sub(d.Due), stolen, err)
		}
	}
	forged := d
	forged.Token = "not-mine"
	if err := mine.Renew(t.Context(), forged, time.Minute); !errors.Is(err, match.ErrLeaseLost) {
		t.Fatalf("Renew under another token = %v, want match.ErrLeaseLost", err)
	}
	moved := d
	moved.Due = d.Due.Add(time.Hour)
	if err := mine.Renew(t.Context(), moved, time.Minute); !errors.Is(err, match.ErrLeaseLost) {
		t.Fatalf("Renew of an entry due at another time = %v, want match.ErrLeaseLost", err)
	}
	// Once the renewed lease runs out, another replica claims the entry,
	// and the first one can no longer renew it.
	clk.Advance(61 * time.Second)
	stolen, err := other.Claim(t.Context(), 10, time.Minute)
	if err != nil || len(stolen) != 1 {
		t.Fatalf("Claim after the renewed lease ran out = %v, %v; want the reminder", stolen, err)
	}
	if err := mine.Renew(t.Context(), d, time.Minute); !errors.Is(err, match.ErrLeaseLost) {
		t.Fatalf("Renew after another replica claimed = %v, want match.ErrLeaseLost", err)
	}
	if err := other.Done(t.Context(), stolen[0]); err != nil {
		t.Fatal(err)
	}
	if err := other.Renew(t.Context(), stolen[0], time.Minute); !errors.Is(err, match.ErrLeaseLost) {
		t.Fatalf("Renew after Done = %v, want match.ErrLeaseLost", err)
	}
}
