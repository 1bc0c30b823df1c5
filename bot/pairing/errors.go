package pairing

import (
	"fmt"
)

// Reason says why a pairing could not be made.
type Reason uint8

// The reasons of an *Error. Append only.
const (
	ReasonNone Reason = iota
	// ReasonPlayers: too few or too many players (see MinPlayers, MaxPlayers).
	ReasonPlayers
	// ReasonHistory: the rounds given are not a valid history: a player
	// out of range, twice in one round, paired with themselves, or an
	// unknown result.
	ReasonHistory
	// ReasonUnfinished: a game of an earlier round has no result.
	ReasonUnfinished
	// ReasonRounds: more rounds than the format allows (Swiss: fewer
	// rounds than players; round robin: one cycle, or two when double).
	ReasonRounds
)

var reasonNames = [...]string{"no reason", "number of players", "invalid history", "unfinished round", "too many rounds"}

// String returns the reason in a few lower-case words.
func (r Reason) String() string {
	if int(r) < len(reasonNames) {
		return reasonNames[r]
	}
	return fmt.Sprintf("reason(%d)", uint8(r))
}

// Error is the error of the pairing functions: read it with errors.As and
// switch on Reason. Detail says what exactly, for the operator's log.
type Error struct {
	Reason Reason
	Detail string
}

func (e *Error) Error() string { return "pairing: " + e.Reason.String() + ": " + e.Detail }

func errorf(r Reason, format string, args ...any) error {
	return &Error{Reason: r, Detail: fmt.Sprintf(format, args...)}
}
