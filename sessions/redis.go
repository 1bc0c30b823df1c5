package sessions

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
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
// records. A legacy record (one per channel, written by the version before
// several games per channel at the key without an id) is moved once to its
// own key and indexed (migrateLegacy): by the Load of its id, which looks at
// the legacy key only when the game's own key holds nothing, or by Repair
// (/connect4 reset). No other read or write looks at the legacy key.
//
// Reads are one GET or MGET (Active and PlayerGame: two round trips); a
// write is one Lua script, whose round trip concurrent writes share (see
// runScript). The store remembers the last record it read or
// wrote for recently used games (Options.CacheSize), so an Update of a game
// this process served last costs one round trip, and two when another
// replica wrote in between (the compare-and-set returns the stored record on
// a mismatch); add one the first time a script runs on a server that has not
// cached it (EVALSHA is refused with NOSCRIPT, then EVAL sends the source),
// and one when a rated game finishes whose players' ratings this process
// has not seen as stored (see ratingCache).
// Every value read back is validated. Redis is safe for concurrent use.
type Redis struct {
	c     redis.UniversalClient
	cfg   config
	cache *recordCache
	rated *ratingCache
	pipe  *redis.AutoPipeliner // the writes' (see runScript); nil: none
	wait  time.Duration        // the longest a pipelined write waits
	// waiting counts the pipelined writes whose callers wait for them,
	// queued or on their way (the pipeliner's own count, Len, leaves out
	// those its flusher holds for the next batch): the tests read it.
	waiting atomic.Int64
	// buckets holds the keys of the schedule's buckets of hints: the
	// sorted set and the generation hash (see bucketKeys).
	buckets [ScheduleBuckets][2]string
}

// NewRedis returns a store on c, or the problems of invalid options (see
// Options.Validate). It does no I/O; Ping checks the connection.
func NewRedis(c redis.UniversalClient, opt Options) (*Redis, error) {
	if err := opt.Validate(); err != nil {
		return nil, err
	}
	cfg := newConfig(opt)
	s := &Redis{c: c, cfg: cfg, cache: newRecordCache(cfg.cacheSize), rated: newRatingCache(cfg.cacheSize)}
	for n := range s.buckets {
		b := cfg.prefix + "{sched:" + strconv.Itoa(n) + "}"
		s.buckets[n] = [2]string{b, b + ":gen"}
	}
	if !opt.Unpipelined {
		s.pipe, s.wait = newPipeline(c)
	}
	return s, nil
}

func (s *Redis) gameKey(k match.Key, id string) string { return s.taggedID(k, "game:", id) }

func (s *Redis) legacyKey(k match.Key) string { return s.tagged(k, "game") }

func (s *Redis) indexKey(k match.Key) string { return s.tagged(k, "games") }

func (s *Redis) playersKey(k match.Key) string { return s.tagged(k, "players") }

func (s *Redis) lbKey(k match.Key) string { return s.tagged(k, "lb") }

func (s *Redis) lastKey(k match.Key) string { return s.tagged(k, "finished") }

// tagged returns channel k's key called name, under k's hash tag.
func (s *Redis) tagged(k match.Key, name string) string { return s.taggedID(k, name, "") }

// taggedID returns channel k's key of kind for id (kind ends with its
// colon), under k's hash tag. A key is one concatenation, one allocation:
// a write builds five to twelve of them.
func (s *Redis) taggedID(k match.Key, kind, id string) string {
	return s.cfg.prefix + "{" + k.Platform + ":" + k.Workspace + ":" + k.Channel + "}:" + kind + id
}

// tallyKeys are the keys casScript takes for a tally, in its order: the
// leaderboard, and the channel's season's ratings, ratings by value,
// rating histories, head-to-head counts and the write counter that
// NewSeason checks. All share the channel's hash tag.
func (s *Redis) tallyKeys(k match.Key) []string {
	return []string{s.lbKey(k), s.tagged(k, "rt"), s.tagged(k, "rtz"), s.tagged(k, "rth"), s.tagged(k, "h2h"), s.tagged(k, "gen")}
}

// onceKey is where a request's nonce is recorded, under the channel's hash
// tag so that the script writing the record can record it too.
func (s *Redis) onceKey(k match.Key, nonce string) string {
	return s.taggedID(k, "once:", nonce)
}

// tallyArgs appends casScript's tally section for t, which is not zero,
// to args: its kind, players and leaderboard TTL, then "0", or for a rated
// game plan's arguments ("1" and the ratings).
func (s *Redis) tallyArgs(args []any, t match.Tally, plan *ratingPlan) []any {
	kind := "w"
	if t.Draw {
		kind = "d"
	}
	args = append(args, kind, t.Winner.ID, t.Winner.Name, t.Loser.ID, t.Loser.Name, s.cfg.lbTTL.Milliseconds(), tallyOthers(t))
	if plan == nil {
		return append(args, "0")
	}
	return append(args, plan.args()...)
}

// tallyOthers is casScript's JSON of t's further players: an array of
// [id, name] pairs, "" for none.
func tallyOthers(t match.Tally) string {
	if len(t.Others) == 0 {
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

// Ping reports whether Redis answers, with one PING.
func (s *Redis) Ping(ctx context.Context) error {
	if err := s.c.Ping(ctx).Err(); err != nil {
		return s.fail("ping", match.Key{}, err)
	}
	return nil
}
