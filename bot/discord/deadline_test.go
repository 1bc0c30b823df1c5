package discord

import (
	"context"
	"errors"
	"testing"
	"time"
)

type ctxKey struct{}

// newLazy returns a lazyDeadline of parent d from now, stopped at the end
// of the test.
func newLazy(t *testing.T, parent context.Context, d time.Duration) *lazyDeadline {
	c := &lazyDeadline{parent: parent, deadline: time.Now().Add(d)}
	t.Cleanup(c.stop)
	return c
}

// closed reports whether done closes within a second.
func closed(done <-chan struct{}) bool {
	select {
	case <-done:
		return true
	case <-time.After(time.Second):
		return false
	}
}

func TestLazyDeadlineDeadline(t *testing.T) {
	c := newLazy(t, t.Context(), time.Hour)
	if d, ok := c.Deadline(); !ok || !d.Equal(c.deadline) {
		t.Errorf("Deadline() = %v, %v, want %v, true", d, ok, c.deadline)
	}
	parent, cancel := context.WithTimeout(t.Context(), time.Minute)
	defer cancel()
	pd, _ := parent.Deadline()
	c = newLazy(t, parent, time.Hour)
	if d, ok := c.Deadline(); !ok || !d.Equal(pd) {
		t.Errorf("under an earlier parent: Deadline() = %v, %v, want the parent's %v, true", d, ok, pd)
	}
}

func TestLazyDeadlineExpires(t *testing.T) {
	// Err turns at the deadline with nobody waiting, and Done made after
	// it is closed already.
	c := newLazy(t, t.Context(), 10*time.Millisecond)
	if err := c.Err(); err != nil {
		t.Fatalf("Err() before the deadline = %v, want nil", err)
	}
	if c.timed.Load() != nil {
		t.Fatal("Err made the timer before the deadline")
	}
	time.Sleep(20 * time.Millisecond)
	if err := c.Err(); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("Err() after the deadline = %v, want DeadlineExceeded", err)
	}
	if !closed(c.Done()) {
		t.Fatal("Done not closed after the deadline")
	}

	// Done made before the deadline closes at it, and a context derived
	// from it follows.
	c = newLazy(t, t.Context(), 30*time.Millisecond)
	done := c.Done()
	derived, cancel := context.WithCancel(c)
	defer cancel()
	fired := make(chan struct{})
	stop := context.AfterFunc(c, func() { close(fired) })
	defer stop()
	select {
	case <-done:
		t.Fatal("Done closed before the deadline")
	default:
	}
	if !closed(done) || !closed(derived.Done()) || !closed(fired) {
		t.Fatal("Done, a derived context or an AfterFunc not done at the deadline")
	}
	if err := c.Err(); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("Err() = %v, want DeadlineExceeded", err)
	}
}

func TestLazyDeadlineStop(t *testing.T) {
	for _, early := range []bool{false, true} {
		c := newLazy(t, t.Context(), time.Hour)
		var done <-chan struct{}
		if early {
			done = c.Done()
		}
		c.stop()
		if err := c.Err(); !errors.Is(err, context.Canceled) {
			t.Fatalf("Done made before stop %v: Err() after stop = %v, want Canceled", early, err)
		}
		if done == nil {
			done = c.Done()
		}
		if !closed(done) {
			t.Fatalf("Done made before stop %v: Done not closed after stop", early)
		}
	}
}

func TestLazyDeadlineParent(t *testing.T) {
	parent, cancel := context.WithCancel(context.WithValue(t.Context(), ctxKey{}, "v"))
	c := newLazy(t, parent, time.Hour)
	if v := c.Value(ctxKey{}); v != "v" {
		t.Errorf("Value before Done = %v, want the parent's v", v)
	}
	done := c.Done()
	if v := c.Value(ctxKey{}); v != "v" {
		t.Errorf("Value after Done = %v, want the parent's v", v)
	}
	cancel()
	if !closed(done) {
		t.Fatal("Done not closed when the parent was cancelled")
	}
	if err := c.Err(); !errors.Is(err, context.Canceled) {
		t.Fatalf("Err() = %v, want Canceled", err)
	}

	// Cancelled before anything waited: Err says so at once.
	parent, cancel = context.WithCancel(t.Context())
	c = newLazy(t, parent, time.Hour)
	cancel()
	if err := c.Err(); !errors.Is(err, context.Canceled) {
		t.Fatalf("Err() = %v, want Canceled", err)
	}
}
