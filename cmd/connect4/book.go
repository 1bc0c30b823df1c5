package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"slices"
	"time"

	"github.com/connect4/connect4/bot/terminal"
	"github.com/connect4/connect4/engine/solver"
)

// outcomesAbout is the description of `connect4 book -outcomes`.
const outcomesAbout = `With -outcomes, builds instead the outcome table the analysis proves the
opening from: the win, draw or loss of every position of 7 x 6 with at most
-full discs (level by level from the empty board, each checked against the
next), then of the positions with more discs, up to -deep, that -games games
of the easy and medium levels reach, most often reached first. It is
resumable like the book (-progress), uses one core, and writes -out after
each level and every 200 sample positions; run it under nice. The committed
table was made with

  nice -n 19 go run ./cmd/connect4 book -outcomes -full 1 -deep 9 -games 4000 \
    -progress outcomes.progress -out engine/solver/outcomes.bin

stopped when the time ran out, and written again with -full 3 once levels 2
and 3 were all solved (see engine/solver/README.md).

usage: connect4 book -outcomes [-full 1] [-deep 9] [-games 4000] [-seed 1] [-progress outcomes.progress] [-out outcomes.bin]`

// runBook is `connect4 book`: the opening book (terminal.Book), or with
// -outcomes the outcome table.
func runBook(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if !slices.Contains(args, "-outcomes") && !slices.Contains(args, "--outcomes") {
		return terminal.Book(ctx, args, stdout, stderr)
	}
	fs := flag.NewFlagSet("book", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Bool("outcomes", true, "build the outcome table")
	var plan solver.OutcomesPlan
	fs.IntVar(&plan.Full, "full", 1, "every position with at most this many discs (0-8)")
	fs.IntVar(&plan.Deep, "deep", 9, "the sample games' positions with up to this many discs")
	fs.IntVar(&plan.Games, "games", 4000, "sample games")
	fs.Uint64Var(&plan.Seed, "seed", 1, "the seed of the sample games")
	progress := fs.String("progress", "outcomes.progress", "the file of what has been solved, read first and appended to")
	out := fs.String("out", "outcomes.bin", "where to write the table")
	fs.Usage = func() {}
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fmt.Fprintln(stdout, outcomesAbout)
			return nil
		}
		fmt.Fprintln(stderr, outcomesAbout)
		return fmt.Errorf("book: %w", err)
	}
	if fs.NArg() > 0 || plan.Full < 0 || plan.Full > 8 || plan.Games < 0 {
		fmt.Fprintln(stderr, outcomesAbout)
		return errors.New("book: -full must be 0-8, -games at least 0, and no arguments")
	}
	f, err := os.OpenFile(*progress, os.O_RDWR|os.O_CREATE|os.O_APPEND, 0o644)
	if err != nil {
		return fmt.Errorf("book: %w", err)
	}
	defer f.Close()
	start := time.Now()
	save := func(o *solver.Outcomes) error {
		data, _ := o.MarshalBinary()
		// Write beside, then rename: a table is never half-written.
		tmp := *out + ".tmp"
		if err := os.WriteFile(tmp, data, 0o644); err != nil {
			return err
		}
		if err := os.Rename(tmp, *out); err != nil {
			return err
		}
		fmt.Fprintf(stdout, "wrote %s: full to %d discs, %d positions, %d bytes, after %v\n", *out, o.Full(), o.Len(), len(data), time.Since(start).Round(time.Second))
		return nil
	}
	if _, err := solver.BuildOutcomes(ctx, plan, f, stdout, save); err != nil {
		return fmt.Errorf("book: %w", err)
	}
	return nil
}
