package sessions

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/connect4/connect4/bot/match"
)

// Redis is the Store on Redis, through a redis.UniversalClient so that one
// code path serves a single node, Sentinel and Cluster. A channel's keys share
// one hash tag, so that one script can touch all of them on a Cluster:
//
//	<prefix>{<platform>:<workspace>:<channel>}:game:<id>  a record, as versioned JSON, with a TTL
//	<prefix>{<platform>:<workspace>:<channel>}:games      the index of active games: a hash, game id → entry JSON
//	<prefix>{<platform>:<workspace>:<channel>}:players    the per-player index: a hash, player id → game id
//	<prefix>{<platform>:<workspace>:<channel>}:game       a record written before several games per channel (legacy)
//	<prefix>{<platform>:<workspace>:<channel>}:lb         the leaderboard, a hash of per-player counts and names
//
// An index entry says which players the game binds, its status, a
// challenge's expiry and its record's TTL deadline, so the scripts prune
// entries that no longer stand for an active game without reading the
// records. A legacy record (one per channel, written by the previous
// version at the key without an id) is read where it is: Load by id finds
// it when its id matches, Active and PlayerGame see it while it is active,
// Create counts it against the limits, and Update writes it back in place
// until it expires; it is never indexed.
//
// Reads are one GET or MGET (Active and PlayerGame: two round trips); a
// write is one Lua script. The store remembers the last record it read or
// wrote for recently used games (Options.CacheSize), so an Update of a game
// this process served last costs one round trip, and two when another
// replica wrote in between (the compare-and-set returns the stored record on
// a mismatch); add one the first time a script runs on a server that has not
// cached it (EVALSHA is refused with NOSCRIPT, then EVAL sends the source),
// and one after a write that finishes a game (markFinished).
// Every value read back is validated. Redis is safe for concurrent use.
type Redis struct {
	c     redis.UniversalClient
	cfg   config
	cache *recordCache
}

// NewRedis returns a store on c, or the problems of invalid options (see
// Options.Validate). It does no I/O; Ping checks the connection.
func NewRedis(c redis.UniversalClient, opt Options) (*Redis, error) {
	if err := opt.Validate(); err != nil {
		return nil, err
	}
	cfg := newConfig(opt)
	return &Redis{c: c, cfg: cfg, cache: newRecordCache(cfg.cacheSize)}, nil
}

func (s *Redis) gameKey(k match.Key, id string) string { return s.tagged(k, "game:"+id) }
func (s *Redis) legacyKey(k match.Key) string          { return s.tagged(k, "game") }
func (s *Redis) indexKey(k match.Key) string           { return s.tagged(k, "games") }
func (s *Redis) playersKey(k match.Key) string         { return s.tagged(k, "players") }
func (s *Redis) lbKey(k match.Key) string              { return s.tagged(k, "lb") }
func (s *Redis) lastKey(k match.Key) string            { return s.tagged(k, "finished") }

// The keys of a channel's season: ratings, ratings by value, rating
// histories, head-to-head counts, the write counter that NewSeason checks,
// and the archived seasons. All share the channel's hash tag.
func (s *Redis) tagged(k match.Key, name string) string {
	return s.cfg.prefix + "{" + k.String() + "}:" + name
}

// tallyKeys are KEYS[2..7] of casScript.
func (s *Redis) tallyKeys(k match.Key) []string {
	return []string{s.lbKey(k), s.tagged(k, "rt"), s.tagged(k, "rtz"), s.tagged(k, "rth"), s.tagged(k, "h2h"), s.tagged(k, "gen")}
}

// onceKey is where a request's nonce is recorded, under the channel's hash
// tag so that the script writing the record can record it too.
func (s *Redis) onceKey(k match.Key, nonce string) string {
	return s.cfg.prefix + "{" + k.String() + "}:once:" + nonce
}

// withNonce appends the nonce key of ctx's nonce, if any, to keys, and its
// TTL to args.
func (s *Redis) withNonce(ctx context.Context, k match.Key, keys []string, args []any) ([]string, []any) {
	if n := match.Nonce(ctx); n != "" {
		keys = append(keys, s.onceKey(k, n))
		args = append(args, replayWindow.Milliseconds())
	}
	return keys, args
}

// tallyKind is casScript's ARGV[5] for t.
func tallyKind(t match.Tally) string {
	switch {
	case t.IsZero():
		return ""
	case t.Draw:
		return "d"
	}
	return "w"
}

// tallyOthers is casScript's ARGV[28] for t: its further players as a
// JSON array of [id, name] pairs, "" for none.
func tallyOthers(t match.Tally) string {
	if len(t.Others) == 0 || t.IsZero() {
		return ""
	}
	pairs := make([][2]string, len(t.Others))
	for i, p := range t.Others {
		pairs[i] = [2]string{p.ID, p.Name}
	}
	b, _ := json.Marshal(pairs) // strings: never fails
	return string(b)
}

// fail wraps a client error for op on k and reports it to the Error hook.
func (s *Redis) fail(op string, k match.Key, err error) error {
	err = storeError(op, k, err)
	if !errors.Is(err, context.Canceled) { // the caller gave up: not the store's failure
		s.cfg.failed(op, err)
	}
	return err
}

func (s *Redis) corrupt(op string, err error) error {
	s.cfg.failed(op, err)
	return err
}

func (s *Redis) begin(k match.Key) error {
	return k.Validate()
}

// Create implements the store's Create with one script call (and, when a
// player is busy, one read of the game they are in).
func (s *Redis) Create(ctx context.Context, rec *match.Record) error {
	n, err := s.cfg.prepareCreate(ctx, rec)
	if err != nil {
		return err
	}
	op := newID() // lets the script recognise a resend of this very write
	b, err := encodeRecord(n, op)
	if err != nil {
		return fmt.Errorf("sessions: create %s: %w: %w", n.Key, match.ErrInvalid, err)
	}
	k := n.Key
	sched := newScheduleChange(nil, n)
	for attempt := 0; ; attempt++ {
		now := s.cfg.now()
		ttl := s.cfg.ttl(n)
		keys := []string{s.gameKey(k, n.ID), s.indexKey(k), s.playersKey(k), s.legacyKey(k), s.dueKey(k), s.leaseKey(k)}
		args := []any{b, ttl.Milliseconds(), now.UnixMilli(), op, replayWindow.Milliseconds(), s.cfg.maxGames,
			n.ID, newIndexEntry(n, now, ttl), s.cfg.idleTTL.Milliseconds(), sched.arg()}
		if nc := match.Nonce(ctx); nc != "" {
			keys = append(keys, s.onceKey(k, nc))
		}
		for _, p := range n.Bound() {
			args = append(args, p)
		}
		res, err := s.writeScript(ctx, k, sched, createScript, keys, args)
		if err != nil {
			return err
		}
		switch code, arg := scriptReply(res); {
		case code == 1:
			s.cache.put(n.Clone(), false)
			*rec = *n
			return nil
		case code == 0 && len(res) == 2:
			cur, err := s.Load(ctx, k, arg)
			if err != nil && !errors.Is(err, match.ErrNoGame) {
				return err
			}
			if err == nil && cur.Active(s.cfg.now()) {
				return &match.BusyError{Existing: cur, Player: busyPlayer(cur, n.Bound())}
			}
			if attempt < 3 {
				continue // the game in the way has just ended: try again
			}
			// The index holds a game whose record is gone (evicted,
			// deleted by hand) or over: Repair removes the entry.
			return s.corrupt("create", &match.CorruptError{Key: k, Err: fmt.Errorf("the index holds game %s, whose record is gone or over", arg)})
		case code == 4:
			return &match.FullError{Key: k, Max: s.cfg.maxGames}
		case code == 3:
			return fmt.Errorf("sessions: create %s: %w", k, match.ErrReplay)
		case code == -2:
			return s.corrupt("create", wrongKeyType(k, arg))
		case code == -5:
			return s.fail("create", k, errors.New("game id drawn twice"))
		case code == -6:
			return s.corrupt("create", &match.CorruptError{Key: k, Err: errors.New("the legacy record cannot be read")})
		}
		return s.fail("create", k, fmt.Errorf("unexpected script reply %v", res))
	}
}

// busyPlayer returns the first of ids that r binds, or "".
func busyPlayer(r *match.Record, ids []string) string {
	for _, b := range r.Bound() {
		if slices.Contains(ids, b) {
			return b
		}
	}
	return ""
}

// scriptReply splits a script's {code, detail} reply; code is -99 for a
// reply of another shape.
func scriptReply(res []any) (code int64, arg string) {
	if len(res) == 0 || len(res) > 2 {
		return -99, ""
	}
	code, ok := res[0].(int64)
	if !ok {
		return -99, ""
	}
	if len(res) == 2 {
		if arg, ok = res[1].(string); !ok {
			return -99, ""
		}
	}
	return code, arg
}

// wrongType is the corruption of a key of channel k holding a Redis type it
// should not.
func wrongType(k match.Key, what, typ string) error {
	return &match.CorruptError{Key: k, Err: fmt.Errorf("%s key holds a %.20s, not a %s", what, typ, map[string]string{"game": "string", "leaderboard": "hash"}[what])}
}

// wrongKeyType is the corruption of channel k's key holding the wrong type.
func wrongKeyType(k match.Key, key string) error {
	return &match.CorruptError{Key: k, Err: fmt.Errorf("key %.200s holds the wrong type", key)}
}

// isWrongType reports whether err is Redis refusing a command for the key's type.
func isWrongType(err error) bool {
	return err != nil && strings.HasPrefix(err.Error(), "WRONGTYPE")
}

// Load implements the store's Load with one MGET of the record's key and
// the channel's legacy key (and a TYPE when neither holds the game).
func (s *Redis) Load(ctx context.Context, k match.Key, gameID string) (*match.Record, error) {
	if err := s.begin(k); err != nil {
		return nil, err
	}
	r, _, err := s.load(ctx, k, gameID)
	return r, err
}

// load reads record gameID of k, and whether it is the legacy record.
func (s *Redis) load(ctx context.Context, k match.Key, gameID string) (*match.Record, bool, error) {
	if !match.ValidGameID(gameID) {
		return nil, false, match.ErrNoGame
	}
	vals, err := s.c.MGet(ctx, s.gameKey(k, gameID), s.legacyKey(k)).Result()
	if err != nil {
		return nil, false, s.fail("load", k, err)
	}
	str := func(i int) (string, bool) {
		if i >= len(vals) {
			return "", false
		}
		v, ok := vals[i].(string)
		return v, ok
	}
	if b, ok := str(0); ok {
		r, err := decodeRecord(k, []byte(b))
		if err == nil && r.ID != gameID {
			err = &match.CorruptError{Key: k, Err: fmt.Errorf("record at game %s has id %s", gameID, r.ID)}
		}
		if err != nil {
			s.cache.drop(k, gameID)
			return nil, false, s.corrupt("load", err)
		}
		s.cache.put(r.Clone(), false)
		return r, false, nil
	}
	if b, ok := str(1); ok {
		if r, err := decodeRecord(k, []byte(b)); err == nil && r.ID == gameID {
			s.cache.put(r.Clone(), true)
			return r, true, nil
		}
	}
	s.cache.drop(k, gameID)
	// MGET answers nil for a key of another type: tell that from a missing game.
	typ, err := s.c.Type(ctx, s.gameKey(k, gameID)).Result()
	if err != nil {
		return nil, false, s.fail("load", k, err)
	}
	if typ != "none" {
		return nil, false, s.corrupt("load", wrongType(k, "game", typ))
	}
	return nil, false, match.ErrNoGame
}

// Active implements the store's Active: the index and the legacy record
// in one round trip, then the active games' records in one MGET.
func (s *Redis) Active(ctx context.Context, k match.Key) ([]*match.Record, error) {
	if err := s.begin(k); err != nil {
		return nil, err
	}
	var idx *redis.MapStringStringCmd
	var leg *redis.StringCmd
	_, err := s.c.Pipelined(ctx, func(p redis.Pipeliner) error {
		idx = p.HGetAll(ctx, s.indexKey(k))
		leg = p.Get(ctx, s.legacyKey(k))
		return nil
	})
	if err != nil && !errors.Is(err, redis.Nil) {
		if isWrongType(err) {
			return nil, s.corrupt("active", &match.CorruptError{Key: k, Err: errors.New("the index or the legacy record holds the wrong type")})
		}
		return nil, s.fail("active", k, err)
	}
	now := s.cfg.now()
	var out []*match.Record
	if b, err := leg.Result(); err == nil {
		if r, err := decodeRecord(k, []byte(b)); err == nil && r.Active(now) {
			s.cache.put(r.Clone(), true)
			out = append(out, r)
		}
	}
	var ids []string
	for id, v := range idx.Val() {
		if e, ok := parseIndexEntry(v); ok && e.live(now) && match.ValidGameID(id) {
			ids = append(ids, id)
		}
	}
	if len(ids) > 0 {
		keys := make([]string, len(ids))
		for i, id := range ids {
			keys[i] = s.gameKey(k, id)
		}
		vals, err := s.c.MGet(ctx, keys...).Result()
		if err != nil {
			return nil, s.fail("active", k, err)
		}
		for i, v := range vals {
			b, ok := v.(string)
			if !ok {
				continue // gone meanwhile
			}
			r, err := decodeRecord(k, []byte(b))
			if err != nil || r.ID != ids[i] {
				return nil, s.corrupt("active", &match.CorruptError{Key: k, Err: fmt.Errorf("game %s: %w", ids[i], err)})
			}
			if r.Active(now) {
				s.cache.put(r.Clone(), false)
				out = append(out, r)
			}
		}
	}
	slices.SortFunc(out, func(a, b *match.Record) int {
		return cmp.Or(a.Created.Compare(b.Created), cmp.Compare(a.ID, b.ID))
	})
	return out, nil
}

// PlayerGame implements the store's PlayerGame: the player's binding and
// the legacy record in one round trip, then the game's record.
func (s *Redis) PlayerGame(ctx context.Context, k match.Key, userID string) (*match.Record, error) {
	if err := s.begin(k); err != nil {
		return nil, err
	}
	if userID == "" || len(userID) > match.MaxIDLen {
		return nil, match.ErrNoGame
	}
	// One script rather than a pipeline: a pipeline's replies are each
	// waited for (and retried) on a server that has stopped answering.
	res, err := playerGameScript.Run(ctx, s.c, []string{s.playersKey(k), s.legacyKey(k)}, userID).StringSlice()
	if err != nil {
		if isWrongType(err) {
			return nil, s.corrupt("player game", &match.CorruptError{Key: k, Err: errors.New("the players index or the legacy record holds the wrong type")})
		}
		return nil, s.fail("player game", k, err)
	}
	if len(res) != 2 {
		return nil, s.fail("player game", k, fmt.Errorf("unexpected script reply %v", res))
	}
	now := s.cfg.now()
	if id := res[0]; id != "" {
		r, _, err := s.load(ctx, k, id)
		switch {
		case err == nil && r.Active(now) && slices.Contains(r.Bound(), userID):
			return r, nil
		case err != nil && !errors.Is(err, match.ErrNoGame):
			return nil, err
		}
	}
	if b := res[1]; b != "" {
		if r, err := decodeRecord(k, []byte(b)); err == nil && r.Active(now) && slices.Contains(r.Bound(), userID) {
			s.cache.put(r.Clone(), true)
			return r, nil
		}
	}
	return nil, match.ErrNoGame
}

// markFinished points the players of next at it as their last finished
// game when the write of next over cur finished it. It is one pipelined
// HSET and PEXPIRE after the record's write, not part of it: the pointer is
// idempotent and a lost one only makes LastFinished say there is none, so
// a failure is not the update's.
func (s *Redis) markFinished(ctx context.Context, cur, next *match.Record) {
	ids := finishedBy(cur, next)
	if len(ids) == 0 {
		return
	}
	key := s.lastKey(next.Key)
	_, _ = s.c.TxPipelined(ctx, func(p redis.Pipeliner) error {
		for _, id := range ids {
			p.HSet(ctx, key, id, next.ID)
		}
		p.PExpire(ctx, key, s.cfg.finishedTTL)
		return nil
	})
}

// LastFinished implements the store's LastFinished: one HGET of the
// channel's pointers, then the Load of the record.
func (s *Redis) LastFinished(ctx context.Context, k match.Key, userID string) (*match.Record, error) {
	if err := s.begin(k); err != nil {
		return nil, err
	}
	id, err := s.c.HGet(ctx, s.lastKey(k), userID).Result()
	switch {
	case errors.Is(err, redis.Nil):
		return nil, match.ErrNoGame
	case isWrongType(err):
		return nil, s.corrupt("last finished", wrongKeyType(k, s.lastKey(k)))
	case err != nil:
		return nil, s.fail("last finished", k, err)
	case !match.ValidGameID(id):
		return nil, s.corrupt("last finished", &match.CorruptError{Key: k, Err: fmt.Errorf("last finished game of %s is %.60q", userID, id)})
	}
	r, err := s.Load(ctx, k, id)
	if err != nil {
		return nil, err
	}
	if r.Status != match.StatusFinished {
		return nil, match.ErrNoGame
	}
	return r, nil
}

// Update implements the store's Update: one compare-and-set script that
// also applies the tally and keeps the indexes, started from the cached
// record when there is one (else after a read); a mismatch returns the
// stored record for the retry.
func (s *Redis) Update(ctx context.Context, k match.Key, gameID string, fn func(r *match.Record) (match.Tally, error)) (*match.Record, error) {
	if err := s.begin(k); err != nil {
		return nil, err
	}
	var cached *match.Record
	c, legacy := s.cache.get(k, gameID)
	if c != nil {
		cached = c.Clone()
	}
	load := func(ctx context.Context) (*match.Record, error) {
		r, leg, err := s.load(ctx, k, gameID)
		if err == nil {
			legacy = leg
		}
		return r, err
	}
	cas := func(ctx context.Context, cur, next *match.Record, t match.Tally) (bool, *match.Record, error) {
		return s.cas(ctx, cur, next, t, legacy)
	}
	return s.cfg.update(ctx, k, gameID, fn, cached, load, cas)
}

func (s *Redis) cas(ctx context.Context, cur, next *match.Record, t match.Tally, legacy bool) (bool, *match.Record, error) {
	k := next.Key
	op := newID() // lets the script recognise a resend of this very write
	b, err := encodeRecord(next, op)
	if err != nil {
		return false, nil, fmt.Errorf("sessions: update %s: %w: %w", k, match.ErrInvalid, err)
	}
	rated := []any{"", "", "", "", "", 0, 0, "", "", "", "", ""}
	if t.Rated {
		plan, err := s.ratingPlan(ctx, k, t)
		if err != nil {
			return false, nil, err
		}
		next.Rating = &plan.change
		if b, err = encodeRecord(next, op); err != nil {
			return false, nil, fmt.Errorf("sessions: update %s: %w: %w", k, match.ErrInvalid, err)
		}
		rated = plan.args()
	}
	now := s.cfg.now()
	ttl := s.cfg.ttl(next)
	recKey, entry := s.gameKey(k, cur.ID), "-"
	switch {
	case legacy:
		recKey, entry = s.legacyKey(k), ""
	case next.Active(now):
		entry = newIndexEntry(next, now, ttl)
	}
	sched := newScheduleChange(cur, next)
	keys := append(append([]string{recKey}, s.tallyKeys(k)...), s.indexKey(k), s.playersKey(k), s.dueKey(k), s.leaseKey(k))
	args := []any{cur.Version, b, ttl.Milliseconds(), op, tallyKind(t),
		t.Winner.ID, t.Winner.Name, t.Loser.ID, t.Loser.Name, s.cfg.lbTTL.Milliseconds(), cur.ID, replayWindow.Milliseconds()}
	if n := match.Nonce(ctx); n != "" {
		keys = append(keys, s.onceKey(k, n))
	}
	args = append(append(args, rated...), entry, s.cfg.idleTTL.Milliseconds(), now.UnixMilli(), tallyOthers(t), sched.arg())
	for _, p := range next.Bound() {
		args = append(args, p)
	}
	res, err := s.writeScript(ctx, k, sched, casScript, keys, args)
	if err != nil {
		return false, nil, err
	}
	switch code, arg := scriptReply(res); code {
	case 1, 2:
		s.cache.put(next.Clone(), legacy)
		s.markFinished(ctx, cur, next)
		return true, nil, nil
	case 0:
		stored, err := decodeRecord(k, []byte(arg))
		if err == nil && stored.ID != cur.ID {
			err = &match.CorruptError{Key: k, Err: fmt.Errorf("record at game %s has id %s", cur.ID, stored.ID)}
		}
		if err != nil {
			s.cache.drop(k, cur.ID)
			return false, nil, s.corrupt("update", err)
		}
		s.cache.put(stored.Clone(), legacy)
		return false, stored, nil
	case 3:
		return false, nil, fmt.Errorf("sessions: update %s: %w", k, match.ErrReplay)
	case 5: // a rating moved between our read and our write: read again
		return false, cur, nil
	case 6:
		other, err := s.Load(ctx, k, arg)
		if err != nil {
			if errors.Is(err, match.ErrNoGame) { // it ended meanwhile: try again
				return false, cur, nil
			}
			return false, nil, err
		}
		return false, nil, &match.BusyError{Existing: other, Player: busyPlayer(other, next.Bound())}
	case -1:
		s.cache.drop(k, cur.ID)
		return false, nil, match.ErrNoGame
	case -2:
		s.cache.drop(k, cur.ID)
		return false, nil, s.corrupt("update", wrongType(k, "game", arg))
	case -3:
		return false, nil, s.corrupt("update", &match.CorruptError{Key: k, Err: fmt.Errorf("key %s holds the wrong type", arg)})
	case -4:
		return false, nil, s.corrupt("update", &match.CorruptError{Key: k, Err: fmt.Errorf("leaderboard count %.60q is not a whole number", arg)})
	}
	return false, nil, s.fail("update", k, fmt.Errorf("unexpected script reply %v", res))
}

// Delete removes the record gameID of channel k (its index entry and its
// players' bindings with it) with one script call; the leaderboard is
// kept.
func (s *Redis) Delete(ctx context.Context, k match.Key, gameID string) error {
	if err := s.begin(k); err != nil {
		return err
	}
	if !match.ValidGameID(gameID) {
		return nil
	}
	s.cache.drop(k, gameID)
	res, err := deleteScript.Run(ctx, s.c, []string{s.gameKey(k, gameID), s.indexKey(k), s.playersKey(k), s.legacyKey(k)}, gameID).Result()
	if err != nil {
		return s.fail("delete", k, err)
	}
	if r, ok := res.([]any); ok {
		if code, arg := scriptReply(r); code == -2 {
			return s.corrupt("delete", wrongKeyType(k, arg))
		}
	}
	return nil
}

// Leaderboard implements the store's Leaderboard with one HGETALL; the sorting
// happens here, as a channel has few players.
func (s *Redis) Leaderboard(ctx context.Context, k match.Key, n int) ([]match.Standing, error) {
	if err := s.begin(k); err != nil {
		return nil, err
	}
	h, err := s.c.HGetAll(ctx, s.lbKey(k)).Result()
	if isWrongType(err) {
		return nil, s.corrupt("leaderboard", wrongType(k, "leaderboard", "value of another type"))
	}
	if err != nil {
		return nil, s.fail("leaderboard", k, err)
	}
	if len(h) == 0 {
		return nil, nil
	}
	byID := map[string]*match.Standing{}
	for f, v := range h {
		kind, id, ok := strings.Cut(f, ":")
		if !ok || id == "" || len(id) > match.MaxIDLen {
			return nil, s.corrupt("leaderboard", &match.CorruptError{Key: k, Err: fmt.Errorf("leaderboard field %.40q", f)})
		}
		st := byID[id]
		if st == nil {
			st = &match.Standing{Player: match.Player{ID: id}}
			byID[id] = st
		}
		if err := setStanding(st, kind, v); err != nil {
			return nil, s.corrupt("leaderboard", &match.CorruptError{Key: k, Err: err})
		}
	}
	ss := make([]match.Standing, 0, len(byID))
	for _, st := range byID {
		ss = append(ss, *st)
	}
	return rankStandings(ss, n), nil
}

// Stats implements the store's Stats with one pipeline: the counts, the
// rating and the rating history.
func (s *Redis) Stats(ctx context.Context, k match.Key, userID string) (match.Standing, error) {
	st := match.Standing{Player: match.Player{ID: userID}}
	if err := s.begin(k); err != nil {
		return st, err
	}
	if userID == "" || len(userID) > match.MaxIDLen {
		return st, nil
	}
	kinds := [...]string{"w", "l", "d", "n"}
	fields := make([]string, len(kinds))
	for i, kind := range kinds {
		fields[i] = kind + ":" + userID
	}
	// HMGET, not HGET, for the rating and history: a missing field is a
	// nil entry rather than a redis.Nil error failing the pipeline.
	var lb, rt, rh *redis.SliceCmd
	_, err := s.c.Pipelined(ctx, func(p redis.Pipeliner) error {
		lb = p.HMGet(ctx, s.lbKey(k), fields...)
		rt = p.HMGet(ctx, s.tagged(k, "rt"), userID)
		rh = p.HMGet(ctx, s.tagged(k, "rth"), userID)
		return nil
	})
	if isWrongType(err) {
		return st, s.corrupt("stats", &match.CorruptError{Key: k, Err: errors.New("a leaderboard or rating key holds the wrong type")})
	}
	if err != nil {
		return st, s.fail("stats", k, err)
	}
	bad := func(err error) (match.Standing, error) {
		return match.Standing{Player: match.Player{ID: userID}}, s.corrupt("stats", &match.CorruptError{Key: k, Err: err})
	}
	for i, v := range lb.Val() {
		str, ok := v.(string)
		if !ok {
			continue // nil: no such field
		}
		if err := setStanding(&st, kinds[i], str); err != nil {
			return bad(err)
		}
	}
	if v := pair(rt.Val())[0]; v != "" {
		r, err := match.DecodeRating(v)
		if err != nil {
			return bad(err)
		}
		st.Rating = &r
	}
	if st.History, err = match.DecodeHistory(pair(rh.Val())[0]); err != nil {
		return bad(err)
	}
	return st, nil
}

// setStanding sets one leaderboard field, of kind w, l, d or n, on st.
func setStanding(st *match.Standing, kind, v string) error {
	if kind == "n" {
		if len(v) > match.MaxNameLen {
			return fmt.Errorf("leaderboard name of %q longer than %d bytes", st.Player.ID, match.MaxNameLen)
		}
		st.Player.Name = v
		return nil
	}
	n, err := strconv.Atoi(v)
	if err != nil || n < 0 {
		return fmt.Errorf("leaderboard count %s:%s = %.20q", kind, st.Player.ID, v)
	}
	switch kind {
	case "w":
		st.Wins = n
	case "l":
		st.Losses = n
	case "d":
		st.Draws = n
	default:
		return fmt.Errorf("leaderboard field kind %.10q", kind)
	}
	return nil
}

// Ping reports whether Redis answers, with one PING.
func (s *Redis) Ping(ctx context.Context) error {
	if err := s.c.Ping(ctx).Err(); err != nil {
		return s.fail("ping", match.Key{}, err)
	}
	return nil
}

// TTL returns how long the record gameID of channel k and the channel's
// leaderboard have left to live, 0 for one that does not exist and -1 for
// one that never expires. It costs one round trip (two PTTLs in a pipeline;
// both keys share a slot).
func (s *Redis) TTL(ctx context.Context, k match.Key, gameID string) (game, leaderboard time.Duration, err error) {
	if err := s.begin(k); err != nil {
		return 0, 0, err
	}
	var g, l *redis.Cmd
	_, err = s.c.Pipelined(ctx, func(p redis.Pipeliner) error {
		g = p.Do(ctx, "PTTL", s.gameKey(k, gameID))
		l = p.Do(ctx, "PTTL", s.lbKey(k))
		return nil
	})
	if err != nil {
		return 0, 0, s.fail("ttl", k, err)
	}
	conv := func(c *redis.Cmd) time.Duration {
		switch ms, _ := c.Int64(); {
		case ms == -2:
			return 0
		case ms == -1:
			return -1
		default:
			return time.Duration(ms) * time.Millisecond
		}
	}
	return conv(g), conv(l), nil
}

// Repair implements the store's Repair. It checks the legacy record and
// every record the index of active games points at: a record that cannot be
// read back is removed (with a script that deletes it only if it is still
// the value found, so a game written meanwhile is never lost); index
// entries for records that are missing, finished, expired or unreadable,
// and per-player entries for games that are not active, are removed (each
// only if it still holds what was found); an index of the wrong type is
// removed as a whole. Then it removes the leaderboard entries that are not
// counts or names, or the leaderboard when it is not a hash. A few round
// trips per record: it is an operator's command, not a hot path.
func (s *Redis) Repair(ctx context.Context, k match.Key) (match.Repair, error) {
	var rep match.Repair
	if err := s.begin(k); err != nil {
		return rep, err
	}
	worst := func(r match.RecordRepair) { rep.Record = max(rep.Record, r) }
	now := s.cfg.now()
	alive := map[string]bool{}
	res, legID, err := s.repairRecord(ctx, k, s.legacyKey(k), "")
	if err != nil {
		return rep, err
	}
	worst(res)
	if legID != "" {
		alive[legID] = true
	}
	for _, ix := range []string{s.indexKey(k), s.playersKey(k), s.lastKey(k)} {
		switch typ, err := s.c.Type(ctx, ix).Result(); {
		case err != nil:
			return rep, s.fail("repair", k, err)
		case typ != "none" && typ != "hash":
			found := ""
			if typ == "string" {
				found, _ = s.c.Get(ctx, ix).Result()
			}
			if err := s.deleteIf(ctx, k, ix, typ, found); err != nil {
				return rep, err
			}
			rep.IndexDropped++
		}
	}
	// A pointer to a last finished game that is not a game id.
	last, err := s.c.HGetAll(ctx, s.lastKey(k)).Result()
	if err != nil && !isWrongType(err) {
		return rep, s.fail("repair", k, err)
	}
	for f, v := range last {
		if !match.ValidGameID(v) {
			if err := s.hdelIf(ctx, k, s.lastKey(k), f, v, &rep); err != nil {
				return rep, err
			}
		}
	}
	idx, err := s.c.HGetAll(ctx, s.indexKey(k)).Result()
	if err != nil && !isWrongType(err) {
		return rep, s.fail("repair", k, err)
	}
	for id, v := range idx {
		e, ok := parseIndexEntry(v)
		keep := false
		if ok && match.ValidGameID(id) {
			res, activeID, err := s.repairRecord(ctx, k, s.gameKey(k, id), id)
			if err != nil {
				return rep, err
			}
			worst(res)
			keep = activeID == id && e.live(now)
		}
		if keep {
			alive[id] = true
			continue
		}
		if err := s.hdelIf(ctx, k, s.indexKey(k), id, v, &rep); err != nil {
			return rep, err
		}
	}
	players, err := s.c.HGetAll(ctx, s.playersKey(k)).Result()
	if err != nil && !isWrongType(err) {
		return rep, s.fail("repair", k, err)
	}
	// A player bound to an active game the index lost (a damaged index
	// was removed): index that game again, so the limits hold for it.
	for _, id := range players {
		if alive[id] || !match.ValidGameID(id) {
			continue
		}
		if ok, err := s.reindex(ctx, k, id, now); err != nil {
			return rep, err
		} else if ok {
			alive[id] = true
			worst(match.RecordFine)
		}
	}
	for p, id := range players {
		if !alive[id] {
			if err := s.hdelIf(ctx, k, s.playersKey(k), p, id, &rep); err != nil {
				return rep, err
			}
		}
	}
	// And bind again the players of indexed games that a damaged
	// per-player index lost.
	for id := range alive {
		if id == legID {
			continue
		}
		r, _, err := s.load(ctx, k, id)
		if err != nil {
			continue
		}
		for _, p := range r.Bound() {
			if players[p] != id {
				if err := s.c.HSetNX(ctx, s.playersKey(k), p, id).Err(); err != nil {
					return rep, s.fail("repair", k, err)
				}
			}
		}
	}
	s.cache.drop(k, legID)
	for id := range idx {
		s.cache.drop(k, id)
	}
	ratingsTouched := false
	for i, h := range s.seasonHashes(k) {
		dropped, cleared, err := s.repairHash(ctx, k, h.key, h.valid)
		if err != nil {
			return rep, err
		}
		rep.EntriesDropped += dropped
		rep.LeaderboardCleared = rep.LeaderboardCleared || cleared
		if i == 1 && (dropped > 0 || cleared) {
			ratingsTouched = true
		}
	}
	// The sorted set of ratings mirrors the ratings hash: rebuild it from
	// what is left there when either was damaged, and drop a write counter
	// that is not a number.
	cleared, err := s.repairIndex(ctx, k, ratingsTouched)
	if err != nil {
		return rep, err
	}
	rep.LeaderboardCleared = rep.LeaderboardCleared || cleared
	return rep, nil
}

// repairRecord checks the record at key (of game id, "" for the legacy
// key, whose id is read from it), removes it when it cannot be read back,
// and returns what it did and the record's id when it is readable and
// active ("" otherwise).
func (s *Redis) repairRecord(ctx context.Context, k match.Key, key, id string) (match.RecordRepair, string, error) {
	typ, err := s.c.Type(ctx, key).Result()
	if err != nil {
		return 0, "", s.fail("repair", k, err)
	}
	switch typ {
	case "none":
		return match.RecordNone, "", nil
	case "string":
		b, err := s.c.Get(ctx, key).Result()
		if errors.Is(err, redis.Nil) {
			return match.RecordNone, "", nil // expired meanwhile
		}
		if err != nil {
			return 0, "", s.fail("repair", k, err)
		}
		r, err := decodeRecord(k, []byte(b))
		if err == nil && (id == "" || r.ID == id) {
			if r.Active(s.cfg.now()) {
				return match.RecordFine, r.ID, nil
			}
			return match.RecordNone, "", nil
		}
		if errors.Is(err, errNewerSchema) {
			// A replica of a newer version wrote it: not ours to clear.
			return match.RecordFine, id, nil
		}
		if err := s.deleteIf(ctx, k, key, typ, b); err != nil {
			return 0, "", err
		}
		return match.RecordCleared, "", nil
	}
	if err := s.deleteIf(ctx, k, key, typ, ""); err != nil {
		return 0, "", err
	}
	return match.RecordCleared, "", nil
}

// reindex adds the index entry of record id of k when it is readable and
// active, and reports whether it did.
func (s *Redis) reindex(ctx context.Context, k match.Key, id string, now time.Time) (bool, error) {
	r, legacy, err := s.load(ctx, k, id)
	if err != nil || legacy || !r.Active(now) {
		return false, nil
	}
	ttl, err := s.c.PTTL(ctx, s.gameKey(k, id)).Result()
	if err != nil {
		return false, s.fail("repair", k, err)
	}
	if ttl <= 0 {
		ttl = s.cfg.ttl(r)
	}
	if err := s.c.HSet(ctx, s.indexKey(k), id, newIndexEntry(r, now, ttl)).Err(); err != nil {
		return false, s.fail("repair", k, err)
	}
	return true, nil
}

// hdelIf removes field f of hash key if it still holds v, counting it in rep.
func (s *Redis) hdelIf(ctx context.Context, k match.Key, key, f, v string, rep *match.Repair) error {
	n, err := hdelIfScript.Run(ctx, s.c, []string{key}, f, v).Int()
	if err != nil {
		return s.fail("repair", k, err)
	}
	rep.IndexDropped += n
	return nil
}

// seasonHash is a hash of the season's data with the rule for its entries.
type seasonHash struct {
	key   string
	valid func(field, value string) bool
}

// seasonHashes are the channel's season hashes: the leaderboard, ratings,
// rating histories and head-to-head counts.
func (s *Redis) seasonHashes(k match.Key) []seasonHash {
	id := func(s string) bool { return s != "" && len(s) <= match.MaxIDLen }
	return []seasonHash{
		{s.lbKey(k), func(f, v string) bool {
			kind, uid, ok := strings.Cut(f, ":")
			return ok && id(uid) && setStanding(&match.Standing{}, kind, v) == nil
		}},
		{s.tagged(k, "rt"), func(f, v string) bool { _, err := match.DecodeRating(v); return id(f) && err == nil }},
		{s.tagged(k, "rth"), func(f, v string) bool { _, err := match.DecodeHistory(v); return id(f) && err == nil }},
		{s.tagged(k, "h2h"), func(f, v string) bool {
			n, err := strconv.Atoi(v)
			return strings.ContainsAny(f, ">=") && err == nil && n >= 0 && len(v) <= 15
		}},
	}
}

// repairHash drops the entries of hash key that valid refuses, or the key
// when it is not a hash.
func (s *Redis) repairHash(ctx context.Context, k match.Key, key string, valid func(f, v string) bool) (dropped int, cleared bool, err error) {
	switch typ, err := s.c.Type(ctx, key).Result(); {
	case err != nil:
		return 0, false, s.fail("repair", k, err)
	case typ == "none":
		return 0, false, nil
	case typ != "hash":
		if err := s.c.Del(ctx, key).Err(); err != nil {
			return 0, false, s.fail("repair", k, err)
		}
		return 0, true, nil
	}
	h, err := s.c.HGetAll(ctx, key).Result()
	if err != nil {
		return 0, false, s.fail("repair", k, err)
	}
	var bad []string
	for f, v := range h {
		if !valid(f, v) {
			bad = append(bad, f)
		}
	}
	if len(bad) > 0 {
		if err := s.c.HDel(ctx, key, bad...).Err(); err != nil {
			return 0, false, s.fail("repair", k, err)
		}
	}
	return len(bad), false, nil
}

// repairIndex removes a write counter that is not a number, and, when
// force is set or the sorted set of ratings is not a sorted set, rebuilds
// it from the ratings that can be read. It reports whether it removed or
// rebuilt a damaged key.
func (s *Redis) repairIndex(ctx context.Context, k match.Key, force bool) (bool, error) {
	zk, gk := s.tagged(k, "rtz"), s.tagged(k, "gen")
	damaged := false
	if g, err := s.c.Get(ctx, gk).Result(); isWrongType(err) || err == nil && strings.Trim(g, "0123456789") != "" {
		if err := s.c.Del(ctx, gk).Err(); err != nil {
			return false, s.fail("repair", k, err)
		}
		damaged = true
	}
	typ, err := s.c.Type(ctx, zk).Result()
	if err != nil {
		return damaged, s.fail("repair", k, err)
	}
	if typ != "none" && typ != "zset" {
		force, damaged = true, true
	}
	if !force {
		return damaged, nil
	}
	h, err := s.c.HGetAll(ctx, s.tagged(k, "rt")).Result()
	if err != nil {
		return damaged, s.fail("repair", k, err)
	}
	want := make([]redis.Z, 0, len(h))
	for id, v := range h {
		r, err := match.DecodeRating(v)
		if err == nil {
			want = append(want, redis.Z{Score: r.Rating.Rating, Member: id})
		}
	}
	_, err = s.c.TxPipelined(ctx, func(p redis.Pipeliner) error {
		p.Del(ctx, zk)
		if len(want) > 0 {
			p.ZAdd(ctx, zk, want...)
		}
		return nil
	})
	if err != nil {
		return damaged, s.fail("repair", k, err)
	}
	return damaged, nil
}

// deleteIf removes key of channel k if it still is of type typ (and, for a
// string, still the value found).
func (s *Redis) deleteIf(ctx context.Context, k match.Key, key, typ, found string) error {
	if err := deleteIfScript.Run(ctx, s.c, []string{key}, typ, found).Err(); err != nil {
		return s.fail("repair", k, err)
	}
	return nil
}
