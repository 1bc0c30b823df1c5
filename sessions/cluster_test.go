package sessions_test

import (
	"context"
	"sync"
	"testing"
	"time"

	"github.com/connect4/connect4/bot/match"

	"github.com/redis/go-redis/v9"

	"github.com/connect4/connect4/sessions"
	"github.com/connect4/connect4/sessions/storetest"
)

// TestCluster runs every Cluster test on one three-master Redis Cluster
// started for it (each test under its own key prefix), rather than one
// cluster each: Conformance, Schedule, ScheduleCrash, RepairSchedule.
func TestCluster(t *testing.T) {
	t.Parallel() // its own servers: it waits, mostly, and shares nothing
	c := storetest.SharedCluster(t)
	for _, tc := range []struct {
		name string
		test func(*testing.T, redis.UniversalClient)
	}{
		{"Conformance", clusterConformance},
		{"Schedule", clusterSchedule},
		{"ScheduleCrash", clusterScheduleCrash},
		{"RepairSchedule", testRepairSchedule},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			tc.test(t, c)
		})
	}
}

// clusterConformance runs the suite on a three-master Redis Cluster
// started for the test: every script touches keys of one hash tag, so it
// must behave exactly as on one node.
func clusterConformance(t *testing.T, c redis.UniversalClient) {
	storetest.Conformance(t, func(t *testing.T, now func() time.Time) storetest.Store {
		return storetest.NewRedis(t, c, sessions.Options{Prefix: storetest.Prefix(t, c), Now: now})
	})

	// The channels used above spread over the masters, and a channel's keys share a slot.
	cc := c.(*redis.ClusterClient)
	s := storetest.NewRedis(t, c, sessions.Options{Prefix: storetest.Prefix(t, c)})
	masters := map[string]bool{}
	var mu sync.Mutex
	for _, ch := range []string{"C1", "C2", "C3", "C4", "C5", "C6", "C7", "C8"} {
		k := match.Key{Platform: "slack", Workspace: "T1", Channel: ch}
		rec := storetest.Playing(t, k, 3)
		if err := s.Create(t.Context(), rec); err != nil {
			t.Fatal(err)
		}
		tag := "{" + k.String() + "}:"
		game := tag + "game:" + rec.ID
		gs, _ := cc.ClusterKeySlot(t.Context(), game).Result()
		for _, other := range []string{tag + "lb", tag + "games", tag + "players", tag + "game"} {
			if os, _ := cc.ClusterKeySlot(t.Context(), other).Result(); gs != os {
				t.Errorf("%s: game in slot %d, %s in slot %d", k, gs, other, os)
			}
		}
		n, err := cc.MasterForKey(t.Context(), game)
		if err != nil {
			t.Fatal(err)
		}
		masters[n.Options().Addr] = true
	}
	prefix := "c4test:cleanup:"
	ps := storetest.NewRedis(t, c, sessions.Options{Prefix: prefix})
	for _, ch := range []string{"C1", "C2", "C3", "C4", "C5", "C6"} {
		if err := ps.Create(t.Context(), storetest.Playing(t, match.Key{Platform: "slack", Workspace: "T1", Channel: ch})); err != nil {
			t.Fatal(err)
		}
	}
	if err := storetest.DeleteKeys(t.Context(), c, prefix); err != nil {
		t.Fatalf("DeleteKeys: %v", err)
	}
	left := 0
	cc.ForEachMaster(t.Context(), func(ctx context.Context, n *redis.Client) error {
		keys, _ := n.Keys(ctx, prefix+"*").Result()
		mu.Lock()
		left += len(keys)
		mu.Unlock()
		return nil
	})
	if left != 0 {
		t.Errorf("%d keys left under %s after DeleteKeys", left, prefix)
	}
	if len(masters) < 2 {
		t.Errorf("8 channels all landed on one master %v: the cluster test would not test a cluster", masters)
	}
}
