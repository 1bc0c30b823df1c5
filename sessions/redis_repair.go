package sessions

import (
	"context"
	"errors"
	"strconv"
	"strings"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/connect4/connect4/bot/match"
)

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
		if errors.Is(err, ErrNewerSchema) {
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
