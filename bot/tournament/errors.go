package tournament

import (
	"errors"
	"fmt"
	"strconv"
)

// Reason says why a tournament refused a change. The zero value ReasonNone
// is never the reason of a returned error.
type Reason uint8

// The reasons of an *Error. Append only: the bot words each one.
const (
	ReasonNone Reason = iota
	// ReasonFormat: not round robin or Swiss, or "double" with Swiss.
	ReasonFormat
	// ReasonRounds: a number of rounds out of range (Limit: the most),
	// or given for a round robin, whose rounds follow from its players.
	ReasonRounds
	// ReasonClock: a time control out of range; Err is the *clock.Error.
	ReasonClock
	// ReasonBoard: a board size out of range or for more than two
	// players; Err is the engine's *engine.ConfigError when there is one.
	ReasonBoard
	// ReasonJoined: the player has already joined.
	ReasonJoined
	// ReasonStarted: the tournament has started: nobody may join, and it
	// cannot start again.
	ReasonStarted
	// ReasonOver: the tournament is finished or cancelled.
	ReasonOver
	// ReasonFull: as many players as may join have joined (Limit).
	ReasonFull
	// ReasonTooFew: too few players to start (Limit: the fewest).
	ReasonTooFew
	// ReasonNotOrganiser: only the organiser may start or cancel it.
	ReasonNotOrganiser
	// ReasonNotPlayer: the player is not in the tournament.
	ReasonNotPlayer
	// ReasonWithdrawn: the player has already withdrawn.
	ReasonWithdrawn
	// ReasonNotStarted: the tournament is still taking players.
	ReasonNotStarted
	// ReasonRoundUnfinished: a game of the current round has no result.
	ReasonRoundUnfinished
	// ReasonNoGame: no game of the current round has that id.
	ReasonNoGame
	// ReasonResultKnown: the game's result is already recorded.
	ReasonResultKnown
	// ReasonInvalid: a value (a stored tournament, an id, a result)
	// breaks the rules of a tournament; Err says which.
	ReasonInvalid
	// ReasonRoundLimit: a round's time limit out of range (MinRoundLimit
	// to MaxRoundLimit).
	ReasonRoundLimit
	// ReasonStartTime: a start time in the past, or more than
	// MaxStartAhead ahead.
	ReasonStartTime
)

var reasonNames = [...]string{
	"no reason", "unknown format", "rounds out of range", "invalid time control", "invalid board",
	"already joined", "already started", "already over", "full", "too few players", "not the organiser",
	"not a player", "already withdrawn", "not started", "round unfinished", "no such game",
	"result already recorded", "invalid tournament", "round time limit out of range", "start time out of range",
}

// String returns the reason in a few lower-case words.
func (r Reason) String() string {
	if int(r) < len(reasonNames) {
		return reasonNames[r]
	}
	return "reason(" + strconv.Itoa(int(r)) + ")"
}

// Error is a refused change: read it with errors.As and switch on Reason,
// never on the text. Limit is the bound that was crossed, when there is
// one; Err the underlying error (a *clock.Error, an *engine.ConfigError,
// or a detail for the operator), reachable with errors.As.
type Error struct {
	Reason Reason
	Limit  int
	Err    error
}

func (e *Error) Error() string {
	s := "tournament: " + e.Reason.String()
	if e.Limit != 0 {
		s += " (limit " + strconv.Itoa(e.Limit) + ")"
	}
	if e.Err != nil {
		s += ": " + e.Err.Error()
	}
	return s
}

// Unwrap returns the underlying error.
func (e *Error) Unwrap() error { return e.Err }

// refuse returns an *Error for r.
func refuse(r Reason) *Error { return &Error{Reason: r} }

// invalid returns an *Error of ReasonInvalid with a detail.
func invalid(format string, args ...any) *Error {
	return &Error{Reason: ReasonInvalid, Err: fmt.Errorf(format, args...)}
}

// ReasonOf returns the Reason of err's *Error, or ReasonNone.
func ReasonOf(err error) Reason {
	var e *Error
	if errors.As(err, &e) {
		return e.Reason
	}
	return ReasonNone
}
