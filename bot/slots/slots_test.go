package slots

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"
)

// TestBound: no more than n run at once; a caller beyond them waits for a
// Release, and gives up with ErrBusy when none comes in time.
func TestBound(t *testing.T) {
	s := New(2, 20*time.Millisecond)
	for range 2 {
		if err := s.Acquire(t.Context()); err != nil {
			t.Fatalf("Acquire with a slot free = %v, want nil", err)
		}
	}
	if got := s.Running(); got != 2 {
		t.Fatalf("Running() = %d, want 2", got)
	}
	if err := s.Acquire(t.Context()); !errors.Is(err, ErrBusy) {
		t.Fatalf("Acquire with every slot taken = %v, want ErrBusy", err)
	}
	done := make(chan error, 1)
	go func() { done <- New(1, time.Hour).Acquire(t.Context()) }()
	if err := <-done; err != nil {
		t.Fatalf("Acquire on fresh slots = %v", err)
	}
	s2 := New(1, time.Second)
	if err := s2.Acquire(t.Context()); err != nil {
		t.Fatal(err)
	}
	go func() { done <- s2.Acquire(t.Context()) }()
	time.Sleep(10 * time.Millisecond)
	s2.Release()
	if err := <-done; err != nil {
		t.Fatalf("Acquire after a Release = %v, want nil", err)
	}
}

// TestQueueFull: beyond 4n callers waiting, a caller is refused at once.
func TestQueueFull(t *testing.T) {
	s := New(1, time.Second)
	if err := s.Acquire(t.Context()); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(t.Context())
	var wg sync.WaitGroup
	errs := make(chan error, 4)
	for range 4 {
		wg.Add(1)
		go func() { defer wg.Done(); errs <- s.Acquire(ctx) }()
	}
	for s.waiting.Load() < 4 {
		time.Sleep(time.Millisecond)
	}
	start := time.Now()
	if err := s.Acquire(t.Context()); !errors.Is(err, ErrBusy) || time.Since(start) > 500*time.Millisecond {
		t.Fatalf("Acquire with the queue full = %v after %v, want ErrBusy at once", err, time.Since(start))
	}
	cancel()
	wg.Wait()
	close(errs)
	for err := range errs {
		if !errors.Is(err, context.Canceled) {
			t.Fatalf("queued Acquire after cancel = %v, want context.Canceled", err)
		}
	}
}
