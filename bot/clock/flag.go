package clock

import (
	"time"

	"github.com/connect4/connect4/engine"
)

// Verdict is what a fallen flag means for the game. The zero value
// NoVerdict is never returned for a game in progress.
type Verdict uint8

// The verdicts of a flag fall. Append only.
const (
	NoVerdict Verdict = iota
	// Lost: the player whose flag fell loses on time (in a game of 3 or
	// 4 they leave, as by resigning).
	Lost
	// Drawn: nobody else could still connect, so the game is a draw.
	Drawn
)

// String returns "none", "lost" or "drawn".
func (v Verdict) String() string {
	switch v {
	case Lost:
		return "lost"
	case Drawn:
		return "drawn"
	}
	return "none"
}

// FlagVerdict returns what it means that flagged's flag fell in g, a game
// in progress: Lost when another player who has not left could still
// connect, Drawn when none could. NoVerdict for a game that is over or a
// player not in it.
//
// The rule, the counterpart of chess's "a flag fall is a draw when the
// opponent cannot mate by any series of legal moves": a player could
// still connect when some line of Connect cells on the board (across,
// up, or along either diagonal) holds none of the other players' discs,
// only their own and empty cells (CanConnect). It does not ask whether
// the order of play and gravity would let them fill it, so it may call a
// hopeless position winnable, never the reverse: the benefit of the doubt
// goes to the player who kept their time.
func FlagVerdict(g *engine.Game, flagged engine.Player) Verdict {
	if g.State() != engine.InProgress || !flagged.Valid() || int(flagged) > len(g.Players()) || g.Left(flagged) {
		return NoVerdict
	}
	for _, p := range g.Active() {
		if p != flagged && CanConnect(g, p) {
			return Lost
		}
	}
	return Drawn
}

// CanConnect reports whether some line of Connect cells of g's board holds
// only p's discs and empty cells: whether p could, with the others' help,
// still complete a line.
func CanConnect(g *engine.Game, p engine.Player) bool {
	b, n := g.Board(), g.Config().Connect
	rows, cols := b.Rows(), b.Cols()
	for _, d := range [4][2]int{{0, 1}, {1, 0}, {1, 1}, {1, -1}} {
		for r := range rows {
			for c := range cols {
				er, ec := r+(n-1)*d[0], c+(n-1)*d[1]
				if er < 0 || er >= rows || ec < 0 || ec >= cols {
					continue
				}
				open := true
				for i := 0; i < n && open; i++ {
					q := b.At(r+i*d[0], c+i*d[1])
					open = q == engine.NoPlayer || q == p
				}
				if open {
					return true
				}
			}
		}
	}
	return false
}

// Deadline adjudicates a game g still in progress when its tournament
// round's time limit passes at at, under clocks k (player i of the clock
// is engine.Player(i+1)): the player with the least time left at at is
// treated as if their flag fell then, and FlagVerdict says what that
// means. On equal time, or without a clock, it is the player to move: the
// one keeping the game waiting. It returns engine.NoPlayer and NoVerdict
// for a game that is over.
func Deadline(g *engine.Game, k Clock, at time.Time) (engine.Player, Verdict) {
	turn := g.Turn()
	if g.State() != engine.InProgress || turn == engine.NoPlayer {
		return engine.NoPlayer, NoVerdict
	}
	loser := turn
	if k.Running() {
		least := k.Remaining(int(turn)-1, at)
		for _, p := range g.Active() {
			if left := k.Remaining(int(p)-1, at); left < least {
				loser, least = p, left
			}
		}
	}
	return loser, FlagVerdict(g, loser)
}
