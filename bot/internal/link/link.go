// Package link is what the Slack and Discord adapters share about their
// long-lived platform connections (Socket Mode, the Gateway): the wait
// between two connection attempts (capped exponential backoff with full
// jitter) and the connection's state (connected or not, since when, why
// not), for readiness checks, liveness checks and metrics.
//
// It knows nothing of Slack or Discord, and nothing of HTTP.
package link

import (
	"context"
	"math/rand/v2"
	"sync"
	"time"
)

// Default waits between connection attempts.
const (
	DefaultMin = 500 * time.Millisecond
	DefaultMax = time.Minute
)

// Backoff is capped exponential backoff with full jitter: before retry n
// (0 for the first retry after a failure) it waits a random duration in
// [0, min(Max, Min·2ⁿ)]. The zero value means DefaultMin and DefaultMax.
// Full jitter spreads the replicas of a deployment that lost their
// connections together, so that they do not all knock at once.
type Backoff struct {
	Min, Max time.Duration
}

// Ceiling returns the longest wait before retry n: Min·2ⁿ, at most Max.
func (b Backoff) Ceiling(n int) time.Duration {
	lo, hi := b.Min, b.Max
	if lo <= 0 {
		lo = DefaultMin
	}
	if hi <= 0 {
		hi = DefaultMax
	}
	if lo > hi {
		lo = hi
	}
	d := lo
	for i := 0; i < n && d < hi; i++ {
		d *= 2
	}
	return min(d, hi)
}

// Delay returns a random wait before retry n, in [0, Ceiling(n)]. It is
// safe for concurrent use.
func (b Backoff) Delay(n int) time.Duration {
	return rand.N(b.Ceiling(n) + 1)
}

// Sleep waits d, or until ctx is done; it returns ctx.Err() then.
func Sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// State is a connection's state at one moment.
type State struct {
	// Connected reports whether the connection is up.
	Connected bool
	// Since is when Connected last changed (or when the Tracker was made).
	Since time.Time
	// Err is why the last attempt failed or the connection was lost; nil
	// while connected and before the first failure.
	Err error
	// Reconnects is how many times the connection came back after being
	// lost or failing (the first connection does not count).
	Reconnects int
}

// Tracker records a connection's State. It is safe for concurrent use;
// the zero value is not usable, call NewTracker.
type Tracker struct {
	mu    sync.Mutex
	state State
	ever  bool // connected at least once
	now   func() time.Time
}

// NewTracker returns a Tracker of a connection that is down since now.
func NewTracker() *Tracker {
	return &Tracker{state: State{Since: time.Now()}, now: time.Now}
}

// State returns the current state.
func (t *Tracker) State() State {
	t.mu.Lock()
	defer t.mu.Unlock()
	return t.state
}

// Up records that the connection is up. It returns how long it had been
// down and whether it had been up before (a reconnect); when it was up
// already it changes nothing and returns 0, false.
func (t *Tracker) Up() (down time.Duration, again bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.state.Connected {
		return 0, false
	}
	now := t.now()
	down = now.Sub(t.state.Since)
	again = t.ever
	t.ever = true
	if again {
		t.state.Reconnects++
	}
	t.state.Connected, t.state.Since, t.state.Err = true, now, nil
	return down, again
}

// Down records that the connection is down because of err (a failed
// attempt or a lost connection). Since changes only when it was up.
func (t *Tracker) Down(err error) { t.DownSince(err, time.Time{}) }

// DownSince is Down for a loss first noticed at (zero: now), which may be
// a little before the call.
func (t *Tracker) DownSince(err error, at time.Time) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if at.IsZero() {
		at = t.now()
	}
	if t.state.Connected {
		t.state.Connected, t.state.Since = false, at
	}
	t.state.Err = err
}
