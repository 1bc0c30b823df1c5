package terminal

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/connect4/connect4/bot"
	"github.com/connect4/connect4/bot/lang"
	"github.com/connect4/connect4/bot/match"
)

// DefaultMaxLine is the longest line Run reads when Config.MaxLine is 0, in
// bytes: far more than any command, far less than a paste gone wrong.
const DefaultMaxLine = 4096

// DefaultUser is who types at first when Config.User is empty.
const DefaultUser = "alice"

// The terminal's one channel, and the bot's own user there:
// `/connect4 @connect4` plays against the AI.
var (
	channelKey = match.Key{Platform: "terminal", Workspace: "local", Channel: "general"}
	selfPlayer = match.Player{ID: "connect4", Name: "connect4"}
	// message is the one message the buttons are on; the terminal never
	// edits anything on its own.
	message = match.MessageRef{Channel: "general", MessageID: "1"}
)

// Config configures an Adapter.
type Config struct {
	// In is what is typed, one command per line; Run reads it until EOF
	// (Ctrl-D), `quit`, or its context ends. Required.
	In io.Reader
	// Out is where the channel is shown. Required.
	Out io.Writer
	// User is who types at first; "" means DefaultUser.
	User string
	// Prompt, for an interactive terminal, prints a banner at the start
	// and a prompt before each line.
	Prompt bool
	// MaxLine is the longest line read, in bytes; a longer one is refused
	// with a sentence and skipped. 0 means DefaultMaxLine.
	MaxLine int
	// Locale is the language to play in, as a locale ("ja", "de_DE.UTF-8";
	// see lang.Parse): the adapter's own words, and the bot's, both to the
	// player and to the channel (the terminal's one channel is theirs).
	// "" or one the bot does not speak means English.
	Locale string
	// Emphasis draws the chat's *bold*, _italic_ and `code` with ANSI
	// escape sequences; without it they are shown as plain words. Never
	// are the marks themselves shown.
	Emphasis bool
}

// Adapter is one terminal channel. Its Run is not safe for concurrent use:
// a terminal has one person at the keyboard.
type Adapter struct {
	svc *bot.Service
	cfg Config
	log *slog.Logger

	lang lang.Lang // the language of the adapter's own words
	user string    // who is typing

	// mu guards the output and the messages below: the schedule's worker
	// shows its edits and posts (see Notifier) while a person types.
	mu   sync.Mutex
	last *bot.Reply // the latest message with buttons, whose buttons typing clicks
	// board is the latest message with column buttons: a number typed
	// drops a disc there even after a message with other buttons (a
	// takeback request, an offer) came after it.
	board *bot.Reply
	// names are the players who have typed here, for suggestions.
	names []string
}

// New returns an Adapter for svc. It returns an error when svc, In or Out
// is missing, MaxLine is negative, or User is not a valid name (1 to 32
// letters, digits, '.', '_' or '-'). A nil log means slog.Default(); the
// adapter logs one Debug line per command, nothing at higher levels.
func New(svc *bot.Service, cfg Config, log *slog.Logger) (*Adapter, error) {
	var errs []error
	if svc == nil {
		errs = append(errs, errors.New("terminal: nil bot.Service"))
	}
	if cfg.In == nil || cfg.Out == nil {
		errs = append(errs, errors.New("terminal: Config.In and Config.Out are required"))
	}
	if cfg.MaxLine < 0 {
		errs = append(errs, fmt.Errorf("terminal: MaxLine %d is negative", cfg.MaxLine))
	}
	if cfg.MaxLine == 0 {
		cfg.MaxLine = DefaultMaxLine
	}
	if cfg.User == "" {
		cfg.User = DefaultUser
	}
	user := name(cfg.User)
	if user == "" {
		errs = append(errs, fmt.Errorf("terminal: user %q: a name is 1 to 32 letters, digits, '.', '_' or '-'", cfg.User))
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	if log == nil {
		log = slog.Default()
	}
	l, _ := lang.Parse(cfg.Locale)
	return &Adapter{svc: svc, cfg: cfg, log: log.With("platform", "terminal"), user: user, lang: l.Or(lang.English), names: []string{user}}, nil
}

// input is one thing read from Config.In: a line, a line that was too long
// (its length), or the end of the input (io.EOF or the read error).
type input struct {
	text    string
	tooLong int
	err     error
}

// Run shows the channel and runs what is typed until the input ends
// (Ctrl-D), `quit` or `exit` is typed, or ctx ends (Ctrl-C): then it
// returns at once, cancelling a command in progress (an AI search) through
// ctx without showing its reply, and returns nil. It returns an error only
// when reading Config.In fails. Run does not close Config.In; a read still
// blocked in it when Run returns ends with the next line or the end of the
// input (or of the process).
func (a *Adapter) Run(ctx context.Context) error {
	done := make(chan struct{})
	defer close(done)
	lines := make(chan input)
	go a.read(lines, done)

	if a.cfg.Prompt {
		a.println(a.say("terminal.banner", lang.Args{"User": a.user, "Other": someoneElse(a.user)}))
	}
	for {
		if a.cfg.Prompt {
			fmt.Fprintf(a.cfg.Out, "%s> ", a.user)
		}
		var in input
		select {
		case <-ctx.Done():
			a.endPrompt()
			return nil
		case in = <-lines:
		}
		switch {
		case in.tooLong > 0:
			a.println(a.say("terminal.tooLong", lang.Args{"Bytes": strconv.Itoa(in.tooLong), "Max": strconv.Itoa(a.cfg.MaxLine)}))
		case in.err == nil || in.text != "":
			if !a.line(ctx, in.text) {
				return nil
			}
			if ctx.Err() != nil {
				a.endPrompt()
				return nil
			}
		}
		if errors.Is(in.err, io.EOF) {
			a.endPrompt()
			return nil
		}
		if in.err != nil {
			return fmt.Errorf("terminal: read input: %w", in.err)
		}
	}
}

// endPrompt ends the prompt's line, so that the shell's prompt starts on a
// line of its own after Ctrl-C or Ctrl-D.
func (a *Adapter) endPrompt() {
	if a.cfg.Prompt {
		fmt.Fprintln(a.cfg.Out)
	}
}

// read sends the lines of Config.In to lines until the input ends (the
// last input carries the error) or done is closed. A line longer than
// MaxLine is skipped without being held in memory, and reported by its
// length.
func (a *Adapter) read(lines chan<- input, done <-chan struct{}) {
	// Room for MaxLine bytes and a "\r\n".
	br := bufio.NewReaderSize(a.cfg.In, a.cfg.MaxLine+2)
	send := func(in input) bool {
		select {
		case lines <- in:
			return true
		case <-done:
			return false
		}
	}
	for {
		b, err := br.ReadSlice('\n')
		n := len(b)
		for errors.Is(err, bufio.ErrBufferFull) {
			b, err = br.ReadSlice('\n')
			n += len(b)
		}
		text := strings.TrimRight(string(b), "\r\n")
		if length := n - (len(b) - len(text)); length > a.cfg.MaxLine {
			if !send(input{tooLong: length}) {
				return
			}
			if err == nil {
				continue
			}
			text = ""
		}
		if !send(input{text: text, err: err}) || err != nil {
			return
		}
	}
}

var namePattern = regexp.MustCompile(`^[A-Za-z0-9_.\-]{1,32}$`)

// name returns s lower-cased, without a leading @, if it is a valid user
// name, else "".
func name(s string) string {
	s = strings.TrimPrefix(strings.TrimSpace(s), "@")
	if !namePattern.MatchString(s) {
		return ""
	}
	return strings.ToLower(s)
}

var atMention = regexp.MustCompile(`(^|\s)@([A-Za-z0-9_.\-]{1,32})`)

// line runs one typed line; it returns false to quit.
func (a *Adapter) line(ctx context.Context, text string) bool {
	text = strings.TrimSpace(text)
	// Everyone at the terminal manages its one channel (seasons included).
	cmd := bot.Command{Key: channelKey, User: match.Player{ID: a.user, Name: a.user}, Self: selfPlayer, Message: message, CanManage: true,
		Locale: a.cfg.Locale, ChannelLocale: a.cfg.Locale, Names: a.names}
	lower := strings.ToLower(text)
	switch {
	case text == "" || strings.HasPrefix(text, "#"):
		return true
	case lower == "quit" || lower == "exit":
		return false
	case strings.HasPrefix(lower, "as "):
		n := name(text[3:])
		if n == "" {
			a.println(a.say("terminal.badName", nil))
			return true
		}
		a.user = n
		a.know(n)
		a.println(a.say("terminal.youAre", lang.Args{"User": n}))
		return true
	case lower == "/connect4" || strings.HasPrefix(lower, "/connect4 "):
		rest := strings.TrimSpace(text[len("/connect4"):])
		rest = atMention.ReplaceAllStringFunc(rest, func(m string) string {
			sub := atMention.FindStringSubmatch(m)
			return sub[1] + "<@" + strings.ToLower(sub[2]) + ">"
		})
		a.run(ctx, cmd, func(ctx context.Context) bot.Reply { return a.svc.HandleText(ctx, cmd, rest) })
		return true
	}
	label := strings.TrimSpace(strings.Trim(text, "[]"))
	if n, err := strconv.Atoi(label); err == nil {
		a.column(ctx, cmd, n)
		return true
	}
	if b, ok := a.button(label); ok {
		a.click(ctx, cmd, b)
		return true
	}
	a.println(a.say("terminal.unknownWord", lang.Args{"Word": strconv.Quote(clip(text, maxEcho)), "Hint": a.hint()}))
	return true
}

// maxEcho is the most of an unknown word the answer repeats, in runes.
const maxEcho = 40

// clip shortens s to n runes, marking a cut with "…".
func clip(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	return string([]rune(s)[:n-1]) + "…"
}

// someoneElse is a player for user to challenge or become in an example:
// bob, or alice when user is bob.
func someoneElse(user string) string {
	if user == "bob" {
		return "alice"
	}
	return "bob"
}

// column drops a disc in column n (1-based) of the latest board: a column
// out of range is refused here, a full one by the bot (as is a column of a
// finished game), each with its own sentence.
func (a *Adapter) column(ctx context.Context, cmd bot.Command, n int) {
	last, board := a.latest()
	cols := columns(last)
	if len(cols) == 0 {
		cols = columns(board)
	}
	switch {
	case len(cols) == 0:
		a.println(a.say("terminal.noBoard", lang.Args{"Other": someoneElse(cmd.User.ID)}))
	case n < 1 || n > len(cols):
		a.println(a.say("terminal.noColumn", lang.Args{"Column": strconv.Itoa(n), "Columns": strconv.Itoa(len(cols))}))
	default:
		// A disabled column button still carries its action: the bot
		// says why it cannot be played (full, or the game is over).
		a.click(ctx, cmd, cols[n-1])
	}
}

// columns returns the column buttons of r, if any.
func columns(r *bot.Reply) []bot.Button {
	if r == nil {
		return nil
	}
	var cols []bot.Button
	for _, b := range r.Buttons {
		if b.Column > 0 {
			cols = append(cols, b)
		}
	}
	return cols
}

// know adds name to the players who have typed here.
func (a *Adapter) know(name string) {
	for _, n := range a.names {
		if n == name {
			return
		}
	}
	a.names = append(a.names, name)
}

// println prints the line s with the chat's emphasis drawn for a terminal.
func (a *Adapter) println(s string) {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.writeln(s)
}

// writeln is println with a.mu held.
func (a *Adapter) writeln(s string) {
	fmt.Fprintln(a.cfg.Out, emphasize(s, a.cfg.Emphasis))
}

// latest returns the latest message with buttons and the latest board.
func (a *Adapter) latest() (last, board *bot.Reply) {
	a.mu.Lock()
	defer a.mu.Unlock()
	return a.last, a.board
}

// click runs the action of button b.
func (a *Adapter) click(ctx context.Context, cmd bot.Command, b bot.Button) {
	req, err := bot.ParseAction(b.Value)
	if err != nil {
		a.println(a.say("terminal.brokenButton", lang.Args{"Err": err.Error()}))
		return
	}
	cmd.Request = req
	a.run(ctx, cmd, func(ctx context.Context) bot.Reply { return a.svc.Handle(ctx, cmd) })
}

// run runs one command through handle and shows its reply, unless ctx
// ended meanwhile (Ctrl-C): the person has left, and the reply would only
// say that the AI was interrupted.
func (a *Adapter) run(ctx context.Context, cmd bot.Command, handle func(context.Context) bot.Reply) {
	start := time.Now()
	r := handle(ctx)
	if ctx.Err() != nil {
		a.log.Debug("terminal command cancelled", "kind", cmd.Kind.String(), "duration", time.Since(start))
		return
	}
	a.log.Debug("terminal command", "kind", cmd.Kind.String(), "outcome", r.Outcome(), "duration", time.Since(start))
	a.show(r)
	a.edited(r.Edits)
	for _, p := range r.Posts { // a tournament round's games, each a message of its own
		a.show(p)
	}
}

// button finds the enabled button labelled label (case-insensitive) on
// the latest message.
func (a *Adapter) button(label string) (bot.Button, bool) {
	last, _ := a.latest()
	if last == nil {
		return bot.Button{}, false
	}
	for _, b := range last.Buttons {
		if strings.EqualFold(b.Label, label) && !b.Disabled && b.URL == "" {
			return b, true
		}
	}
	return bot.Button{}, false
}

// hint is an example of a button to type: the first enabled one on the
// latest message, or [1].
func (a *Adapter) hint() string {
	if last, _ := a.latest(); last != nil {
		for _, b := range last.Buttons {
			if !b.Disabled && b.URL == "" {
				return "[" + b.Label + "]"
			}
		}
	}
	return "[1]"
}

// show prints a reply the way the channel would show it.
func (a *Adapter) show(r bot.Reply) {
	a.mu.Lock()
	defer a.mu.Unlock()
	m := r.Format(Palette())
	plain := func(s string) string { return bot.PlainMentions(s, r.Players()...) }
	switch r.Visibility {
	case bot.VisibilityNone:
		return
	case bot.Ephemeral:
		a.writeln(a.say("terminal.onlyYou", lang.Args{"User": a.user, "Text": plain(m.Header)}))
		return
	case bot.Update:
		a.writeln(a.say("terminal.updated", nil))
	default:
		a.writeln(a.say("terminal.channel", nil))
	}
	// The header's last number is padded to the disc width: drop the pad.
	board := strings.ReplaceAll(m.Board, " \n", "\n")
	for _, part := range []string{m.Header, board, m.Status} {
		if part != "" {
			a.writeln(plain(part))
		}
	}
	var btns []string
	for _, b := range r.Buttons {
		switch {
		case b.URL != "": // a link: printed, not typed
			a.writeln(b.Label + ": " + b.URL)
		case !b.Disabled:
			btns = append(btns, "["+b.Label+"]")
		}
	}
	if len(btns) > 0 {
		a.writeln(strings.Join(btns, " "))
		a.last = &r
		if len(columns(&r)) > 0 {
			a.board = &r
		}
	}
}

// edited drops the buttons of the messages es replaced (a challenge
// cancelled or declined by a typed command): they are no longer live, and
// the reply shown already said what happened.
func (a *Adapter) edited(es []bot.Edit) {
	a.mu.Lock()
	defer a.mu.Unlock()
	for _, e := range es {
		if a.last != nil && e.Reply.GameID != "" && a.last.ButtonGame() == e.Reply.GameID {
			a.last = nil
		}
		if a.board != nil && e.Reply.GameID != "" && a.board.ButtonGame() == e.Reply.GameID {
			a.board = nil
		}
	}
}
