package sessions

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"

	"github.com/redis/go-redis/v9"

	"github.com/connect4/connect4/bot/match"
)

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
	// The cached record is shared, but update only reads it: fn gets a copy.
	cached, legacy := s.cache.get(k, gameID)
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

// cas is the compare-and-set of Update (see casFunc) in one casScript call,
// after one read of the players' ratings when t is rated. The record is
// encoded once, with its rating change.
func (s *Redis) cas(ctx context.Context, cur, next *match.Record, t match.Tally, legacy bool) (bool, *match.Record, error) {
	k := next.Key
	rated := []any{"", "", "", "", "", 0, 0, "", "", "", "", ""}
	if t.Rated {
		plan, err := s.ratingPlan(ctx, k, t)
		if err != nil {
			return false, nil, err
		}
		next.Rating = &plan.change
		rated = plan.args()
	}
	op := newID() // lets the script recognise a resend of this very write
	b, err := encodeRecord(next, op)
	if err != nil {
		return false, nil, fmt.Errorf("sessions: update %s: %w: %w", k, match.ErrInvalid, err)
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
	return s.casReply(ctx, cur, next, legacy, res)
}

// casReply reads casScript's reply to the write of next over cur.
func (s *Redis) casReply(ctx context.Context, cur, next *match.Record, legacy bool, res []any) (bool, *match.Record, error) {
	k := next.Key
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
