package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"strings"
	"sync"
	"time"

	"github.com/connect4/connect4/bot"
	"github.com/connect4/connect4/bot/lang"
	"github.com/connect4/connect4/bot/terminal"
	"github.com/connect4/connect4/sessions"
)

// runPlay is `connect4 play`: the terminal adapter on stdin and stdout,
// until EOF, `quit`, or ctx ends (Ctrl-C).
func runPlay(ctx context.Context, args []string, getenv func(string) string, stdin io.Reader, stdout, stderr io.Writer) error {
	me, _ := lookup("play")
	fs := flag.NewFlagSet("play", flag.ContinueOnError)
	user, langFlag := playFlags(fs)
	webAddr := fs.String("web", "", "serve the game, channel and player pages on this address (like :8080), for the links the replies print")
	if err := parseFlags(me, fs, args, stdout, stderr); err != nil {
		return err
	}
	locale, err := playLocale(*langFlag, getenv)
	if err != nil {
		fmt.Fprintf(stderr, "connect4 play: %v\n", err)
		return errUsage
	}
	// Bold and code in ANSI only on a terminal that has not asked for no
	// colour (https://no-color.org); else plain words.
	emphasis := terminal.IsTerminalOut(stdout) && getenv("NO_COLOR") == "" && getenv("TERM") != "dumb"
	cfg, err := loadConfig(getenv, forPlay)
	if err != nil {
		return fmt.Errorf("configuration:\n%w", err)
	}
	// A terminal is for playing: only warnings and errors, unless
	// LOG_LEVEL asks for more.
	if getenv("LOG_LEVEL") == "" {
		cfg.LogLevel = slog.LevelWarn
	}
	log := slog.New(terminal.QuietCancel(newLogger(cfg, stderr).Handler()))
	store, closeStore, err := openStore(ctx, cfg, log, sessions.Hooks{})
	if err != nil {
		return err
	}
	defer closeStore()
	opts := botOptions(cfg, log, bot.Hooks{})
	if *webAddr != "" {
		links, err := localPageLinks(*webAddr, cfg)
		if err != nil {
			return fmt.Errorf("connect4 play: -web: %w", err)
		}
		opts.Pages = links
		svc := bot.New(store, opts)
		stop, err := servePages(ctx, *webAddr, svc, links, log)
		if err != nil {
			return fmt.Errorf("connect4 play: -web: %w", err)
		}
		defer stop()
		fmt.Fprintf(stdout, "Game pages at http://%s/pages/… (finished games, leaderboard and stats print their links)\n", localHost(*webAddr))
		return playOn(ctx, svc, store, cfg.SchedulePoll, *user, locale, emphasis, stdin, stdout, stderr, log)
	}
	svc := bot.New(store, opts)
	return playOn(ctx, svc, store, cfg.SchedulePoll, *user, locale, emphasis, stdin, stdout, stderr, log)
}

// playOn runs the terminal adapter on svc, and the schedule's worker on
// sched (expiries, reminders, Claim buttons), which shows its notices at
// the terminal, every poll, until the adapter returns.
func playOn(ctx context.Context, svc *bot.Service, sched bot.Schedule, poll time.Duration, user, locale string, emphasis bool, stdin io.Reader, stdout, stderr io.Writer, log *slog.Logger) error {
	t, err := terminal.New(svc, terminal.Config{In: stdin, Out: stdout, User: user, Prompt: terminal.IsTerminal(stdin), Locale: locale, Emphasis: emphasis}, log)
	if err != nil {
		fmt.Fprintf(stderr, "connect4 play: -as: %v\n", err)
		return errUsage
	}
	wctx, stop := context.WithCancel(ctx)
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		svc.RunSchedule(wctx, sched, map[string]bot.Notifier{"terminal": t}, bot.WorkerOptions{Poll: poll})
	}()
	defer wg.Wait()
	defer stop()
	return t.Run(ctx)
}

// playFlags defines the flags of `connect4 play` on fs: -as, who types
// at first, and -lang, the language to play in.
func playFlags(fs *flag.FlagSet) (user, langCode *string) {
	codes := make([]string, len(lang.All))
	for i, l := range lang.All {
		codes[i] = l.String()
	}
	return fs.String("as", terminal.DefaultUser, "who you are at first"),
		fs.String("lang", "", "the language to play in: "+strings.Join(codes, ", ")+" (default: LC_ALL, LC_MESSAGES or LANG, else English)")
}

// playLocale is the locale `connect4 play` plays in: -lang when given
// (one of the languages, by code or locale: an unknown one is an error),
// else the first of LC_ALL, LC_MESSAGES and LANG that is set, as POSIX
// reads them (de_DE.UTF-8); one the bot does not speak, or C, is English.
func playLocale(flagValue string, getenv func(string) string) (string, error) {
	if flagValue != "" {
		if _, ok := lang.Parse(flagValue); !ok {
			codes := make([]string, len(lang.All))
			for i, l := range lang.All {
				codes[i] = l.String()
			}
			return "", fmt.Errorf("-lang %q: not one of %s", flagValue, strings.Join(codes, ", "))
		}
		return flagValue, nil
	}
	for _, v := range []string{"LC_ALL", "LC_MESSAGES", "LANG"} {
		if s := getenv(v); s != "" {
			return s, nil
		}
	}
	return "", nil
}
