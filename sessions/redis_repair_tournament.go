package sessions

import (
	"context"
	"errors"

	"github.com/redis/go-redis/v9"

	"github.com/connect4/connect4/bot/match"
	"github.com/connect4/connect4/bot/tournament"
)

// deleteTournamentIfScript removes a tournament hash if its data field is
// still the value Repair found damaged, so that a tournament written
// meanwhile is never lost.
//
//	KEYS[1] the tournament   ARGV[1] the data found
var deleteTournamentIfScript = redis.NewScript(`
if redis.call('TYPE', KEYS[1]).ok ~= 'hash' then return 0 end
if (redis.call('HGET', KEYS[1], 'data') or '') ~= ARGV[1] then return 0 end
redis.call('DEL', KEYS[1])
return 1
`)

// repairTournament checks the channel's tournament (see Repair): a key of
// the wrong type, or a hash that cannot be read back (its fields missing,
// its data damaged), is removed; one written by a newer version is kept;
// so is a finished tournaments key of the wrong type.
// It reports whether it removed one.
func (s *Redis) repairTournament(ctx context.Context, k match.Key) (bool, error) {
	// The finished tournaments are a list; one of another type is dropped
	// (a damaged entry in it is only left out when read).
	history, err := s.dropWrongType(ctx, k, s.historyKey(k), "list")
	if err != nil {
		return false, err
	}
	cleared, err := s.repairTournamentHash(ctx, k)
	return history || cleared, err
}

// repairTournamentHash checks the tournament's hash (see repairTournament).
func (s *Redis) repairTournamentHash(ctx context.Context, k match.Key) (bool, error) {
	key := s.tournamentKey(k)
	if cleared, err := s.dropWrongType(ctx, k, key, "hash"); err != nil || cleared {
		return cleared, err
	}
	_, _, err := s.loadTournament(ctx, "repair", k)
	var ce *match.CorruptError
	switch {
	case err == nil, errors.Is(err, tournament.ErrNotFound), errors.Is(err, ErrNewerSchema):
		return false, nil
	case !errors.As(err, &ce):
		return false, err
	}
	found, err := s.c.HGet(ctx, key, "data").Result()
	if err != nil && !errors.Is(err, redis.Nil) {
		return false, s.fail("repair", k, err)
	}
	n, err := deleteTournamentIfScript.Run(ctx, s.c, []string{key}, found).Int()
	if err != nil {
		return false, s.fail("repair", k, err)
	}
	return n == 1, nil
}
