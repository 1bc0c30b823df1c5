// Command connect4 runs the Connect Four chat bot.
//
//	connect4 play      play in this terminal, a chat channel on the same code as Slack and Discord
//	connect4 serve     serve Slack and Discord (HTTP endpoints, Socket Mode, Gateway), /healthz, /readyz, /metrics
//	connect4 register  register the /connect4 command and upload the disc emoji to Discord
//	connect4 solve     solve positions from stdin with the perfect solver
//	connect4 analyze   the solver's verdict on each move of a game
//
// Configuration comes from the environment; `connect4 help` lists it, and
// `connect4 <command> --help` lists a command's flags and the variables it
// reads. The load tester is a command of its own, cmd/connect4-loadtest.
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"

	"github.com/connect4/connect4/bot/ops"
	"github.com/connect4/connect4/bot/terminal"
	"github.com/connect4/connect4/engine/solver/batch"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	err := run(ctx, os.Args[1:], os.Getenv, os.Stdin, os.Stdout, os.Stderr)
	stop()
	if err != nil {
		if !errors.Is(err, errUsage) {
			fmt.Fprintln(os.Stderr, "connect4:", err)
		}
		os.Exit(1)
	}
}

// errUsage is returned after a usage problem and the usage text have been
// printed.
var errUsage = errors.New("usage")

// errHelp is returned by parseFlags after printing the help that -h or
// --help asked for; run returns nil for it.
var errHelp = errors.New("help printed")

// subcommand is one of connect4's commands: its name, what it is for (the
// top of its --help), the variables it reads and how it runs.
type subcommand struct {
	name, summary, about string
	env                  uses
}

// subcommands are listed by usage and described by their --help.
var subcommands = []subcommand{
	{"play", "play in this terminal (type /connect4 help once inside)",
		"Plays Connect Four in this terminal: one chat channel, #general, on the same bot as Slack and\n" +
			"Discord. Type what you would type in chat (/connect4 @bob, /connect4 ai hard), a button's\n" +
			"label to click it (Accept, 4, Rematch), `as bob` to become bob, and quit or Ctrl-D to leave.\n" +
			"Games live in memory unless a Redis is configured.", forPlay},
	{"serve", "serve Slack and Discord, with /healthz, /readyz and /metrics",
		"Serves the platforms the environment enables (Slack over HTTP or Socket Mode, Discord over\n" +
			"HTTP or the Gateway) on CONNECT4_ADDR, with /healthz, /readyz and /metrics, until SIGINT or\n" +
			"SIGTERM; then in-flight requests finish within CONNECT4_SHUTDOWN_TIMEOUT.", forServe},
	{"register", "register the /connect4 command and upload the disc emoji to Discord (DISCORD_APPLICATION_ID, DISCORD_BOT_TOKEN)",
		"Registers the /connect4 application command with Discord: in DISCORD_GUILD_ID only when set\n" +
			"(instant, for setup), else globally (may take up to an hour to appear).", forRegister},
	{"solve", "read positions (column digits 1-7) from stdin, print their exact scores", batch.About, 0},
	{"analyze", "the solver's verdict on each move of a game (connect4 analyze 4453...)", terminal.AnalyzeAbout, 0},
	{"puzzles", "generate the embedded puzzle set (engine/solver/puzzles.txt) on stdout", terminal.PuzzlesAbout, 0},
	{"book", "build the hard AI's opening book, or with -outcomes the analysis' outcome table (resumable; run under nice)", terminal.BookAbout + "\n\n" + terminal.OutcomesAbout, 0},
}

// run is connect4 without the process around it, for tests.
func run(ctx context.Context, args []string, getenv func(string) string, stdin io.Reader, stdout, stderr io.Writer) error {
	err := dispatch(ctx, args, getenv, stdin, stdout, stderr)
	if errors.Is(err, errHelp) {
		return nil
	}
	return err
}

func dispatch(ctx context.Context, args []string, getenv func(string) string, stdin io.Reader, stdout, stderr io.Writer) error {
	if len(args) == 0 {
		usage(stderr)
		return errUsage
	}
	switch args[0] {
	case "play":
		return runPlay(ctx, args[1:], getenv, stdin, stdout, stderr)
	case "serve":
		return runServe(ctx, args[1:], getenv, stdout, stderr)
	case "register":
		return runRegister(ctx, args[1:], getenv, stdout, stderr)
	case "solve":
		return runSolve(ctx, args[1:], stdin, stdout, stderr)
	case "analyze":
		return terminal.Analyze(ctx, args[1:], stdout, stderr)
	case "puzzles":
		return terminal.Puzzles(ctx, args[1:], stdout, stderr)
	case "book":
		return terminal.Book(ctx, args[1:], stdout, stderr)
	case "help", "-h", "-help", "--help":
		if len(args) > 1 {
			if sc, ok := lookup(args[1]); ok {
				printHelp(stdout, sc, newFlags(sc, args[1], stderr))
				return nil
			}
			fmt.Fprintf(stderr, "connect4: unknown command %q\n\n", args[1])
			usage(stderr)
			return errUsage
		}
		usage(stdout)
		return nil
	}
	fmt.Fprintf(stderr, "connect4: unknown command %q\n\n", args[0])
	usage(stderr)
	return errUsage
}

// lookup returns the subcommand called name.
func lookup(name string) (subcommand, bool) {
	for _, sc := range subcommands {
		if sc.name == name {
			return sc, true
		}
	}
	return subcommand{}, false
}

// newFlags returns the flag set of subcommand name with the flags it
// defines; for help it is used only to list them.
func newFlags(sc subcommand, name string, stderr io.Writer) *flag.FlagSet {
	fs := flag.NewFlagSet(name, flag.ContinueOnError)
	fs.SetOutput(stderr)
	switch name {
	case "play":
		playFlags(fs)
	case "solve":
		solveFlags(fs)
	}
	return fs
}

// parseFlags parses args into fs, the flag set of sc. For -h or --help it
// prints sc's help to stdout and returns errHelp; for a bad flag or an
// argument the command does not take it prints the problem and the help to
// stderr and returns errUsage.
func parseFlags(sc subcommand, fs *flag.FlagSet, args []string, stdout, stderr io.Writer) error {
	fs.SetOutput(stderr)
	fs.Usage = func() {} // printed below, to the right stream
	err := fs.Parse(args)
	switch {
	case errors.Is(err, flag.ErrHelp):
		printHelp(stdout, sc, fs)
		return errHelp
	case err != nil:
		fmt.Fprintln(stderr)
		printHelp(stderr, sc, fs)
		return errUsage
	case fs.NArg() > 0:
		fmt.Fprintf(stderr, "connect4 %s: unexpected argument %q\n\n", sc.name, fs.Arg(0))
		printHelp(stderr, sc, fs)
		return errUsage
	}
	return nil
}

// printHelp writes sc's help: what it does, its flags and the environment
// variables it reads, with their defaults.
func printHelp(w io.Writer, sc subcommand, fs *flag.FlagSet) {
	fmt.Fprintf(w, "usage: connect4 %s [flags]\n\n%s\n", sc.name, sc.about)
	fmt.Fprintln(w, "\nflags:")
	n := 0
	fs.VisitAll(func(*flag.Flag) { n++ })
	if n == 0 {
		fmt.Fprintln(w, "  none (but -h, --help)")
	} else {
		out := fs.Output()
		fs.SetOutput(w)
		fs.PrintDefaults()
		fs.SetOutput(out)
	}
	fmt.Fprintln(w, "\nenvironment:")
	if sc.env == 0 {
		fmt.Fprintln(w, "  none")
	}
	printEnv(w, sc.env)
}

// printEnv lists the variables read by any of the subcommands in u.
func printEnv(w io.Writer, u uses) { ops.PrintVars(w, envVars, u) }

func usage(w io.Writer) {
	fmt.Fprint(w, "connect4 — Connect Four for Slack, Discord and your terminal\n\nusage:\n")
	for _, sc := range subcommands {
		fmt.Fprintf(w, "  connect4 %-9s %s\n", sc.name, sc.summary)
	}
	fmt.Fprint(w, "\n`connect4 <command> --help` lists a command's flags and the variables it reads.\n"+
		"The load tester is its own command: go run ./cmd/connect4-loadtest --help\n\nenvironment:\n")
	printEnv(w, forPlay|forServe|forRegister)
}
