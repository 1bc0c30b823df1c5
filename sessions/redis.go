package sessions

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/connect4/connect4/bot/match"
)

// Redis is the Store on Redis, through a redis.UniversalClient so that one
// code path serves a single node, Sentinel and Cluster. A channel's keys share
// one hash tag:
//
//	<prefix>{<platform>:<workspace>:<channel>}:game   the record, as versioned JSON, with a TTL
//	<prefix>{<platform>:<workspace>:<channel>}:lb     the leaderboard, a hash of per-player counts and names
//
// Reads are one GET (or HGETALL/HMGET); a write is one Lua script. The store
// remembers the last record it read or wrote for recently used channels
// (Options.CacheSize), so an Update on a channel this process served last
// costs one round trip, and two when another replica wrote in between (the
// compare-and-set returns the stored record on a mismatch); add one the
// first time a script runs on a server that has not cached it (EVALSHA is
// refused with NOSCRIPT, then EVAL sends the source). Every value read back
// is validated. Redis is safe for concurrent use.
type Redis struct {
	c     redis.UniversalClient
	cfg   config
	cache *recordCache
}

// NewRedis returns a store on c. It does no I/O; Ping checks the connection.
// Invalid options (see Options.Validate) make every operation, Ping included,
// return the problem.
func NewRedis(c redis.UniversalClient, opt Options) *Redis {
	cfg := newConfig(opt)
	return &Redis{c: c, cfg: cfg, cache: newRecordCache(cfg.cacheSize)}
}

func (s *Redis) gameKey(k match.Key) string { return s.cfg.prefix + "{" + k.String() + "}:game" }
func (s *Redis) lbKey(k match.Key) string   { return s.cfg.prefix + "{" + k.String() + "}:lb" }

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
	if s.cfg.invalid != nil {
		return s.cfg.invalid
	}
	return k.Validate()
}

// Create implements the store's Create with one script call.
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
	keys, args := s.withNonce(ctx, n.Key, []string{s.gameKey(n.Key)},
		[]any{b, s.cfg.ttl(n).Milliseconds(), s.cfg.now().UnixMilli(), op})
	res, err := createScript.Run(ctx, s.c, keys, args...).Slice()
	if err != nil {
		return s.fail("create", n.Key, err)
	}
	switch code, arg := scriptReply(res); {
	case code == 1:
		s.cache.put(n.Clone())
		*rec = *n
		return nil
	case code == 0 && len(res) == 2:
		cur, err := decodeRecord(n.Key, []byte(arg))
		if err != nil {
			return s.corrupt("create", err)
		}
		return &match.BusyError{Existing: cur}
	case code == 3:
		return fmt.Errorf("sessions: create %s: %w", n.Key, match.ErrReplay)
	case code == -2:
		return s.corrupt("create", wrongType(n.Key, "game", arg))
	}
	return s.fail("create", n.Key, fmt.Errorf("unexpected script reply %v", res))
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

// isWrongType reports whether err is Redis refusing a command for the key's type.
func isWrongType(err error) bool {
	return err != nil && strings.HasPrefix(err.Error(), "WRONGTYPE")
}

// Load implements the store's Load with one GET.
func (s *Redis) Load(ctx context.Context, k match.Key) (*match.Record, error) {
	if err := s.begin(k); err != nil {
		return nil, err
	}
	return s.load(ctx, k)
}

func (s *Redis) load(ctx context.Context, k match.Key) (*match.Record, error) {
	b, err := s.c.Get(ctx, s.gameKey(k)).Bytes()
	switch {
	case errors.Is(err, redis.Nil):
		s.cache.drop(k)
		return nil, match.ErrNoGame
	case isWrongType(err):
		s.cache.drop(k)
		return nil, s.corrupt("load", wrongType(k, "game", "value of another type"))
	case err != nil:
		return nil, s.fail("load", k, err)
	}
	r, err := decodeRecord(k, b)
	if err != nil {
		s.cache.drop(k)
		return nil, s.corrupt("load", err)
	}
	s.cache.put(r.Clone())
	return r, nil
}

// Update implements the store's Update: one compare-and-set script that
// also applies the tally, started from the cached record when there is one
// (else after a GET); a mismatch returns the stored record for the retry.
func (s *Redis) Update(ctx context.Context, k match.Key, fn func(r *match.Record) (match.Tally, error)) (*match.Record, error) {
	if err := s.begin(k); err != nil {
		return nil, err
	}
	var cached *match.Record
	if c := s.cache.get(k); c != nil {
		cached = c.Clone()
	}
	return s.cfg.update(ctx, k, fn, cached, s.load, s.cas)
}

func (s *Redis) cas(ctx context.Context, cur, next *match.Record, t match.Tally) (bool, *match.Record, error) {
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
	keys := append([]string{s.gameKey(k)}, s.tallyKeys(k)...)
	args := []any{cur.Version, b, s.cfg.ttl(next).Milliseconds(), op, tallyKind(t),
		t.Winner.ID, t.Winner.Name, t.Loser.ID, t.Loser.Name, s.cfg.lbTTL.Milliseconds(), cur.ID, replayWindow.Milliseconds()}
	if n := match.Nonce(ctx); n != "" {
		keys = append(keys, s.onceKey(k, n))
	}
	res, err := casScript.Run(ctx, s.c, keys, append(args, rated...)...).Slice()
	if err != nil {
		return false, nil, s.fail("update", k, err)
	}
	switch code, arg := scriptReply(res); code {
	case 1, 2:
		s.cache.put(next.Clone())
		return true, nil, nil
	case 0:
		stored, err := decodeRecord(k, []byte(arg))
		if err != nil {
			s.cache.drop(k)
			return false, nil, s.corrupt("update", err)
		}
		s.cache.put(stored.Clone())
		return false, stored, nil
	case 3:
		return false, nil, fmt.Errorf("sessions: update %s: %w", k, match.ErrReplay)
	case 5: // a rating moved between our read and our write: read again
		return false, cur, nil
	case -1:
		s.cache.drop(k)
		return false, nil, match.ErrNoGame
	case -2:
		s.cache.drop(k)
		return false, nil, s.corrupt("update", wrongType(k, "game", arg))
	case -3:
		return false, nil, s.corrupt("update", &match.CorruptError{Key: k, Err: fmt.Errorf("key %s holds the wrong type", arg)})
	case -4:
		return false, nil, s.corrupt("update", &match.CorruptError{Key: k, Err: fmt.Errorf("leaderboard count %.60q is not a whole number", arg)})
	}
	return false, nil, s.fail("update", k, fmt.Errorf("unexpected script reply %v", res))
}

// Delete implements the store's Delete with one DEL.
func (s *Redis) Delete(ctx context.Context, k match.Key) error {
	if err := s.begin(k); err != nil {
		return err
	}
	s.cache.drop(k)
	if err := s.c.Del(ctx, s.gameKey(k)).Err(); err != nil {
		return s.fail("delete", k, err)
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

// Ping reports whether Redis answers (and whether the Options are valid), with one PING.
func (s *Redis) Ping(ctx context.Context) error {
	if s.cfg.invalid != nil {
		return s.cfg.invalid
	}
	if err := s.c.Ping(ctx).Err(); err != nil {
		return s.fail("ping", match.Key{}, err)
	}
	return nil
}

// TTL returns how long the channel's record and leaderboard have left to
// live, 0 for one that does not exist and -1 for one that never expires. It
// costs one round trip (two PTTLs in a pipeline; both keys share a slot).
func (s *Redis) TTL(ctx context.Context, k match.Key) (game, leaderboard time.Duration, err error) {
	if err := s.begin(k); err != nil {
		return 0, 0, err
	}
	var g, l *redis.Cmd
	_, err = s.c.Pipelined(ctx, func(p redis.Pipeliner) error {
		g = p.Do(ctx, "PTTL", s.gameKey(k))
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

// Repair implements the store's Repair. It reads the types and values of the
// channel's two keys, removes a record that cannot be read back (with a
// script that deletes it only if it is still the value found, so a game
// created meanwhile is never lost), and removes the leaderboard entries that
// are not counts or names, or the leaderboard when it is not a hash. A few
// round trips: it is an operator's command, not a hot path.
func (s *Redis) Repair(ctx context.Context, k match.Key) (match.Repair, error) {
	var rep match.Repair
	if err := s.begin(k); err != nil {
		return rep, err
	}
	s.cache.drop(k)
	gk := s.gameKey(k)
	typ, err := s.c.Type(ctx, gk).Result()
	if err != nil {
		return rep, s.fail("repair", k, err)
	}
	switch typ {
	case "none":
	case "string":
		b, err := s.c.Get(ctx, gk).Result()
		if errors.Is(err, redis.Nil) {
			break // expired meanwhile
		}
		if err != nil {
			return rep, s.fail("repair", k, err)
		}
		rep.Record = match.RecordFine
		if _, err := decodeRecord(k, []byte(b)); err == nil {
			break
		}
		if err := s.deleteIf(ctx, k, typ, b); err != nil {
			return rep, err
		}
		rep.Record = match.RecordCleared
	default:
		if err := s.deleteIf(ctx, k, typ, ""); err != nil {
			return rep, err
		}
		rep.Record = match.RecordCleared
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

// deleteIf removes the channel's record if it still is of type typ (and, for
// a string, still the value found).
func (s *Redis) deleteIf(ctx context.Context, k match.Key, typ, found string) error {
	if err := deleteIfScript.Run(ctx, s.c, []string{s.gameKey(k)}, typ, found).Err(); err != nil {
		return s.fail("repair", k, err)
	}
	return nil
}
