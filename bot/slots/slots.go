// Package slots bounds how many pieces of heavy work run at once, with a
// short queue in front: work beyond the bound waits a little for a free
// slot and is refused (ErrBusy) when none comes free in time or the queue
// is full, so that a burst of it never takes the memory and the CPU that
// everything else needs.
//
// The package knows nothing of games, chat platforms or stores.
package slots

import (
	"context"
	"errors"
	"sync/atomic"
	"time"
)

// ErrBusy means every slot stayed taken for as long as a caller may wait
// for one, or the queue of callers waiting was full.
var ErrBusy = errors.New("slots: all slots busy")

// Slots is a counting semaphore with a bounded queue and a bounded wait.
// It is safe for concurrent use.
type Slots struct {
	run     chan struct{} // a token per running piece of work
	waiting atomic.Int64
	maxWait int64         // most callers queued for a slot
	wait    time.Duration // longest a caller waits for a slot
}

// New returns n slots (at least 1), in front of which up to 4n callers
// wait at most wait each.
func New(n int, wait time.Duration) *Slots {
	n = max(n, 1)
	return &Slots{run: make(chan struct{}, n), maxWait: int64(4 * n), wait: wait}
}

// Acquire takes a slot, waiting for one at most the Slots' wait. It
// returns ErrBusy when none came free in time or the queue is full, or
// ctx's error when ctx ends first. A nil error must be paired with one
// Release.
func (s *Slots) Acquire(ctx context.Context) error {
	select {
	case s.run <- struct{}{}:
		return nil
	default:
	}
	if s.waiting.Add(1) > s.maxWait {
		s.waiting.Add(-1)
		return ErrBusy
	}
	defer s.waiting.Add(-1)
	t := time.NewTimer(s.wait)
	defer t.Stop()
	select {
	case s.run <- struct{}{}:
		return nil
	case <-t.C:
		return ErrBusy
	case <-ctx.Done():
		return ctx.Err()
	}
}

// Release gives back a slot taken by Acquire.
func (s *Slots) Release() {
	<-s.run
}

// Running returns how many slots are taken now, for tests and metrics.
func (s *Slots) Running() int { return len(s.run) }
