package sessions

import (
	"context"
	"sync"
	"time"
)

// sweepEvery is how many writes Memory lets pass between sweeps of expired entries.
const sweepEvery = 1024

// Memory is the in-memory Store: the embedded default when no Redis is
// configured, and the twin that the Redis store is tested against. It keeps
// the same semantics as Redis, TTLs included (measured with Options.Now;
// expired entries are dropped on access and by a sweep every 1024 writes, so
// it needs no goroutine). Data lives only as long as the process. It is safe
// for concurrent use; the zero value is not usable, call NewMemory.
type Memory struct {
	cfg config

	mu     sync.Mutex
	games  map[Key]memGame
	boards map[Key]*memBoard
	writes int // since the last sweep
}

type memGame struct {
	rec     *Record // never handed out: callers get clones
	expires time.Time
}

type memBoard struct {
	players map[string]*Standing
	expires time.Time // zero: never
}

// NewMemory returns an empty in-memory store. Invalid options (see
// Options.Validate) make every operation, Ping included, return the problem.
func NewMemory(opt Options) *Memory {
	return &Memory{cfg: newConfig(opt), games: map[Key]memGame{}, boards: map[Key]*memBoard{}}
}

// game returns the live record of k, dropping it if expired. Call with mu held.
func (m *Memory) game(k Key, now time.Time) (*Record, bool) {
	g, ok := m.games[k]
	if ok && !now.Before(g.expires) {
		delete(m.games, k)
		ok = false
	}
	return g.rec, ok
}

// board returns the live leaderboard of k, dropping it if expired. Call with mu held.
func (m *Memory) board(k Key, now time.Time) (*memBoard, bool) {
	b, ok := m.boards[k]
	if ok && !b.expires.IsZero() && !now.Before(b.expires) {
		delete(m.boards, k)
		ok = false
	}
	return b, ok
}

// put stores rec (not a copy) for its key. Call with mu held.
func (m *Memory) put(rec *Record, now time.Time) {
	m.games[rec.Key] = memGame{rec: rec, expires: now.Add(m.cfg.ttl(rec))}
	if m.writes++; m.writes >= sweepEvery {
		m.writes = 0
		for k := range m.games {
			m.game(k, now)
		}
		for k := range m.boards {
			m.board(k, now)
		}
	}
}

// begin checks the options and ctx before an operation.
func (m *Memory) begin(ctx context.Context, op string, k Key, checkKey bool) error {
	if m.cfg.invalid != nil {
		return m.cfg.invalid
	}
	if checkKey {
		if err := k.Validate(); err != nil {
			return err
		}
	}
	if err := ctx.Err(); err != nil {
		return storeError(op, k, err)
	}
	return nil
}

// Create implements Store.Create.
func (m *Memory) Create(ctx context.Context, rec *Record) error {
	n, err := m.cfg.prepareCreate(rec)
	if err != nil {
		return err
	}
	if err := m.begin(ctx, "create", rec.Key, false); err != nil {
		return err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	now := m.cfg.now()
	if cur, ok := m.game(n.Key, now); ok && cur.active(now) {
		return &BusyError{Existing: cur.clone()}
	}
	m.put(n.clone(), now)
	*rec = *n
	return nil
}

// Load implements Store.Load.
func (m *Memory) Load(ctx context.Context, k Key) (*Record, error) {
	if err := m.begin(ctx, "load", k, true); err != nil {
		return nil, err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	cur, ok := m.game(k, m.cfg.now())
	if !ok {
		return nil, ErrNoGame
	}
	return cur.clone(), nil
}

// Update implements Store.Update.
func (m *Memory) Update(ctx context.Context, k Key, fn func(r *Record) (Tally, error)) (*Record, error) {
	return m.cfg.update(ctx, k, fn, m.Load, m.cas)
}

func (m *Memory) cas(ctx context.Context, old int64, next *Record, t Tally) (bool, error) {
	if err := m.begin(ctx, "update", next.Key, false); err != nil {
		return false, err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	now := m.cfg.now()
	cur, ok := m.game(next.Key, now)
	if !ok {
		return false, ErrNoGame
	}
	if cur.Version != old {
		return false, nil
	}
	m.put(next.clone(), now)
	if !t.IsZero() {
		m.tally(next.Key, t, now)
	}
	return true, nil
}

// tally adds t to k's leaderboard and refreshes its TTL. Call with mu held.
func (m *Memory) tally(k Key, t Tally, now time.Time) {
	b, ok := m.board(k, now)
	if !ok {
		b = &memBoard{players: map[string]*Standing{}}
		m.boards[k] = b
	}
	b.expires = time.Time{}
	if m.cfg.lbTTL > 0 {
		b.expires = now.Add(m.cfg.lbTTL)
	}
	get := func(p Player) *Standing {
		s := b.players[p.ID]
		if s == nil {
			s = &Standing{}
			b.players[p.ID] = s
		}
		s.Player = p // the latest name wins, as in Redis
		return s
	}
	w, l := get(t.Winner), get(t.Loser)
	if t.Draw {
		w.Draws++
		l.Draws++
	} else {
		w.Wins++
		l.Losses++
	}
}

// Delete implements Store.Delete.
func (m *Memory) Delete(ctx context.Context, k Key) error {
	if err := m.begin(ctx, "delete", k, true); err != nil {
		return err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	delete(m.games, k)
	return nil
}

// Leaderboard implements Store.Leaderboard.
func (m *Memory) Leaderboard(ctx context.Context, k Key, n int) ([]Standing, error) {
	if err := m.begin(ctx, "leaderboard", k, true); err != nil {
		return nil, err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	b, ok := m.board(k, m.cfg.now())
	if !ok {
		return nil, nil
	}
	ss := make([]Standing, 0, len(b.players))
	for _, s := range b.players {
		ss = append(ss, *s)
	}
	return rankStandings(ss, n), nil
}

// Stats implements Store.Stats.
func (m *Memory) Stats(ctx context.Context, k Key, userID string) (Standing, error) {
	if err := m.begin(ctx, "stats", k, true); err != nil {
		return Standing{}, err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if b, ok := m.board(k, m.cfg.now()); ok {
		if s := b.players[userID]; s != nil {
			return *s, nil
		}
	}
	return Standing{Player: Player{ID: userID}}, nil
}

// Ping implements Store.Ping: it fails only when the options are invalid.
func (m *Memory) Ping(ctx context.Context) error {
	return m.begin(ctx, "ping", Key{}, false)
}

// TTL returns how long the channel's record and leaderboard have left to
// live, 0 for one that does not exist and -1 for one that never expires.
func (m *Memory) TTL(ctx context.Context, k Key) (game, leaderboard time.Duration, err error) {
	if err := m.begin(ctx, "ttl", k, true); err != nil {
		return 0, 0, err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	now := m.cfg.now()
	if _, ok := m.game(k, now); ok {
		game = m.games[k].expires.Sub(now)
	}
	if b, ok := m.board(k, now); ok {
		leaderboard = -1
		if !b.expires.IsZero() {
			leaderboard = b.expires.Sub(now)
		}
	}
	return game, leaderboard, nil
}
