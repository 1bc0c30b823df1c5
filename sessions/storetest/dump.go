package storetest

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/redis/go-redis/v9"
)

// Dump returns every key under prefix (on each master of a cluster) with
// its value written out whole: a string as it is; a hash, set, sorted set
// or list as its sorted elements (field=value, member=score). It is for
// tests that compare what changed, or look for a secret in every value.
func Dump(t testing.TB, c redis.UniversalClient, prefix string) map[string]string {
	t.Helper()
	out := map[string]string{}
	var mu sync.Mutex
	dump := func(ctx context.Context, n redis.UniversalClient) error {
		iter := n.Scan(ctx, 0, prefix+"*", 500).Iterator()
		for iter.Next(ctx) {
			k := iter.Val()
			v, err := value(ctx, n, k)
			if err != nil {
				return fmt.Errorf("%s: %w", k, err)
			}
			mu.Lock()
			out[k] = v
			mu.Unlock()
		}
		return iter.Err()
	}
	var err error
	if cc, ok := c.(*redis.ClusterClient); ok {
		err = cc.ForEachMaster(t.Context(), func(ctx context.Context, n *redis.Client) error { return dump(ctx, n) })
	} else {
		err = dump(t.Context(), c)
	}
	if err != nil {
		t.Fatalf("dump %s*: %v", prefix, err)
	}
	return out
}

func value(ctx context.Context, n redis.UniversalClient, k string) (string, error) {
	typ, err := n.Type(ctx, k).Result()
	if err != nil {
		return "", err
	}
	var parts []string
	switch typ {
	case "none":
		return "", nil
	case "string":
		return n.Get(ctx, k).Result()
	case "hash":
		m, err := n.HGetAll(ctx, k).Result()
		if err != nil {
			return "", err
		}
		for f, v := range m {
			parts = append(parts, f+"="+v)
		}
	case "set":
		if parts, err = n.SMembers(ctx, k).Result(); err != nil {
			return "", err
		}
	case "zset":
		zs, err := n.ZRangeWithScores(ctx, k, 0, -1).Result()
		if err != nil {
			return "", err
		}
		for _, z := range zs {
			parts = append(parts, fmt.Sprintf("%v=%v", z.Member, z.Score))
		}
	case "list":
		if parts, err = n.LRange(ctx, k, 0, -1).Result(); err != nil {
			return "", err
		}
	default:
		return "", fmt.Errorf("type %s", typ)
	}
	slices.Sort(parts)
	return typ + ":" + strings.Join(parts, "\n"), nil
}
