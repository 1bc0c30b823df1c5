package ttlcache

import (
	"testing"
	"time"
)

func TestCache(t *testing.T) {
	now := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	c := New[string, int](10*time.Second, 2)
	if v, ok := c.Get("a", now); ok {
		t.Fatalf("Get(a) on an empty cache = %d, true", v)
	}
	c.Put("a", 1, now)
	if v, ok := c.Get("a", now.Add(9*time.Second)); !ok || v != 1 {
		t.Fatalf("Get(a) within ttl = %d, %v, want 1, true", v, ok)
	}
	if v, ok := c.Get("a", now.Add(10*time.Second)); ok {
		t.Fatalf("Get(a) at ttl = %d, true, want stale", v)
	}
	c.Put("b", 2, now.Add(5*time.Second))
	c.Put("c", 3, now.Add(11*time.Second)) // full: drops a, stale
	if _, ok := c.Get("b", now.Add(11*time.Second)); !ok {
		t.Fatal("b dropped, want only the stale a dropped")
	}
	c.Put("d", 4, now.Add(12*time.Second)) // full, none stale: drops all
	if _, ok := c.Get("b", now.Add(12*time.Second)); ok {
		t.Fatal("b kept past the bound")
	}
	if v, ok := c.Get("d", now.Add(12*time.Second)); !ok || v != 4 {
		t.Fatalf("Get(d) = %d, %v, want 4, true", v, ok)
	}
}

// TestPutKeptKeyWhenFull: refreshing a key the full cache already keeps
// replaces it and drops nothing else (the settings cache refreshes the
// channels it keeps).
func TestPutKeptKeyWhenFull(t *testing.T) {
	now := time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
	c := New[string, int](10*time.Second, 2)
	c.Put("a", 1, now)
	c.Put("b", 2, now)
	c.Put("a", 3, now.Add(time.Second))
	if v, ok := c.Get("b", now.Add(time.Second)); !ok || v != 2 {
		t.Errorf("Get(b) after refreshing a in a full cache = %d, %v, want 2, true", v, ok)
	}
	if v, ok := c.Get("a", now.Add(time.Second)); !ok || v != 3 {
		t.Errorf("Get(a) after refreshing it = %d, %v, want 3, true", v, ok)
	}
}
