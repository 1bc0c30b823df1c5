package sessions

import (
	"errors"
	"fmt"
	"time"

	"github.com/connect4/connect4/bot/match"
	"github.com/connect4/connect4/bot/tournament"
)

// A channel's tournament (one at a time) is kept under its hash tag:
//
//	<prefix>{<platform>:<workspace>:<channel>}:tournament   a hash
//
// with the fields id (the tournament's), v (a version that every write
// raises), round (the number of rounds started), active ("1" while it
// takes players or runs, "0" once over) and data (the tournament as
// versioned JSON, tournament_codec.go). Every write is one Lua script,
// tournamentScript, a compare-and-set on id and v, and for the start of a
// round on round too: of any replicas racing to start round N+1 after
// round N, exactly one writes it, and the others read back that it has
// started. An active tournament has no TTL; an ended one is kept
// tournamentKeep after its last write, for its final standings.

// tournamentKeep is how long a finished or cancelled tournament stays
// readable.
const tournamentKeep = 30 * 24 * time.Hour

// advanceStep decides what AdvanceTournament writes when it finds cur:
// the tournament with round round+1 started (or finished, after the last),
// or nil when there is nothing to do because another writer has already
// moved it on (or it has ended). It returns tournament.ErrNotFound when
// cur is not tournament id, and the *tournament.Error of a round still
// unfinished.
func advanceStep(cur *tournament.Tournament, id string, round int, now time.Time) (*tournament.Tournament, error) {
	switch {
	case cur.ID != id:
		return nil, tournament.ErrNotFound
	case cur.Round() != round || cur.Status.Over():
		return nil, nil
	}
	next := cur.Clone()
	if _, err := next.Advance(now); err != nil {
		return nil, err
	}
	return next, nil
}

// updateStep runs fn on a copy of cur for UpdateTournament: the changed
// tournament, or nil (and no error) when fn returned match.ErrNoChange.
func updateStep(cur *tournament.Tournament, id string, fn func(*tournament.Tournament) error) (*tournament.Tournament, error) {
	if cur.ID != id {
		return nil, tournament.ErrNotFound
	}
	next := cur.Clone()
	if err := fn(next); err != nil {
		if errors.Is(err, match.ErrNoChange) {
			return nil, nil
		}
		return nil, err
	}
	if next.ID != cur.ID || next.Key != cur.Key {
		return nil, fmt.Errorf("sessions: update tournament %s: %w: id or channel changed", cur.Key, match.ErrInvalid)
	}
	return next, nil
}

// tournamentOp wraps err for operation op on channel k, as every store
// error is.
func tournamentOp(op string, k match.Key, err error) error {
	return fmt.Errorf("sessions: %s %s: %w", op, k, err)
}

// wrapNotFound wraps err for op on k when it is tournament.ErrNotFound,
// which a step returns bare; other errors (fn's own, the domain's refusals)
// pass as they are.
func wrapNotFound(op string, k match.Key, err error) error {
	if errors.Is(err, tournament.ErrNotFound) {
		return tournamentOp(op, k, err)
	}
	return err
}

// Errors of a tournament hash that a script or a read did not expect.
var (
	errUnexpectedReply  = errors.New("unexpected reply from the tournament script")
	errTournamentFields = errors.New("tournament hash without its version or data")
)

// conflictRetry reports a lost compare-and-set and the retry after it to
// the hooks, as Update does.
func (c *config) conflictRetry() {
	if c.hooks.Conflict != nil {
		c.hooks.Conflict()
	}
	if c.hooks.Retry != nil {
		c.hooks.Retry()
	}
}
