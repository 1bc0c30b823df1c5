package terminal

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
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

// BookAbout is the description of `connect4 book`.
const BookAbout = `Builds the opening book of 7 x 6 that the hard AI plays from, with this
project's own solver: every position with fewer than -depth discs that the AI
can meet playing the book's moves, as either colour, against any replies, each
with its best move and exact value, checked by solving the move's position again.
It is resumable: what it has solved goes to -progress at once, and a new run
with the same file solves only the rest. It uses -workers cores; run it under
nice. The committed book was made with

  nice -n 19 go run ./cmd/connect4 book -depth N -out engine/solver/book.bin

usage: connect4 book [-depth 8] [-workers 2] [-progress book.progress] [-out book.bin]`

// Book runs `connect4 book`: see BookAbout.
func Book(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("book", flag.ContinueOnError)
	fs.SetOutput(stderr)
	depth := fs.Int("depth", 8, "the book covers positions with fewer discs than this (1-42)")
	workers := fs.Int("workers", 2, "solvers run in parallel, one core each (~150 MiB each)")
	progress := fs.String("progress", "book.progress", "the file of what has been solved, read first and appended to")
	out := fs.String("out", "book.bin", "where to write the book")
	fs.Usage = func() {}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fmt.Fprintln(stdout, BookAbout)
			return nil
		}
		fmt.Fprintln(stderr, BookAbout)
		return fmt.Errorf("book: %w", err)
	}
	if fs.NArg() > 0 || *workers < 1 || *workers > 64 {
		fmt.Fprintln(stderr, BookAbout)
		return errors.New("book: -workers must be 1-64, and no arguments")
	}
	f, err := os.OpenFile(*progress, os.O_RDWR|os.O_CREATE|os.O_APPEND, 0o644)
	if err != nil {
		return fmt.Errorf("book: %w", err)
	}
	defer f.Close()
	start := time.Now()
	save := func(b *solver.Book) error {
		data, _ := b.MarshalBinary()
		// Write beside, then rename: a book is never half-written.
		tmp := *out + ".tmp"
		if err := os.WriteFile(tmp, data, 0o644); err != nil {
			return err
		}
		if err := os.Rename(tmp, *out); err != nil {
			return err
		}
		fmt.Fprintf(stdout, "wrote %s: depth %d, %d positions, %d bytes, after %v\n", *out, b.Depth(), b.Len(), len(data), time.Since(start).Round(time.Second))
		return nil
	}
	if _, err := solver.BuildBook(ctx, *depth, *workers, f, stdout, save); err != nil {
		return fmt.Errorf("book: %w", err)
	}
	return nil
}
