package sessions

import (
	"cmp"
	"context"
	"fmt"
	"hash/maphash"
	"math"
	"slices"
	"sync"
	"time"

	"github.com/connect4/connect4/bot/match"
	"github.com/connect4/connect4/engine"
)

// The sweep: every sweepEvery writes, a write looks at sweepSample entries
// of the map of nonces and of the leaderboards, and every sweepEvery new
// records at sweepSample channels' records, to drop the expired ones (as
// Redis samples keys for expiry). A range over a Go map starts at a random
// entry, so the sample is random; with more entries sampled on average (3)
// than each adds (a write at most one nonce, a new record one record: an
// update replaces its record), the maps stay within a small factor of
// their live entries at a constant cost per write, however large they
// grow (the replay window alone holds an entry per request). Sweeping in
// batches rather than a few entries on every write keeps most writes free
// of it. The records are swept per new record rather than per write: a
// game's moves (twenty a game) add none, and ranging over 48 channels'
// maps of records, scattered over a heap of finished games, cost 1.5 % of
// a move's CPU when every sixteenth move did it.
const (
	sweepEvery  = 16
	sweepSample = 3 * sweepEvery
)

// Memory is the in-memory Store: the embedded default when no Redis is
// configured, and the twin that the Redis store is tested against. It keeps
// the same semantics as Redis, TTLs included (measured with Options.Now;
// expired entries are dropped on access and by sampling a few entries
// every few writes, so it needs no goroutine). Data lives only as long as the process. It is safe
// for concurrent use; the zero value is not usable, call NewMemory.
type Memory struct {
	// MemoryTournaments keeps the channels' tournaments, beside the
	// games, under its own lock.
	*MemoryTournaments

	cfg config

	mu      sync.Mutex
	games   map[match.Key]map[string]memGame // by channel, then game id
	boards  map[match.Key]*memBoard
	seen    map[seenNonce]int64          // nonces of requests that wrote, until when they are kept (Unix ns)
	seeds   [3]maphash.Seed              // of seenNonce's hashes
	seasons map[match.Key][]match.Season // archived, newest first; never expire
	entries map[memEntryKey]*memEntry    // the schedule (schedule.go)
	// settings are the channels' display settings; never expire.
	settings map[match.Key]match.Settings
	last     map[seenKey]string // (channel, player id) → the game they last finished
	writes   uint64             // records put, for the sweep's turn
	created  uint64             // new records put, for the sweep of records
}

type memGame struct {
	rec     *match.Record // never handed out: callers get clones; nil when packed
	packed  []byte        // a finished record in the codec's form (see pack)
	expires time.Time
}

// pack returns g holding rec: a finished record in the codec's form, read
// back by record, any other as it is. A finished record stays for
// CONNECT4_FINISHED_TTL (a day) and is seldom read again, while a busy
// store finishes thousands of games an hour: as the record's graph of
// pointers (game, rounds, strings) the garbage collector scanned them all
// on every cycle, a cost per move that grew as they piled up; as bytes it
// never looks inside them. A finished record then reads back as the Redis
// store reads it: its times in UTC, an offer's expiry in whole
// milliseconds. A record the codec refuses is kept as it is.
func (g memGame) pack(rec *match.Record) memGame {
	g.rec, g.packed = rec, nil
	if rec.Status != match.StatusFinished {
		return g
	}
	if b, err := encodeRecord(rec, ""); err == nil {
		g.rec, g.packed = nil, b
	}
	return g
}

// record returns the record g holds: a packed one decoded afresh, which the
// caller may keep. The codec reads back what it wrote; should it not, the
// record is reported as gone rather than corrupt.
func (g memGame) record(k match.Key) (*match.Record, bool) {
	if g.packed == nil {
		return g.rec, true
	}
	r, err := decodeRecord(k, g.packed)
	return r, err == nil
}

// active reports whether g's record is active at now, without decoding a
// packed one: a finished record never is.
func (g memGame) active(now time.Time) bool { return g.packed == nil && g.rec.Active(now) }

type seenKey struct {
	key   match.Key
	nonce string
}

// seenNonce is how the store keeps a nonce it has seen in a channel: a
// 128-bit hash of the channel and the nonce, and a 64-bit hash of the
// channel's workspace for purgeWorkspace, each with a seed of the store's
// own. The replay window holds an entry per write (millions on a busy
// server); holding no pointer, the map of them is never scanned by the
// garbage collector, whose work otherwise grew with every request kept.
// Two nonces share an entry only if both halves of their 128-bit hashes
// collide, which random seeds make out of reach.
type seenNonce struct {
	workspace uint64
	id        [2]uint64
}

// seenNonce returns the entry of nonce n in channel k.
func (m *Memory) seenNonce(k match.Key, n string) seenNonce {
	c := seenKey{k, n}
	return seenNonce{
		workspace: m.workspaceHash(k.Platform, k.Workspace),
		id:        [2]uint64{maphash.Comparable(m.seeds[1], c), maphash.Comparable(m.seeds[2], c)},
	}
}

// workspaceHash returns the hash a seenNonce holds of platform's workspace.
func (m *Memory) workspaceHash(platform, workspace string) uint64 {
	return maphash.Comparable(m.seeds[0], [2]string{platform, workspace})
}

// memBoard is a channel's leaderboard: a map of players rather than one
// map for standings, ratings and histories each, since a store of many
// channels keeps a board for each, and the garbage collector scans them
// all on every cycle.
type memBoard struct {
	players map[string]*memPlayer // by player id
	h2h     map[string]int
	expires time.Time // zero: never
}

// memPlayer is a player of a leaderboard: their standing once a game of
// theirs was tallied (its Rating and History left nil), their rating and
// history once one was rated.
type memPlayer struct {
	standing       match.Standing
	tallied, rated bool
	rating         match.PlayerRating
	history        []float64
}

// player returns b's player id, made empty if there is none.
func (b *memBoard) player(id string) *memPlayer {
	p := b.players[id]
	if p == nil {
		p = &memPlayer{}
		b.players[id] = p
	}
	return p
}

// NewMemory returns an empty in-memory store, or the problems of invalid
// options (see Options.Validate).
func NewMemory(opt Options) (*Memory, error) {
	if err := opt.Validate(); err != nil {
		return nil, err
	}
	ts, err := NewMemoryTournaments(opt)
	if err != nil {
		return nil, err
	}
	return &Memory{MemoryTournaments: ts, cfg: newConfig(opt), games: map[match.Key]map[string]memGame{}, boards: map[match.Key]*memBoard{}, seen: map[seenNonce]int64{}, seeds: [3]maphash.Seed{maphash.MakeSeed(), maphash.MakeSeed(), maphash.MakeSeed()}, seasons: map[match.Key][]match.Season{}, entries: map[memEntryKey]*memEntry{},
		settings: map[match.Key]match.Settings{}, last: map[seenKey]string{}}, nil
}

// game returns the live record id of k, dropping it if expired. Call with mu held.
func (m *Memory) game(k match.Key, id string, now time.Time) (*match.Record, bool) {
	g, ok := m.games[k][id]
	if !ok {
		return nil, false
	}
	if g.expired(now) {
		m.drop(k, id)
		return nil, false
	}
	return g.record(k)
}

// expired reports whether g has expired at now.
func (g memGame) expired(now time.Time) bool { return !now.Before(g.expires) }

// expired reports whether b has expired at now; a zero expiry never does.
func (b *memBoard) expired(now time.Time) bool { return !b.expires.IsZero() && !now.Before(b.expires) }

// drop removes record id of k. Call with mu held.
func (m *Memory) drop(k match.Key, id string) {
	delete(m.games[k], id)
	if len(m.games[k]) == 0 {
		delete(m.games, k)
	}
}

// active returns k's active records, oldest first, dropping expired ones.
// Call with mu held.
func (m *Memory) active(k match.Key, now time.Time) []*match.Record {
	var out []*match.Record
	for id, g := range m.games[k] {
		if g.expired(now) {
			m.drop(k, id)
		} else if g.active(now) {
			out = append(out, g.rec)
		}
	}
	slices.SortFunc(out, func(a, b *match.Record) int {
		return cmp.Or(a.Created.Compare(b.Created), cmp.Compare(a.ID, b.ID))
	})
	return out
}

// busyWith returns the oldest active record of k other than skip that
// binds one of ids, and that player (the first of its bound players in
// ids). Call with mu held. It ranges over k's records rather than sorting
// them all first (as active does): a move checks its own players on every
// write, and its channel seldom holds another game, let alone one that
// binds them.
func (m *Memory) busyWith(k match.Key, ids []string, skip string, now time.Time) (*match.Record, string) {
	if len(ids) == 0 {
		return nil, ""
	}
	var busy *match.Record
	var who string
	for id, g := range m.games[k] {
		if g.expired(now) {
			m.drop(k, id)
			continue
		}
		r := g.rec
		if !g.active(now) || r.ID == skip ||
			(busy != nil && cmp.Or(r.Created.Compare(busy.Created), cmp.Compare(r.ID, busy.ID)) > 0) {
			continue
		}
		for _, b := range r.Bound() {
			if slices.Contains(ids, b) {
				busy, who = r, b
				break
			}
		}
	}
	return busy, who
}

// board returns the live leaderboard of k, dropping it if expired. Call with mu held.
func (m *Memory) board(k match.Key, now time.Time) (*memBoard, bool) {
	b, ok := m.boards[k]
	if ok && b.expired(now) {
		delete(m.boards, k)
		ok = false
	}
	return b, ok
}

// put stores rec (not a copy) for its key and id. Call with mu held.
func (m *Memory) put(rec *match.Record, now time.Time) {
	gs := m.games[rec.Key]
	if gs == nil {
		gs = map[string]memGame{}
		m.games[rec.Key] = gs
	}
	_, had := gs[rec.ID]
	gs[rec.ID] = memGame{expires: now.Add(m.cfg.ttl(rec))}.pack(rec)
	if !had {
		if m.created++; m.created%sweepEvery == 0 {
			m.sweepGames(now)
		}
	}
	if m.writes++; m.writes%sweepEvery != 0 {
		return
	}
	// The sweep reads the entries it ranges over rather than looking each
	// up again by its key (m.game, m.board): the same drops, without
	// hashing a key and an id for each.
	n := 0
	for k, b := range m.boards {
		if b.expired(now) {
			delete(m.boards, k)
		}
		if n++; n == sweepSample {
			break
		}
	}
	n = 0
	for k, until := range m.seen {
		if now.UnixNano() >= until {
			delete(m.seen, k)
		}
		if n++; n == sweepSample {
			break
		}
	}
}

// sweepGames drops the expired records of sweepSample channels. Call with
// mu held.
func (m *Memory) sweepGames(now time.Time) {
	n := 0
	for k, gs := range m.games { // a channel holds at most a few live games
		for id, g := range gs {
			if g.expired(now) {
				m.drop(k, id)
			}
		}
		if n++; n == sweepSample {
			break
		}
	}
}

// begin checks k (when checkKey is set) and ctx before an operation.
func (m *Memory) begin(ctx context.Context, op string, k match.Key, checkKey bool) error {
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

// Create implements the store's Create.
func (m *Memory) Create(ctx context.Context, rec *match.Record) error {
	n, err := m.cfg.prepareCreate(ctx, rec)
	if err != nil {
		return err
	}
	if err := m.begin(ctx, "create", rec.Key, false); err != nil {
		return err
	}
	nc := m.nonceOf(ctx, n.Key) // hashed before the lock: the seeds never change
	m.mu.Lock()
	defer m.mu.Unlock()
	now := m.cfg.now()
	if m.replayed(nc, now) {
		return fmt.Errorf("sessions: create %s: %w", n.Key, match.ErrReplay)
	}
	if _, ok := m.games[n.Key][n.ID]; ok {
		return fmt.Errorf("sessions: create %s: %w: game id %s taken", n.Key, match.ErrInvalid, n.ID)
	}
	if cur, who := m.busyWith(n.Key, n.Bound(), "", now); cur != nil {
		return &match.BusyError{Existing: cur.Clone(), Player: who}
	}
	if len(m.active(n.Key, now)) >= m.cfg.maxGames {
		return &match.FullError{Key: n.Key, Max: m.cfg.maxGames}
	}
	m.put(n.Clone(), now)
	m.schedule(nil, n, now)
	m.see(nc, now)
	*rec = *n
	return nil
}

// Load implements the store's Load.
func (m *Memory) Load(ctx context.Context, k match.Key, gameID string) (*match.Record, error) {
	if err := m.begin(ctx, "load", k, true); err != nil {
		return nil, err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	cur, ok := m.game(k, gameID, m.cfg.now())
	if !ok {
		return nil, match.ErrNoGame
	}
	return cur.Clone(), nil
}

// Active implements the store's Active.
func (m *Memory) Active(ctx context.Context, k match.Key) ([]*match.Record, error) {
	if err := m.begin(ctx, "active", k, true); err != nil {
		return nil, err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	var out []*match.Record
	for _, r := range m.active(k, m.cfg.now()) {
		out = append(out, r.Clone())
	}
	return out, nil
}

// PlayerGame implements the store's PlayerGame.
func (m *Memory) PlayerGame(ctx context.Context, k match.Key, userID string) (*match.Record, error) {
	if err := m.begin(ctx, "player game", k, true); err != nil {
		return nil, err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if r, _ := m.busyWith(k, []string{userID}, "", m.cfg.now()); r != nil && userID != "" {
		return r.Clone(), nil
	}
	return nil, match.ErrNoGame
}

// LastFinished implements the store's LastFinished.
func (m *Memory) LastFinished(ctx context.Context, k match.Key, userID string) (*match.Record, error) {
	if err := m.begin(ctx, "last finished", k, true); err != nil {
		return nil, err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	id, ok := m.last[seenKey{k, userID}]
	if !ok {
		return nil, match.ErrNoGame
	}
	r, ok := m.game(k, id, m.cfg.now())
	if !ok {
		delete(m.last, seenKey{k, userID})
		return nil, match.ErrNoGame
	}
	return r.Clone(), nil
}

// Update implements the store's Update.
//
// It starts from the stored record itself, as from a cached one: update
// runs fn on a copy and never changes nor returns the record it starts
// from, and a stored record is never changed (put stores a copy, and a
// write replaces it whole), so the copy Load would make is not needed.
func (m *Memory) Update(ctx context.Context, k match.Key, gameID string, fn func(r *match.Record) (match.Tally, error)) (*match.Record, error) {
	load := func(ctx context.Context) (*match.Record, error) { return m.Load(ctx, k, gameID) }
	return m.cfg.update(ctx, k, gameID, fn, m.stored(k, gameID), load, m.cas)
}

// stored returns the live record gameID of k itself, not a copy, or nil.
// Callers must not change it.
func (m *Memory) stored(k match.Key, gameID string) *match.Record {
	m.mu.Lock()
	defer m.mu.Unlock()
	if r, ok := m.game(k, gameID, m.cfg.now()); ok {
		return r
	}
	return nil
}

func (m *Memory) cas(ctx context.Context, cur, next *match.Record, t match.Tally) (bool, *match.Record, error) {
	if err := m.begin(ctx, "update", next.Key, false); err != nil {
		return false, nil, err
	}
	nc := m.nonceOf(ctx, next.Key) // hashed before the lock: the seeds never change
	m.mu.Lock()
	defer m.mu.Unlock()
	now := m.cfg.now()
	stored, ok := m.game(next.Key, cur.ID, now)
	if !ok {
		return false, nil, match.ErrNoGame
	}
	if m.replayed(nc, now) {
		return false, nil, fmt.Errorf("sessions: update %s: %w", next.Key, match.ErrReplay)
	}
	if stored.ID != cur.ID || stored.Version != cur.Version {
		return false, stored.Clone(), nil
	}
	var ids [engine.MaxPlayers]string // on the stack: a move checks its players on every write
	if other, who := m.busyWith(next.Key, appendBound(ids[:0], next, now), next.ID, now); other != nil {
		return false, nil, &match.BusyError{Existing: other.Clone(), Player: who}
	}
	if t.Rated {
		ch, err := m.rate(next.Key, t, now)
		if err != nil {
			return false, nil, err
		}
		next.Rating = &ch
	}
	m.put(next.Clone(), now)
	m.schedule(stored, next, now)
	for _, id := range finishedBy(cur, next) {
		m.last[seenKey{next.Key, id}] = next.ID
	}
	m.see(nc, now)
	if !t.IsZero() {
		m.tally(next.Key, t, now)
	}
	return true, nil, nil
}

// nonce is the entry of a write's nonce in the replay window, hashed once
// for both the check and the record of it; ok is false for a write
// without a nonce.
type nonce struct {
	entry seenNonce
	ok    bool
}

// nonceOf returns the entry of ctx's nonce in k.
func (m *Memory) nonceOf(ctx context.Context, k match.Key) nonce {
	n := match.Nonce(ctx)
	if n == "" {
		return nonce{}
	}
	return nonce{m.seenNonce(k, n), true}
}

// replayed reports whether n has written within the replay window. Call
// with mu held.
func (m *Memory) replayed(n nonce, now time.Time) bool {
	if !n.ok {
		return false
	}
	until, ok := m.seen[n.entry]
	return ok && now.UnixNano() < until
}

// see records n as having written. Call with mu held.
func (m *Memory) see(n nonce, now time.Time) {
	if n.ok {
		m.seen[n.entry] = now.Add(replayWindow).UnixNano()
	}
}

// liveBoard returns k's leaderboard, made empty if there is none. Call with
// mu held.
func (m *Memory) liveBoard(k match.Key, now time.Time) *memBoard {
	b, ok := m.board(k, now)
	if !ok {
		b = &memBoard{players: map[string]*memPlayer{}, h2h: map[string]int{}}
		m.boards[k] = b
	}
	return b
}

// rate rates the game t records in k and applies it to the ratings,
// histories and head to head. Call with mu held.
func (m *Memory) rate(k match.Key, t match.Tally, now time.Time) (match.RatingChange, error) {
	b := m.liveBoard(k, now)
	get := func(id string) match.PlayerRating {
		if p := b.players[id]; p != nil && p.rated {
			return p.rating
		}
		return match.NewRating()
	}
	ch, err := match.Rate(t, get(t.Winner.ID), get(t.Loser.ID))
	if err != nil {
		return ch, err
	}
	for i, id := range ch.Players {
		p := b.player(id)
		p.rating, p.rated = ch.After[i], true
		h := append(p.history, math.Round(ch.After[i].Rating.Rating)) // as stored in Redis
		p.history = h[max(0, len(h)-match.HistoryLen):]
	}
	b.h2h[headToHeadField(t)]++
	return ch, nil
}

// tally adds t to k's leaderboard and refreshes its TTL. Call with mu held.
func (m *Memory) tally(k match.Key, t match.Tally, now time.Time) {
	b := m.liveBoard(k, now)
	b.expires = time.Time{}
	if m.cfg.lbTTL > 0 {
		b.expires = now.Add(m.cfg.lbTTL)
	}
	get := func(p match.Player) *match.Standing {
		mp := b.player(p.ID)
		mp.tallied = true
		mp.standing.Player = p // the latest name wins, as in Redis
		return &mp.standing
	}
	w := get(t.Winner)
	losers := []*match.Standing{get(t.Loser)}
	for _, p := range t.Others {
		losers = append(losers, get(p))
	}
	if t.Draw {
		w.Draws++
	} else {
		w.Wins++
	}
	for _, l := range losers {
		if t.Draw {
			l.Draws++
		} else {
			l.Losses++
		}
	}
}

// Delete removes the record gameID of channel k, if any, freeing its
// players; the leaderboard is kept.
func (m *Memory) Delete(ctx context.Context, k match.Key, gameID string) error {
	if err := m.begin(ctx, "delete", k, true); err != nil {
		return err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	m.drop(k, gameID)
	return nil
}

// Leaderboard implements the store's Leaderboard.
func (m *Memory) Leaderboard(ctx context.Context, k match.Key, n int) ([]match.Standing, error) {
	if err := m.begin(ctx, "leaderboard", k, true); err != nil {
		return nil, err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	b, ok := m.board(k, m.cfg.now())
	if !ok {
		return nil, nil
	}
	ss := make([]match.Standing, 0, len(b.players))
	for _, p := range b.players {
		if p.tallied {
			ss = append(ss, p.standing)
		}
	}
	return rankStandings(ss, n), nil
}

// Stats implements the store's Stats.
func (m *Memory) Stats(ctx context.Context, k match.Key, userID string) (match.Standing, error) {
	if err := m.begin(ctx, "stats", k, true); err != nil {
		return match.Standing{}, err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	st := match.Standing{Player: match.Player{ID: userID}}
	if b, ok := m.board(k, m.cfg.now()); ok {
		if p := b.players[userID]; p != nil {
			if p.tallied {
				st = p.standing
			}
			if p.rated {
				r := p.rating
				st.Rating = &r
			}
			st.History = slices.Clone(p.history)
		}
	}
	return st, nil
}

// Ping reports whether ctx is still live: the store itself is always
// reachable.
func (m *Memory) Ping(ctx context.Context) error {
	return m.begin(ctx, "ping", match.Key{}, false)
}

// TTL returns how long the record gameID of channel k and the channel's
// leaderboard have left to live, 0 for one that does not exist and -1 for
// one that never expires.
func (m *Memory) TTL(ctx context.Context, k match.Key, gameID string) (game, leaderboard time.Duration, err error) {
	if err := m.begin(ctx, "ttl", k, true); err != nil {
		return 0, 0, err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	now := m.cfg.now()
	if _, ok := m.game(k, gameID, now); ok {
		game = m.games[k][gameID].expires.Sub(now)
	}
	if b, ok := m.board(k, now); ok {
		leaderboard = -1
		if !b.expires.IsZero() {
			leaderboard = b.expires.Sub(now)
		}
	}
	return game, leaderboard, nil
}

// Repair implements the store's Repair. Nothing in memory can be damaged,
// and it keeps no index to go stale, so it only reports whether the
// channel has an active record.
func (m *Memory) Repair(ctx context.Context, k match.Key) (match.Repair, error) {
	if err := m.begin(ctx, "repair", k, true); err != nil {
		return match.Repair{}, err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if len(m.active(k, m.cfg.now())) > 0 {
		return match.Repair{Record: match.RecordFine}, nil
	}
	return match.Repair{}, nil
}

// Ratings implements the store's Ratings.
func (m *Memory) Ratings(ctx context.Context, k match.Key, n int) ([]match.Standing, error) {
	if err := m.begin(ctx, "ratings", k, true); err != nil {
		return nil, err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	b, ok := m.board(k, m.cfg.now())
	if !ok {
		return nil, nil
	}
	return rankRatings(b, n), nil
}

// rankRatings returns b's rated players, highest rating first (ties in
// reverse id order, as Redis's sorted set gives them), the first n (all when
// n ≤ 0). Call with mu held.
func rankRatings(b *memBoard, n int) []match.Standing {
	var ss []match.Standing
	for id, p := range b.players {
		if !p.rated {
			continue
		}
		st := match.Standing{Player: match.Player{ID: id}}
		if p.tallied {
			st = p.standing
		}
		r := p.rating
		st.Rating = &r
		ss = append(ss, st)
	}
	slices.SortFunc(ss, func(a, b match.Standing) int {
		return cmp.Or(cmp.Compare(b.Rating.Rating.Rating, a.Rating.Rating.Rating), cmp.Compare(b.Player.ID, a.Player.ID))
	})
	if n > 0 && len(ss) > n {
		ss = ss[:n]
	}
	return ss
}

// HeadToHead implements the store's HeadToHead.
func (m *Memory) HeadToHead(ctx context.Context, k match.Key, a, b string) (match.HeadToHead, error) {
	h := match.HeadToHead{A: a, B: b}
	if err := m.begin(ctx, "head to head", k, true); err != nil {
		return h, err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if bd, ok := m.board(k, m.cfg.now()); ok && a != b {
		f := headToHeadFields(a, b)
		h.AWins, h.BWins, h.Draws = bd.h2h[f[0]], bd.h2h[f[1]], bd.h2h[f[2]]
	}
	return h, nil
}

// NewSeason implements the store's NewSeason.
func (m *Memory) NewSeason(ctx context.Context, k match.Key) (match.Season, error) {
	if err := m.begin(ctx, "new season", k, true); err != nil {
		return match.Season{}, err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	now := m.cfg.now()
	b, ok := m.board(k, now)
	if !ok {
		return match.Season{}, match.ErrEmptySeason
	}
	standings := rankRatings(b, 0)
	if len(standings) == 0 {
		return match.Season{}, match.ErrEmptySeason
	}
	se := match.Season{Number: len(m.seasons[k]) + 1, Ended: now.Truncate(time.Millisecond), Standings: standings}
	m.seasons[k] = append([]match.Season{se}, m.seasons[k]...)
	delete(m.boards, k)
	return se, nil
}

// Seasons implements the store's Seasons.
func (m *Memory) Seasons(ctx context.Context, k match.Key) ([]match.Season, error) {
	if err := m.begin(ctx, "seasons", k, true); err != nil {
		return nil, err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	return slices.Clone(m.seasons[k]), nil
}
