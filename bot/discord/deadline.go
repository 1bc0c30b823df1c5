package discord

import (
	"context"
	"sync"
	"sync/atomic"
	"time"
)

// lazyDeadline is context.WithDeadline(parent, deadline) whose timer is
// set only once something waits on Done. A command answered in place runs
// under a deadline (handleTimeout), yet on the memory store nothing on a
// move's way ever waits on its context: it only asks Err, and a store
// reads Deadline to bound its calls. The timer context.WithDeadline starts
// and stops on every interaction, and its four allocations, were about 2 %
// of a move's CPU.
//
// It behaves as the context WithDeadline returns: Deadline is the earlier
// of the parent's and deadline; Err is the parent's error, or
// context.DeadlineExceeded from the deadline on, or context.Canceled once
// stopped; Done is that context's channel (made on the first call), closed
// when Err turns non-nil. Values, and the context's identity for contexts
// derived from it (context.WithCancel, context.AfterFunc), are that
// context's once it is made, so a derived context needs no goroutine of its
// own to follow it. The zero value is not usable: set parent and deadline,
// then call stop when done, as the cancel function of WithDeadline. It is
// safe for concurrent use.
type lazyDeadline struct {
	parent   context.Context
	deadline time.Time

	mu      sync.Mutex               // makes timed
	timed   atomic.Pointer[timedCtx] // nil until needed
	stopped atomic.Bool              // stop was called
}

// timedCtx is the real context of a lazyDeadline and its cancel function.
type timedCtx struct {
	ctx    context.Context
	cancel context.CancelFunc
}

var _ context.Context = (*lazyDeadline)(nil)

// Deadline implements context.Context.
func (c *lazyDeadline) Deadline() (time.Time, bool) {
	if d, ok := c.parent.Deadline(); ok && d.Before(c.deadline) {
		return d, true
	}
	return c.deadline, true
}

// Done implements context.Context: it starts the timer.
func (c *lazyDeadline) Done() <-chan struct{} { return c.real().Done() }

// Err implements context.Context.
func (c *lazyDeadline) Err() error {
	if t := c.timed.Load(); t != nil {
		return t.ctx.Err()
	}
	if err := c.parent.Err(); err != nil {
		return err
	}
	if c.stopped.Load() || !time.Now().Before(c.deadline) {
		// From now on as the real context: made now, it is done at once.
		return c.real().Err()
	}
	return nil
}

// Value implements context.Context.
func (c *lazyDeadline) Value(key any) any {
	if t := c.timed.Load(); t != nil {
		return t.ctx.Value(key)
	}
	return c.parent.Value(key)
}

// String names the context as context's own do, for %v.
func (c *lazyDeadline) String() string {
	return "discord.lazyDeadline(" + c.deadline.String() + ")"
}

// real returns the context c stands for, made on the first call: with the
// deadline's timer, or cancelled already when c was stopped.
func (c *lazyDeadline) real() context.Context {
	if t := c.timed.Load(); t != nil {
		return t.ctx
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if t := c.timed.Load(); t != nil {
		return t.ctx
	}
	ctx, cancel := context.WithDeadline(c.parent, c.deadline)
	if c.stopped.Load() {
		cancel()
	}
	c.timed.Store(&timedCtx{ctx: ctx, cancel: cancel})
	return ctx
}

// stop is the cancel function: it releases the timer, if one was set, and
// makes c done.
func (c *lazyDeadline) stop() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.stopped.Store(true)
	if t := c.timed.Load(); t != nil {
		t.cancel()
	}
}
