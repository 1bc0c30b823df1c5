package sessions_test

import (
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/connect4/connect4/bot/match"
	"github.com/connect4/connect4/sessions"
	"github.com/connect4/connect4/sessions/storetest"
)

// lazyGame returns clockedGame's store after a first move that gives the
// game a timeout due in an hour, and the timeout's entry's key and member.
func lazyGame(t *testing.T) (redis.UniversalClient, *storetest.Clock, *sessions.Redis, *match.Record, string, string) {
	t.Helper()
	c, prefix, clk, s, rec := clockedGame(t)
	if _, err := s.Update(t.Context(), storetest.Channel, rec.ID, timedMove(0, clk.Now().Add(time.Hour))); err != nil {
		t.Fatal(err)
	}
	return c, clk, s, rec, prefix + "{" + storetest.Channel.String() + "}:due", rec.ID + "/" + "3"
}

// score returns the due time of member's entry in key, zero for none.
func score(t *testing.T, c redis.UniversalClient, key, member string) time.Time {
	t.Helper()
	ms, err := c.ZScore(t.Context(), key, member).Result()
	if err == redis.Nil {
		return time.Time{}
	}
	if err != nil {
		t.Fatal(err)
	}
	return time.UnixMilli(int64(ms)).UTC()
}

// claimOne claims what is due and wants exactly the game's timeout, due at due.
func claimOne(t *testing.T, s *sessions.Redis, rec *match.Record, due time.Time) match.Due {
	t.Helper()
	got, err := s.Claim(t.Context(), 10, 2*time.Minute)
	if err != nil || len(got) != 1 || got[0].GameID != rec.ID || got[0].Kind != match.TimerTimeout || !got[0].Due.Equal(due) {
		t.Fatalf("Claim = %+v, %v; want the timeout of %s due at %v", got, err, rec.ID, due)
	}
	return got[0]
}

// doneRemoves calls Done on d and wants member's entry in key gone.
func doneRemoves(t *testing.T, c redis.UniversalClient, s *sessions.Redis, d match.Due, key, member string) {
	t.Helper()
	if err := s.Done(t.Context(), d); err != nil {
		t.Fatal(err)
	}
	if got := score(t, c, key, member); !got.IsZero() {
		t.Fatalf("after Done the entry is due %v, want none", got)
	}
}

func claimNone(t *testing.T, s *sessions.Redis, when string) {
	t.Helper()
	if got, err := s.Claim(t.Context(), 10, 2*time.Minute); err != nil || len(got) != 0 {
		t.Fatalf("Claim %s = %+v, %v; want none", when, got, err)
	}
}

// TestRedisLazyTimerClaim: a plain move that puts a timer off leaves its
// entry where it was (one script of three commands, see plainMove);
// a Claim at the old time hands out nothing and puts the entry off to the
// timer's time, when a Claim hands it out.
func TestRedisLazyTimerClaim(t *testing.T) {
	c, clk, s, rec, due, m := lazyGame(t)
	ctx := t.Context()
	old := score(t, c, due, m)
	clk.Advance(time.Second) // the same slot of time: a plain move
	later := clk.Now().Add(2 * time.Hour)
	if _, err := s.Update(ctx, storetest.Channel, rec.ID, timedMove(1, later)); err != nil {
		t.Fatal(err)
	}
	if got := score(t, c, due, m); !got.Equal(old) {
		t.Fatalf("the plain move moved the entry from %v to %v", old, got)
	}
	clk.Advance(old.Sub(clk.Now()))
	claimNone(t, s, "at the old time")
	if got := score(t, c, due, m); !got.Equal(later.Truncate(time.Millisecond)) {
		t.Fatalf("after the Claim at the old time the entry is due %v, want %v", got, later)
	}
	clk.Advance(later.Add(-time.Millisecond).Sub(clk.Now()))
	claimNone(t, s, "just before the timer")
	clk.Advance(later.Sub(clk.Now()))
	d := claimOne(t, s, rec, later.Truncate(time.Millisecond))
	// The record still carries the timer, at the entry's time: Done
	// removes it, as for a timer the worker found stale or fired.
	doneRemoves(t, c, s, d, due, m)
}

// TestRedisLazyTimerLate: a Claim made after both the entry's old time and
// the timer's hands the entry out at the timer's time, under its lease.
func TestRedisLazyTimerLate(t *testing.T) {
	c, clk, s, rec, due, m := lazyGame(t)
	ctx := t.Context()
	clk.Advance(time.Second)
	later := clk.Now().Add(2 * time.Hour).Truncate(time.Millisecond)
	if _, err := s.Update(ctx, storetest.Channel, rec.ID, timedMove(1, later)); err != nil {
		t.Fatal(err)
	}
	clk.Advance(later.Add(time.Minute).Sub(clk.Now()))
	d := claimOne(t, s, rec, later)
	claimNone(t, s, "while it is leased")
	doneRemoves(t, c, s, d, due, m)
}

// TestRedisLazyTimerMoveDuringLease: a plain move between a worker's
// Claim and its Done (its Fire finds the entry stale) puts the timer off;
// Done then puts the entry off to the timer's time instead of removing
// it, and a Claim then hands it out.
func TestRedisLazyTimerMoveDuringLease(t *testing.T) {
	c, clk, s, rec, due, m := lazyGame(t)
	ctx := t.Context()
	// The first move of a new slot of time writes the schedule: the
	// timeout is due at once, and claimed.
	clk.Advance(2 * time.Minute)
	soon := clk.Now().Add(10 * time.Millisecond).Truncate(time.Millisecond)
	if _, err := s.Update(ctx, storetest.Channel, rec.ID, timedMove(1, soon)); err != nil {
		t.Fatal(err)
	}
	clk.Advance(20 * time.Millisecond)
	d := claimOne(t, s, rec, soon)
	// A plain move of the same slot, before the worker's Done.
	later := clk.Now().Add(time.Hour).Truncate(time.Millisecond)
	if _, err := s.Update(ctx, storetest.Channel, rec.ID, timedMove(2, later)); err != nil {
		t.Fatal(err)
	}
	if got := score(t, c, due, m); !got.Equal(soon) {
		t.Fatalf("the plain move moved the leased entry to %v", got)
	}
	if err := s.Done(ctx, d); err != nil {
		t.Fatal(err)
	}
	if got := score(t, c, due, m); !got.Equal(later) {
		t.Fatalf("after Done the entry is due %v, want the timer's %v", got, later)
	}
	claimNone(t, s, "before the timer")
	clk.Advance(later.Sub(clk.Now()))
	claimOne(t, s, rec, later)
}

// TestRedisLazyTimerRepair: Repair leaves an early entry where it is (it
// adds only missing entries), so the timer is neither lost nor fired early.
func TestRedisLazyTimerRepair(t *testing.T) {
	c, clk, s, rec, due, m := lazyGame(t)
	ctx := t.Context()
	old := score(t, c, due, m)
	clk.Advance(time.Second)
	later := clk.Now().Add(2 * time.Hour).Truncate(time.Millisecond)
	if _, err := s.Update(ctx, storetest.Channel, rec.ID, timedMove(1, later)); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Repair(ctx, storetest.Channel); err != nil {
		t.Fatal(err)
	}
	if got := score(t, c, due, m); !got.Equal(old) {
		t.Fatalf("after Repair the entry is due %v, want %v as it was", got, old)
	}
	clk.Advance(old.Sub(clk.Now()))
	claimNone(t, s, "at the old time")
	clk.Advance(later.Sub(clk.Now()))
	claimOne(t, s, rec, later)
}
