// Package storetest is the test support for sessions.Store: it finds or starts
// Redis servers for tests, gives each test its own key prefix, and holds the
// one conformance suite that every Store implementation must pass. It is an
// ordinary package so that the bot's and the adapters' tests can use it too;
// nothing outside tests should import it.
//
// Tests find Redis through REDIS_URL (default redis://127.0.0.1:6379/0) and
// skip, saying how to run them, when it cannot be reached, except when CI=true,
// where they fail. They never flush a database: every key a test writes is
// under its own prefix, deleted when the test ends.
package storetest

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"os"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
)

// DefaultRedisURL is where tests look for Redis when REDIS_URL is not set.
const DefaultRedisURL = "redis://127.0.0.1:6379/0"

// RedisURL returns REDIS_URL, or DefaultRedisURL when it is empty.
func RedisURL() string {
	if u := os.Getenv("REDIS_URL"); u != "" {
		return u
	}
	return DefaultRedisURL
}

// InCI reports whether CI=true, where tests that cannot find what they need fail instead of skipping.
func InCI() bool { return os.Getenv("CI") == "true" }

// skip skips t, or fails it in CI.
func skip(t testing.TB, format string, args ...any) {
	t.Helper()
	if InCI() {
		t.Fatalf(format, args...)
	}
	t.Skipf(format, args...)
}

// Redis returns a client for RedisURL, closed when t ends. When Redis cannot
// be reached it skips t with a how-to message, or fails it when CI=true.
func Redis(t testing.TB) redis.UniversalClient {
	t.Helper()
	opt, err := redis.ParseURL(RedisURL())
	if err != nil {
		t.Fatalf("REDIS_URL %q: %v", RedisURL(), err)
	}
	// Probe once, without the client's dial retries, so that a missing
	// server costs each test milliseconds rather than seconds.
	probeOpt := *opt
	probeOpt.MaxRetries, probeOpt.DialerRetries = -1, 1
	probe := redis.NewClient(&probeOpt)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	err = probe.Ping(ctx).Err()
	probe.Close()
	c := redis.NewClient(opt)
	if err != nil {
		c.Close()
		skip(t, "Redis at %s unreachable (%v): start redis-server on 127.0.0.1:6379 or set REDIS_URL to run the Redis tests", RedisURL(), err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

// Prefix returns a key prefix unique to t ("c4test:<random>:") and deletes
// every key under it when t ends, on each master of a cluster.
func Prefix(t testing.TB, c redis.UniversalClient) string {
	t.Helper()
	var b [8]byte
	rand.Read(b[:])
	prefix := "c4test:" + hex.EncodeToString(b[:]) + ":"
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		if err := DeleteKeys(ctx, c, prefix); err != nil {
			t.Errorf("delete test keys %s*: %v", prefix, err)
		}
	})
	return prefix
}

// DeleteKeys deletes every key that starts with prefix (which must contain no
// glob characters), scanning each master of a cluster.
func DeleteKeys(ctx context.Context, c redis.UniversalClient, prefix string) error {
	scan := func(ctx context.Context, n redis.UniversalClient) error {
		iter := n.Scan(ctx, 0, prefix+"*", 500).Iterator()
		for iter.Next(ctx) {
			if err := n.Del(ctx, iter.Val()).Err(); err != nil {
				return err
			}
		}
		return iter.Err()
	}
	if cc, ok := c.(*redis.ClusterClient); ok {
		return cc.ForEachMaster(ctx, func(ctx context.Context, n *redis.Client) error { return scan(ctx, n) })
	}
	return scan(ctx, c)
}
