package sessions

import (
	"context"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/connect4/connect4/bot/match"
)

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

// The channel's keys beside the records (the index, the players, the
// schedule's entries and leases) and the buckets of hints live on while
// the channel is written, so each write used to set their expiries again:
// up to six PEXPIREs a move. A move now sets them only when ttlRefresh says so,
// or when it creates a key (a field added to the index, a player bound, an
// entry or a channel added to a bucket: its key may have been new), and an
// expiry, when set, is indexTTL, longer than the idle TTL by two slots of
// time. That keeps the rule the scripts used to keep: after a write at t,
// every one of those keys lives at least until t + the idle TTL.
//
// Why: take the moves of one game in one slot of time. The first of them
// follows a write of the game in an earlier slot (or is its Create, which
// always sets the expiries), so it refreshes them, at a time r0 no earlier
// than the slot's start. A later move of the slot, at t < start + slot,
// skips the refresh, and the keys live until at least r0 + idle TTL + 2
// slots > t + idle TTL + slot, which covers a skew of up to a slot between
// the clocks of the replicas that wrote the two moves. Nothing shortens an
// expiry meanwhile: every write sets the same TTL or a later deadline, and a
// key deleted meanwhile (by Repair, by hand, by eviction) is created again
// by the write that needs it, which then sets its expiry. The bucket of
// hints is kept the same way, by the hint a write with pending timers
// makes at each refresh (see hintedLua); its TTL is two slots longer too.

// The records' own expiries follow the same slots: a plain move (see
// plainMove) writes its record with KEEPTTL, so a game's record and its
// index entry's deadline both keep the time set by the game's first write
// of the slot, and an idle game's record expires the idle TTL after that
// write: up to a slot before the idle TTL has passed since its last move.

// maxTTLSlot bounds the slot of time in which a game's moves set the
// expiries of its channel's keys once (see ttlRefresh).
const maxTTLSlot = time.Minute

// ttlSlot returns the slot: a minute, or a 64th of the idle TTL when that
// is shorter (tests run TTLs of a second).
func (s *Redis) ttlSlot() time.Duration {
	return max(min(s.cfg.idleTTL/64, maxTTLSlot), time.Millisecond)
}

// indexTTL is the expiry the record scripts give the channel's keys beside
// the records: the idle TTL and two slots (see ttlSlot).
func (s *Redis) indexTTL() time.Duration {
	return s.cfg.idleTTL + 2*s.ttlSlot()
}

// ttlRefresh reports whether a write at now over cur (the record the
// script checks is stored: its id and version) sets the expiries of the
// channel's keys: when cur was written in an earlier slot of time.
func (s *Redis) ttlRefresh(cur *match.Record, now time.Time) bool {
	slot := s.ttlSlot().Milliseconds()
	return now.UnixMilli()/slot != cur.Updated.UnixMilli()/slot
}

// flag is a boolean as the scripts read their flags: "1" or "0".
func flag(b bool) string {
	if b {
		return "1"
	}
	return "0"
}
