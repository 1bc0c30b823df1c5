package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"

	"github.com/connect4/connect4/bot"
	"github.com/connect4/connect4/bot/terminal"
	"github.com/connect4/connect4/sessions"
)

// runPlay is `connect4 play`: the terminal adapter on stdin and stdout,
// until EOF, `quit`, or ctx ends (Ctrl-C).
func runPlay(ctx context.Context, args []string, getenv func(string) string, stdin io.Reader, stdout, stderr io.Writer) error {
	me, _ := lookup("play")
	fs := flag.NewFlagSet("play", flag.ContinueOnError)
	user := playFlags(fs)
	if err := parseFlags(me, fs, args, stdout, stderr); err != nil {
		return err
	}
	cfg, err := loadConfig(getenv, forPlay)
	if err != nil {
		return fmt.Errorf("configuration:\n%w", err)
	}
	// A terminal is for playing: only warnings and errors, unless
	// LOG_LEVEL asks for more.
	if getenv("LOG_LEVEL") == "" {
		cfg.LogLevel = slog.LevelWarn
	}
	log := slog.New(quietCancel{newLogger(cfg, stderr).Handler()})
	store, closeStore, err := openStore(ctx, cfg, log, sessions.Hooks{})
	if err != nil {
		return err
	}
	defer closeStore()
	svc := bot.New(store, botOptions(cfg, log, bot.Hooks{}))
	t, err := terminal.New(svc, terminal.Config{In: stdin, Out: stdout, User: *user, Prompt: isTerminal(stdin)}, log)
	if err != nil {
		fmt.Fprintf(stderr, "connect4 play: -as: %v\n", err)
		return errUsage
	}
	return t.Run(ctx)
}

// playFlags defines the flags of `connect4 play` on fs: -as, who types
// at first.
func playFlags(fs *flag.FlagSet) (user *string) {
	return fs.String("as", terminal.DefaultUser, "who you are at first")
}

// isTerminal reports whether r is a character device, a person at a
// keyboard rather than a pipe.
func isTerminal(r io.Reader) bool {
	f, ok := r.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

// quietCancel drops log records whose "err" attribute is a cancelled
// context: in the terminal that is Ctrl-C during an AI move, the person's
// wish rather than a failure (bot logs the interrupted search as "AI move
// failed").
type quietCancel struct{ slog.Handler }

// Handle implements slog.Handler.
func (h quietCancel) Handle(ctx context.Context, r slog.Record) error {
	cancelled := false
	r.Attrs(func(a slog.Attr) bool {
		if err, ok := a.Value.Any().(error); ok && a.Key == "err" && errors.Is(err, context.Canceled) {
			cancelled = true
			return false
		}
		return true
	})
	if cancelled {
		return nil
	}
	return h.Handler.Handle(ctx, r)
}

// WithAttrs implements slog.Handler.
func (h quietCancel) WithAttrs(as []slog.Attr) slog.Handler {
	return quietCancel{h.Handler.WithAttrs(as)}
}

// WithGroup implements slog.Handler.
func (h quietCancel) WithGroup(name string) slog.Handler {
	return quietCancel{h.Handler.WithGroup(name)}
}
