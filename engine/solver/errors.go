package solver

import "fmt"

// Reason says why a position, a board size or a level was rejected. The zero
// value means no reason.
type Reason int

// The reasons, append-only.
const (
	ReasonNone       Reason = iota
	ReasonBadSize           // rows, columns or connect length outside the allowed ranges
	ReasonBadColumn         // a move that is not a column of the board
	ReasonColumnFull        // a move into a full column
	ReasonGameOver          // a move after someone has already connected, or a position already won
	ReasonBoardFull         // no move left to choose
	ReasonBadLevel          // an unknown difficulty level
)

var reasonText = [...]string{
	ReasonNone:       "no error",
	ReasonBadSize:    "invalid board size",
	ReasonBadColumn:  "invalid column",
	ReasonColumnFull: "column full",
	ReasonGameOver:   "game already won",
	ReasonBoardFull:  "board full",
	ReasonBadLevel:   "unknown level",
}

// String returns a short lower-case description of r.
func (r Reason) String() string {
	if r < 0 || int(r) >= len(reasonText) {
		return fmt.Sprintf("reason(%d)", int(r))
	}
	return reasonText[r]
}

// Error is the error every function of the package returns. Check it with
// errors.As and switch on Reason; the text is for people.
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
