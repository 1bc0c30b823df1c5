package sessions

import (
	"context"
	"strconv"

	"github.com/redis/go-redis/v9"

	"github.com/connect4/connect4/bot/match"
	"github.com/connect4/connect4/bot/tournament"
)

// tournamentKey is the key of channel k's tournament hash.
func (s *Redis) tournamentKey(k match.Key) string { return s.tagged(k, "tournament") }

// tournamentScript writes a tournament hash (see tournament.go), checking
// everything before its one write.
//
//	KEYS[1]  the tournament hash
//	ARGV[1]  'create' (refused while an active one is there), 'update'
//	         (id and version must match) or 'round' (id, version and round)
//	ARGV[2]  the tournament's id       ARGV[3] the version read
//	ARGV[4]  the round read            ARGV[5] the new version
//	ARGV[6]  the new round             ARGV[7] '1' active, '0' ended
//	ARGV[8]  the JSON                  ARGV[9] ms an ended one is kept
//	KEYS[2]  the channel's finished tournaments (tournament_history.go)
//	ARGV[10] the summary to push there, '' for none
//	ARGV[11] how many to keep
//
// It returns {0} for a write, {1, v, data} when create finds an active
// tournament, {2} when the id does not match (or none is there), {3, v,
// data} on a version mismatch, {4, v, data} when the round has moved on,
// {-1} when the key holds another type, {-2} when the history does.
var tournamentScript = redis.NewScript(`
local t = redis.call('TYPE', KEYS[1]).ok
if t ~= 'hash' and t ~= 'none' then return {-1} end
if ARGV[10] ~= '' then
  local h = redis.call('TYPE', KEYS[2]).ok
  if h ~= 'list' and h ~= 'none' then return {-2} end
end
local cur = redis.call('HMGET', KEYS[1], 'id', 'v', 'round', 'active', 'data')
local v, data = cur[2] or '', cur[5] or ''
if ARGV[1] == 'create' then
  if cur[4] == '1' then return {1, v, data} end
  redis.call('DEL', KEYS[1])
else
  if cur[1] ~= ARGV[2] then return {2} end
  if ARGV[1] == 'round' and cur[3] ~= ARGV[4] then return {4, v, data} end
  if v ~= ARGV[3] then return {3, v, data} end
end
redis.call('HSET', KEYS[1], 'id', ARGV[2], 'v', ARGV[5], 'round', ARGV[6], 'active', ARGV[7], 'data', ARGV[8])
if ARGV[7] == '1' then
  redis.call('PERSIST', KEYS[1])
else
  redis.call('PEXPIRE', KEYS[1], ARGV[9])
end
if ARGV[10] ~= '' then
  redis.call('LPUSH', KEYS[2], ARGV[10])
  redis.call('LTRIM', KEYS[2], 0, tonumber(ARGV[11]) - 1)
end
return {0}
`)

// tournamentWrite is one run of tournamentScript: its code, and the
// version and tournament stored when it reports them.
type tournamentWrite struct {
	code int64
	v    int64
	t    *tournament.Tournament
}

// writeTournament runs tournamentScript for next (version v+1 over
// version v, round round read).
func (s *Redis) writeTournament(ctx context.Context, op, mode string, next *tournament.Tournament, v int64, round int) (tournamentWrite, error) {
	k := next.Key
	data, err := encodeTournament(next)
	if err != nil {
		return tournamentWrite{}, tournamentOp(op, k, err)
	}
	active := "1"
	if next.Status.Over() {
		active = "0"
	}
	summary := ""
	if mode == "round" { // only an advance finishes a tournament: its summary goes with it, once
		summary = finishSummary(next)
	}
	res, err := tournamentScript.Run(ctx, s.c, []string{s.tournamentKey(k), s.historyKey(k)}, mode, next.ID,
		strconv.FormatInt(v, 10), strconv.Itoa(round), strconv.FormatInt(v+1, 10), strconv.Itoa(next.Round()),
		active, data, tournamentKeep.Milliseconds(), summary, tournament.MaxHistory).Slice()
	if err != nil {
		return tournamentWrite{}, s.fail(op, k, err)
	}
	w := tournamentWrite{code: -99}
	if len(res) > 0 {
		w.code, _ = res[0].(int64)
	}
	switch w.code {
	case -1:
		return w, s.corrupt(op, wrongKeyType(k, s.tournamentKey(k)))
	case -2:
		return w, s.corrupt(op, wrongKeyType(k, s.historyKey(k)))
	case 1, 3, 4:
		vs, _ := res[1].(string)
		raw, _ := res[2].(string)
		if w.v, err = strconv.ParseInt(vs, 10, 64); err != nil {
			return w, s.corrupt(op, &match.CorruptError{Key: k, Err: err})
		}
		if w.t, err = decodeTournament(k, []byte(raw)); err != nil {
			return w, s.corrupt(op, err)
		}
	case 0, 2:
	default:
		return w, s.fail(op, k, errUnexpectedReply)
	}
	return w, nil
}

// CreateTournament stores t, a new tournament, as channel t.Key's, with
// one script call. It returns an error wrapping tournament.ErrExists while
// the channel has one taking players or running (a finished or cancelled
// one is replaced), match.ErrInvalid for an invalid t, and
// match.ErrUnavailable when Redis cannot be reached.
func (s *Redis) CreateTournament(ctx context.Context, t *tournament.Tournament) error {
	if err := s.begin(t.Key); err != nil {
		return err
	}
	w, err := s.writeTournament(ctx, "create tournament", "create", t, 0, 0)
	if err != nil {
		return err
	}
	if w.code == 1 {
		return tournamentOp("create tournament", t.Key, tournament.ErrExists)
	}
	return nil
}

// loadTournament returns channel k's tournament and its version.
func (s *Redis) loadTournament(ctx context.Context, op string, k match.Key) (*tournament.Tournament, int64, error) {
	vals, err := s.c.HMGet(ctx, s.tournamentKey(k), "v", "data").Result()
	if isWrongType(err) {
		return nil, 0, s.corrupt(op, wrongKeyType(k, s.tournamentKey(k)))
	}
	if err != nil {
		return nil, 0, s.fail(op, k, err)
	}
	vs, ok1 := vals[0].(string)
	raw, ok2 := vals[1].(string)
	if !ok1 && !ok2 {
		return nil, 0, tournamentOp(op, k, tournament.ErrNotFound)
	}
	v, err := strconv.ParseInt(vs, 10, 64)
	if err != nil || !ok2 {
		return nil, 0, s.corrupt(op, &match.CorruptError{Key: k, Err: errTournamentFields})
	}
	t, err := decodeTournament(k, []byte(raw))
	if err != nil {
		return nil, 0, s.corrupt(op, err)
	}
	return t, v, nil
}

// Tournament returns channel k's tournament with one HMGET. It returns an
// error wrapping tournament.ErrNotFound when there is none, a
// *match.CorruptError for a damaged one, match.ErrUnavailable.
func (s *Redis) Tournament(ctx context.Context, k match.Key) (*tournament.Tournament, error) {
	if err := s.begin(k); err != nil {
		return nil, err
	}
	t, _, err := s.loadTournament(ctx, "tournament", k)
	return t, err
}

// UpdateTournament runs fn on a copy of channel k's tournament id and
// stores the result with a compare-and-set on its version, re-reading and
// re-running fn when another writer came first (up to Options.MaxRetries
// times, then match.ErrConflict). fn's error is returned as it is and
// nothing is written; match.ErrNoChange from fn writes nothing and returns
// the tournament with a nil error. It returns tournament.ErrNotFound when
// the channel's tournament is not id.
func (s *Redis) UpdateTournament(ctx context.Context, k match.Key, id string, fn func(*tournament.Tournament) error) (*tournament.Tournament, error) {
	if err := s.begin(k); err != nil {
		return nil, err
	}
	const op = "update tournament"
	cur, v, err := s.loadTournament(ctx, op, k)
	for attempt := 0; ; attempt++ {
		if err != nil {
			return nil, err
		}
		next, err := updateStep(cur, id, fn)
		if err != nil {
			return nil, wrapNotFound(op, k, err)
		}
		if next == nil {
			return cur, nil
		}
		w, err := s.writeTournament(ctx, op, "update", next, v, 0)
		switch {
		case err != nil:
			return nil, err
		case w.code == 0:
			return next, nil
		case w.code == 2:
			return nil, tournamentOp(op, k, tournament.ErrNotFound)
		case attempt >= s.cfg.maxRetries:
			return nil, tournamentOp(op, k, match.ErrConflict)
		}
		s.cfg.conflictRetry()
		cur, v = w.t, w.v
	}
}

// AdvanceTournament starts round round+1 of channel k's tournament id once
// round round is over (or, after the last round, finishes it), with one
// compare-and-set on the version and on the number of rounds started: of
// any replicas racing to advance after round round, exactly one writes,
// and it alone gets advanced true; the others get the tournament as it
// now stands and false. The new round is paired by Tournament.Advance at
// the store's clock. It returns the *tournament.Error of Advance (a round
// still unfinished), tournament.ErrNotFound, match.ErrConflict after
// Options.MaxRetries version conflicts, match.ErrUnavailable.
func (s *Redis) AdvanceTournament(ctx context.Context, k match.Key, id string, round int) (t *tournament.Tournament, advanced bool, err error) {
	if err := s.begin(k); err != nil {
		return nil, false, err
	}
	const op = "advance tournament"
	cur, v, err := s.loadTournament(ctx, op, k)
	for attempt := 0; ; attempt++ {
		if err != nil {
			return nil, false, err
		}
		next, err := advanceStep(cur, id, round, s.cfg.now())
		if err != nil {
			return nil, false, wrapNotFound(op, k, err)
		}
		if next == nil {
			return cur, false, nil
		}
		w, err := s.writeTournament(ctx, op, "round", next, v, round)
		switch {
		case err != nil:
			return nil, false, err
		case w.code == 0:
			return next, true, nil
		case w.code == 2:
			return nil, false, tournamentOp(op, k, tournament.ErrNotFound)
		case w.code == 4:
			return w.t, false, nil
		case attempt >= s.cfg.maxRetries:
			return nil, false, tournamentOp(op, k, match.ErrConflict)
		}
		s.cfg.conflictRetry()
		cur, v = w.t, w.v
	}
}
