package sessions

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

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
		keys := []string{s.gameKey(k, n.ID), s.indexKey(k), s.playersKey(k), s.dueKey(k), s.leaseKey(k)}
		args := []any{b, ttl.Milliseconds(), now.UnixMilli(), op, replayWindow.Milliseconds(), s.cfg.maxGames,
			n.ID, newIndexEntry(n, now, ttl), s.indexTTL().Milliseconds()}
		nonce := ""
		if nc := match.Nonce(ctx); nc != "" {
			keys, nonce = append(keys, s.onceKey(k, nc)), "n"
		}
		bound := n.Bound()
		args = append(args, nonce, len(bound))
		for _, p := range bound {
			args = append(args, p)
		}
		args = sched.appendArgs(args)
		res, err := s.writeScript(ctx, k, sched, true, createScript, keys, args)
		if err != nil {
			return err
		}
		switch code, arg := scriptReply(res); {
		case code == 1:
			s.cache.put(n.Clone())
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
		}
		return s.fail("create", k, fmt.Errorf("unexpected script reply %v", res))
	}
}

// Load implements the store's Load with one GET (and, when the game's key
// holds no record, one more round trip: see load).
func (s *Redis) Load(ctx context.Context, k match.Key, gameID string) (*match.Record, error) {
	if err := s.begin(k); err != nil {
		return nil, err
	}
	return s.load(ctx, k, gameID, true)
}

// load reads record gameID of k with one GET. When the game's key holds no
// record it reads, in one more round trip, the key's type (to tell a
// missing game from a damaged key) and the channel's legacy record, which
// it moves to the game's own key when it is that game (see migrateLegacy);
// a key written in between is read again once, when again is set.
func (s *Redis) load(ctx context.Context, k match.Key, gameID string, again bool) (*match.Record, error) {
	if !match.ValidGameID(gameID) {
		return nil, match.ErrNoGame
	}
	b, err := s.c.Get(ctx, s.gameKey(k, gameID)).Result()
	switch {
	case err == nil:
		r, err := decodeRecord(k, []byte(b))
		if err == nil && r.ID != gameID {
			err = &match.CorruptError{Key: k, Err: fmt.Errorf("record at game %s has id %s", gameID, r.ID)}
		}
		if err != nil {
			s.cache.drop(k, gameID)
			return nil, s.corrupt("load", err)
		}
		s.cache.put(r.Clone())
		return r, nil
	case !errors.Is(err, redis.Nil) && !isWrongType(err):
		return nil, s.fail("load", k, err)
	}
	s.cache.drop(k, gameID)
	var typ *redis.StatusCmd
	var leg *redis.StringCmd
	_, err = s.c.Pipelined(ctx, func(p redis.Pipeliner) error {
		typ = p.Type(ctx, s.gameKey(k, gameID))
		leg = p.Get(ctx, s.legacyKey(k))
		return nil
	})
	if err != nil && !errors.Is(err, redis.Nil) && !isWrongType(err) {
		return nil, s.fail("load", k, err)
	}
	switch t := typ.Val(); {
	case t == "string" && again:
		return s.load(ctx, k, gameID, false)
	case t != "none":
		return nil, s.corrupt("load", wrongType(k, "game", t))
	}
	if raw, err := leg.Result(); err == nil {
		if r, err := decodeRecord(k, []byte(raw)); err == nil && r.ID == gameID {
			if err := s.migrateLegacy(ctx, k, raw, r); err != nil {
				return nil, err
			}
			s.cache.put(r.Clone())
			return r, nil
		}
	}
	return nil, match.ErrNoGame
}

// migrateLegacy moves r, read as raw from the channel's legacy key (where
// the version before several games per channel kept its one record), to
// its own key, indexed like any other, keeping its TTL (migrateScript). It
// costs two round trips, once per legacy record: Load of its id and Repair
// call it, and nothing else reads the legacy key.
func (s *Redis) migrateLegacy(ctx context.Context, k match.Key, raw string, r *match.Record) error {
	now := s.cfg.now()
	entry := ""
	if r.Active(now) {
		ttl, err := s.c.PTTL(ctx, s.legacyKey(k)).Result()
		if err != nil {
			return s.fail("migrate", k, err)
		}
		if ttl <= 0 {
			ttl = s.cfg.ttl(r)
		}
		entry = newIndexEntry(r, now, ttl)
	}
	args := []any{raw, r.ID, entry, s.indexTTL().Milliseconds()}
	for _, p := range r.Bound() {
		args = append(args, p)
	}
	res, err := migrateScript.Run(ctx, s.c, []string{s.legacyKey(k), s.gameKey(k, r.ID), s.indexKey(k), s.playersKey(k)}, args...).Result()
	if err != nil {
		return s.fail("migrate", k, err)
	}
	if rs, ok := res.([]any); ok {
		if code, arg := scriptReply(rs); code == -2 {
			return s.corrupt("migrate", wrongKeyType(k, arg))
		}
	}
	return nil
}

// Active implements the store's Active: the index in one HGETALL, then the
// active games' records in one MGET.
func (s *Redis) Active(ctx context.Context, k match.Key) ([]*match.Record, error) {
	if err := s.begin(k); err != nil {
		return nil, err
	}
	idx, err := s.c.HGetAll(ctx, s.indexKey(k)).Result()
	if err != nil {
		if isWrongType(err) {
			return nil, s.corrupt("active", &match.CorruptError{Key: k, Err: errors.New("the index holds the wrong type")})
		}
		return nil, s.fail("active", k, err)
	}
	now := s.cfg.now()
	var out []*match.Record
	var ids []string
	for id, v := range idx {
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
				s.cache.put(r.Clone())
				out = append(out, r)
			}
		}
	}
	slices.SortFunc(out, func(a, b *match.Record) int {
		return cmp.Or(a.Created.Compare(b.Created), cmp.Compare(a.ID, b.ID))
	})
	return out, nil
}

// PlayerGame implements the store's PlayerGame: the player's binding in
// one HGET, then the game's record.
func (s *Redis) PlayerGame(ctx context.Context, k match.Key, userID string) (*match.Record, error) {
	if err := s.begin(k); err != nil {
		return nil, err
	}
	if userID == "" || len(userID) > match.MaxIDLen {
		return nil, match.ErrNoGame
	}
	id, err := s.c.HGet(ctx, s.playersKey(k), userID).Result()
	switch {
	case errors.Is(err, redis.Nil):
		return nil, match.ErrNoGame
	case isWrongType(err):
		return nil, s.corrupt("player game", &match.CorruptError{Key: k, Err: errors.New("the players index holds the wrong type")})
	case err != nil:
		return nil, s.fail("player game", k, err)
	}
	r, err := s.load(ctx, k, id, true)
	switch {
	case err == nil && r.Active(s.cfg.now()) && slices.Contains(r.Bound(), userID):
		return r, nil
	case err != nil && !errors.Is(err, match.ErrNoGame):
		return nil, err
	}
	return nil, match.ErrNoGame
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
	cached := s.cache.get(k, gameID)
	load := func(ctx context.Context) (*match.Record, error) { return s.load(ctx, k, gameID, true) }
	return s.cfg.update(ctx, k, gameID, fn, cached, load, s.cas)
}

// cas is the compare-and-set of Update (see casFunc) in one casScript call,
// after one read of the players' ratings when t is rated. The record is
// encoded once, with its rating change.
//
// A move of an active game that binds the players cur bound leaves the
// players' index alone: cur's write bound them to this game, and while it
// is active no other game can take them. Its script neither reads nor
// writes that key, except at each refresh of the expiries (see
// ttlRefresh), when it binds them again, which mends within a slot a
// binding lost meanwhile (an evicted key).
func (s *Redis) cas(ctx context.Context, cur, next *match.Record, t match.Tally) (bool, *match.Record, error) {
	k := next.Key
	var plan *ratingPlan
	if t.Rated {
		var err error
		if plan, err = s.ratingPlan(ctx, k, t); err != nil {
			return false, nil, err
		}
		next.Rating = &plan.change
	}
	op := newID() // lets the script recognise a resend of this very write
	b, err := encodeRecord(next, op)
	if err != nil {
		return false, nil, fmt.Errorf("sessions: update %s: %w: %w", k, match.ErrInvalid, err)
	}
	now := s.cfg.now()
	sched := newScheduleChange(cur, next)
	refresh := s.ttlRefresh(cur, now)
	if t.IsZero() && plainMove(cur, next, now, refresh, sched) {
		return s.move(ctx, cur, next, b, op)
	}
	ttl := s.cfg.ttl(next)
	entry := "-"
	if next.Active(now) {
		entry = newIndexEntry(next, now, ttl)
	}
	// finishedBy's players are next's bound ones, which a finishing write
	// (entry "-") always passes.
	var bound []string
	if b := next.Bound(); refresh || entry == "-" || !cur.Active(now) || !slices.Equal(b, cur.Bound()) {
		bound = b
	}
	keys := make([]string, 5, 15)
	keys[0], keys[1], keys[2], keys[3], keys[4] = s.gameKey(k, cur.ID), s.indexKey(k), s.playersKey(k), s.dueKey(k), s.leaseKey(k)
	nonce := match.Nonce(ctx)
	finished := finishedBy(cur, next)
	opt := ""
	if nonce != "" {
		keys, opt = append(keys, s.onceKey(k, nonce)), "n"
	}
	if !t.IsZero() {
		keys, opt = append(keys, s.tallyKeys(k)...), opt+"t"
	}
	if len(finished) > 0 {
		keys, opt = append(keys, s.lastKey(k)), opt+"f"
	}
	args := make([]any, 0, 24+len(bound))
	args = append(args, cur.Version, b, ttl.Milliseconds(), op, cur.ID, entry, s.indexTTL().Milliseconds(),
		now.UnixMilli(), flag(refresh), opt, len(bound))
	for _, p := range bound {
		args = append(args, p)
	}
	if nonce != "" {
		args = append(args, replayWindow.Milliseconds())
	}
	if !t.IsZero() {
		args = s.tallyArgs(args, t, plan)
	}
	if len(finished) > 0 {
		args = append(args, s.cfg.finishedTTL.Milliseconds())
	}
	args = sched.appendArgs(args)
	res, err := s.writeScript(ctx, k, sched, refresh, casScript, keys, args)
	if err != nil {
		return false, nil, err
	}
	if plan != nil {
		if code, _ := scriptReply(res); code == 1 || code == 2 {
			s.rated.put(k, t, plan.newRatings, plan.newHistories)
		}
		if code, _ := res[0].(int64); code == 5 && len(res) == 5 {
			var v [4]string
			for i := range v {
				v[i], _ = res[i+1].(string)
			}
			s.rated.put(k, t, [2]string{v[0], v[1]}, [2]string{v[2], v[3]})
			res = res[:1]
		}
	}
	return s.casReply(ctx, cur, next, res)
}

// plainMove reports whether the write of next over cur at now, with no
// tally, changes the record alone, so that moveScript can write it: in the
// slot of time of cur's write (no refresh of the expiries is due), both
// active with the same players, status and expiry, so that the index entry
// and the players' bindings stay as they are but for the entry's
// deadline, which with the record's expiry stays that of the slot's first
// write (see redis_ttl.go); and a schedule change that only puts off
// pending timers of cur, whose entries are left early (lazy timers: why
// that is safe is at the top of schedule.go).
func plainMove(cur, next *match.Record, now time.Time, refresh bool, sched scheduleChange) bool {
	return !refresh && len(sched.Remove) == 0 && !sched.hint &&
		cur.Active(now) && next.Active(now) && cur.Status == next.Status &&
		expiresMS(cur.ExpiresAt) == expiresMS(next.ExpiresAt) && slices.Equal(cur.Bound(), next.Bound())
}

// move writes next over cur with moveScript (see plainMove): b is next
// encoded with the write token op.
func (s *Redis) move(ctx context.Context, cur, next *match.Record, b []byte, op string) (bool, *match.Record, error) {
	k := next.Key
	keys := []string{s.gameKey(k, cur.ID)}
	args := []any{cur.Version, b, op, cur.ID}
	if nonce := match.Nonce(ctx); nonce != "" {
		keys = append(keys, s.onceKey(k, nonce))
		args = append(args, replayWindow.Milliseconds())
	}
	res, err := s.writeScript(ctx, k, scheduleChange{}, false, moveScript, keys, args)
	if err != nil {
		return false, nil, err
	}
	return s.casReply(ctx, cur, next, res)
}

// casReply reads casScript's reply to the write of next over cur.
func (s *Redis) casReply(ctx context.Context, cur, next *match.Record, res []any) (bool, *match.Record, error) {
	k := next.Key
	switch code, arg := scriptReply(res); code {
	case 1, 2:
		s.cache.put(next.Clone())
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
		s.cache.put(stored.Clone())
		return false, stored, nil
	case 3:
		return false, nil, fmt.Errorf("sessions: update %s: %w", k, match.ErrReplay)
	case 5: // the ratings planned from are not the stored ones: plan again from those (see cas)
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
	res, err := deleteScript.Run(ctx, s.c, []string{s.gameKey(k, gameID), s.indexKey(k), s.playersKey(k)}, gameID).Result()
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
