package solver

import "fmt"

// Reason says why a position, a game or a level was rejected. The zero value
// means no reason.
type Reason int

// The reasons, append-only.
const (
	ReasonNone Reason = iota
	// ReasonBadSize is no longer returned: a bad board size now comes back as
	// the engine's *engine.ConfigError. It stays because reasons are append-only.
	ReasonBadSize
	ReasonBadColumn  // a move that is not a column of the board
	ReasonColumnFull // a move into a full column
	ReasonGameOver   // a move after someone has already connected, or a game already won or resigned
	ReasonBoardFull  // no move left to choose (a drawn game)
	ReasonBadLevel   // an unknown difficulty level
	ReasonNoGame     // a nil *engine.Game
)

var reasonText = [...]string{
	ReasonNone:       "no error",
	ReasonBadSize:    "invalid board size",
	ReasonBadColumn:  "invalid column",
	ReasonColumnFull: "column full",
	ReasonGameOver:   "game already won",
	ReasonBoardFull:  "board full",
	ReasonBadLevel:   "unknown level",
	ReasonNoGame:     "no game",
}

// String returns a short lower-case description of r.
func (r Reason) String() string {
	if r < 0 || int(r) >= len(reasonText) {
		return fmt.Sprintf("reason(%d)", int(r))
	}
	return reasonText[r]
}

// Error is the error the package's functions return for a rejected position,
// game or level; a bad board size is the engine's *engine.ConfigError instead.
// Check it with errors.As and switch on Reason; the text is for people.
type Error struct {
	Reason Reason
	// Move is the 1-based index of the offending move in the sequence, 0 when the
	// error is not about one move.
	Move int
	// Detail says more, e.g. the offending column or size; it may be empty.
	Detail string
}

// Error returns the text of e, prefixed by the package name.
func (e *Error) Error() string {
	s := "solver: " + e.Reason.String()
	if e.Move > 0 {
		s += fmt.Sprintf(" at move %d", e.Move)
	}
	if e.Detail != "" {
		s += ": " + e.Detail
	}
	return s
}
