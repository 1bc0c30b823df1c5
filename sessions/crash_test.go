package sessions_test

import (
	"context"
	"errors"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/connect4/connect4/bot/match"

	"github.com/redis/go-redis/v9"

	"github.com/connect4/connect4/sessions"
	"github.com/connect4/connect4/sessions/storetest"
)

// TestRedisCrash streams moves into a private redis-server that fsyncs every
// write, SIGKILLs it mid-stream, and shows that while it is down every
// operation fails within its deadline with match.ErrUnavailable, and that after a
// restart on the same data every acknowledged move is there, nothing is
// half-written, and the game goes on.
func TestRedisCrash(t *testing.T) {
	t.Parallel() // its own servers or key prefix: it waits, mostly, and shares nothing
	srv := storetest.StartServer(t, "--appendonly", "yes", "--appendfsync", "always")
	c := redis.NewClient(&redis.Options{Addr: srv.Addr, DialTimeout: 200 * time.Millisecond,
		ReadTimeout: 300 * time.Millisecond, WriteTimeout: 300 * time.Millisecond})
	t.Cleanup(func() { c.Close() })
	s := storetest.NewRedis(t, c, sessions.Options{})
	k := storetest.Channel
	// A 10x10 board where a line must be 10 long: cycling through the columns
	// nobody wins before move 90, so the stream never ends by itself.
	r := storetest.Challenge(k)
	r.Status, r.RedID = match.StatusPlaying, storetest.Alice.ID
	r.Game = newGame(t, 10, 10, 10)
	if err := s.Create(t.Context(), r); err != nil {
		t.Fatal(err)
	}
	const deadline = 400 * time.Millisecond
	const slack = 250 * time.Millisecond
	player := func(i int) string {
		if i%2 == 0 {
			return storetest.Alice.ID
		}
		return storetest.Bob.ID
	}
	move := func(i int) (time.Duration, error) {
		ctx, cancel := context.WithTimeout(t.Context(), deadline)
		defer cancel()
		start := time.Now()
		_, err := s.Update(ctx, k, r.ID, moveFn(player(i), i, i%10))
		return time.Since(start), err
	}

	acked := 0 // moves whose Update returned nil
	for ; acked < 10; acked++ {
		if _, err := move(acked); err != nil {
			t.Fatalf("move %d before the crash: %v", acked, err)
		}
	}
	killed := make(chan struct{})
	go func() {
		time.Sleep(time.Duration(rand.IntN(3000)) * time.Microsecond)
		srv.Kill()
		close(killed)
	}()
	failures := 0
	for failures < 3 && acked < 80 {
		took, err := move(acked)
		switch {
		case err == nil:
			acked++
			continue
		case !errors.Is(err, match.ErrUnavailable):
			t.Fatalf("move %d during the crash: err = %v, want match.ErrUnavailable", acked, err)
		case took > deadline+slack:
			t.Errorf("move %d during the crash failed after %v, deadline %v", acked, took, deadline)
		}
		failures++
	}
	<-killed
	if acked >= 80 {
		t.Fatal("the server was never seen down")
	}
	t.Logf("%d moves acknowledged before the crash", acked)

	// While down: every operation fails within its deadline, saying "try again".
	for name, op := range map[string]func(ctx context.Context) error{
		"Load": func(ctx context.Context) error { _, err := s.Load(ctx, k, r.ID); return err },
		"Update": func(ctx context.Context) error {
			_, err := s.Update(ctx, k, r.ID, moveFn(player(acked), acked, acked%10))
			return err
		},
		"Create": func(ctx context.Context) error { return s.Create(ctx, storetest.Challenge(k)) },
		"Stats":  func(ctx context.Context) error { _, err := s.Stats(ctx, k, storetest.Alice.ID); return err },
		"Ping":   s.Ping,
	} {
		ctx, cancel := context.WithTimeout(t.Context(), deadline)
		start := time.Now()
		err := op(ctx)
		took := time.Since(start)
		cancel()
		if !errors.Is(err, match.ErrUnavailable) || took > deadline+slack {
			t.Errorf("%s while down = %v after %v; want match.ErrUnavailable within %v", name, err, took, deadline)
		}
	}

	if err := srv.Start(); err != nil {
		t.Fatalf("restart: %v", err)
	}
	got, err := loadRetrying(t, s, k, r.ID)
	if err != nil {
		t.Fatalf("Load after the restart: %v", err)
	}
	h := got.Game.History()
	// The move in flight at the kill may or may not have landed; nothing else may differ.
	if len(h) != acked && len(h) != acked+1 {
		t.Fatalf("after the restart the game has %d moves, %d were acknowledged", len(h), acked)
	}
	for i, col := range h {
		if col != i%10 {
			t.Fatalf("after the restart move %d is column %d, want %d: %v", i, col, i%10, h)
		}
	}
	if got.Version != int64(1+len(h)) {
		t.Errorf("Version %d with %d moves, want %d", got.Version, len(h), 1+len(h))
	}
	next := len(h)
	if _, err := s.Update(t.Context(), k, r.ID, moveFn(player(next), next, next%10)); err != nil {
		t.Fatalf("the game does not go on after the restart: %v", err)
	}
	g2 := mustLoad(t, s, k, r.ID).Game
	if want := append(slices.Clone(h), next%10); !slices.Equal(g2.History(), want) {
		t.Errorf("after one more move: %v, want %v", g2.History(), want)
	}
}

// loadRetrying loads k, retrying for a few seconds while the server is still
// loading its data (match.ErrUnavailable).
func loadRetrying(t *testing.T, s storetest.Store, k match.Key, id string) (*match.Record, error) {
	t.Helper()
	for end := time.Now().Add(5 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		r, err := s.Load(t.Context(), k, id)
		if !errors.Is(err, match.ErrUnavailable) || time.Now().After(end) {
			return r, err
		}
	}
}

func mustLoad(t *testing.T, s storetest.Store, k match.Key, id string) *match.Record {
	t.Helper()
	r, err := s.Load(t.Context(), k, id)
	if err != nil {
		t.Fatalf("Load: %v", err)
	}
	return r
}
