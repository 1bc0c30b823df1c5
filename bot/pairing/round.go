package pairing

import "fmt"

// Result is the outcome of one game of a round. The zero value NoResult
// means the game has not finished.
type Result uint8

// The results of a game. Their numbers may be stored: append only.
const (
	NoResult  Result = iota
	WhiteWins        // the first player won (on the board, on time or by resignation)
	BlackWins        // the second player won
	Draw
)

var resultNames = [...]string{"none", "white", "black", "draw"}

// String returns "none", "white", "black" or "draw", or "result(N)".
func (r Result) String() string {
	if int(r) < len(resultNames) {
		return resultNames[r]
	}
	return fmt.Sprintf("result(%d)", uint8(r))
}

// Valid reports whether r is one of the named results, NoResult included.
func (r Result) Valid() bool { return r <= Draw }

// NoBye is Round.Bye when nobody sits the round out.
const NoBye = -1

// Pair is one game of a round: White moves first. Result is NoResult until
// the game ends.
type Pair struct {
	White, Black int
	Result       Result
}

// Points returns what player p scored in the game, in half points (2 for a
// win, 1 for a draw), and whether p played in it. An unfinished game
// scores nothing.
func (g Pair) Points(p int) (Points, bool) {
	switch {
	case p != g.White && p != g.Black:
		return 0, false
	case g.Result == Draw:
		return 1, true
	case g.Result == WhiteWins && p == g.White, g.Result == BlackWins && p == g.Black:
		return 2, true
	}
	return 0, true
}

// Opponent returns the other player of the game, or -1 when p is not in it.
func (g Pair) Opponent(p int) int {
	switch p {
	case g.White:
		return g.Black
	case g.Black:
		return g.White
	}
	return -1
}

// Round is the games of one round, board 1 first, and the player who sits
// it out (NoBye for none).
type Round struct {
	Pairs []Pair
	Bye   int
}

// Over reports whether every game of the round has a result.
func (r Round) Over() bool {
	for _, p := range r.Pairs {
		if p.Result == NoResult {
			return false
		}
	}
	return true
}

// Clone returns a copy of r that shares nothing with it.
func (r Round) Clone() Round {
	return Round{Pairs: append([]Pair(nil), r.Pairs...), Bye: r.Bye}
}

// Points counts a score in half points, so that scores add up exactly: 2
// is a win, 1 a draw.
type Points int

// Float returns p in points: 1.5 for 3 half points.
func (p Points) Float() float64 { return float64(p) / 2 }
