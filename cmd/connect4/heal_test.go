package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	slackapi "github.com/slack-go/slack"

	"github.com/connect4/connect4/bot/discord"
	"github.com/connect4/connect4/bot/discord/discordtest"
	"github.com/connect4/connect4/bot/discord/gatewayfake"
	"github.com/connect4/connect4/bot/slack"
	"github.com/connect4/connect4/bot/slack/socketfake"
)

// syncLog is a log sink that serve's goroutines write while the test reads.
type syncLog struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *syncLog) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *syncLog) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// served is a `connect4 serve` running in this process.
type served struct {
	t    *testing.T
	base string
	done chan error // run's result
	logs *syncLog
}

// serveInProcess runs `connect4 serve` with getenv until it exits or the
// test ends, and waits until it answers HTTP.
func serveInProcess(t *testing.T, getenv func(string) string) *served {
	t.Helper()
	getenv = inProcess(getenv)
	ctx, cancel := context.WithCancel(context.Background())
	s := &served{t: t, base: "http://" + getenv("CONNECT4_ADDR"), done: make(chan error, 1), logs: &syncLog{}}
	go func() { s.done <- run(ctx, []string{"serve"}, getenv, nil, s.logs, s.logs) }()
	t.Cleanup(func() {
		cancel()
		select {
		case <-s.done:
		case <-time.After(15 * time.Second):
			t.Error("serve did not stop")
		}
	})
	s.until("serve answers", func() bool {
		select {
		case err := <-s.done:
			s.done <- err
			t.Fatalf("serve exited: %v\n%s", err, s.logs)
		default:
		}
		resp, err := http.Get(s.base + "/healthz")
		if err == nil {
			resp.Body.Close()
		}
		return err == nil
	})
	return s
}

// get returns the status and body of GET path.
func (s *served) get(path string) (int, string) {
	s.t.Helper()
	resp, err := http.Get(s.base + path)
	if err != nil {
		s.t.Fatalf("GET %s: %v", path, err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return resp.StatusCode, string(b)
}

// until polls ok every 20 ms, failing the test after 10 s.
func (s *served) until(what string, ok func() bool) {
	s.t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !ok() {
		if time.Now().After(deadline) {
			s.t.Fatalf("timed out waiting for %s\n--- log ---\n%s", what, s.logs)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// probeUntil waits until GET path answers status with a body containing
// want.
func (s *served) probeUntil(path string, status int, want string) {
	s.t.Helper()
	s.until(path+" "+want, func() bool {
		code, body := s.get(path)
		return code == status && strings.Contains(body, want)
	})
}

// exited waits for serve to exit on its own and returns run's error.
func (s *served) exited() error {
	s.t.Helper()
	select {
	case err := <-s.done:
		s.done <- err // for the cleanup
		return err
	case <-time.After(10 * time.Second):
		s.t.Fatalf("serve kept running\n--- log ---\n%s", s.logs)
		return nil
	}
}

// wantLog fails the test unless the log has a line with every part.
func (s *served) wantLog(parts ...string) {
	s.t.Helper()
	for line := range strings.Lines(s.logs.String()) {
		all := true
		for _, p := range parts {
			all = all && strings.Contains(line, p)
		}
		if all {
			return
		}
	}
	s.t.Errorf("no log line with %q\n--- log ---\n%s", parts, s.logs)
}

// TestServeHealsDiscordGateway starts serve against a Gateway that is down
// for its first seconds, drops the connection mid-game and then refuses
// the token: serve connects late, reconnects, plays on, and exits with
// ErrTokenRefused; /readyz and /healthz follow.
func TestServeHealsDiscordGateway(t *testing.T) {
	t.Parallel()
	fake, err := gatewayfake.New()
	if err != nil {
		t.Fatal(err)
	}
	defer fake.Close()
	if err := fake.SetDown(true); err != nil {
		t.Fatal(err)
	}
	s := serveInProcess(t, env("CONNECT4_ADDR", freeAddr(t), "DISCORD_BOT_TOKEN", "tok",
		"DISCORD_API_URL", fake.URL(), "DISCORD_APPLICATION_ID", gatewayfake.DefaultApplicationID,
		"CONNECT4_RECONNECT_MAX", "200ms", "CONNECT4_UNHEALTHY_AFTER", "1s"))

	if code, body := s.get("/readyz"); code != http.StatusServiceUnavailable || !strings.Contains(body, "discord gateway: down") {
		t.Errorf("/readyz while the Gateway is down = %d %q, want 503 naming the gateway", code, body)
	}
	if code, body := s.get("/healthz"); code != http.StatusOK {
		t.Errorf("/healthz at once = %d %q, want 200 (not down for CONNECT4_UNHEALTHY_AFTER yet)", code, body)
	}
	s.probeUntil("/healthz", http.StatusServiceUnavailable, "discord gateway: down for")
	s.wantLog("level=WARN", "discord gateway connection failed", "connection refused", "retry_in")

	if err := fake.SetDown(false); err != nil {
		t.Fatal(err)
	}
	s.probeUntil("/readyz", http.StatusOK, "discord gateway: connected")
	s.probeUntil("/healthz", http.StatusOK, "ok")
	s.wantLog("level=INFO", "discord gateway connected", "after=")
	if _, body := s.get("/metrics"); !strings.Contains(body, `connect4_connected{platform="discord"} 1`) {
		t.Errorf("/metrics lacks connect4_connected{platform=\"discord\"} 1")
	}

	alice := discordtest.User{ID: "200000000000000001", Username: "alice"}
	bob := discordtest.User{ID: "200000000000000002", Username: "bob"}
	n := 0
	send := func(u discordtest.User, typ int, data any, msg *discordtest.MessageRef) discordtest.Response {
		t.Helper()
		n++
		id := "30000000000000000" + string(rune('0'+n))
		in := discordtest.Interaction{ID: id, ApplicationID: gatewayfake.DefaultApplicationID, Type: typ,
			Token: "tok-" + id, Version: 1, GuildID: "400000000000000001", ChannelID: "500000000000000001",
			Member: &discordtest.Member{User: u}, Data: data, Message: msg}
		b, err := json.Marshal(in)
		if err != nil {
			t.Fatal(err)
		}
		if err := fake.SendInteraction(b); err != nil {
			t.Fatal(err)
		}
		path := "/api/v9/interactions/" + id + "/tok-" + id + "/callback"
		var resp discordtest.Response
		s.until("the callback of interaction "+id, func() bool {
			for _, r := range fake.Requests() {
				if r.Method == http.MethodPost && r.Path == path {
					var err error
					if resp, err = discordtest.DecodeResponse(r.ContentType, r.Body); err != nil {
						t.Fatalf("callback body %s: %v", r.Body, err)
					}
					return true
				}
			}
			return false
		})
		return resp
	}
	ch := send(alice, discordtest.TypeApplicationCommand,
		discordtest.Slash("challenge", []discordtest.Option{discordtest.UserOption("opponent", bob)}, bob), nil)
	accept, ok := ch.Button("Accept")
	if !ok {
		t.Fatalf("challenge answered %q with buttons %+v, want an Accept button", ch.Content(), ch.Buttons())
	}

	fake.Drop()
	s.until("the reconnect", func() bool {
		_, body := s.get("/metrics")
		return strings.Contains(body, `connect4_reconnects_total{platform="discord"} 1`)
	})
	s.wantLog("level=WARN", "discord gateway connection lost")
	s.wantLog("level=INFO", "discord gateway reconnected", "down_for=")
	ctx, cancel := context.WithTimeout(t.Context(), 5*time.Second)
	defer cancel()
	if err := fake.WaitConnected(ctx); err != nil {
		t.Fatal(err)
	}
	acc := send(bob, discordtest.TypeMessageComponent, discordtest.Click(accept.CustomID),
		&discordtest.MessageRef{ID: "600000000000000001", ChannelID: "500000000000000001"})
	switch acc.Type {
	case 6:
		// Boards are pictures: a deferred update, then a multipart edit of
		// the message through the interaction webhook.
		s.until("the edit with the board's picture", func() bool {
			for _, r := range fake.Requests() {
				if r.Method == http.MethodPatch && strings.Contains(r.Path, "/webhooks/") &&
					strings.Contains(string(r.Body), "accepted") && strings.Contains(string(r.Body), "attachment://board.png") {
					return true
				}
			}
			return false
		})
	case 7:
		if len(acc.Files) > 0 {
			// Boards are pictures, answered in place: the callback carries
			// the message and its picture.
			if !strings.Contains(string(acc.Payload), "accepted") || !strings.Contains(string(acc.Payload), "attachment://board.png") {
				t.Errorf("Accept after the reconnect answered %.300s, want the game to start with its picture", acc.Payload)
			}
			break
		}
		fallthrough
	default:
		if !strings.Contains(acc.Content(), "accepted") {
			t.Errorf("Accept after the reconnect answered %q, want the game to start", acc.Content())
		}
	}
	if code, _ := s.get("/readyz"); code != http.StatusOK {
		t.Errorf("/readyz after the reconnect = %d, want 200", code)
	}

	fake.RefuseToken(true)
	fake.Drop()
	err = s.exited()
	if !errors.Is(err, discord.ErrTokenRefused) || !strings.Contains(err.Error(), "4004") {
		t.Errorf("serve on a refused token returned %v, want discord.ErrTokenRefused naming close code 4004", err)
	}
}

// TestServeHealsSlackSocketMode is TestServeHealsDiscordGateway for Slack's
// Socket Mode.
func TestServeHealsSlackSocketMode(t *testing.T) {
	t.Parallel()
	fake, err := socketfake.New()
	if err != nil {
		t.Fatal(err)
	}
	defer fake.Close()
	if err := fake.SetDown(true); err != nil {
		t.Fatal(err)
	}
	s := serveInProcess(t, env("CONNECT4_ADDR", freeAddr(t), "SLACK_APP_TOKEN", "xapp-1-test", "SLACK_BOT_TOKEN", "xoxb-test",
		"SLACK_API_URL", fake.APIURL(), "CONNECT4_RECONNECT_MAX", "200ms", "CONNECT4_UNHEALTHY_AFTER", "1s"))

	if code, body := s.get("/readyz"); code != http.StatusServiceUnavailable || !strings.Contains(body, "slack socket mode: down") {
		t.Errorf("/readyz while Socket Mode is down = %d %q, want 503 naming socket mode", code, body)
	}
	s.probeUntil("/healthz", http.StatusServiceUnavailable, "slack socket mode: down for")
	s.wantLog("level=WARN", "slack socket mode connection failed", "connection refused", "retry_in")

	if err := fake.SetDown(false); err != nil {
		t.Fatal(err)
	}
	s.probeUntil("/readyz", http.StatusOK, "slack socket mode: connected")
	s.probeUntil("/healthz", http.StatusOK, "ok")
	s.wantLog("level=INFO", "slack socket mode connected", "after=")

	ctx, cancel := context.WithTimeout(t.Context(), 5*time.Second)
	defer cancel()
	slash := func(user, text string) string {
		t.Helper()
		if err := fake.WaitConnected(ctx); err != nil {
			t.Fatal(err)
		}
		id, err := fake.SendSlashCommand(slackapi.SlashCommand{ChannelID: "C1", UserID: user, UserName: user,
			Command: "/connect4", Text: text})
		if err != nil {
			t.Fatal(err)
		}
		ack, err := fake.WaitAck(ctx, id)
		if err != nil {
			t.Fatalf("no ack for %q: %v", text, err)
		}
		return string(ack.Payload)
	}
	slash("UA", "<@UB>") // posted with chat.postMessage, so that the bot can edit it on time
	s.until("the challenge's chat.postMessage", func() bool {
		for _, c := range fake.Calls() {
			if c.Method == "chat.postMessage" && strings.Contains(c.Args.Get("text"), "challenges") {
				return true
			}
		}
		return false
	})

	fake.Drop()
	s.until("the reconnect", func() bool {
		_, body := s.get("/metrics")
		return strings.Contains(body, `connect4_reconnects_total{platform="slack"} 1`)
	})
	s.wantLog("level=WARN", "slack socket mode connection lost")
	s.wantLog("level=INFO", "slack socket mode reconnected", "down_for=")
	if got := slash("UA", "cancel"); !strings.Contains(got, "withdrew the challenge") {
		t.Errorf("cancel after the reconnect acked with %s, want the challenge withdrawn", got)
	}

	fake.RefuseToken(true)
	fake.Drop()
	err = s.exited()
	if !errors.Is(err, slack.ErrTokenRefused) || !strings.Contains(err.Error(), "invalid_auth") {
		t.Errorf("serve on a refused token returned %v, want slack.ErrTokenRefused naming invalid_auth", err)
	}
}
