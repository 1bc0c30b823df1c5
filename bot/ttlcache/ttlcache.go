// Package ttlcache keeps values read lately for a short while, so that a
// hot path does not pay a round trip for what rarely changes. It is
// bounded in entries and knows nothing of what it holds.
package ttlcache

import (
	"sync"
	"time"
)

// Cache keeps values by key until ttl after they were put. It is safe for
// concurrent use.
type Cache[K comparable, V any] struct {
	ttl time.Duration
	max int

	mu sync.Mutex
	m  map[K]entry[V]
}

type entry[V any] struct {
	v     V
	until time.Time
}

// New returns a Cache keeping each value for ttl and at most size of them
// (at least 1).
func New[K comparable, V any](ttl time.Duration, size int) *Cache[K, V] {
	return &Cache[K, V]{ttl: ttl, max: max(size, 1), m: map[K]entry[V]{}}
}

// Get returns k's value if kept and fresh at now.
func (c *Cache[K, V]) Get(k K, now time.Time) (V, bool) {
	c.mu.Lock()
	defer c.mu.Unlock()
	e, ok := c.m[k]
	if !ok || !now.Before(e.until) {
		var zero V
		return zero, false
	}
	return e.v, true
}

// Put keeps v as k's value until ttl after now. When a new key finds it
// full it drops the stale entries, or all of them when none is stale; a key
// already kept is replaced in place.
func (c *Cache[K, V]) Put(k K, v V, now time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.m[k]; !ok && len(c.m) >= c.max {
		for key, e := range c.m {
			if !now.Before(e.until) {
				delete(c.m, key)
			}
		}
		if len(c.m) >= c.max {
			clear(c.m)
		}
	}
	c.m[k] = entry[V]{v: v, until: now.Add(c.ttl)}
}
