package storetest

import (
	"context"
	"fmt"
	"io"
	"net"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/connect4/connect4/sessions"

	"github.com/connect4/connect4/bot/match"
)

// Hung is a store whose every call blocks until its context is done and
// then fails as a store past its deadline does (match.ErrUnavailable): a
// Redis that accepts connections and never answers, for the adapters'
// tests that every interaction is still answered in time. It has every
// method of the bot's store.
type Hung struct{}

func hang(ctx context.Context) error {
	<-ctx.Done()
	return fmt.Errorf("hung store: %w: %w", match.ErrUnavailable, ctx.Err())
}

// Create blocks until ctx is done.
func (Hung) Create(ctx context.Context, _ *match.Record) error { return hang(ctx) }

// Load blocks until ctx is done.
func (Hung) Load(ctx context.Context, _ match.Key, _ string) (*match.Record, error) {
	return nil, hang(ctx)
}

// Update blocks until ctx is done.
func (Hung) Update(ctx context.Context, _ match.Key, _ string, _ func(*match.Record) (match.Tally, error)) (*match.Record, error) {
	return nil, hang(ctx)
}

// Active blocks until ctx is done.
func (Hung) Active(ctx context.Context, _ match.Key) ([]*match.Record, error) { return nil, hang(ctx) }

// LastFinished blocks until ctx is done.
func (Hung) LastFinished(ctx context.Context, _ match.Key, _ string) (*match.Record, error) {
	return nil, hang(ctx)
}

// PlayerGame blocks until ctx is done.
func (Hung) PlayerGame(ctx context.Context, _ match.Key, _ string) (*match.Record, error) {
	return nil, hang(ctx)
}

// Leaderboard blocks until ctx is done.
func (Hung) Leaderboard(ctx context.Context, _ match.Key, _ int) ([]match.Standing, error) {
	return nil, hang(ctx)
}

// Stats blocks until ctx is done.
func (Hung) Stats(ctx context.Context, _ match.Key, _ string) (match.Standing, error) {
	return match.Standing{}, hang(ctx)
}

// Ratings blocks until ctx is done.
func (Hung) Ratings(ctx context.Context, _ match.Key, _ int) ([]match.Standing, error) {
	return nil, hang(ctx)
}

// HeadToHead blocks until ctx is done.
func (Hung) HeadToHead(ctx context.Context, _ match.Key, a, b string) (match.HeadToHead, error) {
	return match.HeadToHead{}, hang(ctx)
}

// NewSeason blocks until ctx is done.
func (Hung) NewSeason(ctx context.Context, _ match.Key) (match.Season, error) {
	return match.Season{}, hang(ctx)
}

// Seasons blocks until ctx is done.
func (Hung) Seasons(ctx context.Context, _ match.Key) ([]match.Season, error) { return nil, hang(ctx) }

// Repair blocks until ctx is done.
func (Hung) Repair(ctx context.Context, _ match.Key) (match.Repair, error) {
	return match.Repair{}, hang(ctx)
}

// RedisAt returns a Redis store on addr with the client options connect4
// serve uses (deadlines that reach the socket, 1 s timeouts, one retry),
// closed when t ends: with SilentServer or ClosedPort, a real client on a
// hung or a missing Redis.
func RedisAt(t testing.TB, addr string) *sessions.Redis {
	c := redis.NewClient(&redis.Options{Addr: addr, ContextTimeoutEnabled: true,
		DialTimeout: time.Second, ReadTimeout: time.Second, WriteTimeout: time.Second, PoolTimeout: time.Second,
		MaxRetries: 1, DialerRetries: 1})
	t.Cleanup(func() { c.Close() })
	return NewRedis(t, c, sessions.Options{Prefix: "c4unreachable:"})
}

// SilentServer returns the address of a server that accepts connections and
// reads them without ever answering, until t ends.
func SilentServer(t testing.TB) string {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	go func() {
		for {
			conn, err := ln.Accept()
			if err != nil {
				return
			}
			go func() { _, _ = io.Copy(io.Discard, conn); conn.Close() }()
		}
	}()
	return ln.Addr().String()
}

// Settings blocks until ctx is done.
func (Hung) Settings(ctx context.Context, _ match.Key) (match.Settings, error) {
	return match.Settings{}, hang(ctx)
}

// SetSettings blocks until ctx is done.
func (Hung) SetSettings(ctx context.Context, _ match.Key, _ match.Settings) (match.Settings, error) {
	return match.Settings{}, hang(ctx)
}
