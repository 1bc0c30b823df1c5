// Package batch solves positions read from a stream, one per line, in the
// format of Pascal Pons' benchmark sets: what `connect4 solve` does.
package batch

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/connect4/connect4/engine"
	"github.com/connect4/connect4/engine/solver"
)

// About describes what Run reads and prints, for `connect4 solve --help`.
const About = `Reads positions from standard input, one per line, in the format of Pascal Pons'
benchmark sets: the columns played from the empty 7x6 board, digits 1-7, first
player first; anything after a space (such as the expected score) is ignored,
except that a number there is checked against the computed score.

For each position prints one line: the moves, the exact score for the player to
move (0 draw, positive win, negative loss, 22 minus the discs played by the
winner at the win), the number of nodes searched and the microseconds taken.
Every position is solved from a cleared transposition table. A line that is not
a valid position gets an error line with its line number, and the run goes on.

With -level, prints instead the column (1-7) the computer plays at that level
and the microseconds it took, within -budget.`

// Options are what a Run does besides solving.
type Options struct {
	// Bench prints the mean time and nodes per position at the end (with a
	// Level: move time percentiles).
	Bench bool
	// Level, when not LevelNone, times the computer's move at this level
	// instead of solving.
	Level solver.Level
	// Budget is the time allowed per move with a Level.
	Budget time.Duration
}

// Run reads positions from in and writes a line for each to out: see About.
// It returns an error for a read error, a cancelled ctx, or when some lines
// were invalid or got a score other than the one the line gave.
func Run(ctx context.Context, in io.Reader, w io.Writer, opt Options) error {
	out := bufio.NewWriter(w)
	defer out.Flush()
	r := &runner{opt: opt, out: out, ai: solver.NewAI(), rng: rand.New(rand.NewPCG(1, 2))}
	if opt.Level == solver.LevelNone {
		r.s = solver.NewSolver()
	}
	sc := bufio.NewScanner(in)
	for n := 1; sc.Scan(); n++ {
		if err := ctx.Err(); err != nil {
			return err
		}
		if err := r.line(ctx, n, strings.TrimRight(sc.Text(), "\r")); err != nil {
			return err
		}
	}
	if err := sc.Err(); err != nil {
		return fmt.Errorf("solve: read positions: %w", err)
	}
	if opt.Bench {
		r.summary()
	}
	return r.result()
}

// runner is one Run: what it solves or plays with, and its counts.
type runner struct {
	opt Options
	out *bufio.Writer
	s   *solver.Solver // nil when timing a Level
	ai  *solver.AI
	rng *rand.Rand

	solved, invalid, wrong, checked int
	totalNodes                      uint64
	totalTime                       time.Duration
	moveTimes                       []time.Duration
}

// line handles the n-th line of the input. It returns an error only when
// solving was cancelled; a bad line is counted and reported in out.
func (r *runner) line(ctx context.Context, n int, line string) error {
	if strings.TrimSpace(line) == "" {
		return nil
	}
	moves, rest, _ := strings.Cut(line, " ")
	p, err := solver.ParsePosition(moves)
	if err == nil && moves == "" {
		err = errors.New("empty position: the empty board needs an opening book")
	}
	if err != nil {
		r.invalid++
		fmt.Fprintf(r.out, "line %d: invalid position %q: %v\n", n, moves, err)
		return nil
	}
	if r.opt.Level != solver.LevelNone {
		r.move(ctx, n, moves)
		return nil
	}
	return r.solve(ctx, p, moves, rest)
}

// move times the Level's move in the position after moves.
func (r *runner) move(ctx context.Context, n int, moves string) {
	g, err := StandardGame(moves)
	if err != nil {
		r.invalid++
		fmt.Fprintf(r.out, "line %d: %v\n", n, err)
		return
	}
	start := time.Now()
	col, err := r.ai.ChooseMove(ctx, g, r.opt.Level, r.rng, r.opt.Budget)
	took := time.Since(start)
	if err != nil {
		r.invalid++
		fmt.Fprintf(r.out, "line %d: %v\n", n, err)
		return
	}
	r.moveTimes = append(r.moveTimes, took)
	fmt.Fprintf(r.out, "%s %d %d\n", moves, col+1, took.Microseconds())
}

// solve solves p, written moves, and checks its score against the one rest
// gives, if any.
func (r *runner) solve(ctx context.Context, p solver.Position, moves, rest string) error {
	r.s.Reset()
	start := time.Now()
	score, err := r.s.SolveContext(ctx, p)
	took := time.Since(start)
	if err != nil {
		return err
	}
	r.solved++
	r.totalNodes += r.s.Nodes()
	r.totalTime += took
	fmt.Fprintf(r.out, "%s %d %d %d", moves, score, r.s.Nodes(), took.Microseconds())
	if want, err := strconv.Atoi(strings.Fields(rest + " x")[0]); err == nil {
		r.checked++
		if want != score {
			r.wrong++
			fmt.Fprintf(r.out, " wrong: want %d", want)
		}
	}
	fmt.Fprintln(r.out)
	return nil
}

// summary writes the -bench line: move times, or solving times and nodes.
func (r *runner) summary() {
	switch {
	case r.opt.Level != solver.LevelNone && len(r.moveTimes) > 0:
		times := r.moveTimes
		slices.Sort(times)
		var sum time.Duration
		for _, d := range times {
			sum += d
		}
		pct := func(q float64) time.Duration { return times[min(len(times)-1, int(q*float64(len(times))))] }
		fmt.Fprintf(r.out, "%s moves: %d, mean %v, p50 %v, p99 %v, max %v (budget %v)\n",
			r.opt.Level, len(times), sum/time.Duration(len(times)), pct(0.50), pct(0.99), times[len(times)-1], r.opt.Budget)
	case r.solved > 0:
		fmt.Fprintf(r.out, "positions: %d, mean time: %.1f µs, mean nodes: %.0f, scores checked: %d, wrong: %d\n",
			r.solved, float64(r.totalTime.Nanoseconds())/1e3/float64(r.solved), float64(r.totalNodes)/float64(r.solved), r.checked, r.wrong)
	}
}

// result is Run's error for the lines that were invalid or wrong.
func (r *runner) result() error {
	switch {
	case r.invalid > 0 && r.wrong > 0:
		return fmt.Errorf("solve: %d invalid lines, %d wrong scores", r.invalid, r.wrong)
	case r.invalid > 0:
		return fmt.Errorf("solve: %d invalid lines", r.invalid)
	case r.wrong > 0:
		return fmt.Errorf("solve: %d wrong scores", r.wrong)
	}
	return nil
}

// StandardGame returns the game on the standard board after moves, the
// digits 1-7 of a position solver.ParsePosition accepted. It returns the
// engine's error for a move the engine rejects, which ParsePosition should
// already have caught.
func StandardGame(moves string) (*engine.Game, error) {
	g, err := engine.New(engine.DefaultConfig())
	if err != nil {
		return nil, err
	}
	for i := range len(moves) {
		if err := g.Play(g.Turn(), int(moves[i]-'1')); err != nil {
			return nil, fmt.Errorf("move %d: %w", i+1, err)
		}
	}
	return g, nil
}
