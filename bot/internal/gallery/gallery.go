// Package gallery keeps the pictures an adapter serves by URL: drawn once
// however many ask at once (single flight), a bounded number drawn at a
// time with a short queue (ErrBusy beyond it), and kept in a cache bounded
// in bytes. It knows nothing of chat platforms, games or image formats:
// a picture is bytes under a key.
package gallery

import (
	"container/list"
	"context"
	"errors"
	"sync"
)

// ErrBusy is returned by Get when every drawing slot and every place in
// the queue is taken: the caller should answer 503 and let the client
// come back.
var ErrBusy = errors.New("gallery: too many pictures being drawn")

// Gallery is a cache of drawn pictures. It is safe for concurrent use.
type Gallery struct {
	drawing chan struct{} // a slot per picture being drawn
	waiting chan struct{} // a place per draw waiting for a slot

	mu       sync.Mutex
	maxBytes int
	bytes    int
	order    *list.List               // of *entry, most recently used first
	entries  map[string]*list.Element // by key
	flights  map[string]*flight       // draws in progress, by key
	draws    int                      // pictures drawn, for tests and metrics
}

type entry struct {
	key  string
	data []byte
}

// flight is one draw that every caller asking for its key waits for.
type flight struct {
	done chan struct{}
	data []byte
	err  error
}

// New returns a Gallery that keeps at most maxBytes of pictures, draws at
// most drawers at once, and lets at most queue more wait for a slot.
func New(maxBytes, drawers, queue int) *Gallery {
	return &Gallery{drawing: make(chan struct{}, max(1, drawers)), waiting: make(chan struct{}, max(0, queue)),
		maxBytes: maxBytes, order: list.New(), entries: make(map[string]*list.Element), flights: make(map[string]*flight)}
}

// Get returns the picture under key: from the cache, or from the draw in
// progress for key, or drawn now with draw (then cached, unless it is
// larger than the whole cache). It returns ErrBusy when it would have to
// draw and no slot or place in the queue is free, ctx.Err() when ctx ends
// while it waits, or draw's error (shared by every caller of that draw).
func (g *Gallery) Get(ctx context.Context, key string, draw func(context.Context) ([]byte, error)) ([]byte, error) {
	g.mu.Lock()
	if el, ok := g.entries[key]; ok {
		g.order.MoveToFront(el)
		g.mu.Unlock()
		return el.Value.(*entry).data, nil
	}
	if f, ok := g.flights[key]; ok {
		g.mu.Unlock()
		select {
		case <-f.done:
			return f.data, f.err
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	}
	f := &flight{done: make(chan struct{})}
	g.flights[key] = f
	g.mu.Unlock()

	f.data, f.err = g.drawInSlot(ctx, draw)
	g.mu.Lock()
	delete(g.flights, key)
	if f.err == nil {
		g.draws++
		g.put(key, f.data)
	}
	g.mu.Unlock()
	close(f.done)
	return f.data, f.err
}

// drawInSlot runs draw in a drawing slot, waiting for one in the queue.
func (g *Gallery) drawInSlot(ctx context.Context, draw func(context.Context) ([]byte, error)) ([]byte, error) {
	select {
	case g.drawing <- struct{}{}:
	default:
		select {
		case g.waiting <- struct{}{}:
		default:
			return nil, ErrBusy
		}
		select {
		case g.drawing <- struct{}{}:
			<-g.waiting
		case <-ctx.Done():
			<-g.waiting
			return nil, ctx.Err()
		}
	}
	defer func() { <-g.drawing }()
	return draw(ctx)
}

// put caches data under key, dropping the least recently used pictures
// to stay within maxBytes. g.mu is held.
func (g *Gallery) put(key string, data []byte) {
	if len(data) > g.maxBytes {
		return
	}
	for g.bytes+len(data) > g.maxBytes {
		last := g.order.Back()
		e := last.Value.(*entry)
		g.order.Remove(last)
		delete(g.entries, e.key)
		g.bytes -= len(e.data)
	}
	g.entries[key] = g.order.PushFront(&entry{key: key, data: data})
	g.bytes += len(data)
}

// Stats returns how many pictures were drawn so far and how many bytes
// the cache holds now.
func (g *Gallery) Stats() (draws, bytes int) {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.draws, g.bytes
}

// queued returns how many draws wait for a slot.
func (g *Gallery) queued() int { return len(g.waiting) }
