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

// Repair implements the store's Repair. It checks every key of the
// channel that the store writes, and the schedule's buckets:
//
//   - the legacy record, which moves to its own key when it can be read
//     (see migrateLegacy), and every record the index of active games
//     points at: a record that cannot be read back is removed (with a script that
//     deletes it only if it is still the value found, so a game written
//     meanwhile is never lost; a record of a newer schema is kept);
//   - the indexes: entries for records that are missing, finished, expired
//     or unreadable, per-player entries for games that are not active, and
//     last-finished pointers that are not game ids are removed (each only if
//     it still holds what was found); an index of the wrong type is removed
//     as a whole, and what it held is rebuilt from the records;
//   - the schedule: the channel's entries and leases, and the buckets of
//     hints, when of the wrong type, are removed, the entries rebuilt from
//     the active records' timers and the channel hinted again (each counts
//     in IndexDropped);
//   - the season: leaderboard, ratings, histories and head-to-head entries
//     that cannot be read, or the whole key when of the wrong type; the
//     sorted set of ratings and the write counter; archived seasons that
//     cannot be read;
//   - the settings, removed when of the wrong type;
//   - the tournament, removed when of the wrong type or unreadable (not
//     when written by a newer version; see repairTournament), and the
//     finished tournaments, removed when of the wrong type.
//
// A few round trips per record: it is an operator's command, not a hot path.
func (s *Redis) Repair(ctx context.Context, k match.Key) (match.Repair, error) {
	var rep match.Repair
	if err := s.begin(k); err != nil {
		return rep, err
	}
	alive, err := s.repairGames(ctx, k, &rep)
	if err != nil {
		return rep, err
	}
	if err := s.repairSchedule(ctx, k, alive, &rep); err != nil {
		return rep, err
	}
	if err := s.repairSeason(ctx, k, &rep); err != nil {
		return rep, err
	}
	if err := s.repairKeyType(ctx, k, s.settingsKey(k), "hash"); err != nil {
		return rep, err
	}
	if rep.TournamentCleared, err = s.repairTournament(ctx, k); err != nil {
		return rep, err
	}
	return rep, nil
}

// repairGames checks the channel's records and indexes (see Repair) and
// returns the set of the ids of its active games.
func (s *Redis) repairGames(ctx context.Context, k match.Key, rep *match.Repair) (map[string]bool, error) {
	worst := func(r match.RecordRepair) { rep.Record = max(rep.Record, r) }
	alive := map[string]bool{}
	for _, ix := range []string{s.indexKey(k), s.playersKey(k), s.lastKey(k)} {
		dropped, err := s.dropWrongType(ctx, k, ix, "hash")
		if err != nil {
			return nil, err
		}
		if dropped {
			rep.IndexDropped++
		}
	}
	// The legacy record, readable, moves to its own key; what is left there
	// cannot be read (or is of a newer schema, and kept).
	raw, err := s.c.Get(ctx, s.legacyKey(k)).Result()
	if err != nil && !errors.Is(err, redis.Nil) && !isWrongType(err) {
		return nil, s.fail("repair", k, err)
	}
	if r, derr := decodeRecord(k, []byte(raw)); err == nil && derr == nil {
		if err := s.migrateLegacy(ctx, k, raw, r); err != nil {
			return nil, err
		}
	}
	res, _, err := s.repairRecord(ctx, k, s.legacyKey(k), "")
	if err != nil {
		return nil, err
	}
	worst(res)
	if err := s.repairLastFinished(ctx, k, rep); err != nil {
		return nil, err
	}
	idx, err := s.repairIndexEntries(ctx, k, alive, worst, rep)
	if err != nil {
		return nil, err
	}
	if err := s.repairPlayers(ctx, k, alive, worst, rep); err != nil {
		return nil, err
	}
	for id := range idx {
		s.cache.drop(k, id)
	}
	return alive, nil
}

// dropWrongType removes key of channel k when it exists with a type other
// than want (a string only if it still holds the value found), and reports
// whether it did.
func (s *Redis) dropWrongType(ctx context.Context, k match.Key, key, want string) (bool, error) {
	typ, err := s.c.Type(ctx, key).Result()
	switch {
	case err != nil:
		return false, s.fail("repair", k, err)
	case typ == "none" || typ == want:
		return false, nil
	}
	found := ""
	if typ == "string" {
		found, _ = s.c.Get(ctx, key).Result()
	}
	return true, s.deleteIf(ctx, k, key, typ, found)
}

// repairKeyType is dropWrongType for a key whose removal Repair does not count.
func (s *Redis) repairKeyType(ctx context.Context, k match.Key, key, want string) error {
	_, err := s.dropWrongType(ctx, k, key, want)
	return err
}

// repairLastFinished removes the last-finished pointers that are not game ids.
func (s *Redis) repairLastFinished(ctx context.Context, k match.Key, rep *match.Repair) error {
	last, err := s.c.HGetAll(ctx, s.lastKey(k)).Result()
	if err != nil && !isWrongType(err) {
		return s.fail("repair", k, err)
	}
	for f, v := range last {
		if !match.ValidGameID(v) {
			if err := s.hdelIf(ctx, k, s.lastKey(k), f, v, rep); err != nil {
				return err
			}
		}
	}
	return nil
}

// repairIndexEntries checks the record of every entry of the index of
// active games, removes the entries that do not stand for one, adds the
// others to alive, and returns the index as found.
func (s *Redis) repairIndexEntries(ctx context.Context, k match.Key, alive map[string]bool, worst func(match.RecordRepair), rep *match.Repair) (map[string]string, error) {
	now := s.cfg.now()
	idx, err := s.c.HGetAll(ctx, s.indexKey(k)).Result()
	if err != nil && !isWrongType(err) {
		return nil, s.fail("repair", k, err)
	}
	for id, v := range idx {
		e, ok := parseIndexEntry(v)
		keep := false
		if ok && match.ValidGameID(id) {
			res, activeID, err := s.repairRecord(ctx, k, s.gameKey(k, id), id)
			if err != nil {
				return nil, err
			}
			worst(res)
			keep = activeID == id && e.live(now)
		}
		if keep {
			alive[id] = true
			continue
		}
		if err := s.hdelIf(ctx, k, s.indexKey(k), id, v, rep); err != nil {
			return nil, err
		}
	}
	return idx, nil
}

// repairPlayers makes the per-player index and the index of active games
// agree: a player bound to an active game the index lost (a damaged index
// was removed) has that game indexed again, so the limits hold for it;
// bindings to games not alive are removed; and the players of indexed games
// that a damaged per-player index lost are bound again.
func (s *Redis) repairPlayers(ctx context.Context, k match.Key, alive map[string]bool, worst func(match.RecordRepair), rep *match.Repair) error {
	now := s.cfg.now()
	players, err := s.c.HGetAll(ctx, s.playersKey(k)).Result()
	if err != nil && !isWrongType(err) {
		return s.fail("repair", k, err)
	}
	for _, id := range players {
		if alive[id] || !match.ValidGameID(id) {
			continue
		}
		if ok, err := s.reindex(ctx, k, id, now); err != nil {
			return err
		} else if ok {
			alive[id] = true
			worst(match.RecordFine)
		}
	}
	for p, id := range players {
		if !alive[id] {
			if err := s.hdelIf(ctx, k, s.playersKey(k), p, id, rep); err != nil {
				return err
			}
		}
	}
	for id := range alive {
		r, err := s.load(ctx, k, id, true)
		if err != nil {
			continue
		}
		for _, p := range r.Bound() {
			if players[p] != id {
				if err := s.c.HSetNX(ctx, s.playersKey(k), p, id).Err(); err != nil {
					return s.fail("repair", k, err)
				}
			}
		}
	}
	return nil
}

// repairSeason checks the season's hashes, the sorted set of ratings, the
// write counter and the archived seasons (see Repair).
func (s *Redis) repairSeason(ctx context.Context, k match.Key, rep *match.Repair) error {
	ratingsTouched := false
	for i, h := range s.seasonHashes(k) {
		dropped, cleared, err := s.repairHash(ctx, k, h.key, h.valid)
		if err != nil {
			return err
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
		return err
	}
	rep.LeaderboardCleared = rep.LeaderboardCleared || cleared
	dropped, cleared, err := s.repairSeasons(ctx, k)
	if err != nil {
		return err
	}
	rep.EntriesDropped += dropped
	rep.LeaderboardCleared = rep.LeaderboardCleared || cleared
	return nil
}

// repairSeasons removes the archived seasons that cannot be read, or the
// list when it is not a list.
func (s *Redis) repairSeasons(ctx context.Context, k match.Key) (dropped int, cleared bool, err error) {
	key := s.tagged(k, "seasons")
	if cleared, err = s.dropWrongType(ctx, k, key, "list"); err != nil || cleared {
		return 0, cleared, err
	}
	raw, err := s.c.LRange(ctx, key, 0, -1).Result()
	if err != nil && !isWrongType(err) {
		return 0, false, s.fail("repair", k, err)
	}
	for _, b := range raw {
		if _, err := decodeSeason(k, b); err == nil {
			continue
		}
		n, err := s.c.LRem(ctx, key, 0, b).Result()
		if err != nil {
			return dropped, false, s.fail("repair", k, err)
		}
		dropped += int(n)
	}
	return dropped, false, nil
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
			return match.RecordNewer, id, nil
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
	r, err := s.load(ctx, k, id, true)
	if err != nil || !r.Active(now) {
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

// repairSchedule checks the schedule's keys (see Repair): the channel's
// entries and leases, and every bucket of hints. A damaged entries key is
// rebuilt from the timers the active records carry and have not fired (the
// entries are a copy of those: Fire makes an entry whose timer was handled
// a no-op); leases are only claims, and hints only hints, so a damaged one
// is dropped. The channel is then hinted at its earliest entry, in case
// its hint was lost with a damaged bucket.
func (s *Redis) repairSchedule(ctx context.Context, k match.Key, alive map[string]bool, rep *match.Repair) error {
	due, err := s.dropWrongType(ctx, k, s.dueKey(k), "zset")
	if err != nil {
		return err
	}
	lease, err := s.dropWrongType(ctx, k, s.leaseKey(k), "hash")
	if err != nil {
		return err
	}
	for _, d := range [...]bool{due, lease} {
		if d {
			rep.IndexDropped++
		}
	}
	for n := range ScheduleBuckets {
		z, g := s.bucketKeys(n)
		for _, b := range [...]struct{ key, typ string }{{z, "zset"}, {g, "hash"}} {
			if d, err := s.dropWrongType(ctx, k, b.key, b.typ); err != nil {
				return err
			} else if d {
				rep.IndexDropped++
			}
		}
	}
	if due {
		if err := s.rebuildEntries(ctx, k, alive); err != nil {
			return err
		}
	}
	first, err := s.c.ZRangeWithScores(ctx, s.dueKey(k), 0, 0).Result()
	if err != nil {
		return s.fail("repair", k, err)
	}
	if len(first) == 1 {
		return s.hint(ctx, k, time.UnixMilli(int64(first[0].Score)))
	}
	return nil
}

// rebuildEntries writes the schedule entries of the timers the active
// records of k carry and have not fired.
func (s *Redis) rebuildEntries(ctx context.Context, k match.Key, alive map[string]bool) error {
	var add []redis.Z
	for id := range alive {
		r, err := s.load(ctx, k, id, true)
		if err != nil {
			continue
		}
		for _, t := range newScheduleChange(nil, r).adds {
			add = append(add, redis.Z{Member: member(r.ID, t.Kind), Score: float64(t.Due.UnixMilli())})
		}
	}
	if len(add) == 0 {
		return nil
	}
	_, err := s.c.TxPipelined(ctx, func(p redis.Pipeliner) error {
		p.ZAddNX(ctx, s.dueKey(k), add...)
		p.PExpire(ctx, s.dueKey(k), s.indexTTL()) // as the record scripts do
		return nil
	})
	if err != nil {
		return s.fail("repair", k, err)
	}
	return nil
}
