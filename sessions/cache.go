package sessions

import (
	"container/list"
	"sync"

	"github.com/connect4/connect4/bot/match"
)

// DefaultCacheSize is how many records a Redis store remembers between
// clicks by default.
const DefaultCacheSize = 4096

// recordCache remembers the record this process last read or wrote for each
// of the most recently used games, so that Update can start its
// compare-and-set without reading first. It is only ever a guess: the
// compare-and-set checks the game id and version, and on a mismatch the
// script returns the stored record, so a cache behind another replica costs
// one extra round trip and is never written over anything newer. It holds
// at most size records (least recently used out first) and is safe for
// concurrent use. Records in it are never handed out: Update clones them.
type recordCache struct {
	mu    sync.Mutex
	size  int
	order *list.List // of *cacheEntry, most recent first
	byKey map[gameRef]*list.Element
}

// gameRef names one record: its channel and game id.
type gameRef struct {
	key match.Key
	id  string
}

type cacheEntry struct {
	ref gameRef
	rec *match.Record
}

// newRecordCache returns a cache of at most size records; size ≤ 0 means no
// cache (every method does nothing).
func newRecordCache(size int) *recordCache {
	return &recordCache{size: size, order: list.New(), byKey: map[gameRef]*list.Element{}}
}

// get returns the remembered record id of k, or nil.
func (c *recordCache) get(k match.Key, id string) *match.Record {
	if c.size <= 0 {
		return nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.byKey[gameRef{k, id}]
	if !ok {
		return nil
	}
	c.order.MoveToFront(e)
	ce := e.Value.(*cacheEntry)
	return ce.rec
}

// put remembers rec for its key and id; the caller must not change rec
// afterwards. An older version never replaces a newer one.
func (c *recordCache) put(rec *match.Record) {
	if c.size <= 0 {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	ref := gameRef{rec.Key, rec.ID}
	if e, ok := c.byKey[ref]; ok {
		ce := e.Value.(*cacheEntry)
		if ce.rec.Version <= rec.Version {
			ce.rec = rec
		}
		c.order.MoveToFront(e)
		return
	}
	c.byKey[ref] = c.order.PushFront(&cacheEntry{ref: ref, rec: rec})
	for c.order.Len() > c.size {
		last := c.order.Back()
		c.order.Remove(last)
		delete(c.byKey, last.Value.(*cacheEntry).ref)
	}
}

// drop forgets record id of k.
func (c *recordCache) drop(k match.Key, id string) {
	if c.size <= 0 {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if e, ok := c.byKey[gameRef{k, id}]; ok {
		c.order.Remove(e)
		delete(c.byKey, gameRef{k, id})
	}
}
