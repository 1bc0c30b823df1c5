package solver

import (
	"bufio"
	"context"
	_ "embed"
	"fmt"
	"io"
	"math/rand/v2"
	"strconv"
	"strings"
	"time"

	"github.com/connect4/connect4/engine"
)

// Puzzle is a position of the standard board where the player to move has
// a forced win: Moves are the columns played to reach it (0-based, first
// player first), WinIn the number of the mover's own moves to the connect
// with best play on both sides (no shorter win exists), and Solution one
// line of best play from it to that connect, both sides' moves.
type Puzzle struct {
	Moves    []int
	WinIn    int
	Solution []int
}

// The lengths of the puzzles' wins, in the mover's own moves.
const (
	MinPuzzleWin = 3
	MaxPuzzleWin = 9
)

// PuzzleRange returns the win lengths of level's puzzles: easy 3-4,
// medium 5-6, hard 7-9.
func PuzzleRange(level Level) (lo, hi int) {
	switch level {
	case Easy:
		return 3, 4
	case Hard:
		return 7, 9
	}
	return 5, 6
}

// puzzleText is the embedded set of puzzles, written by `connect4
// puzzles` (WritePuzzles): one per line, "moves winIn solution" with the
// columns as digits 1-7.
//
//go:embed puzzles.txt
var puzzleText string

// Puzzles returns the embedded puzzles of level (Easy, Medium or Hard) in
// file order. It returns an error when the embedded set does not parse or
// a puzzle in it is not what it claims to be on its face (a bad position, a
// solution that does not end in the mover's connect after WinIn of their
// moves); the exact length is checked by the tests, which solve each one.
// The result is fresh: the caller may change it.
func Puzzles(level Level) ([]Puzzle, error) {
	lo, hi := PuzzleRange(level)
	all, err := ReadPuzzles(strings.NewReader(puzzleText))
	if err != nil {
		return nil, err
	}
	var out []Puzzle
	for _, p := range all {
		if p.WinIn >= lo && p.WinIn <= hi {
			out = append(out, p)
		}
	}
	return out, nil
}

// ReadPuzzles parses puzzles written by WritePuzzles, checking each one's
// position and solution (not the exact length of its win: that needs a solve).
func ReadPuzzles(r io.Reader) ([]Puzzle, error) {
	var out []Puzzle
	sc := bufio.NewScanner(r)
	for n := 1; sc.Scan(); n++ {
		line := strings.TrimSpace(sc.Text())
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		f := strings.Fields(line)
		if len(f) != 3 {
			return nil, fmt.Errorf("solver: puzzles line %d: want moves, win length and solution", n)
		}
		p, err1 := ParsePosition(f[0])
		in, err2 := strconv.Atoi(f[1])
		if err1 != nil || err2 != nil || in < MinPuzzleWin || in > MaxPuzzleWin {
			return nil, fmt.Errorf("solver: puzzles line %d: bad position or win length", n)
		}
		pz := Puzzle{Moves: digitsToCols(f[0]), WinIn: in, Solution: digitsToCols(f[2])}
		if len(pz.Solution) != 2*in-1 || !solves(p, pz.Solution) {
			return nil, fmt.Errorf("solver: puzzles line %d: the solution does not win in %d", n, in)
		}
		out = append(out, pz)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("solver: read puzzles: %w", err)
	}
	return out, nil
}

// solves reports whether playing line from p is legal, connects with its
// last move, and with no earlier one.
func solves(p Position, line []int) bool {
	for i, c := range line {
		if c < 0 || c >= Width || !p.CanPlay(c) {
			return false
		}
		if p.IsWinningMove(c) {
			return i == len(line)-1
		}
		p.Play(c)
	}
	return false
}

func digitsToCols(s string) []int {
	cols := make([]int, len(s))
	for i := range s {
		cols[i] = int(s[i] - '1')
	}
	return cols
}

func colsToDigits(cols []int) string {
	b := make([]byte, len(cols))
	for i, c := range cols {
		b[i] = byte('1' + c)
	}
	return string(b)
}

// puzzleFrom is the fewest discs of a puzzle position: shallower ones take
// the solver too long to prove, and are rarely short wins.
const puzzleFrom = 12

// GeneratePuzzles plays games of the AI levels against each other (seeded
// with seed) and returns n puzzles whose wins last lo to hi of the mover's
// own moves, each position proven by the exact solver, at most one per
// game and none twice (a position and its mirror image count as one). It
// stops early, with what it found, when ctx is done.
func GeneratePuzzles(ctx context.Context, n int, lo, hi int, seed uint64) []Puzzle {
	rng := rand.New(rand.NewPCG(seed, 0x9e3779b9))
	sv := NewSolver()
	ai := NewAI()
	seen := map[uint64]bool{}
	var out []Puzzle
	levels := []Level{Easy, Medium, Medium, Hard}
	for len(out) < n && ctx.Err() == nil {
		g, _ := engine.New(engine.DefaultConfig())
		red, yellow := levels[rng.IntN(len(levels))], levels[rng.IntN(len(levels))]
		var p Position
		for !g.State().Over() && ctx.Err() == nil {
			if p.moves >= puzzleFrom && !p.CanWinNext() {
				if pz, ok := puzzleAt(sv, p, g.History(), lo, hi); ok && !seen[canonical(p)] {
					seen[canonical(p)] = true
					out = append(out, pz)
					break
				}
			}
			level := red
			if g.Turn() == engine.Yellow {
				level = yellow
			}
			col, err := ai.ChooseMove(ctx, g, level, rng, 50*time.Millisecond)
			if err != nil {
				break
			}
			if err := g.Play(g.Turn(), col); err != nil {
				break
			}
			p.Play(col)
		}
	}
	return out
}

// puzzleAt returns the puzzle of p (reached by history) when its mover wins
// in lo to hi of their own moves.
func puzzleAt(sv *Solver, p Position, history []int, lo, hi int) (Puzzle, bool) {
	sv.Reset()
	// A win in at most hi moves has a value of at least this; a weak-style
	// null window proves "not that short" at a fraction of a full solve.
	floor := (cells+1-p.moves)/2 - hi + 1
	if r := sv.negamax(p, floor-1, floor); r < floor {
		return Puzzle{}, false
	}
	v := sv.Solve(p)
	in := winIn(p.moves, v)
	if v <= 0 || in < lo || in > hi {
		return Puzzle{}, false
	}
	line := principalLine(sv, p)
	if len(line) != 2*in-1 || !solves(p, line) {
		return Puzzle{}, false // cannot happen with an exact solver
	}
	return Puzzle{Moves: append([]int(nil), history...), WinIn: in, Solution: line}, true
}

// principalLine returns best play from p, won by its mover, to the connect:
// the quickest win for the winner, the longest defence for the loser.
func principalLine(sv *Solver, p Position) []int {
	var line []int
	for p.moves < cells {
		col, _ := sv.BestMove(p)
		if col < 0 {
			break
		}
		line = append(line, col)
		if p.IsWinningMove(col) {
			break
		}
		p.Play(col)
	}
	return line
}

// canonical returns the key of p or of its mirror image, whichever is
// smaller: the same for both.
func canonical(p Position) uint64 {
	return min(p.Key(), mirror(p).Key())
}

// mirror returns p reflected left to right.
func mirror(p Position) Position {
	var m Position
	m.moves = p.moves
	for c := range Width {
		shift := func(b uint64) uint64 { return (b >> (c * stride)) & (1<<stride - 1) << ((Width - 1 - c) * stride) }
		m.current |= shift(p.current)
		m.mask |= shift(p.mask)
	}
	return m
}

// WritePuzzles generates perLevel puzzles of each level (see
// GeneratePuzzles) and writes them in the form Puzzles reads, easy first,
// with a header saying how they were made. It returns the first write error.
func WritePuzzles(ctx context.Context, w io.Writer, perLevel int, seed uint64) error {
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "# connect4 puzzles -n %d -seed %d: 7x6 positions from games of the AI levels against\n", perLevel, seed)
	fmt.Fprintln(bw, "# each other, each proven by the exact solver. moves, win length (the mover's own moves), solution.")
	for i, level := range []Level{Easy, Medium, Hard} {
		lo, hi := PuzzleRange(level)
		for _, pz := range GeneratePuzzles(ctx, perLevel, lo, hi, seed+uint64(i)) {
			fmt.Fprintf(bw, "%s %d %s\n", colsToDigits(pz.Moves), pz.WinIn, colsToDigits(pz.Solution))
		}
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	return bw.Flush()
}

// PuzzleStatus says how a puzzle stands after history: the puzzle's start
// moves (its position), then those played since, the first of them by the
// player solving it, who is allowed that many of their own moves in all. It
// returns solved when that player has connected, failed when the defender
// has, or when the solver can no longer force a win within the moves left.
// It solves the position exactly with a small table of its own (4 MiB);
// positions of a puzzle are deep, so this takes milliseconds.
func PuzzleStatus(start, allowed int, history []int) (solved, failed bool) {
	var p Position
	for i, c := range history {
		if p.IsWinningMove(c) {
			return (i-start)%2 == 0, (i-start)%2 != 0
		}
		p.Play(c)
	}
	used := (len(history) - start + 1) / 2 // the solver's own moves played
	left := allowed - used
	sv := newSolver(18, 18, defaultSplit)
	v := sv.Solve(p)
	toMoveIsSolver := (len(history)-start)%2 == 0
	if toMoveIsSolver {
		return false, v <= 0 || winIn(p.moves, v) > left
	}
	// The defender is to move: the solver's win, if any, is the defender's loss.
	if v >= 0 {
		return false, true
	}
	// A loss in v: the opponent connects with their k-th move from here.
	k := (cells-p.moves)/2 + v + 1
	return false, k > left
}
