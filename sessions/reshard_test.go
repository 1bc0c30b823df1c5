package sessions_test

import (
	"context"
	"errors"
	"maps"
	"net"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/connect4/connect4/bot/match"
	"github.com/connect4/connect4/sessions"
	"github.com/connect4/connect4/sessions/storetest"
)

// TestClusterReshard moves a channel's slot to another master between two
// moves of its game, as an operator's resharding would: the next move, sent
// through the pipeliner to the master the client last knew, follows the
// MOVED reply to the new one and lands, and so does the one after it.
func TestClusterReshard(t *testing.T) {
	t.Parallel() // its own servers
	c, s, g, prefix := clusterGame(t)
	ctx, key := t.Context(), prefix+"{"+storetest.Channel.String()+"}:game:"+g.ID
	m := startMigration(t, c.(*redis.ClusterClient), key)
	m.move(m.keys...)
	m.finish()

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
	if n, err := m.dst.Exists(ctx, key).Result(); err != nil || n != 1 {
		t.Errorf("the record on the new master: %d, %v; want it there", n, err)
	}
}

// TestClusterReshardHalfway sends a move while its channel's slot is half
// migrated: the record already on the new master, the channel's other keys
// still on the old one. Redis refuses a script whose keys are not all on
// the node it reaches (TRYAGAIN: here the record has gone, and the request's
// nonce key, which a move creates, is on neither). The store sends it again
// for as long as the move's deadline allows; while the slot stays split the
// move is answered unavailable within its deadline, and nothing of it is
// written on either master. A move sent while the slot is split lands once
// the migration ends.
func TestClusterReshardHalfway(t *testing.T) {
	t.Parallel() // its own servers
	c, s, g, prefix := clusterGame(t)
	ctx, key := t.Context(), prefix+"{"+storetest.Channel.String()+"}:game:"+g.ID
	m := startMigration(t, c.(*redis.ClusterClient), key)
	m.move(key)
	before := m.dump()

	mctx, cancel := context.WithTimeout(match.WithNonce(ctx, "halfway-1"), 2*time.Second)
	defer cancel()
	start := time.Now()
	_, err := s.Update(mctx, storetest.Channel, g.ID, moveFn(storetest.Bob.ID, 1, 3))
	if !errors.Is(err, match.ErrUnavailable) || !redis.IsTryAgainError(err) {
		t.Fatalf("a move while the slot is split: %v, want ErrUnavailable for TRYAGAIN", err)
	}
	if d := time.Since(start); d > 2*time.Second+200*time.Millisecond {
		t.Errorf("the move was answered after %v, past its 2 s deadline", d)
	} else {
		t.Logf("the move was refused after %v", d)
	}
	if after := m.dump(); !maps.Equal(before, after) {
		t.Errorf("the refused move changed the slot's keys:\nbefore %v\nafter  %v", before, after)
	}

	// A move sent while the slot is split lands once the migration ends
	// within its deadline: the store sends it again.
	type result struct {
		r   *match.Record
		err error
	}
	landed := make(chan result, 1)
	go func() {
		mctx, cancel := context.WithTimeout(match.WithNonce(ctx, "halfway-2"), 2*time.Second)
		defer cancel()
		r, err := s.Update(mctx, storetest.Channel, g.ID, moveFn(storetest.Bob.ID, 1, 3))
		landed <- result{r, err}
	}()
	time.Sleep(300 * time.Millisecond)
	m.move(slices.DeleteFunc(slices.Clone(m.keys), func(k string) bool { return k == key })...)
	m.finish()
	if res := <-landed; res.err != nil || res.r.Game.Moves() != 2 {
		t.Fatalf("a move sent while the slot was split, which ended 300 ms later: %v, err %v; want 2 moves", res.r, res.err)
	}
}

// clusterGame starts a private Cluster and a store on it, with a game in
// play on storetest.Channel (one move made), and returns the store's key
// prefix too.
func clusterGame(t *testing.T) (redis.UniversalClient, *sessions.Redis, *match.Record, string) {
	t.Helper()
	c := storetest.Cluster(t)
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
	return c, s, g, prefix
}

// migration is a slot's move from the master src to dst, begun by
// startMigration: the slot's keys as they were when it began, move to
// migrate some of them, finish to give the slot to dst on every master.
type migration struct {
	t        *testing.T
	src, dst *redis.Client
	masters  []*redis.Client
	slot     int64
	dstID    string
	keys     []string
}

// startMigration marks the slot of key migrating on its master and
// importing on another, as redis-cli --cluster reshard does first.
func startMigration(t *testing.T, cc *redis.ClusterClient, key string) *migration {
	t.Helper()
	ctx := t.Context()
	m := &migration{t: t}
	var err error
	if m.slot, err = cc.ClusterKeySlot(ctx, key).Result(); err != nil {
		t.Fatal(err)
	}
	if m.src, err = cc.MasterForKey(ctx, key); err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	if err := cc.ForEachMaster(ctx, func(ctx context.Context, c *redis.Client) error { // concurrently
		mu.Lock()
		defer mu.Unlock()
		m.masters = append(m.masters, c)
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	for _, c := range m.masters {
		if c.Options().Addr != m.src.Options().Addr {
			m.dst = c
			break
		}
	}
	id := func(c *redis.Client) string {
		v, err := c.Do(ctx, "CLUSTER", "MYID").Text()
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	srcID := id(m.src)
	m.dstID = id(m.dst)
	m.must(m.dst.Do(ctx, "CLUSTER", "SETSLOT", m.slot, "IMPORTING", srcID).Err())
	m.must(m.src.Do(ctx, "CLUSTER", "SETSLOT", m.slot, "MIGRATING", m.dstID).Err())
	m.keys, err = m.src.ClusterGetKeysInSlot(ctx, int(m.slot), 1000).Result()
	m.must(err)
	if len(m.keys) == 0 {
		t.Fatal("no keys in the channel's slot")
	}
	return m
}

func (m *migration) must(err error) {
	m.t.Helper()
	if err != nil {
		m.t.Fatal(err)
	}
}

// move migrates keys from src to dst.
func (m *migration) move(keys ...string) {
	m.t.Helper()
	if len(keys) == 0 {
		return
	}
	host, port, err := net.SplitHostPort(m.dst.Options().Addr)
	m.must(err)
	args := []any{"MIGRATE", host, port, "", 0, 5000, "KEYS"}
	for _, k := range keys {
		args = append(args, k)
	}
	m.must(m.src.Do(m.t.Context(), args...).Err())
}

// finish gives the slot to dst on every master: dst first, then src, then
// the others, the order Redis's documentation asks for (and redis-cli's).
func (m *migration) finish() {
	m.t.Helper()
	order := []*redis.Client{m.dst, m.src}
	for _, c := range m.masters {
		if a := c.Options().Addr; a != m.dst.Options().Addr && a != m.src.Options().Addr {
			order = append(order, c)
		}
	}
	for _, c := range order {
		m.must(c.Do(m.t.Context(), "CLUSTER", "SETSLOT", m.slot, "NODE", m.dstID).Err())
	}
}

// dump returns every key of the slot on src and dst (and any nonce's) with
// its DUMP, which is the same for the same value.
func (m *migration) dump() map[string]string {
	m.t.Helper()
	ctx := m.t.Context()
	out := map[string]string{}
	for _, c := range []*redis.Client{m.src, m.dst} {
		keys, err := c.ClusterGetKeysInSlot(ctx, int(m.slot), 1000).Result()
		m.must(err)
		cn := c.Conn() // ASKING lets the next command read an importing slot
		for _, k := range keys {
			m.must(cn.Do(ctx, "ASKING").Err())
			v, err := cn.Dump(ctx, k).Result()
			m.must(err)
			out[c.Options().Addr+" "+k] = v
		}
		m.must(cn.Close())
	}
	return out
}
