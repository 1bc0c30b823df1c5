package ops

import (
	"context"
	"runtime"
	"slices"
	"testing"
	"time"
)

// TestProcsPolicy feeds the rule shares of a core and checks where it
// changes: down after DownTicks light ticks, up after UpTicks heavy ones,
// never on a load between the two lines, and each window counted from
// the last change only.
func TestProcsPolicy(t *testing.T) {
	repeat := func(share float64, n int) []float64 { return slices.Repeat([]float64{share}, n) }
	cases := []struct {
		name   string
		shares []float64
		// changes are the ticks (counted from 1) after which the rule
		// changes, alternating down (to one P) and up.
		changes []int
	}{
		{"idle goes to one P after DownTicks", repeat(0.05, 40), []int{20}},
		{"a load between the lines stays on every P", repeat(0.85, 60), nil},
		{"three quarters of a core goes down", repeat(0.75, 20), []int{20}},
		{"a full core goes back up after UpTicks", append(repeat(0.1, 20), repeat(1, 5)...), []int{20, 23}},
		{"a mean at UpShare goes up", append(repeat(0.1, 20), 0.8, 0.95, 0.95), []int{20, 23}},
		{"one heavy tick does not", append(repeat(0.1, 20), 2, 0.3, 0.3, 0.3, 0.3), []int{20}},
		{"a load between the lines stays on one P", append(repeat(0.1, 20), repeat(0.85, 40)...), []int{20}},
		// Up at tick 23, then 19 light ticks are not yet the 20 that go
		// down again: the heavy ticks before the change do not count.
		{"windows restart at a change", append(append(repeat(0.1, 20), repeat(1, 3)...), repeat(0.1, 20)...), []int{20, 23, 43}},
		// The Redis load test on two vCPUs: about 0.65 of a core on one P.
		{"a noisy light load stays on one P", append(repeat(0.1, 20), slices.Repeat([]float64{0.55, 0.83, 0.6, 0.7, 0.65}, 20)...), []int{20}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			var p procsPolicy
			var got []int
			for i, s := range c.shares {
				if p.observe(s) {
					got = append(got, i+1)
					if want := len(got)%2 == 1; p.one != want {
						t.Fatalf("change %d at tick %d: one = %v", len(got), i+1, p.one)
					}
				}
			}
			if !slices.Equal(got, c.changes) {
				t.Errorf("changes after ticks %v, want %v", got, c.changes)
			}
		})
	}
}

// TestProcsRun drives Run with a made-up clock and CPU counter: the share
// it reads is the CPU time over the wall time between two readings, a
// reading without elapsed time or without CPU time is skipped, and ending
// it on one P restores the default.
func TestProcsRun(t *testing.T) {
	type reading struct {
		wall, busy time.Duration
		ok         bool
	}
	readings := make(chan reading)
	ctx, cancel := context.WithCancel(t.Context())
	// clock and cpu belong to Run's goroutine: its cpu takes each reading
	// from the test, so every tick waits for one (the ticker is a closed
	// channel, always ready).
	var clock time.Time
	var cpu time.Duration
	tick := make(chan time.Time)
	close(tick)
	sets := make(chan bool, 10)
	p := &Procs{
		cpu: func() (time.Duration, bool) {
			select {
			case r := <-readings:
				clock, cpu = clock.Add(r.wall), cpu+r.busy
				return cpu, r.ok
			case <-ctx.Done():
				return 0, false
			}
		},
		now:  func() time.Time { return clock },
		tick: tick,
		set:  func(one bool) int { sets <- one; return map[bool]int{true: 1, false: 4}[one] },
	}
	done := make(chan struct{})
	go func() { p.Run(ctx); close(done) }()
	step := func(wall, busy time.Duration) { readings <- reading{wall, busy, true} }
	// settled returns once Run has dealt with every reading sent before:
	// it takes this one only when it reads again, and skips it (no time
	// passed, no CPU time).
	settled := func() { readings <- reading{ok: true} }
	noSet := func(when string) {
		t.Helper()
		settled()
		select {
		case one := <-sets:
			t.Fatalf("%s: set(one=%v)", when, one)
		default:
		}
	}
	step(0, 0) // Run's first reading, before its loop
	for range procsDownTicks - 2 {
		step(100*time.Millisecond, 10*time.Millisecond)
	}
	step(100*time.Millisecond, 0) // idle: a share of 0 is a reading too
	step(0, time.Second)          // no time passed: skipped, not a share of infinity
	noSet("19 readings")
	step(100*time.Millisecond, 10*time.Millisecond) // 1.01 s over 0.1 s: a mean of 0.6
	if one := <-sets; !one {
		t.Fatal("20 readings at a mean of 0.6 of a core did not go to one P")
	}
	for range 5 {
		readings <- reading{100 * time.Millisecond, 250 * time.Millisecond, false} // unreadable: skipped
	}
	// The time of the unreadable readings counts in the next readable one
	// (1.35 s of CPU time over 0.6 s, 2.25 cores): with 0.2 and 0.3 after
	// it a mean of 0.92, which goes up (0.5 had they been lost; up at
	// the third of them had they counted as readings).
	step(100*time.Millisecond, 100*time.Millisecond)
	step(100*time.Millisecond, 20*time.Millisecond)
	noSet("two readings on one P")
	step(100*time.Millisecond, 30*time.Millisecond)
	if one := <-sets; one {
		t.Fatal("went down again instead of up")
	}
	for range procsDownTicks - 1 {
		step(100*time.Millisecond, 5*time.Millisecond)
	}
	noSet("19 light readings after going up")
	step(100*time.Millisecond, 5*time.Millisecond)
	if one := <-sets; !one {
		t.Fatal("did not go back to one P")
	}
	cancel()
	<-done
	if one := <-sets; one {
		t.Fatal("ending on one P did not restore the default")
	}
	select {
	case one := <-sets:
		t.Fatalf("after Run returned: set(one=%v)", one)
	default:
	}
}

// TestProcsRunUnreadable: where the CPU time cannot be read Run changes
// nothing and returns.
func TestProcsRunUnreadable(t *testing.T) {
	p := &Procs{
		cpu: func() (time.Duration, bool) { return 0, false },
		set: func(bool) int { t.Error("set called"); return 0 },
	}
	done := make(chan struct{})
	go func() { p.Run(t.Context()); close(done) }()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("Run did not return")
	}
}

// TestSetProcs checks the runtime's side: one P, then the default again
// (what it was before, unless the test itself set GOMAXPROCS).
func TestSetProcs(t *testing.T) {
	runtime.SetDefaultGOMAXPROCS()
	def := runtime.GOMAXPROCS(0)
	if n := setProcs(true); n != 1 || runtime.GOMAXPROCS(0) != 1 {
		t.Errorf("setProcs(true) = %d, GOMAXPROCS %d; want 1", n, runtime.GOMAXPROCS(0))
	}
	if n := setProcs(false); n != def || runtime.GOMAXPROCS(0) != def {
		t.Errorf("setProcs(false) = %d, GOMAXPROCS %d; want the default %d", n, runtime.GOMAXPROCS(0), def)
	}
}

// TestProcessCPU: the process's CPU time is readable here and grows with
// work done.
func TestProcessCPU(t *testing.T) {
	before, ok := ProcessCPU()
	if !ok {
		t.Skip("no process CPU time on", runtime.GOOS)
	}
	x := 1
	for start := time.Now(); time.Since(start) < 50*time.Millisecond; {
		x = x*31 + 7
	}
	after, _ := ProcessCPU()
	if after <= before {
		t.Errorf("CPU time %v then %v after 50 ms of work (%d)", before, after, x)
	}
}
