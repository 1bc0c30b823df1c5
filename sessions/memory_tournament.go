package sessions

import (
	"context"
	"fmt"
	"sync"
	"time"

	"github.com/connect4/connect4/bot/match"
	"github.com/connect4/connect4/bot/tournament"
)

// MemoryTournaments is the in-memory twin of the Redis store's
// tournaments (CreateTournament, Tournament, UpdateTournament,
// AdvanceTournament), with the same semantics: one tournament per
// channel, kept in its stored form so that every value goes through the
// same codec and validation, a version raised by every write, an ended
// one dropped tournamentKeep after its last write (by Options.Now). It is
// a type of its own so that it can be embedded in Memory. It is safe for
// concurrent use; the zero value is not usable, call NewMemoryTournaments.
type MemoryTournaments struct {
	cfg config

	mu      sync.Mutex
	m       map[match.Key]memTournament
	history map[match.Key][]string // finished tournaments' summaries, newest first; never expire
}

type memTournament struct {
	data    []byte
	expires time.Time // zero: never
}

// NewMemoryTournaments returns an empty store of tournaments, or the
// problems of invalid options (see Options.Validate).
func NewMemoryTournaments(opt Options) (*MemoryTournaments, error) {
	if err := opt.Validate(); err != nil {
		return nil, err
	}
	return &MemoryTournaments{cfg: newConfig(opt), m: map[match.Key]memTournament{}, history: map[match.Key][]string{}}, nil
}

func (m *MemoryTournaments) begin(ctx context.Context, op string, k match.Key) error {
	if err := k.Validate(); err != nil {
		return err
	}
	if err := ctx.Err(); err != nil {
		return storeError(op, k, err)
	}
	return nil
}

// load returns k's tournament, dropping an expired one. Call with mu held.
func (m *MemoryTournaments) load(op string, k match.Key) (*tournament.Tournament, error) {
	e, ok := m.m[k]
	if ok && !e.expires.IsZero() && !m.cfg.now().Before(e.expires) {
		delete(m.m, k)
		ok = false
	}
	if !ok {
		return nil, tournamentOp(op, k, tournament.ErrNotFound)
	}
	return decodeTournament(k, e.data)
}

// store writes t. Call with mu held.
func (m *MemoryTournaments) store(op string, t *tournament.Tournament) error {
	data, err := encodeTournament(t)
	if err != nil {
		return tournamentOp(op, t.Key, err)
	}
	e := memTournament{data: data}
	if t.Status.Over() {
		e.expires = m.cfg.now().Add(tournamentKeep)
	}
	m.m[t.Key] = e
	return nil
}

// CreateTournament implements the store's CreateTournament: see
// Redis.CreateTournament.
func (m *MemoryTournaments) CreateTournament(ctx context.Context, t *tournament.Tournament) error {
	const op = "create tournament"
	if err := m.begin(ctx, op, t.Key); err != nil {
		return err
	}
	if err := t.Validate(); err != nil { // refused before the channel is looked at, as on Redis
		return tournamentOp(op, t.Key, fmt.Errorf("%w: %w", match.ErrInvalid, err))
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if cur, err := m.load(op, t.Key); err == nil && !cur.Status.Over() {
		return tournamentOp(op, t.Key, tournament.ErrExists)
	}
	return m.store(op, t)
}

// Tournament implements the store's Tournament: see Redis.Tournament.
func (m *MemoryTournaments) Tournament(ctx context.Context, k match.Key) (*tournament.Tournament, error) {
	const op = "tournament"
	if err := m.begin(ctx, op, k); err != nil {
		return nil, err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.load(op, k)
}

// UpdateTournament implements the store's UpdateTournament: see
// Redis.UpdateTournament. fn runs under the store's lock, so it never
// conflicts; it must not call the store.
func (m *MemoryTournaments) UpdateTournament(ctx context.Context, k match.Key, id string, fn func(*tournament.Tournament) error) (*tournament.Tournament, error) {
	const op = "update tournament"
	if err := m.begin(ctx, op, k); err != nil {
		return nil, err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	cur, err := m.load(op, k)
	if err != nil {
		return nil, err
	}
	next, err := updateStep(cur, id, fn)
	if err != nil {
		return nil, wrapNotFound(op, k, err)
	}
	if next == nil {
		return cur, nil
	}
	if err := m.store(op, next); err != nil {
		return nil, err
	}
	return next, nil
}

// AdvanceTournament implements the store's AdvanceTournament: see
// Redis.AdvanceTournament.
func (m *MemoryTournaments) AdvanceTournament(ctx context.Context, k match.Key, id string, round int) (*tournament.Tournament, bool, error) {
	const op = "advance tournament"
	if err := m.begin(ctx, op, k); err != nil {
		return nil, false, err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	cur, err := m.load(op, k)
	if err != nil {
		return nil, false, err
	}
	next, err := advanceStep(cur, id, round, m.cfg.now())
	if err != nil {
		return nil, false, wrapNotFound(op, k, err)
	}
	if next == nil {
		return cur, false, nil
	}
	if err := m.store(op, next); err != nil {
		return nil, false, err
	}
	m.recordHistory(next)
	return next, true, nil
}
