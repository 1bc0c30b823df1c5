package terminal

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/connect4/connect4/bot"
	"github.com/connect4/connect4/bot/lang"
	"github.com/connect4/connect4/engine"
	"github.com/connect4/connect4/engine/solver"
)

// AnalyzeAbout is the description of `connect4 analyze`.
const AnalyzeAbout = `Prints the solver's verdict on each move of a game, as the Analysis button
does in chat: kept the win or the draw, threw away a win, turned a draw into a
loss, the only move; and the turning point. The moves are the columns played
from the empty board, first player first: digits ("4453...") on boards of up
to 9 columns, or numbers separated by commas. On 7 x 6 with a line of 4 the
verdicts are exact; elsewhere they rest on the forced wins the search finds.

usage: connect4 analyze [-board 7x6] [-connect 4] [-budget 30s] <moves>`

// Analyze runs `connect4 analyze`: see AnalyzeAbout. It prints the
// analysis to stdout, and returns an error for bad flags or moves (after
// printing the usage to stderr); -h prints the usage to stdout and returns
// nil.
func Analyze(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("analyze", flag.ContinueOnError)
	fs.SetOutput(stderr)
	board := fs.String("board", "7x6", "the board, columns x rows (4-10 each)")
	connect := fs.Int("connect", 4, "the discs in a line that win")
	budget := fs.Duration("budget", 30*time.Second, "the longest the solver works; moves it has no time for are marked ?")
	usage := func(w io.Writer) {
		fmt.Fprintln(w, AnalyzeAbout)
		fmt.Fprintln(w, "\nflags:")
		fs.SetOutput(w)
		fs.PrintDefaults()
		fs.SetOutput(stderr)
	}
	fs.Usage = func() {}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			usage(stdout)
			return nil
		}
		usage(stderr)
		return fmt.Errorf("analyze: %w", err)
	}
	if fs.NArg() == 0 {
		usage(stderr)
		return errors.New("analyze: no moves given")
	}
	var cols, rows int
	if _, err := fmt.Sscanf(strings.ToLower(*board), "%dx%d", &cols, &rows); err != nil {
		return fmt.Errorf("analyze: -board %q is not columns x rows", *board)
	}
	cfg := engine.Config{Rows: rows, Cols: cols, Connect: *connect}
	text, err := bot.AnalyzeMoves(ctx, lang.English, cfg, strings.Join(fs.Args(), ","), *budget)
	if err != nil {
		return err
	}
	_, err = fmt.Fprintln(stdout, emphasize(text, false)) // plain words: often piped
	return err
}

// PuzzlesAbout is the description of `connect4 puzzles`.
const PuzzlesAbout = `Generates the puzzle set that /connect4 puzzle serves, on standard output:
positions of 7 x 6 from games of the AI levels against each other, where the
player to move has a forced win in 3 to 9 of their own moves and none shorter,
each proven by the exact solver. The committed set was made with

  nice -n 19 go run ./cmd/connect4 puzzles -n 100 > engine/solver/puzzles.txt

usage: connect4 puzzles [-n 100] [-seed 1]`

// Puzzles runs `connect4 puzzles`: see PuzzlesAbout.
func Puzzles(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("puzzles", flag.ContinueOnError)
	fs.SetOutput(stderr)
	n := fs.Int("n", 100, "puzzles per level (easy, medium, hard)")
	seed := fs.Uint64("seed", 1, "the seed of the games the positions come from")
	fs.Usage = func() {}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fmt.Fprintln(stdout, PuzzlesAbout)
			return nil
		}
		fmt.Fprintln(stderr, PuzzlesAbout)
		return fmt.Errorf("puzzles: %w", err)
	}
	if fs.NArg() > 0 || *n < 1 || *n > 10000 {
		fmt.Fprintln(stderr, PuzzlesAbout)
		return errors.New("puzzles: -n must be 1-10000, and no arguments")
	}
	return solver.WritePuzzles(ctx, stdout, *n, *seed)
}
