package engine

import "strconv"

// Player is one side of a game. The zero value NoPlayer means "nobody": an
// empty cell, no winner, or nobody to move in a finished game.
type Player uint8

// The players. Red always moves first.
const (
	NoPlayer Player = iota
	Red
	Yellow
)

// Other returns the opponent of p, or NoPlayer when p is not Red or Yellow.
func (p Player) Other() Player {
	switch p {
	case Red:
		return Yellow
	case Yellow:
		return Red
	}
	return NoPlayer
}

// Valid reports whether p is Red or Yellow.
func (p Player) Valid() bool { return p == Red || p == Yellow }

// String returns "red", "yellow" or "none".
func (p Player) String() string {
	switch p {
	case Red:
		return "red"
	case Yellow:
		return "yellow"
	case NoPlayer:
		return "none"
	}
	return "player(" + strconv.Itoa(int(p)) + ")"
}

// State is where a game stands. The zero value StateUnknown never describes a
// game made by New or Decode.
type State uint8

// The states of a game.
const (
	StateUnknown State = iota
	InProgress
	Won
	Draw
	Resigned
)

// Over reports whether the game has ended (won, drawn or resigned).
func (s State) Over() bool { return s == Won || s == Draw || s == Resigned }

// String returns the state in lower case words.
func (s State) String() string {
	switch s {
	case InProgress:
		return "in progress"
	case Won:
		return "won"
	case Draw:
		return "draw"
	case Resigned:
		return "resigned"
	}
	return "unknown"
}

// Cell is one position on the board. Row 0 is the bottom row, column 0 the
// leftmost column.
type Cell struct {
	Row, Col int
}
