package engine

import "strconv"

// Player is one side of a game. The zero value NoPlayer means "nobody": an
// empty cell, no winner, or nobody to move in a finished game.
type Player uint8

// The players, in the order they move: Red always first, then Yellow, then
// in games of 3 or 4 players Green and then Blue.
const (
	NoPlayer Player = iota
	Red
	Yellow
	Green
	Blue
)

// Other returns the opponent of p in a two-player game: Yellow for Red, Red
// for Yellow, and NoPlayer for anyone else.
func (p Player) Other() Player {
	switch p {
	case Red:
		return Yellow
	case Yellow:
		return Red
	}
	return NoPlayer
}

// Valid reports whether p is one of the four players, Red to Blue. Whether p
// plays in a given game depends on its number of players: see Game.Players.
func (p Player) Valid() bool { return p >= Red && p <= Blue }

// String returns "red", "yellow", "green", "blue" or "none".
func (p Player) String() string {
	switch p {
	case Red:
		return "red"
	case Yellow:
		return "yellow"
	case Green:
		return "green"
	case Blue:
		return "blue"
	case NoPlayer:
		return "none"
	}
	return "player(" + strconv.Itoa(int(p)) + ")"
}

// State is where a game stands. The zero value StateUnknown never describes a
// game made by New or Decode.
type State uint8

// The states of a game. Resigned means won by resignation: in a two-player
// game the other player resigned, in a game of 3 or 4 the winner is the last
// player left after all the others resigned.
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
