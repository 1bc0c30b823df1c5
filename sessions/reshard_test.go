package sessions_test

import (
	"context"
	"net"
	"sync"
	"testing"

	"github.com/redis/go-redis/v9"

	"github.com/connect4/connect4/sessions"
	"github.com/connect4/connect4/sessions/storetest"
)

// TestClusterReshard moves a channel's slot to another master between two
// moves of its game, as an operator's resharding would: the next move, sent
// through the pipeliner to the master the client last knew, follows the
// MOVED reply to the new one and lands, and so does the one after it.
func TestClusterReshard(t *testing.T) {
	t.Parallel() // its own servers
	c := storetest.Cluster(t)
	cc := c.(*redis.ClusterClient)
	ctx := t.Context()
	prefix := storetest.Prefix(t, c)
	s := storetest.NewRedis(t, c, sessions.Options{Prefix: prefix})
	g := storetest.Playing(t, storetest.Channel)
	if err := s.Create(ctx, g); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Update(ctx, storetest.Channel, g.ID, moveFn(storetest.Alice.ID, 0, 3)); err != nil {
		t.Fatal(err)
	}

	key := prefix + "{" + storetest.Channel.String() + "}:game:" + g.ID
	slot, err := cc.ClusterKeySlot(ctx, key).Result()
	if err != nil {
		t.Fatal(err)
	}
	src, err := cc.MasterForKey(ctx, key)
	if err != nil {
		t.Fatal(err)
	}
	var masters []*redis.Client
	var mu sync.Mutex
	if err := cc.ForEachMaster(ctx, func(ctx context.Context, m *redis.Client) error { // concurrently
		mu.Lock()
		defer mu.Unlock()
		masters = append(masters, m)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	var dst *redis.Client
	for _, m := range masters {
		if m.Options().Addr != src.Options().Addr {
			dst = m
			break
		}
	}
	id := func(m *redis.Client) string {
		v, err := m.Do(ctx, "CLUSTER", "MYID").Text()
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	srcID, dstID := id(src), id(dst)
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(dst.Do(ctx, "CLUSTER", "SETSLOT", slot, "IMPORTING", srcID).Err())
	must(src.Do(ctx, "CLUSTER", "SETSLOT", slot, "MIGRATING", dstID).Err())
	keys, err := src.ClusterGetKeysInSlot(ctx, int(slot), 1000).Result()
	must(err)
	if len(keys) == 0 {
		t.Fatal("no keys in the channel's slot")
	}
	host, port, err := net.SplitHostPort(dst.Options().Addr)
	must(err)
	args := []any{"MIGRATE", host, port, "", 0, 5000, "KEYS"}
	for _, k := range keys {
		args = append(args, k)
	}
	must(src.Do(ctx, args...).Err())
	for _, m := range masters {
		must(m.Do(ctx, "CLUSTER", "SETSLOT", slot, "NODE", dstID).Err())
	}

	// The client still sends the channel's scripts to src, which answers
	// MOVED.
	if _, err := s.Update(ctx, storetest.Channel, g.ID, moveFn(storetest.Bob.ID, 1, 3)); err != nil {
		t.Fatalf("the move after the slot moved: %v", err)
	}
	if _, err := s.Update(ctx, storetest.Channel, g.ID, moveFn(storetest.Alice.ID, 2, 4)); err != nil {
		t.Fatalf("the move after that: %v", err)
	}
	other := storetest.NewRedis(t, c, sessions.Options{Prefix: prefix})
	r, err := other.Load(ctx, storetest.Channel, g.ID)
	if err != nil || r.Game.Moves() != 3 {
		t.Fatalf("the game on the new master: %v, err %v; want 3 moves", r, err)
	}
	if n, err := dst.Exists(ctx, key).Result(); err != nil || n != 1 {
		t.Errorf("the record on the new master: %d, %v; want it there", n, err)
	}
}
