package terminal

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/connect4/connect4/bot"
	"github.com/connect4/connect4/engine"
	"github.com/connect4/connect4/engine/solver"
	"github.com/connect4/connect4/sessions"
)

// output is an io.Writer that a test can wait on.
type output struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (o *output) Write(p []byte) (int, error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.buf.Write(p)
}

func (o *output) String() string {
	o.mu.Lock()
	defer o.mu.Unlock()
	return o.buf.String()
}

// waitFor waits up to 5 s for want to appear in o.
func (o *output) waitFor(t *testing.T, want string) {
	t.Helper()
	o.waitAfter(t, 0, want)
}

// waitAfter waits up to 5 s for want to appear in o after its first from
// bytes.
func (o *output) waitAfter(t *testing.T, from int, want string) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for !strings.Contains(o.String()[from:], want) {
		if time.Now().After(deadline) {
			t.Fatalf("output lacks %q after 5 s:\n%s", want, o.String())
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// leftmost is an AI that plays the leftmost column with room, at once.
func leftmost(_ context.Context, g *engine.Game, _ solver.Level, _ time.Duration) (int, error) {
	for c := range g.Config().Cols {
		if g.CanPlay(c) {
			return c, nil
		}
	}
	return 0, errors.New("board full")
}

// newService is a service on a fresh in-memory store with ai as its AI
// (nil: leftmost) and its log in logs.
func newService(ai bot.MoveFunc, logs io.Writer) *bot.Service {
	if ai == nil {
		ai = leftmost
	}
	st, err := sessions.NewMemory(sessions.Options{})
	if err != nil {
		panic(err) // the zero options are valid
	}
	return bot.New(st, bot.Options{AI: ai,
		Logger: slog.New(slog.NewTextHandler(logs, nil))})
}

// session is one Run over a pipe: type writes lines into it.
type session struct {
	out  *output
	in   *io.PipeWriter
	done chan error
	stop context.CancelFunc
}

func start(t *testing.T, svc *bot.Service, cfg Config) *session {
	t.Helper()
	r, w := io.Pipe()
	s := &session{out: &output{}, in: w, done: make(chan error, 1)}
	cfg.In, cfg.Out = r, s.out
	a, err := New(svc, cfg, slog.New(slog.DiscardHandler))
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(t.Context())
	s.stop = cancel
	go func() { s.done <- a.Run(ctx) }()
	t.Cleanup(func() {
		cancel()
		w.Close()
		r.Close()
	})
	return s
}

// typeLine writes one line into the session.
func (s *session) typeLine(t *testing.T, line string) {
	t.Helper()
	if _, err := io.WriteString(s.in, line+"\n"); err != nil {
		t.Fatalf("typing %.40q: %v", line, err)
	}
}

// ended waits up to within for Run to return and returns its error.
func (s *session) ended(t *testing.T, within time.Duration) error {
	t.Helper()
	select {
	case err := <-s.done:
		return err
	case <-time.After(within):
		t.Fatalf("Run still running %v later; output:\n%s", within, s.out.String())
		return nil
	}
}

// TestScriptedGame plays a whole game from a script, with refusals, a
// leaderboard, a rematch and a resignation.
func TestScriptedGame(t *testing.T) {
	script := strings.Join([]string{
		"/connect4 @bob",
		"as bob",
		"Accept",
		"4", // bob is not red: refused
		"as alice", "1", "as bob", "2", "as alice", "1", "as bob", "2", "as alice", "1", "as bob", "2",
		"as carol", "3", // a spectator
		"as alice", "1",
		"/connect4 leaderboard",
		"as bob",
		"Rematch",
		"as alice",
		"Accept",
		"as bob",
		"/connect4 resign",
		"/connect4 stats @alice",
		"/connect4 dance",
		"quit",
		"/connect4 @never", // after quit: not run
	}, "\n")
	var out, logs bytes.Buffer
	a, err := New(newService(nil, &logs), Config{In: strings.NewReader(script), Out: &out}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := a.Run(t.Context()); err != nil {
		t.Fatalf("Run: %v", err)
	}
	got := out.String()
	for _, want := range []string{
		"@alice challenges @bob to Connect Four",
		"[Accept] [Decline] [Cancel]",
		"@bob accepted! @alice is red and goes first.",
		"1 2 3 4 5 6 7\n⚪⚪⚪⚪⚪⚪⚪",
		"[1] [2] [3] [4] [5] [6] [7]",
		"(only bob can see this) It's not your turn",
		"(only carol can see this) You're not playing in this game",
		"@alice wins!",
		"🟥",
		"[Rematch]",
		"🥇 alice 1662? · 1-0-0",
		"Rematch! @bob is red",
		"@bob resigned. @alice wins!",
		"@alice in this channel: rating ", "2 wins, 0 losses, 0 draws",
		"(only bob can see this) I didn't understand that",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("output lacks %q\n--- output ---\n%s", want, got)
		}
	}
	if strings.Contains(got, "@never") {
		t.Error("a line after quit was run")
	}
	if strings.Contains(got, "1️⃣") {
		t.Error("the board header uses keycap emoji, which terminals draw one cell wide")
	}
	if logs.Len() != 0 {
		t.Errorf("the bot logged during a normal game:\n%s", logs.String())
	}
}

// TestColumnAnswers checks that a column out of range, a full column, a
// column of a finished game and an unknown word each get their own line,
// and that the hint after a win names a button that can be clicked.
func TestColumnAnswers(t *testing.T) {
	s := start(t, newService(nil, io.Discard), Config{})
	step := func(line, want string) {
		t.Helper()
		before := len(s.out.String())
		s.typeLine(t, line)
		s.out.waitAfter(t, before, want)
		if got := s.out.String()[before:]; strings.Count(got, want) != 1 {
			t.Errorf("after %q: output %q, want %q once", line, got, want)
		}
	}
	step("4", "(there's no board to drop a disc in: start a game with /connect4 @bob or /connect4 ai)")
	step("dance", `(I don't know "dance": type /connect4 help, a button label like [1], as <name>, or quit)`)
	step("/connect4 @bob", "[Accept] [Decline] [Cancel]")
	step("Accept", "(only alice can see this) You can't accept or decline your own challenge.")
	step("as bob", "(you are now bob)")
	step("accept", "@alice is red and goes first.")
	step("as alice", "(you are now alice)")
	step("8", "(there is no column 8: this board has columns 1 to 7)")
	step("0", "(there is no column 0: this board has columns 1 to 7)")
	step("[9]", "(there is no column 9: this board has columns 1 to 7)")
	// Fill column 1: six discs, alternating.
	for i := range 6 {
		step(map[bool]string{true: "as alice", false: "as bob"}[i%2 == 0], "(you are now ")
		step("1", fmt.Sprintf("(move %d)", i+2))
	}
	step("as alice", "(you are now alice)")
	step("1", "(only alice can see this) Column 1 is full: pick another one.")
	step("jump", `(I don't know "jump": type /connect4 help, a button label like [2]`)
	// Alice wins in column 2..5 along the bottom? Simpler: vertical in 2.
	for _, mv := range []string{"as alice", "2", "as bob", "3", "as alice", "2", "as bob", "3", "as alice", "2", "as bob", "3", "as alice", "2"} {
		s.typeLine(t, mv)
	}
	s.out.waitFor(t, "@alice wins!")
	step("5", "(only alice can see this) That game is over.")
	step("dance", `(I don't know "dance": type /connect4 help, a button label like [Analysis]`)
	s.in.Close()
	if err := s.ended(t, time.Second); err != nil {
		t.Errorf("Run after EOF = %v, want nil", err)
	}
}

// TestEOFQuits checks that the end of the input (Ctrl-D) ends Run at once,
// also after a last line without a newline, which is run.
func TestEOFQuits(t *testing.T) {
	s := start(t, newService(nil, io.Discard), Config{Prompt: true})
	s.out.waitFor(t, "alice> ")
	io.WriteString(s.in, "/connect4 help")
	s.in.Close()
	if err := s.ended(t, time.Second); err != nil {
		t.Errorf("Run after EOF = %v, want nil", err)
	}
	if got := s.out.String(); !strings.Contains(got, "(only alice can see this)") || !strings.HasSuffix(got, "\n") {
		t.Errorf("the last line was not run, or the prompt's line not ended:\n%q", got)
	}
}

// TestReadErrorIsReturned checks that a failing input is an error of Run.
func TestReadErrorIsReturned(t *testing.T) {
	s := start(t, newService(nil, io.Discard), Config{})
	boom := errors.New("disk on fire")
	s.in.CloseWithError(boom)
	if err := s.ended(t, time.Second); !errors.Is(err, boom) {
		t.Errorf("Run = %v, want %v", err, boom)
	}
}

// TestCtrlCQuitsWhileWaiting checks that cancelling the context (Ctrl-C)
// ends Run at once while it waits for a line.
func TestCtrlCQuitsWhileWaiting(t *testing.T) {
	s := start(t, newService(nil, io.Discard), Config{Prompt: true})
	s.out.waitFor(t, "alice> ")
	t0 := time.Now()
	s.stop()
	if err := s.ended(t, 200*time.Millisecond); err != nil {
		t.Errorf("Run after Ctrl-C = %v, want nil", err)
	}
	t.Logf("Run returned %v after the cancel", time.Since(t0))
}

// TestCtrlCCancelsTheAI checks that Ctrl-C during an AI move ends Run at
// once, cancels the search through its context and shows nothing more.
func TestCtrlCCancelsTheAI(t *testing.T) {
	thinking := make(chan struct{})
	cancelled := make(chan error, 1)
	slow := func(ctx context.Context, g *engine.Game, l solver.Level, b time.Duration) (int, error) {
		close(thinking)
		<-ctx.Done()
		cancelled <- ctx.Err()
		return 0, ctx.Err()
	}
	s := start(t, newService(slow, io.Discard), Config{})
	s.typeLine(t, "/connect4 ai")
	s.out.waitFor(t, "takes on the AI")
	s.typeLine(t, "4")
	select {
	case <-thinking:
	case <-time.After(5 * time.Second):
		t.Fatal("the AI never started")
	}
	shown := len(s.out.String())
	s.stop()
	if err := s.ended(t, 200*time.Millisecond); err != nil {
		t.Errorf("Run after Ctrl-C = %v, want nil", err)
	}
	select {
	case err := <-cancelled:
		if !errors.Is(err, context.Canceled) {
			t.Errorf("AI's context ended with %v, want context.Canceled", err)
		}
	default:
		t.Error("the AI's context was not cancelled")
	}
	if got := s.out.String()[shown:]; got != "" {
		t.Errorf("after Ctrl-C the terminal showed %q, want nothing", got)
	}
}

// TestOverLongLine checks that a 70,000-character line is refused with a
// sentence and the session goes on.
func TestOverLongLine(t *testing.T) {
	s := start(t, newService(nil, io.Discard), Config{})
	go func() {
		// The pipe blocks until the reader takes it all: write apart.
		io.WriteString(s.in, strings.Repeat("x", 70000)+"\n/connect4 @bob\n")
	}()
	s.out.waitFor(t, fmt.Sprintf("(that line was too long: 70000 bytes, more than the %d I read; it was ignored)", DefaultMaxLine))
	s.out.waitFor(t, "@alice challenges @bob")
	// A long last line without a newline, then EOF.
	go func() {
		io.WriteString(s.in, strings.Repeat("y", DefaultMaxLine+1))
		s.in.Close()
	}()
	s.out.waitFor(t, fmt.Sprintf("(that line was too long: %d bytes", DefaultMaxLine+1))
	if err := s.ended(t, time.Second); err != nil {
		t.Errorf("Run = %v, want nil", err)
	}
}

// TestMaxLineBoundary checks the limit itself: MaxLine bytes are read (a
// "\r\n" not counted), one more is refused.
func TestMaxLineBoundary(t *testing.T) {
	for _, tt := range []struct {
		line    string
		refused bool
	}{
		{"/connect4 help" + strings.Repeat(" ", 50-14), false},
		{"/connect4 help" + strings.Repeat(" ", 50-14) + "\r", false},
		{"/connect4 help" + strings.Repeat(" ", 51-14), true},
	} {
		var out bytes.Buffer
		a, err := New(newService(nil, io.Discard), Config{In: strings.NewReader(tt.line + "\n"), Out: &out, MaxLine: 50}, nil)
		if err != nil {
			t.Fatal(err)
		}
		if err := a.Run(t.Context()); err != nil {
			t.Fatal(err)
		}
		if got := strings.Contains(out.String(), "that line was too long"); got != tt.refused {
			t.Errorf("line of %d bytes with MaxLine 50: refused %v, want %v:\n%s", len(tt.line), got, tt.refused, out.String())
		}
	}
}

func TestNewRefusesBadConfig(t *testing.T) {
	svc := newService(nil, io.Discard)
	tests := []struct {
		svc  *bot.Service
		cfg  Config
		want string
	}{
		{nil, Config{In: strings.NewReader(""), Out: io.Discard}, "nil bot.Service"},
		{svc, Config{Out: io.Discard}, "In and Config.Out"},
		{svc, Config{In: strings.NewReader(""), Out: io.Discard, MaxLine: -1}, "negative"},
		{svc, Config{In: strings.NewReader(""), Out: io.Discard, User: "a b"}, `user "a b"`},
	}
	for _, tt := range tests {
		if _, err := New(tt.svc, tt.cfg, nil); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("New(%+v) error = %v, want one mentioning %q", tt.cfg, err, tt.want)
		}
	}
	if _, err := New(svc, Config{In: strings.NewReader(""), Out: io.Discard, User: "@Bob"}, nil); err != nil {
		t.Errorf("New with user @Bob: %v", err)
	}
}

// TestUnknownWordIsClipped checks that a long unknown word (a terminal
// passes at most 4095 characters of a line) is not echoed in full.
func TestUnknownWordIsClipped(t *testing.T) {
	var out bytes.Buffer
	a, err := New(newService(nil, io.Discard), Config{In: strings.NewReader(strings.Repeat("é", 2000) + "\n"), Out: &out}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := a.Run(t.Context()); err != nil {
		t.Fatal(err)
	}
	want := fmt.Sprintf("(I don't know %q: ", strings.Repeat("é", maxEcho-1)+"…")
	if !strings.HasPrefix(out.String(), want) || len(out.String()) > 200 {
		t.Errorf("answer %.300q, want it to start %q", out.String(), want)
	}
}

// TestSeasonAtTheTerminal: at the terminal anyone may start a new season.
func TestSeasonAtTheTerminal(t *testing.T) {
	script := strings.Join([]string{
		"/connect4 @bob", "as bob", "Accept",
		"as alice", "1", "as bob", "2", "as alice", "1", "as bob", "2", "as alice", "1", "as bob", "2", "as alice", "1",
		"as carol", "/connect4 season new", "/connect4 seasons",
	}, "\n")
	var out, logs bytes.Buffer
	a, err := New(newService(nil, &logs), Config{In: strings.NewReader(script), Out: &out}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := a.Run(t.Context()); err != nil {
		t.Fatalf("Run: %v", err)
	}
	for _, want := range []string{"carol started a new season: season 1 is archived (2 rated players)", "Season 1 (ended ", "🥇 alice "} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, out.String())
		}
	}
}

// TestTwoGamesAtTheTerminal: two pairs play in the one channel; a button
// acts on the latest message, and `/connect4 board` brings up your own game.
func TestTwoGamesAtTheTerminal(t *testing.T) {
	moves := func(a, b string) []string {
		var s []string
		for i, c := range []string{"1", "2", "1", "2", "1", "2"} {
			who := a
			if i%2 == 1 {
				who = b
			}
			s = append(s, "as "+who, "/connect4 board", c)
		}
		return s
	}
	lines := []string{"/connect4 @bob", "as bob", "Accept", "as carol", "/connect4 @dave", "as dave", "Accept"}
	lines = append(lines, moves("alice", "bob")...)
	lines = append(lines, moves("carol", "dave")...)
	lines = append(lines, "as alice", "/connect4 board", "1", "as carol", "/connect4 board", "1")
	var out, logs bytes.Buffer
	a, err := New(newService(nil, &logs), Config{In: strings.NewReader(strings.Join(lines, "\n")), Out: &out}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := a.Run(t.Context()); err != nil {
		t.Fatalf("Run: %v", err)
	}
	for _, want := range []string{"@alice wins!", "@carol wins!"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("output lacks %q:\n%s", want, out.String())
		}
	}
}

// TestTypedCancelDropsButtons: after a typed cancel the challenge's
// [Accept] is no longer a button to type (the issue: it stayed live, and
// then said the board had moved on).
func TestTypedCancelDropsButtons(t *testing.T) {
	s := start(t, newService(nil, io.Discard), Config{})
	step := func(line, want string) {
		t.Helper()
		before := len(s.out.String())
		s.typeLine(t, line)
		s.out.waitAfter(t, before, want)
	}
	step("/connect4 @bob", "[Accept] [Decline] [Cancel]")
	step("/connect4 cancel", "@alice withdrew")
	step("as bob", "(you are now bob)")
	step("Accept", `(I don't know "Accept"`)
}

// TestExampleIsSomeoneElse: the banner and the answer to a column with no
// board suggest challenging (and becoming) someone else, never yourself:
// bob was told "start a game with /connect4 @bob".
func TestExampleIsSomeoneElse(t *testing.T) {
	tests := []struct {
		as, want, notWant string
	}{
		{"", "(there's no board to drop a disc in: start a game with /connect4 @bob or /connect4 ai)", "@alice"},
		{"as bob", "(there's no board to drop a disc in: start a game with /connect4 @alice or /connect4 ai)", "@bob or"},
		{"as carol", "(there's no board to drop a disc in: start a game with /connect4 @bob or /connect4 ai)", "@carol or"},
	}
	for _, tt := range tests {
		t.Run(tt.as, func(t *testing.T) {
			s := start(t, newService(nil, io.Discard), Config{})
			if tt.as != "" {
				s.typeLine(t, tt.as)
				s.out.waitFor(t, "(you are now ")
			}
			s.typeLine(t, "4")
			s.out.waitFor(t, tt.want)
			if got := s.out.String(); strings.Contains(got, tt.notWant) {
				t.Errorf("%q then 4: %q, want no %q", tt.as, got, tt.notWant)
			}
		})
	}
	for _, tt := range []struct{ user, want string }{{"alice", "bob"}, {"bob", "alice"}, {"carol", "bob"}} {
		if got := someoneElse(tt.user); got != tt.want {
			t.Errorf("someoneElse(%q) = %q, want %q", tt.user, got, tt.want)
		}
	}
}
