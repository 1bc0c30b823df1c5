package main

import (
	"context"
	"flag"
	"fmt"
	"io"

	"github.com/connect4/connect4/engine/solver"
	"github.com/connect4/connect4/engine/solver/batch"
)

// solveFlags defines the flags of `connect4 solve` on fs.
func solveFlags(fs *flag.FlagSet) (opt *batch.Options, level *string) {
	opt = &batch.Options{}
	fs.BoolVar(&opt.Bench, "bench", false, "print the mean time and nodes per position at the end (with -level: move time percentiles)")
	fs.DurationVar(&opt.Budget, "budget", solver.DefaultBudget, "time budget per move with -level")
	return opt, fs.String("level", "", "instead of solving, time the move of the computer at this level (easy, medium or hard)")
}

// runSolve is `connect4 solve`: batch.Run on stdin and stdout.
func runSolve(ctx context.Context, args []string, stdin io.Reader, stdout, stderr io.Writer) error {
	me, _ := lookup("solve")
	fs := flag.NewFlagSet("solve", flag.ContinueOnError)
	opt, level := solveFlags(fs)
	if err := parseFlags(me, fs, args, stdout, stderr); err != nil {
		return err
	}
	if *level != "" {
		l, err := solver.ParseLevel(*level)
		if err != nil {
			return fmt.Errorf("solve: -level: %w", err)
		}
		opt.Level = l
	}
	return batch.Run(ctx, stdin, stdout, *opt)
}
