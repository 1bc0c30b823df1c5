package sessions

import (
	"context"
	"fmt"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/connect4/connect4/bot/match"
)

// renewScript extends a worker's lease of an entry, if the worker still
// holds it and the entry is still due when it was claimed (a record write
// that moved the entry cancelled the lease). A lease that ran out is
// renewed too while no other worker has claimed the entry: the token in the
// hash is still the caller's, so nobody else is delivering it.
//
//	KEYS[1] the channel's entries   KEYS[2] its leases
//	ARGV[1] the member   ARGV[2] the token   ARGV[3] the due ms claimed   ARGV[4] now ms   ARGV[5] the lease in ms
//
// It returns {1} when renewed, {0} when the lease is not the caller's, and
// {-2, key} when a key holds the wrong type (nothing written).
var renewScript = redis.NewScript(scheduleLua + `
local bad = sched_bad(KEYS[1], KEYS[2])
if bad then return {-2, bad} end
local l = redis.call('HGET', KEYS[2], ARGV[1])
if not l or string.sub(l, 1, #ARGV[2] + 1) ~= ARGV[2] .. '/' then return {0} end
local sc = redis.call('ZSCORE', KEYS[1], ARGV[1])
if not sc or tonumber(sc) ~= tonumber(ARGV[3]) then return {0} end
redis.call('HSET', KEYS[2], ARGV[1], ARGV[2] .. '/' .. (tonumber(ARGV[4]) + tonumber(ARGV[5])))
if redis.call('PTTL', KEYS[2]) < 2 * tonumber(ARGV[5]) then
  redis.call('PEXPIRE', KEYS[2], 2 * tonumber(ARGV[5]))
end
return {1}
`)

// Renew extends the lease of entry d, claimed by Claim, to lease from now
// on the store's clock, so that a worker whose delivery outlives its first
// lease (a platform's rate limit, retries) keeps the entry and no other
// worker delivers it again. It returns an error matching
// match.ErrLeaseLost when the lease is no longer the caller's (another
// worker claimed the entry, or a write moved it), and changes nothing then.
// It is safe for concurrent use.
func (s *Redis) Renew(ctx context.Context, d match.Due, lease time.Duration) error {
	if err := s.begin(d.Key); err != nil {
		return err
	}
	if lease < time.Millisecond {
		return fmt.Errorf("sessions: renew: lease %v must be positive", lease)
	}
	res, err := renewScript.Run(ctx, s.c, []string{s.dueKey(d.Key), s.leaseKey(d.Key)}, member(d.GameID, d.Kind), d.Token,
		d.Due.UnixMilli(), s.cfg.now().UnixMilli(), lease.Milliseconds()).Slice()
	if err != nil {
		return s.fail("renew", d.Key, err)
	}
	switch code, arg := scriptReply(res); code {
	case 1:
		return nil
	case 0:
		return fmt.Errorf("renew %s %s: %w", d.Key, member(d.GameID, d.Kind), match.ErrLeaseLost)
	case -2:
		return s.corrupt("renew", wrongKeyType(d.Key, arg))
	}
	return s.fail("renew", d.Key, fmt.Errorf("unexpected script reply %v", res))
}

// Renew implements the schedule's Renew on the store's clock (see
// Redis.Renew).
func (m *Memory) Renew(ctx context.Context, d match.Due, lease time.Duration) error {
	if err := m.begin(ctx, "renew", d.Key, true); err != nil {
		return err
	}
	if lease < time.Millisecond {
		return fmt.Errorf("sessions: renew: lease %v must be positive", lease)
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	e, ok := m.entries[memEntryKey{d.Key, d.GameID, d.Kind}]
	if !ok || e.token != d.Token || !e.due.Equal(d.Due) {
		return fmt.Errorf("renew %s %s: %w", d.Key, member(d.GameID, d.Kind), match.ErrLeaseLost)
	}
	e.leaseUntil = m.cfg.now().Add(lease)
	return nil
}
