// Package bg owns an adapter's background goroutines: they all run under
// one context that only Close cancels, and Close waits for them. Both chat
// adapters use it (they must not import each other). It knows nothing of
// chat platforms.
package bg

import (
	"context"
	"sync"
)

// Work is a set of background goroutines under one context that only Close
// cancels. It is safe for concurrent use; make one with New.
type Work struct {
	ctx    context.Context // the parent of every background context
	cancel context.CancelFunc

	mu      sync.Mutex
	closing bool
	running int           // goroutines in flight
	idle    chan struct{} // closed when running drops to 0
}

// New returns an empty Work.
func New() *Work {
	ctx, cancel := context.WithCancel(context.Background())
	return &Work{ctx: ctx, cancel: cancel}
}

// Go runs f in a goroutine with the work context and reports true; once
// Close has begun it runs nothing and reports false.
func (w *Work) Go(f func(ctx context.Context)) bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.closing {
		return false
	}
	if w.running == 0 {
		w.idle = make(chan struct{})
	}
	w.running++
	go func() {
		defer w.done()
		f(w.ctx)
	}()
	return true
}

func (w *Work) done() {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.running--
	if w.running == 0 {
		close(w.idle)
	}
}

// Wait blocks until no goroutine is in flight, or ctx is done (returning
// ctx.Err()). Goroutines started while it waits are waited for too.
func (w *Work) Wait(ctx context.Context) error {
	for {
		w.mu.Lock()
		if w.running == 0 {
			w.mu.Unlock()
			return nil
		}
		idle := w.idle
		w.mu.Unlock()
		select {
		case <-idle:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

// Close stops taking new goroutines and waits for those in flight. When ctx
// ends first it cancels the work context, waits for them to return (they
// must honour their context) and returns ctx.Err(). Closing twice is
// harmless.
func (w *Work) Close(ctx context.Context) error {
	w.mu.Lock()
	w.closing = true
	w.mu.Unlock()
	err := w.Wait(ctx)
	w.cancel()
	if err != nil {
		_ = w.Wait(context.Background()) // cancelled goroutines return promptly
	}
	return err
}
