package ops

import (
	"context"
	"log/slog"
	"runtime"
	"time"
)

// Procs runs the process on one P (GOMAXPROCS=1) while its load fits in
// one core, and on the runtime's default number of Ps (the CPUs, or a
// container's CPU limit) while it does not.
//
// Why: a chat server's goroutines mostly wait, for a request, for Redis,
// for a reply to be read. Whenever one becomes ready while a P is idle,
// the runtime wakes another OS thread to run it (a futex wake, a context
// switch, and the woken thread's search for work before it sleeps again),
// and net/http alone readies three goroutines a request (the connection's
// background read, started and stopped around every handler). Below one
// core of load that buys no parallelism and costs CPU (what one P saved
// in the load test: deploy/README.md, "Load testing"). A load that fills
// one core (pictures drawn, AI searches, a crowd) gets every P back
// within procsUpTicks.
//
// The rule reads the process's CPU time (user and system, from
// getrusage) every procsTick: on one P, a mean of procsUpShare of one
// core or more over the last procsUpTicks restores the default; on the
// default, a mean of procsDownShare or less over the last procsDownTicks
// goes back to one P. The line down is below the line up and its window
// far longer, so that a load near the line does not swing: the same load
// costs more CPU on several Ps than on one, so a load that has just
// filled one core reads above the line down on several. Going back to
// the default calls runtime.SetDefaultGOMAXPROCS, which also restores the
// runtime's tracking of a container's CPU limit.
type Procs struct {
	Log *slog.Logger

	// For tests; zero: the process's, a ticker of procsTick, the runtime.
	cpu  func() (time.Duration, bool)
	now  func() time.Time
	tick <-chan time.Time
	set  func(one bool) int
}

const (
	procsTick = 100 * time.Millisecond
	// On one P, a mean of at least procsUpShare of one core over the
	// last procsUpTicks ticks (300 ms) goes back to every P.
	procsUpShare = 0.9
	procsUpTicks = 3
	// On every P, a mean of at most procsDownShare of one core over the
	// last procsDownTicks ticks (2 s) goes to one P.
	procsDownShare = 0.8
	procsDownTicks = 20
)

// Run adapts GOMAXPROCS until ctx ends, then restores the runtime's
// default. It returns at once, changing nothing, where the default is one
// P already or the process's CPU time cannot be read.
func (p *Procs) Run(ctx context.Context) {
	cpu, now, tick, set := p.cpu, p.now, p.tick, p.set
	if cpu == nil {
		cpu = ProcessCPU
	}
	if now == nil {
		now = time.Now
	}
	if set == nil {
		if runtime.GOMAXPROCS(0) <= 1 {
			return
		}
		set = setProcs
	}
	last, ok := cpu()
	if !ok {
		return
	}
	if tick == nil {
		t := time.NewTicker(procsTick)
		defer t.Stop()
		tick = t.C
	}
	var pol procsPolicy
	defer func() {
		if pol.one {
			set(false)
		}
	}()
	at := now()
	for {
		select {
		case <-ctx.Done():
			return
		case <-tick:
		}
		c, ok := cpu()
		t := now()
		if !ok || !t.After(at) {
			continue
		}
		share := float64(c-last) / float64(t.Sub(at))
		last, at = c, t
		if pol.observe(share) {
			n := set(pol.one)
			if p.Log != nil {
				p.Log.Debug("GOMAXPROCS adapted to the load", "gomaxprocs", n, "cores_used", share)
			}
		}
	}
}

// setProcs sets GOMAXPROCS to one, or to the runtime's default, and
// returns the new value.
func setProcs(one bool) int {
	if one {
		runtime.GOMAXPROCS(1)
		return 1
	}
	runtime.SetDefaultGOMAXPROCS()
	return runtime.GOMAXPROCS(0)
}

// procsPolicy is Procs's rule, fed one share of a core a tick. It starts
// on every P.
type procsPolicy struct {
	one bool // on one P
	// last holds the shares read since the last change, the newest at
	// (n-1) % len(last).
	last [procsDownTicks]float64
	n    int
}

// observe takes the share of one core the process used over the last tick
// and reports whether to change: p.one then says to what.
func (p *procsPolicy) observe(share float64) bool {
	p.last[p.n%len(p.last)] = share
	p.n++
	window, line := procsDownTicks, procsDownShare
	if p.one {
		window, line = procsUpTicks, procsUpShare
	}
	if p.n < window {
		return false
	}
	var sum float64
	for i := p.n - window; i < p.n; i++ {
		sum += p.last[i%len(p.last)]
	}
	mean := sum / float64(window)
	if p.one && mean >= line || !p.one && mean <= line {
		p.one = !p.one
		p.n = 0 // the shares read before describe the other setting
		return true
	}
	return false
}
