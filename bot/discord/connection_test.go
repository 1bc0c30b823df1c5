package discord

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/gorilla/websocket"

	"github.com/connect4/connect4/bot"
	"github.com/connect4/connect4/bot/discord/gatewayfake"
	"github.com/connect4/connect4/bot/internal/adaptertest"
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

// TestGatewayHeals runs RunGateway against a Gateway that is down at
// first, drops the connection, and then refuses the token.
func TestGatewayHeals(t *testing.T) {
	t.Parallel() // it waits (its own servers, timers) and shares nothing
	fake, err := gatewayfake.New()
	if err != nil {
		t.Fatal(err)
	}
	defer fake.Close()
	if err := fake.SetDown(true); err != nil {
		t.Fatal(err)
	}
	logs := &adaptertest.Buffer{}
	log := slog.New(slog.NewTextHandler(logs, nil))
	a, err := New(bot.New(sessionsMemory(), bot.Options{Logger: log}),
		Config{BotToken: "tok", APIURL: fake.URL(), ReconnectMax: 200 * time.Millisecond}, log)
	if err != nil {
		t.Fatal(err)
	}
	start := a.Connection()
	if start.Connected || start.Since.IsZero() {
		t.Fatalf("state before RunGateway %+v, want down since New", start)
	}
	done := make(chan error, 1)
	go func() { done <- a.RunGateway(context.Background()) }()

	st := waitState(t, a, "a failed attempt", func(s ConnectionState) bool { return s.Err != nil })
	if st.Connected || !st.Since.Equal(start.Since) || !strings.Contains(st.Err.Error(), "connection refused") {
		t.Errorf("while the Gateway is down: %+v, want down since New with connection refused", st)
	}
	waitLog(t, logs, "discord gateway connection failed")
	if err := fake.SetDown(false); err != nil {
		t.Fatal(err)
	}
	st = waitState(t, a, "connected", func(s ConnectionState) bool { return s.Connected })
	if st.Reconnects != 0 || st.Err != nil {
		t.Errorf("first connection: %+v, want no reconnects and no error", st)
	}

	fake.Drop()
	st = waitState(t, a, "reconnected", func(s ConnectionState) bool { return s.Connected && s.Reconnects == 1 })
	waitLog(t, logs, "discord gateway reconnected")
	if got := fake.Resumes(); got < 1 {
		t.Errorf("resumes = %d, want the reconnect to resume", got)
	}

	fake.RefuseToken(true)
	fake.Drop()
	select {
	case err := <-done:
		if !errors.Is(err, ErrTokenRefused) {
			t.Errorf("RunGateway on a refused token = %v, want ErrTokenRefused", err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("RunGateway kept running on a refused token")
	}
	if st := a.Connection(); st.Connected {
		t.Errorf("after the refusal: %+v, want down", st)
	}
}

func waitLog(t *testing.T, logs *adaptertest.Buffer, want string) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for !strings.Contains(logs.String(), want) {
		if time.Now().After(deadline) {
			t.Fatalf("log lacks %q:\n%s", want, logs.String())
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// TestGatewayEnds checks the two other ways RunGateway ends: a token
// refused at the first connection (at once, not after retries) and a
// cancelled context while it retries (nil).
func TestGatewayEnds(t *testing.T) {
	fake, err := gatewayfake.New()
	if err != nil {
		t.Fatal(err)
	}
	defer fake.Close()
	newAdapter := func() *Adapter {
		a, err := New(bot.New(sessionsMemory(), bot.Options{}),
			Config{BotToken: "tok", APIURL: fake.URL(), ReconnectMax: 100 * time.Millisecond}, slog.New(slog.DiscardHandler))
		if err != nil {
			t.Fatal(err)
		}
		return a
	}

	fake.RefuseToken(true)
	start := time.Now()
	if err := newAdapter().RunGateway(t.Context()); !errors.Is(err, ErrTokenRefused) {
		t.Errorf("RunGateway with a refused token = %v, want ErrTokenRefused", err)
	}
	if got := fake.Identifies(); got != 1 {
		t.Errorf("identifies = %d, want 1: a refused token is not retried", got)
	}
	if d := time.Since(start); d > 3*time.Second {
		t.Errorf("RunGateway took %v to give up on a refused token", d)
	}

	fake.RefuseToken(false)
	if err := fake.SetDown(true); err != nil {
		t.Fatal(err)
	}
	a := newAdapter()
	ctx, cancel := context.WithCancel(t.Context())
	done := make(chan error, 1)
	go func() { done <- a.RunGateway(ctx) }()
	waitState(t, a, "a failed attempt", func(s ConnectionState) bool { return s.Err != nil })
	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Errorf("RunGateway after cancel = %v, want nil", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("RunGateway did not stop on cancel")
	}
}

// TestGatewayHungOpen runs RunGateway against a Gateway that accepts the
// websocket and then says nothing: each Open gives up after the open
// timeout and is retried, and a shutdown cuts a hung Open short.
func TestGatewayHungOpen(t *testing.T) {
	var upgrader websocket.Upgrader
	hold := make(chan struct{})
	accepted := make(chan struct{}, 100)
	var srv *httptest.Server
	srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		switch r.URL.Path {
		case "/api/v9/gateway":
			w.Header().Set("Content-Type", "application/json")
			fmt.Fprintf(w, `{"url":"ws://%s/ws"}`, srv.Listener.Addr())
		case "/ws", "/ws/":
			c, err := upgrader.Upgrade(w, r, nil)
			if err != nil {
				return
			}
			defer c.Close()
			accepted <- struct{}{}
			<-hold // no Hello
		default:
			http.NotFound(w, r)
		}
	}))
	defer srv.Close()
	defer close(hold)
	logs := &adaptertest.Buffer{}
	newAdapter := func(timeout time.Duration) *Adapter {
		a, err := New(bot.New(sessionsMemory(), bot.Options{}),
			Config{BotToken: "tok", APIURL: srv.URL, ReconnectMax: 100 * time.Millisecond}, slog.New(slog.NewTextHandler(logs, nil)))
		if err != nil {
			t.Fatal(err)
		}
		a.openTimeout = timeout
		return a
	}
	run := func(a *Adapter) (context.CancelFunc, chan error) {
		ctx, cancel := context.WithCancel(t.Context())
		done := make(chan error, 1)
		go func() { done <- a.RunGateway(ctx) }()
		return cancel, done
	}
	stopped := func(done chan error) {
		t.Helper()
		select {
		case err := <-done:
			if err != nil {
				t.Errorf("RunGateway after cancel = %v, want nil", err)
			}
		case <-time.After(3 * time.Second):
			t.Fatal("a hung Open held RunGateway after cancel")
		}
	}

	a := newAdapter(200 * time.Millisecond)
	cancel, done := run(a)
	st := waitState(t, a, "a timed-out Open", func(s ConnectionState) bool { return s.Err != nil })
	if !strings.Contains(st.Err.Error(), "timeout") {
		t.Errorf("state after a hung Open: %+v, want an i/o timeout", st)
	}
	waitLog(t, logs, "attempt=2")
	cancel()
	stopped(done)

	cancel, done = run(newAdapter(time.Hour))
	select {
	case <-accepted:
	case <-time.After(5 * time.Second):
		t.Fatal("no websocket dialled")
	}
	for len(accepted) > 0 { // the first adapter's
		<-accepted
	}
	time.Sleep(50 * time.Millisecond) // Open is waiting for Hello now
	cancel()
	stopped(done)
}
