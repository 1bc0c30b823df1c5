package sessions

import (
	"context"
	crand "crypto/rand"
	"encoding/base64"
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"time"
)

// Store keeps one record per channel and one leaderboard per channel. It is
// implemented by *Redis and *Memory with identical semantics; both are safe for
// concurrent use. Every error is prefixed "sessions: "; ones caused by the
// backing store being out of reach (or by ctx's deadline) match
// errors.Is(err, ErrUnavailable).
type Store interface {
	// Create stores rec as the channel's record, atomically, only when the
	// channel has no active record (one that is pending and not yet expired,
	// or playing). rec.Key must be valid and rec.Status pending or playing.
	// On success it sets rec.ID (random, URL-safe), rec.Version = 1 and
	// rec.Created = rec.Updated = now. On a busy channel it returns a
	// *BusyError naming the existing record (errors.Is(err, ErrBusy)); when
	// the existing record is unreadable, a *CorruptError.
	Create(ctx context.Context, rec *Record) error

	// Load returns a copy of the channel's record: ErrNoGame when there is
	// none, a *CorruptError when it cannot be read back.
	Load(ctx context.Context, k Key) (*Record, error)

	// Update loads the record, calls fn on a copy and compare-and-sets the
	// result on Version (Version+1, Updated = now); changes fn makes to Key,
	// ID, Version and Created are ignored. On a conflict fn is run again on
	// the fresh record, at most MaxRetries more times with a short jittered
	// backoff, then Update returns ErrConflict. An error from fn aborts the
	// update and is returned as is; ErrNoChange from fn writes nothing and
	// returns the loaded record with a nil error. The Tally fn returns is
	// added to the channel leaderboard in the same atomic step as the write,
	// so it counts exactly once however the call is retried or raced. Update
	// returns ErrNoGame when there is no record, an error matching ErrInvalid
	// (writing nothing) when fn leaves an invalid record or tally, and the
	// stored record on success.
	Update(ctx context.Context, k Key, fn func(r *Record) (Tally, error)) (*Record, error)

	// Delete removes the channel's record, readable or corrupt; it is not an
	// error when there is none. The leaderboard stays.
	Delete(ctx context.Context, k Key) error

	// Leaderboard returns the channel's top n players (all when n ≤ 0) by
	// wins; ties go to fewer losses, then more games, then the lower id.
	Leaderboard(ctx context.Context, k Key, n int) ([]Standing, error)

	// Stats returns one player's standing in the channel: a zero Standing
	// with Player.ID set when the player has none.
	Stats(ctx context.Context, k Key, userID string) (Standing, error)

	// Ping reports whether the store can be reached, and whether its Options
	// are valid.
	Ping(ctx context.Context) error
}

var (
	_ Store = (*Redis)(nil)
	_ Store = (*Memory)(nil)
)

// Defaults for Options.
const (
	DefaultPrefix         = "c4:"
	DefaultIdleTTL        = 7 * 24 * time.Hour
	DefaultFinishedTTL    = 24 * time.Hour
	DefaultLeaderboardTTL = 400 * 24 * time.Hour
	DefaultMaxRetries     = 8
)

// Options configures a store. The zero value of each field means its default.
type Options struct {
	// Prefix starts every Redis key (default "c4:"); it must not contain braces.
	// Memory ignores it.
	Prefix string
	// IdleTTL is how long an unfinished record lives after its last write (default 7 days),
	// so an abandoned game never blocks a channel for ever.
	IdleTTL time.Duration
	// FinishedTTL is how long a finished record stays readable after the write
	// that finished it (default 24 hours), so late clicks get a sensible answer.
	FinishedTTL time.Duration
	// LeaderboardTTL is how long a channel leaderboard lives after the last game
	// counted in it (default 400 days: a year of silence, with room for an annual
	// tournament); negative means for ever.
	LeaderboardTTL time.Duration
	// MaxRetries is how many times Update re-runs its function after a conflict (default 8).
	MaxRetries int
	// Now is the clock (default time.Now). Memory also expires records by it.
	Now func() time.Time
	// Hooks observe the store, for metrics.
	Hooks Hooks
}

// Hooks are called synchronously by a store; nil functions are skipped. They
// must be safe for concurrent use and quick.
type Hooks struct {
	// Conflict is called on each optimistic-lock conflict in Update.
	Conflict func()
	// Retry is called each time Update re-runs its function after a conflict.
	Retry func()
	// Error is called with the operation name ("create", "load", "update",
	// "delete", "leaderboard", "stats", "ping") and the error whenever the
	// backing store fails (including when unavailable) or returns a corrupt
	// record; not for outcomes such as ErrNoGame, ErrBusy or ErrConflict.
	Error func(op string, err error)
}

// Validate reports every problem with o at once.
func (o Options) Validate() error {
	var errs []error
	if strings.ContainsAny(o.Prefix, "{}") {
		errs = append(errs, fmt.Errorf("prefix %q contains a brace", o.Prefix))
	}
	for _, d := range [...]struct {
		name string
		val  time.Duration
	}{{"IdleTTL", o.IdleTTL}, {"FinishedTTL", o.FinishedTTL}} {
		if d.val < 0 || d.val > 0 && d.val < time.Millisecond {
			errs = append(errs, fmt.Errorf("%s %v: want 0 (default) or at least 1ms", d.name, d.val))
		}
	}
	if o.LeaderboardTTL > 0 && o.LeaderboardTTL < time.Millisecond {
		errs = append(errs, fmt.Errorf("LeaderboardTTL %v: want at least 1ms, 0 (default) or negative (never)", o.LeaderboardTTL))
	}
	if o.MaxRetries < 0 {
		errs = append(errs, fmt.Errorf("MaxRetries %d < 0", o.MaxRetries))
	}
	if len(errs) > 0 {
		return fmt.Errorf("sessions: invalid options: %w", errors.Join(errs...))
	}
	return nil
}

// config is Options with defaults applied, shared by both stores.
type config struct {
	prefix               string
	idleTTL, finishedTTL time.Duration
	lbTTL                time.Duration // ≤ 0: never
	maxRetries           int
	clock                func() time.Time
	hooks                Hooks
	invalid              error // from Options.Validate: every operation returns it
}

func newConfig(o Options) config {
	c := config{
		prefix: orDefault(o.Prefix, DefaultPrefix), idleTTL: orDefault(o.IdleTTL, DefaultIdleTTL),
		finishedTTL: orDefault(o.FinishedTTL, DefaultFinishedTTL), lbTTL: orDefault(o.LeaderboardTTL, DefaultLeaderboardTTL),
		maxRetries: orDefault(o.MaxRetries, DefaultMaxRetries), clock: o.Now, hooks: o.Hooks,
		invalid: o.Validate(),
	}
	if c.clock == nil {
		c.clock = time.Now
	}
	return c
}

func orDefault[T comparable](v, def T) T {
	var zero T
	if v == zero {
		return def
	}
	return v
}

// now returns the clock's time in UTC without a monotonic reading, so that a
// record compares the same before and after a round trip through JSON.
func (c *config) now() time.Time { return c.clock().UTC().Round(0) }

// normTime returns t in UTC without a monotonic reading, as it reads back from JSON.
func normTime(t time.Time) time.Time {
	if t.IsZero() {
		return time.Time{}
	}
	return t.UTC().Round(0)
}

// ttl returns how long rec lives after being written.
func (c *config) ttl(rec *Record) time.Duration {
	if rec.Status == StatusFinished {
		return c.finishedTTL
	}
	return c.idleTTL
}

func (c *config) failed(op string, err error) {
	if c.hooks.Error != nil {
		c.hooks.Error(op, err)
	}
}

// prepareCreate returns the record Create would store for rec.
func (c *config) prepareCreate(rec *Record) (*Record, error) {
	if c.invalid != nil {
		return nil, c.invalid
	}
	if err := rec.Key.Validate(); err != nil {
		return nil, err
	}
	if rec.Status != StatusPending && rec.Status != StatusPlaying {
		return nil, fmt.Errorf("sessions: create %s: %w: status %v, want pending or playing", rec.Key, ErrInvalid, rec.Status)
	}
	n := rec.clone()
	n.ID = newID()
	n.Version = 1
	n.Created = c.now()
	n.Updated = n.Created
	n.ExpiresAt = normTime(n.ExpiresAt)
	if err := n.validate(); err != nil {
		return nil, fmt.Errorf("sessions: create %s: %w: %w", rec.Key, ErrInvalid, err)
	}
	return n, nil
}

// casFunc writes next if the stored record still has version old, adding t to
// the leaderboard in the same step. It reports false on a version mismatch,
// ErrNoGame when the record has gone.
type casFunc func(ctx context.Context, old int64, next *Record, t Tally) (bool, error)

// update is Store.Update for both stores: load, run fn on a copy,
// compare-and-set, retry.
func (c *config) update(ctx context.Context, k Key, fn func(*Record) (Tally, error),
	load func(context.Context, Key) (*Record, error), cas casFunc) (*Record, error) {
	if c.invalid != nil {
		return nil, c.invalid
	}
	if err := k.Validate(); err != nil {
		return nil, err
	}
	for attempt := 0; ; attempt++ {
		cur, err := load(ctx, k)
		if err != nil {
			return nil, err
		}
		next := cur.clone()
		t, err := fn(next)
		if errors.Is(err, ErrNoChange) {
			return cur, nil
		}
		if err != nil {
			return nil, err
		}
		next.Key, next.ID, next.Created = cur.Key, cur.ID, cur.Created
		next.Version = cur.Version + 1
		next.Updated = c.now()
		next.ExpiresAt = normTime(next.ExpiresAt)
		if err := next.validate(); err != nil {
			return nil, fmt.Errorf("sessions: update %s: %w: %w", k, ErrInvalid, err)
		}
		if err := t.validate(); err != nil {
			return nil, fmt.Errorf("sessions: update %s: %w: %w", k, ErrInvalid, err)
		}
		ok, err := cas(ctx, cur.Version, next, t)
		if err != nil {
			return nil, err
		}
		if ok {
			return next, nil
		}
		if c.hooks.Conflict != nil {
			c.hooks.Conflict()
		}
		if attempt >= c.maxRetries {
			return nil, fmt.Errorf("sessions: update %s: %w (%d attempts)", k, ErrConflict, attempt+1)
		}
		if err := sleep(ctx, backoff(attempt)); err != nil {
			return nil, storeError("update", k, err)
		}
		if c.hooks.Retry != nil {
			c.hooks.Retry()
		}
	}
}

// backoff returns a random wait before retry attempt+1: full jitter over a
// window that doubles from 1ms up to 32ms.
func backoff(attempt int) time.Duration {
	window := time.Millisecond << min(attempt, 5)
	return rand.N(window) + 50*time.Microsecond
}

func sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// newID returns a random game id: 12 random bytes as 16 URL-safe characters.
func newID() string {
	var b [12]byte
	crand.Read(b[:]) // never fails (crypto/rand panics instead on a broken OS source)
	return base64.RawURLEncoding.EncodeToString(b[:])
}
