package sessions

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/redis/go-redis/v9"
)

// Redis is the Store on Redis, through a redis.UniversalClient so that one
// code path serves a single node, Sentinel and Cluster. A channel's keys share
// one hash tag:
//
//	<prefix>{<platform>:<workspace>:<channel>}:game   the record, as versioned JSON, with a TTL
//	<prefix>{<platform>:<workspace>:<channel>}:lb     the leaderboard, a hash of per-player counts and names
//
// Reads are one GET (or HGETALL/HMGET); a write is one Lua script, so a
// successful Update costs two round trips, plus one the first time a script
// runs on a server that has not cached it (EVALSHA is refused with NOSCRIPT,
// then EVAL sends the source). Every value read back is validated. Redis is
// safe for concurrent use.
type Redis struct {
	c   redis.UniversalClient
	cfg config
}

// NewRedis returns a store on c. It does no I/O; Ping checks the connection.
// Invalid options (see Options.Validate) make every operation, Ping included,
// return the problem.
func NewRedis(c redis.UniversalClient, opt Options) *Redis {
	return &Redis{c: c, cfg: newConfig(opt)}
}

func (s *Redis) gameKey(k Key) string { return s.cfg.prefix + "{" + k.String() + "}:game" }
func (s *Redis) lbKey(k Key) string   { return s.cfg.prefix + "{" + k.String() + "}:lb" }

// fail wraps a client error for op on k and reports it to the Error hook.
func (s *Redis) fail(op string, k Key, err error) error {
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

func (s *Redis) begin(k Key) error {
	if s.cfg.invalid != nil {
		return s.cfg.invalid
	}
	return k.Validate()
}

// Create implements Store.Create with one script call.
func (s *Redis) Create(ctx context.Context, rec *Record) error {
	n, err := s.cfg.prepareCreate(rec)
	if err != nil {
		return err
	}
	op := newID() // lets the script recognise a resend of this very write
	b, err := encodeRecord(n, op)
	if err != nil {
		return fmt.Errorf("sessions: create %s: %w: %w", n.Key, ErrInvalid, err)
	}
	res, err := createScript.Run(ctx, s.c, []string{s.gameKey(n.Key)},
		b, s.cfg.ttl(n).Milliseconds(), s.cfg.now().UnixMilli(), op).Slice()
	if err != nil {
		return s.fail("create", n.Key, err)
	}
	if len(res) == 1 && res[0] == int64(1) {
		*rec = *n
		return nil
	}
	if len(res) == 2 && res[0] == int64(0) {
		if raw, ok := res[1].(string); ok {
			cur, err := decodeRecord(n.Key, []byte(raw))
			if err != nil {
				return s.corrupt("create", err)
			}
			return &BusyError{Existing: cur}
		}
	}
	return s.fail("create", n.Key, fmt.Errorf("unexpected script reply %v", res))
}

// Load implements Store.Load with one GET.
func (s *Redis) Load(ctx context.Context, k Key) (*Record, error) {
	if err := s.begin(k); err != nil {
		return nil, err
	}
	return s.load(ctx, k)
}

func (s *Redis) load(ctx context.Context, k Key) (*Record, error) {
	b, err := s.c.Get(ctx, s.gameKey(k)).Bytes()
	if errors.Is(err, redis.Nil) {
		return nil, ErrNoGame
	}
	if err != nil {
		return nil, s.fail("load", k, err)
	}
	r, err := decodeRecord(k, b)
	if err != nil {
		return nil, s.corrupt("load", err)
	}
	return r, nil
}

// Update implements Store.Update: a GET, then one compare-and-set script that
// also applies the tally, per attempt.
func (s *Redis) Update(ctx context.Context, k Key, fn func(r *Record) (Tally, error)) (*Record, error) {
	return s.cfg.update(ctx, k, fn, s.load, s.cas)
}

func (s *Redis) cas(ctx context.Context, old int64, next *Record, t Tally) (bool, error) {
	k := next.Key
	op := newID() // lets the script recognise a resend of this very write
	b, err := encodeRecord(next, op)
	if err != nil {
		return false, fmt.Errorf("sessions: update %s: %w: %w", k, ErrInvalid, err)
	}
	kind := ""
	switch {
	case t.IsZero():
	case t.Draw:
		kind = "d"
	default:
		kind = "w"
	}
	n, err := casScript.Run(ctx, s.c, []string{s.gameKey(k), s.lbKey(k)},
		old, b, s.cfg.ttl(next).Milliseconds(), op, kind,
		t.Winner.ID, t.Winner.Name, t.Loser.ID, t.Loser.Name, s.cfg.lbTTL.Milliseconds()).Int64()
	if err != nil {
		return false, s.fail("update", k, err)
	}
	switch n {
	case 1, 2:
		return true, nil
	case 0:
		return false, nil
	case -1:
		return false, ErrNoGame
	}
	return false, s.fail("update", k, fmt.Errorf("unexpected script reply %d", n))
}

// Delete implements Store.Delete with one DEL.
func (s *Redis) Delete(ctx context.Context, k Key) error {
	if err := s.begin(k); err != nil {
		return err
	}
	if err := s.c.Del(ctx, s.gameKey(k)).Err(); err != nil {
		return s.fail("delete", k, err)
	}
	return nil
}

// Leaderboard implements Store.Leaderboard with one HGETALL; the sorting
// happens here, as a channel has few players.
func (s *Redis) Leaderboard(ctx context.Context, k Key, n int) ([]Standing, error) {
	if err := s.begin(k); err != nil {
		return nil, err
	}
	h, err := s.c.HGetAll(ctx, s.lbKey(k)).Result()
	if err != nil {
		return nil, s.fail("leaderboard", k, err)
	}
	if len(h) == 0 {
		return nil, nil
	}
	byID := map[string]*Standing{}
	for f, v := range h {
		kind, id, ok := strings.Cut(f, ":")
		if !ok || id == "" || len(id) > maxIDLen {
			return nil, s.corrupt("leaderboard", &CorruptError{Key: k, Err: fmt.Errorf("leaderboard field %.40q", f)})
		}
		st := byID[id]
		if st == nil {
			st = &Standing{Player: Player{ID: id}}
			byID[id] = st
		}
		if err := setStanding(st, kind, v); err != nil {
			return nil, s.corrupt("leaderboard", &CorruptError{Key: k, Err: err})
		}
	}
	ss := make([]Standing, 0, len(byID))
	for _, st := range byID {
		ss = append(ss, *st)
	}
	return rankStandings(ss, n), nil
}

// Stats implements Store.Stats with one HMGET.
func (s *Redis) Stats(ctx context.Context, k Key, userID string) (Standing, error) {
	st := Standing{Player: Player{ID: userID}}
	if err := s.begin(k); err != nil {
		return st, err
	}
	if userID == "" || len(userID) > maxIDLen {
		return st, nil
	}
	kinds := [...]string{"w", "l", "d", "n"}
	fields := make([]string, len(kinds))
	for i, kind := range kinds {
		fields[i] = kind + ":" + userID
	}
	vals, err := s.c.HMGet(ctx, s.lbKey(k), fields...).Result()
	if err != nil {
		return st, s.fail("stats", k, err)
	}
	for i, v := range vals {
		str, ok := v.(string)
		if !ok {
			continue // nil: no such field
		}
		if err := setStanding(&st, kinds[i], str); err != nil {
			return Standing{Player: Player{ID: userID}}, s.corrupt("stats", &CorruptError{Key: k, Err: err})
		}
	}
	return st, nil
}

// setStanding sets one leaderboard field, of kind w, l, d or n, on st.
func setStanding(st *Standing, kind, v string) error {
	if kind == "n" {
		if len(v) > maxNameLen {
			return fmt.Errorf("leaderboard name of %q longer than %d bytes", st.Player.ID, maxNameLen)
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

// Ping implements Store.Ping with one PING.
func (s *Redis) Ping(ctx context.Context) error {
	if s.cfg.invalid != nil {
		return s.cfg.invalid
	}
	if err := s.c.Ping(ctx).Err(); err != nil {
		return s.fail("ping", Key{}, err)
	}
	return nil
}

// TTL returns how long the channel's record and leaderboard have left to
// live, 0 for one that does not exist and -1 for one that never expires. It
// costs one round trip (two PTTLs in a pipeline; both keys share a slot).
func (s *Redis) TTL(ctx context.Context, k Key) (game, leaderboard time.Duration, err error) {
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
