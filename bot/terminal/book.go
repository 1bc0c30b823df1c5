package terminal

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"slices"
	"time"

	"github.com/connect4/connect4/engine/solver"
)

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

// OutcomesAbout is the description of `connect4 book -outcomes`.
const OutcomesAbout = `With -outcomes, builds instead the outcome table the analysis proves the
opening from: the win, draw or loss of every position of 7 x 6 with at most
-full discs (level by level from the empty board, each checked against the
next), then of the positions with more discs, up to -deep, that -games games
of the easy and medium levels reach, most often reached first. It is
resumable like the book (-progress), uses one core, and writes -out after
each level and every 200 sample positions; run it under nice. With -part
K/N it solves only every N-th position of each level and of the sample,
from the K-th, and stops after the first level it does not know whole: run
N of them, each with its own -progress, then merge those files (sort -u) and
run again on the merged file, which checks the level and goes on. The committed
table was made with

  nice -n 19 go run ./cmd/connect4 book -outcomes -full 1 -deep 9 -games 4000 \
    -progress outcomes.progress -out engine/solver/outcomes.bin

stopped when the time ran out, and written again with -full 3 once levels 2
and 3 were all solved (see engine/solver/README.md).

usage: connect4 book -outcomes [-full 1] [-deep 9] [-games 4000] [-seed 1] [-part K/N] [-progress outcomes.progress] [-out outcomes.bin]`

// Book runs `connect4 book`: the opening book (see BookAbout), or with
// -outcomes the outcome table (see OutcomesAbout).
func Book(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if slices.Contains(args, "-outcomes") || slices.Contains(args, "--outcomes") {
		return outcomes(ctx, args, stdout, stderr)
	}
	fs := flag.NewFlagSet("book", flag.ContinueOnError)
	depth := fs.Int("depth", 8, "the book covers positions with fewer discs than this (1-42)")
	workers := fs.Int("workers", 2, "solvers run in parallel, one core each (~150 MiB each)")
	progress := fs.String("progress", "book.progress", "the file of what has been solved, read first and appended to")
	out := fs.String("out", "book.bin", "where to write the book")
	if help, err := parseBuild(fs, args, BookAbout, stdout, stderr); help || err != nil {
		return err
	}
	if fs.NArg() > 0 || *workers < 1 || *workers > 64 {
		fmt.Fprintln(stderr, BookAbout)
		return errors.New("book: -workers must be 1-64, and no arguments")
	}
	return build(*progress, *out, stdout, func(f *os.File, save func([]byte, string) error) error {
		_, err := solver.BuildBook(ctx, *depth, *workers, f, stdout, func(b *solver.Book) error {
			data, _ := b.MarshalBinary()
			return save(data, fmt.Sprintf("depth %d, %d positions", b.Depth(), b.Len()))
		})
		return err
	})
}

// outcomes runs `connect4 book -outcomes`: see OutcomesAbout.
func outcomes(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("book", flag.ContinueOnError)
	fs.Bool("outcomes", true, "build the outcome table")
	var plan solver.OutcomesPlan
	fs.IntVar(&plan.Full, "full", 1, "every position with at most this many discs (0-8)")
	fs.IntVar(&plan.Deep, "deep", 9, "the sample games' positions with up to this many discs")
	fs.IntVar(&plan.Games, "games", 4000, "sample games")
	fs.Uint64Var(&plan.Seed, "seed", 1, "the seed of the sample games")
	part := fs.String("part", "", "K/N: solve only the K-th of N shares of each level and of the sample (for N processes, each with its own -progress)")
	progress := fs.String("progress", "outcomes.progress", "the file of what has been solved, read first and appended to")
	out := fs.String("out", "outcomes.bin", "where to write the table")
	if help, err := parseBuild(fs, args, OutcomesAbout, stdout, stderr); help || err != nil {
		return err
	}
	if *part != "" {
		if n, err := fmt.Sscanf(*part, "%d/%d", &plan.Part, &plan.Parts); err != nil || n != 2 || plan.Parts < 1 ||
			plan.Part < 1 || plan.Part > plan.Parts || fmt.Sprintf("%d/%d", plan.Part, plan.Parts) != *part {
			fmt.Fprintln(stderr, OutcomesAbout)
			return fmt.Errorf("book: -part %q: want K/N with 1 <= K <= N, like 1/2", *part)
		}
	}
	if fs.NArg() > 0 || plan.Full < 0 || plan.Full > 8 || plan.Games < 0 {
		fmt.Fprintln(stderr, OutcomesAbout)
		return errors.New("book: -full must be 0-8, -games at least 0, and no arguments")
	}
	return build(*progress, *out, stdout, func(f *os.File, save func([]byte, string) error) error {
		_, err := solver.BuildOutcomes(ctx, plan, f, stdout, func(o *solver.Outcomes) error {
			data, _ := o.MarshalBinary()
			return save(data, fmt.Sprintf("full to %d discs, %d positions", o.Full(), o.Len()))
		})
		return err
	})
}

// parseBuild parses a build's flags: with -h it prints about to stdout and
// reports help; a bad flag prints about to stderr and is an error.
func parseBuild(fs *flag.FlagSet, args []string, about string, stdout, stderr io.Writer) (help bool, err error) {
	fs.SetOutput(stderr)
	fs.Usage = func() {}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fmt.Fprintln(stdout, about)
			return true, nil
		}
		fmt.Fprintln(stderr, about)
		return false, fmt.Errorf("book: %w", err)
	}
	return false, nil
}

// build opens the progress file (created when absent, appended to) and
// runs run with it and a save that writes what was built to out, beside
// and then renamed so that out is never half-written, and says so with
// what (its size and the time since the start follow).
func build(progress, out string, stdout io.Writer, run func(f *os.File, save func(data []byte, what string) error) error) error {
	f, err := os.OpenFile(progress, os.O_RDWR|os.O_CREATE|os.O_APPEND, 0o644)
	if err != nil {
		return fmt.Errorf("book: %w", err)
	}
	defer f.Close()
	start := time.Now()
	save := func(data []byte, what string) error {
		tmp := out + ".tmp"
		if err := os.WriteFile(tmp, data, 0o644); err != nil {
			return err
		}
		if err := os.Rename(tmp, out); err != nil {
			return err
		}
		fmt.Fprintf(stdout, "wrote %s: %s, %d bytes, after %v\n", out, what, len(data), time.Since(start).Round(time.Second))
		return nil
	}
	if err := run(f, save); err != nil {
		return fmt.Errorf("book: %w", err)
	}
	return nil
}
