package slack

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/connect4/connect4/bot"
	"github.com/connect4/connect4/sessions"
	"github.com/connect4/connect4/sessions/storetest"
)

func TestNewChecksConfig(t *testing.T) {
	svc := bot.New(storetest.NewMemory(t, sessions.Options{}), bot.Options{})
	tests := []struct {
		name    string
		cfg     Config
		wantErr []string // fragments of the error, "" for none
		apiURL  string
	}{
		{"HTTP only", Config{SigningSecret: "s"}, nil, "https://slack.com/api/"},
		{"HTTP and bot token", Config{SigningSecret: "s", BotToken: "xoxb-1"}, nil, "https://slack.com/api/"},
		{"rotated bot token", Config{SigningSecret: "s", BotToken: "xoxe.xoxb-1"}, nil, "https://slack.com/api/"},
		{"Socket Mode", Config{AppToken: "xapp-1", BotToken: "xoxb-1"}, nil, "https://slack.com/api/"},
		{"API URL gets a slash", Config{SigningSecret: "s", APIURL: "http://127.0.0.1:9/api"}, nil, "http://127.0.0.1:9/api/"},
		{"API URL kept", Config{SigningSecret: "s", APIURL: "https://example.com/api/"}, nil, "https://example.com/api/"},
		{"nothing", Config{}, []string{"SLACK_SIGNING_SECRET", "SLACK_APP_TOKEN"}, ""},
		{"app token without bot token", Config{AppToken: "xapp-1"}, []string{"SLACK_BOT_TOKEN is required"}, ""},
		{"bot token as app token", Config{AppToken: "xoxb-1", BotToken: "xoxb-1"}, []string{"SLACK_APP_TOKEN must be an app-level token"}, ""},
		{"user token as bot token", Config{SigningSecret: "s", BotToken: "xoxp-1"}, []string{"SLACK_BOT_TOKEN must be a bot token"}, ""},
		{"API URL without scheme", Config{SigningSecret: "s", APIURL: "slack.test/api"}, []string{"SLACK_API_URL"}, ""},
		{"API URL not http", Config{SigningSecret: "s", APIURL: "ftp://slack.test/"}, []string{"SLACK_API_URL"}, ""},
		{"API URL with query", Config{SigningSecret: "s", APIURL: "https://slack.test/api?x=1"}, []string{"SLACK_API_URL"}, ""},
		{"API URL unparsable", Config{SigningSecret: "s", APIURL: "http://[::1"}, []string{"SLACK_API_URL"}, ""},
		{"every problem at once", Config{AppToken: "xoxp-secret-value", BotToken: "xoxp-secret-value", APIURL: "nope"},
			[]string{"SLACK_APP_TOKEN", "SLACK_BOT_TOKEN", "SLACK_API_URL"}, ""},
		{"negative timeout", Config{SigningSecret: "s", Timeout: -time.Second}, []string{"timeout"}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a, err := New(svc, tt.cfg, nil)
			if tt.wantErr == nil {
				if err != nil {
					t.Fatalf("New(%+v) = %v, want no error", tt.cfg, err)
				}
				if a.apiURL != tt.apiURL {
					t.Fatalf("API URL %q, want %q", a.apiURL, tt.apiURL)
				}
				return
			}
			if err == nil {
				t.Fatalf("New(%+v): no error, want one naming %v", tt.cfg, tt.wantErr)
			}
			for _, f := range tt.wantErr {
				if !strings.Contains(err.Error(), f) {
					t.Errorf("New(%+v) = %q, want it to mention %q", tt.cfg, err, f)
				}
			}
			if strings.Contains(err.Error(), "secret-value") {
				t.Errorf("error %q repeats a token", err)
			}
		})
	}
	if _, err := New(nil, Config{SigningSecret: "s"}, nil); err == nil {
		t.Error("New(nil service): no error")
	}
}

// TestSelfFromAuthTest checks that the bot's user id comes from auth.test
// once, and that without a working auth.test the adapter carries on.
func TestSelfFromAuthTest(t *testing.T) {
	e := newEnv(t, storetest.NewMemory(t, sessions.Options{}), Config{})
	if got := e.a.selfPlayer(t.Context()); got.ID != botUserID {
		t.Fatalf("selfPlayer = %+v, want %s", got, botUserID)
	}
	broken := newEnv(t, storetest.NewMemory(t, sessions.Options{}), Config{APIURL: "http://127.0.0.1:1/api/"})
	if got := broken.a.selfPlayer(t.Context()); got.ID != "" {
		t.Fatalf("selfPlayer with auth.test unreachable = %+v, want none", got)
	}
	if !strings.Contains(broken.logs.String(), "auth.test failed") {
		t.Fatalf("no log line for the failed auth.test:\n%s", broken.logs)
	}
	// Commands still work; a challenge of an unknown user is not checked.
	wantPosted(t, broken.slash("UA", "<@UB>"), inChannel, false, "challenges <@UB>")
}

// TestCloseWaitsForClicks checks that Close waits for a click in flight,
// and that when its context ends first it cancels the work and says so.
func TestCloseWaitsForClicks(t *testing.T) {
	e := newEnv(t, storetest.NewMemory(t, sessions.Options{}), Config{})
	ch := e.slash("UA", "<@UB>")
	hold := make(chan struct{}) // the response_url answers when released
	e.mu.Lock()
	e.hold = hold
	e.mu.Unlock()
	b := button(ch, "Accept")
	resp := e.post("/slack/interactions", e.clickPayload("UB", b.ActionID, b.Value))
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("click: %d", resp.StatusCode)
	}
	ctx, cancel := context.WithTimeout(t.Context(), 50*time.Millisecond)
	defer cancel()
	if err := e.a.work.Wait(ctx); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("Wait with the post held = %v, want a deadline", err)
	}
	ctx, cancel = context.WithTimeout(t.Context(), 100*time.Millisecond)
	defer cancel()
	start := time.Now()
	if err := e.a.Close(ctx); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("Close with the post held = %v, want a deadline", err)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Fatalf("Close took %v after cancelling the work", d)
	}
	obs := e.observations()
	if last := obs[len(obs)-1]; last != (observation{"accept", bot.OutcomeError.String()}) {
		t.Fatalf("last observation %v, want the cancelled accept as an error", last)
	}
	// After Close, clicks are acknowledged and dropped.
	resp = e.post("/slack/interactions", e.clickPayload("UB", b.ActionID, b.Value))
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("click after Close: %d, want 200", resp.StatusCode)
	}
	if obs := e.observations(); obs[len(obs)-1].outcome != bot.OutcomeError.String() {
		t.Fatalf("click after Close observed as %v, want error", obs[len(obs)-1])
	}
	close(hold)
}

// TestCloseIdle checks that Close returns at once with nothing in flight.
func TestCloseIdle(t *testing.T) {
	e := newEnv(t, storetest.NewMemory(t, sessions.Options{}), Config{})
	ctx, cancel := context.WithTimeout(t.Context(), time.Second)
	defer cancel()
	if err := e.a.Close(ctx); err != nil {
		t.Fatalf("Close = %v", err)
	}
}

// TestSelfLookupHoldsNoLock checks that while auth.test hangs, callers
// wait only as long as their own context allows (the lookup holds no lock
// that stalls them), that one lookup serves them all, and that its answer
// is kept.
func TestSelfLookupHoldsNoLock(t *testing.T) {
	release := make(chan struct{})
	var calls atomic.Int32
	api := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path != "/auth.test" {
			http.NotFound(w, r)
			return
		}
		calls.Add(1)
		<-release
		fmt.Fprintf(w, `{"ok":true,"user_id":%q,"user":"connect4"}`, botUserID)
	}))
	t.Cleanup(api.Close)
	t.Cleanup(func() {
		select {
		case <-release:
		default:
			close(release)
		}
	})
	e := newEnv(t, storetest.NewMemory(t, sessions.Options{}), Config{APIURL: api.URL + "/"})
	var wg sync.WaitGroup
	for range 5 {
		wg.Go(func() {
			ctx, cancel := context.WithTimeout(t.Context(), 50*time.Millisecond)
			defer cancel()
			start := time.Now()
			if got := e.a.selfPlayer(ctx); got.ID != "" {
				t.Errorf("selfPlayer while auth.test hangs = %+v, want none", got)
			}
			if d := time.Since(start); d > 500*time.Millisecond {
				t.Errorf("selfPlayer with a 50ms context took %v while auth.test hangs", d)
			}
		})
	}
	wg.Wait()
	close(release)
	if got := e.a.selfPlayer(t.Context()); got.ID != botUserID {
		t.Fatalf("selfPlayer after auth.test answered = %+v, want %s", got, botUserID)
	}
	if got := e.a.selfPlayer(t.Context()); got.ID != botUserID {
		t.Fatalf("selfPlayer again = %+v, want %s", got, botUserID)
	}
	if n := calls.Load(); n != 1 {
		t.Fatalf("auth.test called %d times, want once", n)
	}
}
