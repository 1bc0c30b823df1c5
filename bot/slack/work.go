package slack

import (
	"context"
	"sync"
)

// work owns an adapter's background goroutines: they all run under one
// context that only close cancels, and close waits for them. The same
// shape is written once in each adapter, which must not import each other.
// It is safe for concurrent use.
type work struct {
	ctx    context.Context // the parent of every background context
	cancel context.CancelFunc

	mu      sync.Mutex
	closing bool
	running int           // goroutines in flight
	idle    chan struct{} // closed when running drops to 0
}

func newWork() *work {
	ctx, cancel := context.WithCancel(context.Background())
	return &work{ctx: ctx, cancel: cancel}
}

// goCtx runs f in a goroutine with the work context and reports true; once
// close has begun it runs nothing and reports false.
func (w *work) goCtx(f func(ctx context.Context)) bool {
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

func (w *work) done() {
	w.mu.Lock()
	defer w.mu.Unlock()
	w.running--
	if w.running == 0 {
		close(w.idle)
	}
}

// wait blocks until no goroutine is in flight, or ctx is done (returning
// ctx.Err()). Goroutines started while it waits are waited for too.
func (w *work) wait(ctx context.Context) error {
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

// close stops taking new goroutines and waits for those in flight. When ctx
// ends first it cancels the work context, waits for them to return (they
// must honour their context) and returns ctx.Err(). Closing twice is
// harmless.
func (w *work) close(ctx context.Context) error {
	w.mu.Lock()
	w.closing = true
	w.mu.Unlock()
	err := w.wait(ctx)
	w.cancel()
	if err != nil {
		_ = w.wait(context.Background()) // cancelled goroutines return promptly
	}
	return err
}
