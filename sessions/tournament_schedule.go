package sessions

import (
	"context"
	"fmt"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/connect4/connect4/bot/match"
)

// A tournament's timed events (its start at a set time, its rounds' time
// limits) are schedule entries like a record's timers, in the channel's
// entries under the channel's hash tag, named "<tournament id>/<kind>";
// no record carries them. ScheduleTournament writes one (a later call for
// the same kind moves it); the worker claims it like any other and the
// bot checks it against the tournament when it fires (an entry made stale
// by a manual start or a round over early does nothing), so it needs no
// removal.

// tournamentEntryScript adds or moves a tournament's entry, and keeps the
// entries key alive at least until a while after it is due.
//
//	KEYS[1] the channel's entries   ARGV[1] the member   ARGV[2] due, Unix ms
//	ARGV[3] the least TTL, ms
var tournamentEntryScript = redis.NewScript(`
local t = redis.call('TYPE', KEYS[1]).ok
if t ~= 'zset' and t ~= 'none' then return -1 end
redis.call('ZADD', KEYS[1], ARGV[2], ARGV[1])
local ttl = redis.call('PTTL', KEYS[1])
if ttl < tonumber(ARGV[3]) then redis.call('PEXPIRE', KEYS[1], ARGV[3]) end
return 1
`)

// checkTournamentEntry refuses what is not a tournament's entry.
func checkTournamentEntry(k match.Key, id string, kind match.TimerKind) error {
	if err := k.Validate(); err != nil {
		return err
	}
	if !match.ValidGameID(id) || (kind != match.TimerRoundLimit && kind != match.TimerTournamentStart) {
		return fmt.Errorf("sessions: schedule tournament %s: %w: entry %q of kind %v", k, match.ErrInvalid, id, kind)
	}
	return nil
}

// ScheduleTournament makes the schedule entry of kind (TimerRoundLimit or
// TimerTournamentStart) of channel k's tournament id due at due, moving
// one there already; the channel's bucket is hinted before and after, so
// that no worker misses it. It returns match.ErrInvalid for another kind
// or a bad id, match.ErrUnavailable when Redis cannot be reached.
func (s *Redis) ScheduleTournament(ctx context.Context, k match.Key, id string, kind match.TimerKind, due time.Time) error {
	if err := checkTournamentEntry(k, id, kind); err != nil {
		return err
	}
	if err := s.begin(k); err != nil {
		return err
	}
	if err := s.hint(ctx, k, due); err != nil {
		return err
	}
	keep := max(due.Sub(s.cfg.now()), 0) + s.indexTTL()
	n, err := tournamentEntryScript.Run(ctx, s.c, []string{s.dueKey(k)}, member(id, kind), due.UnixMilli(), keep.Milliseconds()).Int()
	switch {
	case err != nil:
		return s.fail("schedule tournament", k, err)
	case n == -1:
		return s.corrupt("schedule tournament", wrongKeyType(k, s.dueKey(k)))
	}
	return s.hint(ctx, k, due)
}

// ScheduleTournament implements the schedule of a tournament's entry on
// Memory (see Redis.ScheduleTournament).
func (m *Memory) ScheduleTournament(ctx context.Context, k match.Key, id string, kind match.TimerKind, due time.Time) error {
	if err := checkTournamentEntry(k, id, kind); err != nil {
		return err
	}
	if err := m.begin(ctx, "schedule tournament", k, true); err != nil {
		return err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	ek := memEntryKey{k, id, kind}
	if e, ok := m.entries[ek]; !ok || !e.due.Equal(due) {
		m.entries[ek] = &memEntry{due: due}
	}
	return nil
}
