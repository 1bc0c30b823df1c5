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

	var (
		s                      *solver.Solver
		ai                     = solver.NewAI()
		rng                    = rand.New(rand.NewPCG(1, 2))
		solved, invalid, wrong int
		checked                int
		totalNodes             uint64
		totalTime              time.Duration
		moveTimes              []time.Duration
	)
	if opt.Level == solver.LevelNone {
		s = solver.NewSolver()
	}
	sc := bufio.NewScanner(in)
	for n := 1; sc.Scan(); n++ {
		if err := ctx.Err(); err != nil {
			return err
		}
		line := strings.TrimRight(sc.Text(), "\r")
		if strings.TrimSpace(line) == "" {
			continue
		}
		moves, rest, _ := strings.Cut(line, " ")
		p, err := solver.ParsePosition(moves)
		if err == nil && moves == "" {
			err = errors.New("empty position: the empty board needs an opening book")
		}
		if err != nil {
			invalid++
			fmt.Fprintf(out, "line %d: invalid position %q: %v\n", n, moves, err)
			continue
		}

		if opt.Level != solver.LevelNone {
			g, err := StandardGame(moves)
			if err != nil {
				invalid++
				fmt.Fprintf(out, "line %d: %v\n", n, err)
				continue
			}
			start := time.Now()
			col, err := ai.ChooseMove(ctx, g, opt.Level, rng, opt.Budget)
			took := time.Since(start)
			if err != nil {
				invalid++
				fmt.Fprintf(out, "line %d: %v\n", n, err)
				continue
			}
			moveTimes = append(moveTimes, took)
			fmt.Fprintf(out, "%s %d %d\n", moves, col+1, took.Microseconds())
			continue
		}

		s.Reset()
		start := time.Now()
		score, err := s.SolveContext(ctx, p)
		took := time.Since(start)
		if err != nil {
			return err
		}
		solved++
		totalNodes += s.Nodes()
		totalTime += took
		fmt.Fprintf(out, "%s %d %d %d", moves, score, s.Nodes(), took.Microseconds())
		if want, err := strconv.Atoi(strings.Fields(rest + " x")[0]); err == nil {
			checked++
			if want != score {
				wrong++
				fmt.Fprintf(out, " wrong: want %d", want)
			}
		}
		fmt.Fprintln(out)
	}
	if err := sc.Err(); err != nil {
		return fmt.Errorf("solve: read positions: %w", err)
	}

	if opt.Bench {
		switch {
		case opt.Level != solver.LevelNone && len(moveTimes) > 0:
			slices.Sort(moveTimes)
			var sum time.Duration
			for _, d := range moveTimes {
				sum += d
			}
			pct := func(q float64) time.Duration { return moveTimes[min(len(moveTimes)-1, int(q*float64(len(moveTimes))))] }
			fmt.Fprintf(out, "%s moves: %d, mean %v, p50 %v, p99 %v, max %v (budget %v)\n",
				opt.Level, len(moveTimes), sum/time.Duration(len(moveTimes)), pct(0.50), pct(0.99), moveTimes[len(moveTimes)-1], opt.Budget)
		case solved > 0:
			fmt.Fprintf(out, "positions: %d, mean time: %.1f µs, mean nodes: %.0f, scores checked: %d, wrong: %d\n",
				solved, float64(totalTime.Nanoseconds())/1e3/float64(solved), float64(totalNodes)/float64(solved), checked, wrong)
		}
	}
	switch {
	case invalid > 0 && wrong > 0:
		return fmt.Errorf("solve: %d invalid lines, %d wrong scores", invalid, wrong)
	case invalid > 0:
		return fmt.Errorf("solve: %d invalid lines", invalid)
	case wrong > 0:
		return fmt.Errorf("solve: %d wrong scores", wrong)
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
