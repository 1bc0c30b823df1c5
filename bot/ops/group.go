package ops

import (
	"context"
	"sync"
)

// Group supervises the adapters of a serving bot: their long-lived
// connections (Socket Mode, the Gateway), which run in the background, and
// their Close funcs. Its zero value is ready to use; its methods are safe
// for concurrent use.
type Group struct {
	running sync.WaitGroup
	mu      sync.Mutex
	stops   []func(context.Context)
	once    sync.Once
	fatal   chan error
}

func (g *Group) init() { g.once.Do(func() { g.fatal = make(chan error, 1) }) }

// Go runs f until ctx ends. The connections retry by themselves for as long
// as ctx lasts, so an error f returns before ctx ends is fatal (a refused
// token): it goes to Fatal, and the server should stop.
func (g *Group) Go(ctx context.Context, f func(context.Context) error) {
	g.init()
	g.running.Add(1)
	go func() {
		defer g.running.Done()
		if err := f(ctx); err != nil && ctx.Err() == nil {
			select {
			case g.fatal <- err: // it names its platform
			default: // one is enough: the server is stopping already
			}
		}
	}()
}

// Fatal receives the first error of a background connection that stopped
// before its context ended.
func (g *Group) Fatal() <-chan error {
	g.init()
	return g.fatal
}

// OnStop adds f, an adapter's Close, to what Stop calls.
func (g *Group) OnStop(f func(context.Context)) {
	g.mu.Lock()
	g.stops = append(g.stops, f)
	g.mu.Unlock()
}

// Stop calls the OnStop funcs in order (each waits for its adapter's
// in-flight work, bounded by ctx), then waits for the background
// connections, which end with the context given to Go.
func (g *Group) Stop(ctx context.Context) {
	g.mu.Lock()
	stops := g.stops
	g.mu.Unlock()
	for _, f := range stops {
		f(ctx)
	}
	g.running.Wait()
}
