package slack

import (
	"context"
	"errors"
	"log/slog"
	"strings"
	"testing"
	"time"

	slackapi "github.com/slack-go/slack"

	"github.com/connect4/connect4/bot"
	"github.com/connect4/connect4/bot/internal/adaptertest"
	"github.com/connect4/connect4/bot/slack/socketfake"
	"github.com/connect4/connect4/sessions"
	"github.com/connect4/connect4/sessions/storetest"
)

// waitState polls a.Connection until ok holds, failing t after 10 s.
func waitState(t *testing.T, a *Adapter, what string, ok func(ConnectionState) bool) ConnectionState {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		st := a.Connection()
		if ok(st) {
			return st
		}
		if time.Now().After(deadline) {
			t.Fatalf("waiting for %s: state %+v", what, st)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// TestSocketModeHeals runs RunSocketMode against Socket Mode that is down
// at first, drops the connection, and then refuses the token.
func TestSocketModeHeals(t *testing.T) {
	fake, err := socketfake.New()
	if err != nil {
		t.Fatal(err)
	}
	defer fake.Close()
	if err := fake.SetDown(true); err != nil {
		t.Fatal(err)
	}
	logs := &adaptertest.Buffer{}
	log := slog.New(slog.NewTextHandler(logs, nil))
	a, err := New(bot.New(storetest.NewMemory(t, sessions.Options{}), bot.Options{Logger: log}),
		Config{AppToken: "xapp-1-test", BotToken: "xoxb-test", APIURL: fake.APIURL(), ReconnectMax: 200 * time.Millisecond}, log)
	if err != nil {
		t.Fatal(err)
	}
	start := a.Connection()
	done := make(chan error, 1)
	go func() { done <- a.RunSocketMode(context.Background()) }()

	st := waitState(t, a, "a failed attempt", func(s ConnectionState) bool { return s.Err != nil })
	if st.Connected || !st.Since.Equal(start.Since) || !strings.Contains(st.Err.Error(), "connection refused") {
		t.Errorf("while Slack is down: %+v, want down since New with connection refused", st)
	}
	if err := fake.SetDown(false); err != nil {
		t.Fatal(err)
	}
	waitState(t, a, "connected", func(s ConnectionState) bool { return s.Connected })
	if !strings.Contains(logs.String(), "slack socket mode connection failed") {
		t.Errorf("no Warn for the failed attempts:\n%s", logs)
	}

	fake.Drop()
	waitState(t, a, "reconnected", func(s ConnectionState) bool { return s.Connected && s.Reconnects == 1 })
	ctx, cancel := context.WithTimeout(t.Context(), 5*time.Second)
	defer cancel()
	if err := fake.WaitConnected(ctx); err != nil {
		t.Fatal(err)
	}
	id, err := fake.SendSlashCommand(slackapi.SlashCommand{ChannelID: "C1", UserID: "UA", UserName: "alice",
		Command: "/connect4", Text: "help"})
	if err != nil {
		t.Fatal(err)
	}
	if ack, err := fake.WaitAck(ctx, id); err != nil || len(ack.Payload) == 0 {
		t.Errorf("slash command after the reconnect: ack %+v, %v; want an ack with the help", ack, err)
	}

	fake.RefuseToken(true)
	fake.Drop()
	select {
	case err := <-done:
		if !errors.Is(err, ErrTokenRefused) || !strings.Contains(err.Error(), "invalid_auth") {
			t.Errorf("RunSocketMode on a refused token = %v, want ErrTokenRefused (invalid_auth)", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("RunSocketMode kept running on a refused token")
	}
	if st := a.Connection(); st.Connected {
		t.Errorf("after the refusal: %+v, want down", st)
	}
	_ = a.Close(context.Background())
}

// TestSocketModeEnds checks the two other ways RunSocketMode ends: a token
// refused at the first connection (at once, not after retries) and a
// cancelled context while it retries (nil).
func TestSocketModeEnds(t *testing.T) {
	fake, err := socketfake.New()
	if err != nil {
		t.Fatal(err)
	}
	defer fake.Close()
	newAdapter := func() *Adapter {
		a, err := New(bot.New(storetest.NewMemory(t, sessions.Options{}), bot.Options{}),
			Config{AppToken: "xapp-1-test", BotToken: "xoxb-test", APIURL: fake.APIURL(), ReconnectMax: 100 * time.Millisecond},
			slog.New(slog.DiscardHandler))
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = a.Close(context.Background()) })
		return a
	}

	fake.RefuseToken(true)
	if err := newAdapter().RunSocketMode(t.Context()); !errors.Is(err, ErrTokenRefused) {
		t.Errorf("RunSocketMode with a refused token = %v, want ErrTokenRefused", err)
	}
	if got := fake.Opens(); got != 1 {
		t.Errorf("apps.connections.open calls = %d, want 1: a refused token is not retried", got)
	}

	fake.RefuseToken(false)
	if err := fake.SetDown(true); err != nil {
		t.Fatal(err)
	}
	a := newAdapter()
	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan error, 1)
	go func() { done <- a.RunSocketMode(ctx) }()
	waitState(t, a, "a failed attempt", func(s ConnectionState) bool { return s.Err != nil })
	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("RunSocketMode after cancel = %v, want nil", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("RunSocketMode did not stop on cancel")
	}
}
