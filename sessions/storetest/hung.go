package storetest

import (
	"context"
	"fmt"

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
