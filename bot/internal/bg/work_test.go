package bg

import (
	"context"
	"errors"
	"testing"
	"time"
)

// TestWork checks the background work's life: wait waits for goroutines
// in flight, including ones started while it waits; close refuses new ones
// and waits; when its context ends first it cancels the work context and
// still waits for the goroutines to stop.
func TestWork(t *testing.T) {
	w := New()
	release := make(chan struct{})
	finished := make(chan struct{}, 2)
	w.Go(func(ctx context.Context) {
		<-release
		if !w.Go(func(ctx context.Context) { // started while wait waits
			time.Sleep(10 * time.Millisecond)
			finished <- struct{}{}
		}) {
			t.Error("goCtx before close reported false")
		}
		finished <- struct{}{}
	})
	waited := make(chan error, 1)
	go func() { waited <- w.Wait(t.Context()) }()
	select {
	case err := <-waited:
		t.Fatalf("wait returned %v with work in flight", err)
	case <-time.After(20 * time.Millisecond):
	}
	close(release)
	if err := <-waited; err != nil {
		t.Fatalf("wait = %v", err)
	}
	if len(finished) != 2 {
		t.Fatalf("wait returned before %d goroutines finished", 2-len(finished))
	}
	hold := make(chan struct{})
	w.Go(func(context.Context) { <-hold })
	closed := make(chan error, 1)
	go func() { closed <- w.Close(t.Context()) }()
	for !func() bool { w.mu.Lock(); defer w.mu.Unlock(); return w.closing }() {
		time.Sleep(time.Millisecond)
	}
	if w.Go(func(context.Context) { t.Error("ran after close began") }) {
		t.Fatal("goCtx after close began reported true")
	}
	close(hold)
	if err := <-closed; err != nil {
		t.Fatalf("close = %v", err)
	}

	// A context that ends first cancels the work, which is waited for.
	w = New()
	stopped := make(chan struct{})
	w.Go(func(ctx context.Context) {
		<-ctx.Done()
		close(stopped)
	})
	ctx, cancel := context.WithTimeout(t.Context(), 20*time.Millisecond)
	defer cancel()
	if err := w.Close(ctx); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("close with stuck work = %v, want a deadline", err)
	}
	select {
	case <-stopped:
	default:
		t.Fatal("close returned before the cancelled goroutine stopped")
	}
	if err := w.Close(t.Context()); err != nil {
		t.Fatalf("second close = %v", err)
	}
}
