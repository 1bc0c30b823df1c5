package main

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/connect4/connect4/bot/ops"
)

func TestRunUnknownCommand(t *testing.T) {
	for _, args := range [][]string{{"bogus"}, {"help", "bogus"}} {
		var out, errb bytes.Buffer
		err := run(t.Context(), args, env(), nil, &out, &errb)
		if !errors.Is(err, errUsage) {
			t.Errorf("connect4 %q = %v, want errUsage", args, err)
		}
		if !strings.HasPrefix(errb.String(), `connect4: unknown command "bogus"`+"\n") || !strings.Contains(errb.String(), "connect4 serve") {
			t.Errorf("connect4 %q printed %q, want the unknown command named, then the usage", args, errb.String())
		}
	}
}

// TestSubcommandHelp checks that -h, -help and --help on every subcommand
// (and `connect4 help <command>`) print its flags and the variables it
// reads to stdout, and succeed.
func TestSubcommandHelp(t *testing.T) {
	tests := []struct {
		cmd        string
		want, not  []string
		flagsNamed []string
	}{
		{"play", []string{"REDIS_URL", "CONNECT4_REDIS_TIMEOUT", "CONNECT4_AI_BUDGET", "LOG_LEVEL"},
			[]string{"CONNECT4_ADDR", "SLACK_SIGNING_SECRET", "DISCORD_PUBLIC_KEY"}, []string{"-as"}},
		{"serve", []string{"CONNECT4_ADDR", "REDIS_URL", "SLACK_SIGNING_SECRET", "DISCORD_PUBLIC_KEY", "DISCORD_API_URL"},
			[]string{"DISCORD_GUILD_ID"}, nil},
		{"register", []string{"DISCORD_BOT_TOKEN", "DISCORD_APPLICATION_ID", "DISCORD_GUILD_ID", "DISCORD_API_URL"},
			[]string{"REDIS_URL", "CONNECT4_ADDR", "SLACK_BOT_TOKEN"}, nil},
		{"solve", []string{"cleared transposition table"}, []string{"REDIS_URL"}, []string{"-bench", "-level", "-budget"}},
	}
	for _, tt := range tests {
		for _, args := range [][]string{{tt.cmd, "-h"}, {tt.cmd, "-help"}, {tt.cmd, "--help"}, {"help", tt.cmd}} {
			var out, errb bytes.Buffer
			// Help must not depend on the configuration being valid.
			if err := run(t.Context(), args, env("LOG_LEVEL", "loud"), strings.NewReader(""), &out, &errb); err != nil {
				t.Errorf("connect4 %q = %v, want nil", args, err)
			}
			got := out.String()
			if !strings.HasPrefix(got, "usage: connect4 "+tt.cmd) || !strings.Contains(got, "\nflags:\n") || !strings.Contains(got, "\nenvironment:\n") {
				t.Errorf("connect4 %q printed %q, want usage, flags and environment", args, got)
			}
			for _, w := range append(tt.want, tt.flagsNamed...) {
				if !strings.Contains(got, w) {
					t.Errorf("connect4 %q does not mention %s:\n%s", args, w, got)
				}
			}
			for _, n := range tt.not {
				if strings.Contains(got, n) {
					t.Errorf("connect4 %q lists %s, which it does not read", args, n)
				}
			}
			if errb.Len() != 0 {
				t.Errorf("connect4 %q wrote to stderr: %q", args, errb.String())
			}
		}
	}
}

func TestSubcommandBadFlags(t *testing.T) {
	for _, args := range [][]string{{"serve", "-bogus"}, {"play", "extra"}, {"register", "-x"}, {"solve", "-nope"}} {
		var out, errb bytes.Buffer
		err := run(t.Context(), args, env(), strings.NewReader(""), &out, &errb)
		if !errors.Is(err, errUsage) {
			t.Errorf("connect4 %q = %v, want errUsage", args, err)
		}
		if !strings.Contains(errb.String(), "usage: connect4 "+args[0]) || out.Len() != 0 {
			t.Errorf("connect4 %q: stderr %q, stdout %q; want the problem and the usage on stderr", args, errb.String(), out.String())
		}
	}
}

// TestLoadConfigOneBatch checks that every problem, the Discord public key
// included, comes in one error, each with what a valid value looks like.
func TestLoadConfigOneBatch(t *testing.T) {
	tests := []struct {
		key  string
		want string
	}{
		{"abcd", "DISCORD_PUBLIC_KEY: must be 64 hex characters (the application's Public Key in the Developer Portal), not 4"},
		{strings.Repeat("z", 64), "DISCORD_PUBLIC_KEY: must be 64 hex characters (the application's Public Key in the Developer Portal); it holds a character that is not 0-9 or a-f"},
	}
	for _, tt := range tests {
		_, err := loadConfig(env("DISCORD_PUBLIC_KEY", tt.key, "LOG_LEVEL", "loud", "CONNECT4_REDIS_TIMEOUT", "fast"), 0)
		if err == nil {
			t.Fatalf("DISCORD_PUBLIC_KEY %q: no error", tt.key)
		}
		for _, want := range []string{tt.want, "LOG_LEVEL", `CONNECT4_REDIS_TIMEOUT: "fast" is not a duration (like 90s, 10m, 24h)`} {
			if !strings.Contains(err.Error(), want) {
				t.Errorf("error lacks %q:\n%v", want, err)
			}
		}
		if strings.Contains(err.Error(), tt.key) {
			t.Errorf("error repeats the key %q:\n%v", tt.key, err)
		}
	}
	_, err := loadConfig(env("SLACK_BOT_TOKEN", "xapp-1", "SLACK_API_URL", "http://x/api?a=b", "DISCORD_PUBLIC_KEY", "00"), 0)
	for _, want := range []string{"SLACK_BOT_TOKEN: a bot token starts with xoxb-", "SLACK_API_URL", "DISCORD_PUBLIC_KEY"} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("error lacks %q:\n%v", want, err)
		}
	}
	if _, err := loadConfig(env("DISCORD_PUBLIC_KEY", strings.Repeat("aB", 32)), 0); err != nil {
		t.Errorf("a valid key: %v", err)
	}
	// serve reports them together, before anything starts.
	var out, errb bytes.Buffer
	err = run(t.Context(), []string{"serve"}, env("DISCORD_PUBLIC_KEY", "abcd", "LOG_FORMAT", "xml"), nil, &out, &errb)
	if err == nil || !strings.Contains(err.Error(), "DISCORD_PUBLIC_KEY") || !strings.Contains(err.Error(), "LOG_FORMAT") {
		t.Errorf("serve with two bad variables = %v, want both in one error", err)
	}
}

// TestLoadConfigChecksWhatTheCommandReads checks that a subcommand is not
// refused for a variable it does not read (the ones its --help lists).
func TestLoadConfigChecksWhatTheCommandReads(t *testing.T) {
	getenv := env("REDIS_URL", "mysql://x", "SLACK_BOT_TOKEN", "xapp-1", "DISCORD_GUILD_ID", "", "CONNECT4_ADDR", "x",
		"CONNECT4_SHUTDOWN_TIMEOUT", "never", "DISCORD_API_URL", "ftp://x")
	tests := []struct {
		u         uses
		want, not []string
	}{
		{forPlay, []string{"REDIS_URL"}, []string{"SLACK_BOT_TOKEN", "CONNECT4_SHUTDOWN_TIMEOUT", "DISCORD_API_URL"}},
		{forRegister, []string{"DISCORD_API_URL"}, []string{"REDIS_URL", "SLACK_BOT_TOKEN", "CONNECT4_SHUTDOWN_TIMEOUT"}},
		{forServe, []string{"REDIS_URL", "SLACK_BOT_TOKEN", "CONNECT4_SHUTDOWN_TIMEOUT", "DISCORD_API_URL"}, nil},
	}
	for _, tt := range tests {
		_, err := loadConfig(getenv, tt.u)
		if err == nil {
			t.Fatalf("uses %b: no error", tt.u)
		}
		for _, w := range tt.want {
			if !strings.Contains(err.Error(), w+":") {
				t.Errorf("uses %b: error lacks %s:\n%v", tt.u, w, err)
			}
		}
		for _, n := range tt.not {
			if strings.Contains(err.Error(), n+":") {
				t.Errorf("uses %b: error names %s, which that command does not read:\n%v", tt.u, n, err)
			}
		}
		var ce *ops.VarError
		if !errors.As(err, &ce) || ce.Var == "" {
			t.Errorf("uses %b: %v is not made of *ops.VarError", tt.u, err)
		}
	}
}

// TestRegister runs `connect4 register` against a fake Discord given with
// and without /api, and checks the path it reached.
func TestRegister(t *testing.T) {
	var mu sync.Mutex
	var paths []string
	fake := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		paths = append(paths, r.Method+" "+r.URL.Path)
		mu.Unlock()
		io.Copy(io.Discard, r.Body)
		w.Header().Set("Content-Type", "application/json")
		switch {
		case r.Method == http.MethodGet && strings.HasSuffix(r.URL.Path, "/emojis"):
			io.WriteString(w, `{"items":[]}`)
		case r.Method == http.MethodPost:
			io.WriteString(w, `{"id":"1","name":"x"}`)
		default:
			io.WriteString(w, "[]")
		}
	}))
	defer fake.Close()
	for _, base := range []string{fake.URL, fake.URL + "/api"} {
		var out, errb bytes.Buffer
		err := run(t.Context(), []string{"register"}, env("DISCORD_API_URL", base, "DISCORD_BOT_TOKEN", "tok",
			"DISCORD_APPLICATION_ID", "111", "DISCORD_GUILD_ID", "222"), nil, &out, &errb)
		if err != nil {
			t.Fatalf("register with %s: %v\n%s", base, err, errb.String())
		}
		mu.Lock()
		got := paths
		paths = nil
		mu.Unlock()
		if want := "PUT /api/v9/applications/111/guilds/222/commands"; len(got) == 0 || got[0] != want {
			t.Errorf("DISCORD_API_URL=%s: %v, want %s first", base, got, want)
		}
		if !slices.Contains(got, "GET /api/v9/applications/111/emojis") || !strings.Contains(out.String(), "disc emoji: 18 uploaded") {
			t.Errorf("DISCORD_API_URL=%s: %v, printed %q; want the emoji listed and uploaded", base, got, out.String())
		}
		if !strings.Contains(out.String(), "registered /connect4 in guild 222") {
			t.Errorf("register printed %q", out.String())
		}
	}
	var out, errb bytes.Buffer
	err := run(t.Context(), []string{"register"}, env("DISCORD_API_URL", "ftp://x"), nil, &out, &errb)
	for _, want := range []string{"DISCORD_APPLICATION_ID", "DISCORD_BOT_TOKEN", "DISCORD_API_URL"} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("register without its variables = %v, want it to name %s", err, want)
		}
	}
}

// syncBuffer is a bytes.Buffer safe for concurrent writes and reads.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// playSession runs `connect4 play` on a pipe until the test ends.
type playSession struct {
	in       *io.PipeWriter
	out, err *syncBuffer
	done     chan error
	cancel   context.CancelFunc
}

func startPlay(t *testing.T, getenv func(string) string) *playSession {
	t.Helper()
	r, w := io.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	p := &playSession{in: w, out: &syncBuffer{}, err: &syncBuffer{}, done: make(chan error, 1), cancel: cancel}
	go func() { p.done <- run(ctx, []string{"play"}, getenv, r, p.out, p.err) }()
	t.Cleanup(func() {
		cancel()
		w.Close()
		select {
		case <-p.done:
		case <-time.After(5 * time.Second):
			t.Error("play did not stop")
		}
	})
	return p
}

// command types line and returns how long until want appeared in stdout.
func (p *playSession) command(t *testing.T, line, want string, within time.Duration) time.Duration {
	t.Helper()
	before := len(p.out.String())
	t0 := time.Now()
	if _, err := io.WriteString(p.in, line+"\n"); err != nil {
		t.Fatal(err)
	}
	for !strings.Contains(p.out.String()[before:], want) {
		if time.Since(t0) > within+5*time.Second {
			t.Fatalf("%q: no %q after %v:\n%s\nstderr:\n%s", line, want, time.Since(t0), p.out.String()[before:], p.err.String())
		}
		time.Sleep(2 * time.Millisecond)
	}
	took := time.Since(t0)
	if took > within {
		t.Errorf("%q answered %q after %v, want within %v", line, want, took, within)
	}
	return took
}

// TestPlayStartsQuietly checks that a normal start logs nothing.
func TestPlayStartsQuietly(t *testing.T) {
	p := startPlay(t, env())
	p.command(t, "/connect4 help", "(only alice can see this)", 2*time.Second)
	p.in.Close()
	err := <-p.done
	p.done <- err // for the cleanup
	if err != nil {
		t.Fatalf("play: %v", err)
	}
	if s := p.err.String(); s != "" {
		t.Errorf("play logged on a normal start:\n%s", s)
	}
}

// TestPlayCtrlC checks that cancelling play's context (SIGINT) while the
// AI thinks ends it at once, with nothing logged.
func TestPlayCtrlC(t *testing.T) {
	p := startPlay(t, env("CONNECT4_AI_BUDGET", "2s"))
	p.command(t, "/connect4 ai hard", "takes on the AI", 2*time.Second)
	io.WriteString(p.in, "4\n")
	time.Sleep(100 * time.Millisecond) // the AI is thinking (or has answered)
	t0 := time.Now()
	p.cancel()
	select {
	case err := <-p.done:
		if err != nil {
			t.Errorf("play after Ctrl-C = %v, want nil", err)
		}
		p.done <- err // for the cleanup
	case <-time.After(300 * time.Millisecond):
		t.Fatal("play still running 300 ms after Ctrl-C")
	}
	t.Logf("play returned %v after the cancel", time.Since(t0))
	if s := p.err.String(); s != "" {
		t.Errorf("play logged on Ctrl-C:\n%s", s)
	}
}
