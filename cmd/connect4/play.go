package main

import (
	"bufio"
	"context"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"os"
	"regexp"
	"strings"

	"github.com/connect4/connect4/bot/match"

	"github.com/connect4/connect4/bot"
	"github.com/connect4/connect4/render"
	"github.com/connect4/connect4/sessions"
)

// shellSelf is the bot's own user in the terminal: `/connect4 @connect4`
// plays against the AI.
var shellSelf = match.Player{ID: "connect4", Name: "connect4"}

// runPlay is the terminal adapter: one chat channel in the terminal on the
// same bot code path as Slack and Discord. Lines typed are what you would
// type in chat (/connect4 @bob), the label of a button on the latest
// message ([Accept], [4], [Rematch]) to click it, or `as <name>` to become
// someone else.
func runPlay(ctx context.Context, args []string, getenv func(string) string, stdin io.Reader, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("play", flag.ContinueOnError)
	fs.SetOutput(stderr)
	user := fs.String("as", "alice", "who you are at first")
	if err := fs.Parse(args); err != nil {
		return errUsage
	}
	cfg, err := loadConfig(getenv)
	if err != nil {
		return err
	}
	log := slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
	store, closeStore, err := openStore(ctx, cfg, log, sessions.Hooks{})
	if err != nil {
		return err
	}
	defer closeStore()
	sh := &shell{
		svc: bot.New(store, bot.Options{ChallengeTTL: cfg.ChallengeTTL, TurnTimeout: cfg.TurnTimeout,
			AIBudget: cfg.AIBudget, Logger: log}),
		key:  match.Key{Platform: "terminal", Workspace: "local", Channel: "general"},
		user: name(*user),
		out:  stdout,
	}
	if sh.user == "" {
		fmt.Fprintln(stderr, "connect4 play: -as needs a name of letters and digits")
		return errUsage
	}
	interactive := isTerminal(stdin)
	if interactive {
		fmt.Fprintf(stdout, "Connect Four in #general. You are %s. Try: /connect4 @bob   or   /connect4 ai\n"+
			"Type a button's label to click it, `as bob` to switch players, `quit` to leave.\n", sh.user)
	}
	lines := bufio.NewScanner(stdin)
	for {
		if interactive {
			fmt.Fprintf(stdout, "%s> ", sh.user)
		}
		if !lines.Scan() {
			break
		}
		if ctx.Err() != nil {
			break
		}
		if !sh.line(ctx, lines.Text()) {
			break
		}
	}
	if err := lines.Err(); err != nil {
		return fmt.Errorf("reading input: %w", err)
	}
	return nil
}

func isTerminal(r io.Reader) bool {
	f, ok := r.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

// shell is the state of one terminal channel.
type shell struct {
	svc  *bot.Service
	key  match.Key
	user string
	out  io.Writer
	// last is the latest message with buttons, whose buttons typing clicks.
	last *bot.Reply
}

var namePattern = regexp.MustCompile(`^[A-Za-z0-9_.\-]{1,32}$`)

// name returns s lower-cased if it is a valid user name, else "".
func name(s string) string {
	s = strings.TrimPrefix(strings.TrimSpace(s), "@")
	if !namePattern.MatchString(s) {
		return ""
	}
	return strings.ToLower(s)
}

var atMention = regexp.MustCompile(`(^|\s)@([A-Za-z0-9_.\-]{1,32})`)

// line runs one typed line; it returns false to quit.
func (sh *shell) line(ctx context.Context, text string) bool {
	text = strings.TrimSpace(text)
	cmd := bot.Command{Key: sh.key, User: match.Player{ID: sh.user, Name: sh.user}, Self: shellSelf,
		Message: match.MessageRef{Channel: "general", MessageID: "1"}}
	switch lower := strings.ToLower(text); {
	case text == "" || strings.HasPrefix(text, "#"):
		return true
	case lower == "quit" || lower == "exit":
		return false
	case strings.HasPrefix(lower, "as "):
		n := name(text[3:])
		if n == "" {
			fmt.Fprintf(sh.out, "(a name is letters, digits, '.', '_' or '-')\n")
			return true
		}
		sh.user = n
		fmt.Fprintf(sh.out, "(you are now %s)\n", n)
		return true
	case strings.HasPrefix(lower, "/connect4"):
		rest := strings.TrimSpace(text[len("/connect4"):])
		rest = atMention.ReplaceAllStringFunc(rest, func(m string) string {
			sub := atMention.FindStringSubmatch(m)
			return sub[1] + "<@" + strings.ToLower(sub[2]) + ">"
		})
		sh.show(sh.svc.HandleText(ctx, cmd, rest))
		return true
	}
	if b, ok := sh.button(text); ok {
		req, err := bot.ParseAction(b.Value)
		if err != nil {
			fmt.Fprintf(sh.out, "(that button is broken: %v)\n", err)
			return true
		}
		cmd.Request = req
		sh.show(sh.svc.Handle(ctx, cmd))
		return true
	}
	fmt.Fprintf(sh.out, "(type /connect4 help, a button label like %s, `as <name>`, or quit)\n", sh.labels())
	return true
}

// button finds the button labelled text (case-insensitive, brackets
// optional) on the latest message.
func (sh *shell) button(text string) (bot.Button, bool) {
	if sh.last == nil {
		return bot.Button{}, false
	}
	want := strings.ToLower(strings.Trim(text, "[] "))
	for _, b := range sh.last.Buttons {
		if strings.ToLower(b.Label) == want && !b.Disabled {
			return b, true
		}
	}
	return bot.Button{}, false
}

func (sh *shell) labels() string {
	if sh.last == nil || len(sh.last.Buttons) == 0 {
		return "[1]"
	}
	return "[" + sh.last.Buttons[0].Label + "]"
}

// show prints a reply the way the channel would show it.
func (sh *shell) show(r bot.Reply) {
	m := r.Format(render.Unicode())
	plain := func(s string) string { return bot.PlainMentions(s, r.Red, r.Yellow) }
	switch r.Visibility {
	case bot.Ephemeral:
		fmt.Fprintf(sh.out, "(only %s can see this) %s\n", sh.user, plain(m.Header))
		return
	case bot.Update:
		fmt.Fprintln(sh.out, "── message updated ──")
	default:
		fmt.Fprintln(sh.out, "── #general ──")
	}
	for _, part := range []string{m.Header, m.Board, m.Status} {
		if part != "" {
			fmt.Fprintln(sh.out, plain(part))
		}
	}
	var btns []string
	for _, b := range r.Buttons {
		if !b.Disabled {
			btns = append(btns, "["+b.Label+"]")
		}
	}
	if len(btns) > 0 {
		fmt.Fprintln(sh.out, strings.Join(btns, " "))
		sh.last = &r
	}
}
