package storetest

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/connect4/connect4/bot/match"
)

// ScheduleStore is a Store with the schedule that package sessions keeps
// beside the records.
type ScheduleStore interface {
	Store
	Claim(ctx context.Context, max int, lease time.Duration) ([]match.Due, error)
	Done(ctx context.Context, d match.Due) error
}

// ScheduleEnv is one backend for the schedule suite: New returns another
// store on the same data (another replica: the same Redis and prefix, or
// the same Memory), Now its clock, and Wait lets d pass on that clock (a
// fake clock's Advance, or time.Sleep for real time).
type ScheduleEnv struct {
	New  func() ScheduleStore
	Now  func() time.Time
	Wait func(d time.Duration)
}

// Tick is the suite's unit of time: timers are due a few Ticks ahead, so
// that a suite on real time takes a second or two; 150 ms leaves room for
// a Claim delayed by a loaded machine (100 ms failed one run in seven
// with load average 15 on 2 cores).
const Tick = 150 * time.Millisecond

// Schedule runs the suite every store's schedule must pass, its cases in
// parallel. newEnv is called once per subtest and must return an empty
// backend of its own.
func Schedule(t *testing.T, newEnv func(t *testing.T) ScheduleEnv) {
	for _, tc := range []struct {
		name string
		f    func(t *testing.T, env ScheduleEnv)
	}{
		{"FiresOnce", testFiresOnce},
		{"MoveCancels", testMoveCancels},
		{"LeaseExpiry", testLeaseExpiry},
		{"Race2", func(t *testing.T, env ScheduleEnv) { testRace(t, env, 2) }},
		{"Race3", func(t *testing.T, env ScheduleEnv) { testRace(t, env, 3) }},
		{"Channels", testChannels},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel() // each on an empty backend of its own; they wait, on real time or a fake clock
			tc.f(t, newEnv(t))
		})
	}
}

// timed returns a playing record of k carrying timers due at the given
// offsets from now: Remind, Timeout, Abandon, in that order.
func timed(t testing.TB, k match.Key, now time.Time, offsets ...time.Duration) *match.Record {
	rec := Playing(t, k, 3)
	kinds := []match.TimerKind{match.TimerRemind, match.TimerTimeout, match.TimerAbandon}
	for i, d := range offsets {
		rec.Timers = append(rec.Timers, match.Timer{Kind: kinds[i], Due: now.Add(d)})
	}
	return rec
}

func claim(t *testing.T, s ScheduleStore, lease time.Duration) []match.Due {
	t.Helper()
	got, err := s.Claim(t.Context(), 100, lease)
	if err != nil {
		t.Fatalf("Claim: %v", err)
	}
	return got
}

func kinds(ds []match.Due) []string {
	var out []string
	for _, d := range ds {
		out = append(out, d.GameID[:4]+"/"+d.Kind.String())
	}
	return out
}

// testFiresOnce: each entry is claimed once, at its time, and not again
// once done; a record's Create and Update schedule what they carry.
func testFiresOnce(t *testing.T, env ScheduleEnv) {
	s := env.New()
	start := env.Now()
	rec := timed(t, Channel, start, 2*Tick, 5*Tick, 8*Tick)
	mustCreate(t, s, rec)
	if got := claim(t, s, time.Minute); len(got) != 0 {
		t.Fatalf("Claim before anything is due = %v, want none", kinds(got))
	}
	for i, want := range []match.TimerKind{match.TimerRemind, match.TimerTimeout, match.TimerAbandon} {
		// Each step a Tick after its timer is due, counted from the start
		// so that the time the claims take does not add up.
		env.Wait(start.Add(time.Duration(3*(i+1)) * Tick).Sub(env.Now()))
		got := claim(t, s, time.Minute)
		if len(got) != 1 || got[0].Kind != want || got[0].GameID != rec.ID || got[0].Key != Channel {
			t.Fatalf("step %d: Claim = %v, want %v of %s", i, kinds(got), want, rec.ID)
		}
		if again := claim(t, s, time.Minute); len(again) != 0 {
			t.Fatalf("step %d: Claim again while leased = %v, want none", i, kinds(again))
		}
		if err := s.Done(t.Context(), got[0]); err != nil {
			t.Fatalf("Done: %v", err)
		}
	}
	env.Wait(2 * Tick)
	if got := claim(t, s, Tick); len(got) != 0 {
		t.Fatalf("Claim after all done = %v, want none", kinds(got))
	}
}

// testMoveCancels: a write just before an entry is due that moves or drops
// its timer leaves nothing to claim at the old time; a fired timer has no
// entry.
func testMoveCancels(t *testing.T, env ScheduleEnv) {
	s := env.New()
	rec := timed(t, Channel, env.Now(), 3*Tick, 4*Tick)
	mustCreate(t, s, rec)
	env.Wait(2 * Tick)
	later := env.Now().Add(time.Hour)
	if _, err := s.Update(t.Context(), Channel, rec.ID, func(r *match.Record) (match.Tally, error) {
		r.Timers = []match.Timer{{Kind: match.TimerRemind, Due: later}, {Kind: match.TimerTimeout, Due: r.Timers[1].Due, Fired: true}}
		return match.Tally{}, nil
	}); err != nil {
		t.Fatal(err)
	}
	env.Wait(3 * Tick)
	if got := claim(t, s, time.Minute); len(got) != 0 {
		t.Fatalf("Claim after the timers moved = %v, want none", kinds(got))
	}
	// A second game's timer in the same channel still fires.
	other := timed(t, Channel, env.Now(), Tick)
	other.Challenger, other.Opponent = match.Player{ID: "UCAROL", Name: "Carol"}, match.Player{ID: "UDAVE", Name: "Dave"}
	other.RedID = "UCAROL"
	mustCreate(t, s, other)
	env.Wait(2 * Tick)
	if got := claim(t, s, time.Minute); len(got) != 1 || got[0].GameID != other.ID {
		t.Fatalf("Claim = %v, want the other game's reminder", kinds(got))
	}
}

// testLeaseExpiry: a worker that claims and dies leaves the entry to
// another at the end of its lease; the dead worker's Done then does not
// remove the new claim's entry.
func testLeaseExpiry(t *testing.T, env ScheduleEnv) {
	dead, alive := env.New(), env.New()
	rec := timed(t, Channel, env.Now(), Tick)
	mustCreate(t, dead, rec)
	env.Wait(2 * Tick)
	first := claim(t, dead, 3*Tick)
	if len(first) != 1 {
		t.Fatalf("first Claim = %v, want the reminder", kinds(first))
	}
	if got := claim(t, alive, 3*Tick); len(got) != 0 {
		t.Fatalf("Claim during the lease = %v, want none", kinds(got))
	}
	env.Wait(4 * Tick)
	second := claim(t, alive, time.Minute)
	if len(second) != 1 || second[0].Token == first[0].Token {
		t.Fatalf("Claim after the lease = %v, want the reminder under a new lease", kinds(second))
	}
	if err := dead.Done(t.Context(), first[0]); err != nil {
		t.Fatal(err)
	}
	env.Wait(Tick)
	if got := claim(t, alive, Tick); len(got) != 0 {
		t.Fatalf("Claim while the second lease holds = %v, want none", kinds(got))
	}
	if err := alive.Done(t.Context(), second[0]); err != nil {
		t.Fatal(err)
	}
	env.Wait(2 * Tick)
	if got := claim(t, alive, Tick); len(got) != 0 {
		t.Fatalf("Claim after Done = %v, want none", kinds(got))
	}
}

// testRace: n replicas claim the same due entries at once; each entry is
// claimed by exactly one.
func testRace(t *testing.T, env ScheduleEnv, n int) {
	s := env.New()
	want := map[string]bool{}
	for i := range 12 {
		k := match.Key{Platform: "slack", Workspace: "T1", Channel: fmt.Sprintf("R%d", i)}
		rec := timed(t, k, env.Now(), Tick, Tick, Tick)
		mustCreate(t, s, rec)
		for _, tm := range rec.Timers {
			want[rec.ID+"/"+tm.Kind.String()] = true
		}
	}
	env.Wait(2 * Tick)
	var mu sync.Mutex
	seen := map[string]int{}
	var wg sync.WaitGroup
	for range n {
		r := env.New()
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 5 {
				got, err := r.Claim(t.Context(), 4, time.Minute)
				if err != nil {
					t.Errorf("Claim: %v", err)
					return
				}
				mu.Lock()
				for _, d := range got {
					seen[d.GameID+"/"+d.Kind.String()]++
				}
				mu.Unlock()
			}
		}()
	}
	wg.Wait()
	// Whatever the replicas left (each claims 4 at a time, 5 times) is
	// claimed now; nothing may come twice.
	for _, d := range claim(t, s, time.Minute) {
		seen[d.GameID+"/"+d.Kind.String()]++
	}
	for id := range want {
		if seen[id] != 1 {
			t.Errorf("entry %s claimed %d times, want once", id, seen[id])
		}
	}
	if len(seen) != len(want) {
		t.Errorf("claimed %d entries, want %d", len(seen), len(want))
	}
}

// testChannels: entries of many channels (over every bucket) are all
// found, by one claim or several.
func testChannels(t *testing.T, env ScheduleEnv) {
	s := env.New()
	ids := map[string]bool{}
	for i := range 40 {
		k := match.Key{Platform: "discord", Workspace: "G1", Channel: fmt.Sprintf("%d", 1000+i)}
		rec := timed(t, k, env.Now(), Tick)
		mustCreate(t, s, rec)
		ids[rec.ID] = true
	}
	env.Wait(2 * Tick)
	for range 3 {
		got, err := s.Claim(t.Context(), 16, time.Minute)
		if err != nil {
			t.Fatal(err)
		}
		for _, d := range got {
			if !ids[d.GameID] {
				t.Fatalf("claimed %s twice or unknown", d.GameID)
			}
			delete(ids, d.GameID)
		}
	}
	if len(ids) > 0 {
		t.Fatalf("%d entries never claimed", len(ids))
	}
}
