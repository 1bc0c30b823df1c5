// Command connect4 runs the Connect Four chat bot.
//
//	connect4 play      play in this terminal, a chat channel on the same code as Slack and Discord
//	connect4 serve     serve Slack and Discord (HTTP endpoints, Socket Mode, Gateway), /healthz, /readyz, /metrics
//	connect4 register  register the /connect4 command with Discord
//	connect4 solve     solve positions from stdin with the perfect solver
//	connect4 loadtest  play many games at once against a running server
//
// Configuration comes from the environment; `connect4 help` lists it.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
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

// errUsage is returned after the usage text has been printed.
var errUsage = errors.New("usage")

// run is connect4 without the process around it, for tests.
func run(ctx context.Context, args []string, getenv func(string) string, stdin io.Reader, stdout, stderr io.Writer) error {
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
	case "loadtest":
		return runLoadtest(ctx, args[1:], stdout, stderr)
	case "solve":
		return runSolve(ctx, args[1:], stdin, stdout, stderr)
	case "help", "-h", "-help", "--help":
		usage(stdout)
		return nil
	}
	usage(stderr)
	return errUsage
}

func usage(w io.Writer) {
	fmt.Fprint(w, `connect4 — Connect Four for Slack, Discord and your terminal

usage:
  connect4 play      play in this terminal (type /connect4 help once inside)
  connect4 serve     serve Slack and Discord, with /healthz and /readyz
  connect4 register  register the /connect4 command with Discord (DISCORD_APPLICATION_ID, DISCORD_BOT_TOKEN)
  connect4 loadtest  play many games at once against a running server (signed Discord endpoint)
  connect4 solve     read positions (column digits 1-7) from stdin, print their exact scores

environment:
`)
	for _, e := range envVars {
		def := e.def
		if def == "" {
			def = "-"
		}
		fmt.Fprintf(w, "  %-26s %-6s %s\n", e.name, def, e.doc)
	}
}
