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

	"github.com/connect4/connect4/bot/match"
)

// Defaults for Options.
const (
	DefaultPrefix         = "c4:"
	DefaultIdleTTL        = 7 * 24 * time.Hour
	DefaultFinishedTTL    = 24 * time.Hour
	DefaultLeaderboardTTL = 400 * 24 * time.Hour
	DefaultMaxRetries     = 8
	DefaultMaxGames       = 10
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
	// MaxGames is how many active games (playing, or challenges not yet
	// expired) a channel may hold at once (default 10); Create refuses
	// one more with a *match.FullError.
	MaxGames int
	// CacheSize is how many channels' latest records a Redis store
	// remembers, so that a move usually costs one round trip (default
	// 4096; negative: none). Memory ignores it.
	CacheSize int
	// Unpipelined makes a Redis store send each write on a connection of
	// its own, instead of sharing round trips between concurrent writes
	// through go-redis's automatic pipeliner (see runScript). Memory
	// ignores it.
	Unpipelined bool
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
	// "delete", "active", "player game", "leaderboard", "stats", "repair",
	// "ping", ...) and the error whenever the
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
	if o.MaxGames < 0 {
		errs = append(errs, fmt.Errorf("MaxGames %d < 0", o.MaxGames))
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
	maxGames             int
	cacheSize            int
	clock                func() time.Time
	hooks                Hooks
}

func newConfig(o Options) config {
	c := config{
		prefix: orDefault(o.Prefix, DefaultPrefix), idleTTL: orDefault(o.IdleTTL, DefaultIdleTTL),
		finishedTTL: orDefault(o.FinishedTTL, DefaultFinishedTTL), lbTTL: orDefault(o.LeaderboardTTL, DefaultLeaderboardTTL),
		maxRetries: orDefault(o.MaxRetries, DefaultMaxRetries), maxGames: orDefault(o.MaxGames, DefaultMaxGames), cacheSize: orDefault(o.CacheSize, DefaultCacheSize), clock: o.Now, hooks: o.Hooks,
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

// normTimers rounds r's timers down to whole milliseconds in UTC, as the
// schedule scores them and as they read back.
func normTimers(r *match.Record) {
	for i := range r.Timers {
		r.Timers[i].Due = normTime(r.Timers[i].Due).Truncate(time.Millisecond)
	}
}

// ttl returns how long rec lives after being written.
func (c *config) ttl(rec *match.Record) time.Duration {
	if rec.Status == match.StatusFinished {
		return c.finishedTTL
	}
	return c.idleTTL
}

func (c *config) failed(op string, err error) {
	if c.hooks.Error != nil {
		c.hooks.Error(op, err)
	}
}

// replayWindow is how long a request's nonce is remembered: the platforms
// refuse requests signed more than 5 minutes from now either way.
const replayWindow = 10 * time.Minute

// checkNonce reports a nonce in ctx that a store would not accept.
func checkNonce(ctx context.Context, op string, k match.Key) error {
	if n := match.Nonce(ctx); n != "" && !match.ValidNonce(n) {
		return fmt.Errorf("sessions: %s %s: %w: nonce %.20q is not 1-%d URL-safe characters", op, k, match.ErrInvalid, n, match.MaxNonceLen)
	}
	return nil
}

// prepareCreate returns the record Create would store for rec.
func (c *config) prepareCreate(ctx context.Context, rec *match.Record) (*match.Record, error) {
	if err := checkNonce(ctx, "create", rec.Key); err != nil {
		return nil, err
	}
	if err := rec.Key.Validate(); err != nil {
		return nil, err
	}
	if rec.Status != match.StatusPending && rec.Status != match.StatusPlaying {
		return nil, fmt.Errorf("sessions: create %s: %w: status %v, want pending or playing", rec.Key, match.ErrInvalid, rec.Status)
	}
	n := rec.Clone()
	if n.ID == "" { // a tournament's game comes with its derived id
		n.ID = newID()
	}
	n.Version = 1
	n.Created = c.now()
	n.Updated = n.Created
	n.ExpiresAt = normTime(n.ExpiresAt)
	normTimers(n)
	if err := n.Validate(); err != nil {
		return nil, fmt.Errorf("sessions: create %s: %w: %w", rec.Key, match.ErrInvalid, err)
	}
	return n, nil
}

// casFunc writes next if the stored record is still cur (the same game id
// and version), adding t to the leaderboard in the same step. On a mismatch
// it returns ok false and the record stored now, read in the same step, so
// that a retry needs no extra read. It returns match.ErrNoGame when the
// record has gone.
type casFunc func(ctx context.Context, cur, next *match.Record, t match.Tally) (ok bool, stored *match.Record, err error)

// loadFunc reads the record being updated.
type loadFunc func(context.Context) (*match.Record, error)

// update is Update for both stores, on the record gameID of channel k:
// start from cached (the record this process last read or wrote, or nil),
// else load; run fn on a copy (cached itself is never changed, nor
// returned);
// compare-and-set; on a mismatch retry fn on the record the compare-and-set
// returned. A refusal by fn of a cached record is checked against a fresh
// load before it is believed: a cache may be behind another replica's write.
func (c *config) update(ctx context.Context, k match.Key, gameID string, fn func(*match.Record) (match.Tally, error),
	cached *match.Record, load loadFunc, cas casFunc) (*match.Record, error) {
	if err := k.Validate(); err != nil {
		return nil, err
	}
	if !match.ValidGameID(gameID) {
		return nil, match.ErrNoGame
	}
	if err := checkNonce(ctx, "update", k); err != nil {
		return nil, err
	}
	cur, fresh := cached, false
	if cur == nil {
		var err error
		if cur, err = load(ctx); err != nil {
			return nil, err
		}
		fresh = true
	}
	for attempt := 0; ; {
		next := cur.Clone()
		t, err := fn(next)
		if err != nil && !fresh {
			if cur, err = load(ctx); err != nil {
				return nil, err
			}
			fresh = true
			continue
		}
		if errors.Is(err, match.ErrNoChange) {
			if cur == cached { // the cache's own: the caller gets a copy
				return cur.Clone(), nil
			}
			return cur, nil
		}
		if err != nil {
			return nil, err
		}
		next.Key, next.ID, next.Created = cur.Key, cur.ID, cur.Created
		next.Version = cur.Version + 1
		next.Updated = c.now()
		next.ExpiresAt = normTime(next.ExpiresAt)
		normTimers(next)
		if err := next.Validate(); err != nil {
			return nil, fmt.Errorf("sessions: update %s: %w: %w", k, match.ErrInvalid, err)
		}
		if err := t.Validate(); err != nil {
			return nil, fmt.Errorf("sessions: update %s: %w: %w", k, match.ErrInvalid, err)
		}
		ok, stored, err := cas(ctx, cur, next, t)
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
			return nil, fmt.Errorf("sessions: update %s: %w (%d attempts)", k, match.ErrConflict, attempt+1)
		}
		// A mismatch right after a cached start means the cache was
		// behind: retry at once. Otherwise someone wrote between our read
		// and our write: back off.
		if fresh {
			if err := sleep(ctx, backoff(attempt)); err != nil {
				return nil, storeError("update", k, err)
			}
		}
		if c.hooks.Retry != nil {
			c.hooks.Retry()
		}
		attempt++
		cur, fresh = stored, true
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

// appendBound appends to ids the players rec binds while it is active
// (see match.Record.Bound); none once it is not.
func appendBound(ids []string, rec *match.Record, now time.Time) []string {
	if !rec.Active(now) {
		return ids
	}
	return rec.AppendBound(ids)
}

// finishedBy returns the ids of the people (not the AI) who played in next
// when the write of next over cur finishes a record in which a game was
// played: the players whose last finished game it becomes.
func finishedBy(cur, next *match.Record) []string {
	if cur.Status == match.StatusFinished || next.Status != match.StatusFinished || !next.Started() {
		return nil
	}
	return next.Bound()
}
