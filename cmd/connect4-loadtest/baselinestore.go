package main

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/redis/go-redis/v9"
)

// baselineStore keeps the baseline's games in Redis too (-baseline with
// -redis): the least a server whose games outlive its process does for a
// move, so that connect4 serve on Redis can be compared with it as well
// as with the baseline on memory. Every challenge, accept and move waits
// for one script, in a round trip of its own on a plain client, that
// compares the game's version, writes the new version and the encoded game
// and sets the key's expiry. The answer is still worked out from the
// baseline's memory, as the server answers from its cache of records; what
// the store adds is the wait for that write.
type baselineStore struct {
	c      *redis.Client
	prefix string // "c4baseline:<8 random bytes in hex>:", this process's own
}

// baselineWrite is one write of a game: its key's tail (the channel as the
// hash tag, then the game id), the version it replaces and the new one, and
// the game's encoding.
type baselineWrite struct {
	key      string
	from, to int
	value    []byte
}

// baselineTTL is how long an idle game stays in Redis; the baseline also
// deletes its keys when it stops.
const baselineTTL = 10 * time.Minute

// baselineTimeout bounds a write, as Discord's 3 s bound an answer.
const baselineTimeout = 2500 * time.Millisecond

// errVersion is a write refused because the stored game is not the one it
// replaces; the load test sends one interaction a game at a time, so it
// means that something else wrote the key.
var errVersion = errors.New("the stored game has another version")

// baselineCAS sets KEYS[1]'s fields v (ARGV[2]) and g (ARGV[3]) and its
// expiry (ARGV[4] ms) when its v is ARGV[1] (absent counts as "0"), and
// returns 1; else 0.
var baselineCAS = redis.NewScript(`
local v = redis.call('HGET', KEYS[1], 'v') or '0'
if v ~= ARGV[1] then return 0 end
redis.call('HSET', KEYS[1], 'v', ARGV[2], 'g', ARGV[3])
redis.call('PEXPIRE', KEYS[1], ARGV[4])
return 1`)

// newBaselineStore connects to the Redis of url, checks that it answers, and
// loads the script.
func newBaselineStore(ctx context.Context, url string) (*baselineStore, error) {
	opt, err := redis.ParseURL(url)
	if err != nil {
		return nil, fmt.Errorf("-redis: %s", redactErr(err))
	}
	var tag [8]byte
	if _, err := rand.Read(tag[:]); err != nil {
		return nil, err
	}
	s := &baselineStore{c: redis.NewClient(opt), prefix: "c4baseline:" + hex.EncodeToString(tag[:]) + ":"}
	if err := baselineCAS.Load(ctx, s.c).Err(); err != nil {
		s.c.Close()
		return nil, fmt.Errorf("-redis: %s", redactErr(err))
	}
	return s, nil
}

// write stores w, with EVAL when Redis has lost the script.
func (s *baselineStore) write(ctx context.Context, w *baselineWrite) error {
	ctx, cancel := context.WithTimeout(ctx, baselineTimeout)
	defer cancel()
	keys := []string{s.prefix + w.key}
	n, err := baselineCAS.Run(ctx, s.c, keys, strconv.Itoa(w.from), strconv.Itoa(w.to), w.value, baselineTTL.Milliseconds()).Int()
	if err != nil {
		return fmt.Errorf("redis: %s", redactErr(err))
	}
	if n != 1 {
		return errVersion
	}
	return nil
}

// close deletes the keys this process wrote, a page of SCAN at a time, and
// disconnects.
func (s *baselineStore) close(ctx context.Context) error {
	defer s.c.Close()
	for cursor := uint64(0); ; {
		keys, next, err := s.c.Scan(ctx, cursor, s.prefix+"*", 1000).Result()
		if err != nil {
			return err
		}
		if len(keys) > 0 {
			if err := s.c.Unlink(ctx, keys...).Err(); err != nil {
				return err
			}
		}
		if cursor = next; cursor == 0 {
			return nil
		}
	}
}
