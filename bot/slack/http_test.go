package slack

import (
	"bytes"
	"errors"
	"io"
	"net/http"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/connect4/connect4/bot/match"

	slackapi "github.com/slack-go/slack"

	"github.com/connect4/connect4/bot"
	"github.com/connect4/connect4/sessions"
	"github.com/connect4/connect4/sessions/storetest"
)

// TestSlackSigningExample reproduces Slack's documented worked example
// (docs.slack.dev/authentication/verifying-requests-from-slack) byte for
// byte with the helper the tests sign with, and checks that slack-go's
// verifier accepts what that helper signs, so both compute the same MAC.
func TestSlackSigningExample(t *testing.T) {
	const (
		secret = "8f742231b10e8888abcd99yyyzzz85a5"
		ts     = "1531420618"
		body   = "token=xyzz0WbapA4vBCDEFasx0q6G&team_id=T1DC2JH3J&team_domain=testteamnow&channel_id=G8PSS9T3V&channel_name=foobar&user_id=U2CERLKJA&user_name=roadrunner&command=%2Fwebhook-collect&text=&response_url=https%3A%2F%2Fhooks.slack.com%2Fcommands%2FT1DC2JH3J%2F397700885554%2F96rGlfmibIGlgcZRskXaIFfN&trigger_id=398738663015.47445629121.803a0bc887a14d10d2c447fce8b6703c"
		want   = "v0=a2114d57b48eac39b9ad189dd8316235a7b4a8d21a10bd27519666489c69b503"
	)
	if got := sign(secret, ts, []byte(body)); got != want {
		t.Fatalf("sign(Slack's example) = %s, want %s", got, want)
	}
	// The example is from 2018, outside the replay window: verify refuses it.
	h := http.Header{"X-Slack-Request-Timestamp": {ts}, "X-Slack-Signature": {want}}
	if err := verify(h, []byte(body), secret); !errors.Is(err, slackapi.ErrExpiredTimestamp) {
		t.Fatalf("verify(2018 example) = %v, want ErrExpiredTimestamp", err)
	}
	// The same body signed now passes, and fails with one byte changed.
	now := strconv.FormatInt(time.Now().Unix(), 10)
	h = http.Header{"X-Slack-Request-Timestamp": {now}, "X-Slack-Signature": {sign(secret, now, []byte(body))}}
	if err := verify(h, []byte(body), secret); err != nil {
		t.Fatalf("verify(example signed now) = %v, want nil", err)
	}
	if err := verify(h, []byte(body+"x"), secret); !errors.Is(err, slackapi.ErrInvalidSignature) {
		t.Fatalf("verify(changed body) = %v, want ErrInvalidSignature", err)
	}
}

func TestSignatureRequired(t *testing.T) {
	ts := func(d time.Duration) string { return strconv.FormatInt(time.Now().Add(d).Unix(), 10) }
	signed := func(secret, ts string, body []byte) map[string]string {
		return map[string]string{"X-Slack-Request-Timestamp": ts, "X-Slack-Signature": sign(secret, ts, body)}
	}
	// Each case turns the body Slack would send into what is sent.
	tests := []struct {
		name string
		send func(body []byte) ([]byte, map[string]string)
		want int
	}{
		{"valid", func(b []byte) ([]byte, map[string]string) { return b, signed(testSecret, ts(0), b) }, http.StatusOK},
		{"wrong secret", func(b []byte) ([]byte, map[string]string) { return b, signed("another-secret", ts(0), b) }, http.StatusUnauthorized},
		{"6 minutes old", func(b []byte) ([]byte, map[string]string) { return b, signed(testSecret, ts(-6*time.Minute), b) }, http.StatusUnauthorized},
		{"6 minutes ahead", func(b []byte) ([]byte, map[string]string) { return b, signed(testSecret, ts(6*time.Minute), b) }, http.StatusUnauthorized},
		{"no signature", func(b []byte) ([]byte, map[string]string) {
			return b, map[string]string{"X-Slack-Request-Timestamp": ts(0)}
		}, http.StatusUnauthorized},
		{"no timestamp", func(b []byte) ([]byte, map[string]string) {
			return b, map[string]string{"X-Slack-Signature": sign(testSecret, ts(0), b)}
		}, http.StatusUnauthorized},
		{"no headers", func(b []byte) ([]byte, map[string]string) { return b, nil }, http.StatusUnauthorized},
		{"body changed after signing", func(b []byte) ([]byte, map[string]string) {
			h := signed(testSecret, ts(0), b)
			return append(slices.Clone(b), "&x=1"...), h
		}, http.StatusUnauthorized},
		{"timestamp changed after signing", func(b []byte) ([]byte, map[string]string) {
			h := signed(testSecret, ts(0), b)
			h["X-Slack-Request-Timestamp"] = ts(-time.Minute)
			return b, h
		}, http.StatusUnauthorized},
		{"not hex", func(b []byte) ([]byte, map[string]string) {
			return b, map[string]string{"X-Slack-Request-Timestamp": ts(0), "X-Slack-Signature": "v0=zz"}
		}, http.StatusUnauthorized},
		{"no v0 prefix", func(b []byte) ([]byte, map[string]string) {
			h := signed(testSecret, ts(0), b)
			h["X-Slack-Signature"] = strings.TrimPrefix(h["X-Slack-Signature"], "v0=")
			return b, h
		}, http.StatusUnauthorized},
		{"timestamp not a number", func(b []byte) ([]byte, map[string]string) { return b, signed(testSecret, "soon", b) }, http.StatusUnauthorized},
	}
	for _, path := range []string{"/slack/commands", "/slack/interactions"} {
		for _, tt := range tests {
			t.Run(path+"/"+tt.name, func(t *testing.T) {
				e := newEnv(t, storetest.NewMemory(t, sessions.Options{}), Config{})
				body := commandBody("UA", "<@UB>")
				if path == "/slack/interactions" {
					body = e.clickPayload("UB", "c4_0", "c4:accept:g1:0:0")
				}
				sent, headers := tt.send(body)
				resp := e.send(path, sent, headers)
				got, _ := io.ReadAll(resp.Body)
				e.wait()
				if resp.StatusCode != tt.want {
					t.Fatalf("status %d (%q), want %d", resp.StatusCode, got, tt.want)
				}
				if tt.want != http.StatusUnauthorized {
					return
				}
				// Refused: nothing else happened.
				if recs, err := e.store.Active(t.Context(), match.Key{Platform: Platform, Workspace: testTeam, Channel: testChan}); err != nil || len(recs) != 0 {
					t.Errorf("an unauthorized request reached the store: %v", err)
				}
				e.mu.Lock()
				received := e.received
				e.mu.Unlock()
				if received != nil {
					t.Errorf("an unauthorized request was answered on the response_url: %+v", received)
				}
				if obs := e.observations(); !slices.Equal(obs, []observation{{kindUnknown, bot.OutcomeUnauthorized.String()}}) {
					t.Errorf("observed %v, want one unauthorized", obs)
				}
				logs := e.logs.String()
				if strings.Count(logs, "level=WARN") != 1 || !strings.Contains(logs, "outcome=unauthorized") {
					t.Errorf("want one Warn line for the refusal:\n%s", logs)
				}
				if strings.Contains(logs, "UB") || strings.Contains(logs, "v0=") {
					t.Errorf("the body or signature was logged:\n%s", logs)
				}
			})
		}
	}
}

// TestMalformed sends signed requests that are not what Slack sends: they
// get 4xx or an ephemeral note, never 5xx, and change nothing.
func TestMalformed(t *testing.T) {
	t.Parallel() // it waits on timeouts
	payload := func(js string) []byte { return []byte(url.Values{"payload": {js}}.Encode()) }
	tests := []struct {
		name, path string
		body       func(e *env) []byte
		status     int
		note       bool // an ephemeral note on the response_url
		outcome    string
	}{
		{"command: JSON, not a form", "/slack/commands", func(*env) []byte { return []byte(`{"text":"help"}`) }, 400, false, bot.OutcomeBadRequest.String()},
		{"command: no team", "/slack/commands", func(*env) []byte { return []byte("channel_id=C1&user_id=UA&text=help") }, 400, false, bot.OutcomeBadRequest.String()},
		{"command: no user", "/slack/commands", func(*env) []byte { return []byte("team_id=T1&channel_id=C1&text=help") }, 400, false, bot.OutcomeBadRequest.String()},
		{"command: bad key", "/slack/commands", func(*env) []byte { return []byte("team_id=T1&channel_id=C%3A1&user_id=UA&text=help") }, 400, false, bot.OutcomeBadRequest.String()},
		{"command: broken form", "/slack/commands", func(*env) []byte { return []byte("team_id=%zz") }, 400, false, bot.OutcomeBadRequest.String()},
		{"click: no payload", "/slack/interactions", func(*env) []byte { return []byte("foo=bar") }, 400, false, bot.OutcomeBadRequest.String()},
		{"click: payload not JSON", "/slack/interactions", func(*env) []byte { return payload("{not json") }, 400, false, bot.OutcomeBadRequest.String()},
		{"click: payload a string", "/slack/interactions", func(*env) []byte { return payload(`"block_actions"`) }, 400, false, bot.OutcomeBadRequest.String()},
		{"click: empty object", "/slack/interactions", func(*env) []byte { return payload(`{}`) }, 400, false, bot.OutcomeBadRequest.String()},
		{"click: a view submission", "/slack/interactions", func(e *env) []byte {
			return bytes.Replace(e.clickPayload("UA", "c4_0", "c4:accept:g1:0:0"), []byte("block_actions"), []byte("view_submission"), 1)
		}, 400, false, bot.OutcomeBadRequest.String()},
		{"click: no actions", "/slack/interactions", func(e *env) []byte {
			return payload(`{"type":"block_actions","team":{"id":"T1"},"user":{"id":"UA"},"channel":{"id":"C1"},"response_url":"` + e.hooks.URL + `/x","actions":[]}`)
		}, 400, false, bot.OutcomeBadRequest.String()},
		{"click: no response_url", "/slack/interactions", func(e *env) []byte {
			return payload(`{"type":"block_actions","team":{"id":"T1"},"user":{"id":"UA"},"channel":{"id":"C1"},"actions":[{"action_id":"c4_0","block_id":"b","value":"c4:accept:g1:0:0"}]}`)
		}, 400, false, bot.OutcomeBadRequest.String()},
		{"click: no user", "/slack/interactions", func(e *env) []byte {
			return payload(`{"type":"block_actions","team":{"id":"T1"},"channel":{"id":"C1"},"response_url":"` + e.hooks.URL + `/x","actions":[{"action_id":"c4_0","block_id":"b","value":"c4:accept:g1:0:0"}]}`)
		}, 400, false, bot.OutcomeBadRequest.String()},
		{"click: unknown action id", "/slack/interactions", func(e *env) []byte { return e.clickPayload("UA", "vote_up", "c4:accept:g1:0:0") }, 200, true, bot.OutcomeRefused.String()},
		{"click: forged value", "/slack/interactions", func(e *env) []byte { return e.clickPayload("UA", "c4_0", "c4:drop:g1:0:99") }, 200, true, bot.OutcomeRefused.String()},
		{"click: garbled value", "/slack/interactions", func(e *env) []byte { return e.clickPayload("UA", "c4_0", "<script>") }, 200, true, bot.OutcomeRefused.String()},
		{"click: oversized value", "/slack/interactions", func(e *env) []byte {
			return e.clickPayload("UA", "c4_0", "c4:drop:"+strings.Repeat("g", 5000)+":0:0")
		}, 200, true, bot.OutcomeRefused.String()},
		{"command: over MaxBody", "/slack/commands", func(*env) []byte { return commandBody("UA", strings.Repeat("x", MaxBody)) }, 413, false, bot.OutcomeTooLarge.String()},
		{"click: over MaxBody", "/slack/interactions", func(e *env) []byte {
			return e.clickPayload("UA", "c4_0", strings.Repeat("x", MaxBody))
		}, 413, false, bot.OutcomeTooLarge.String()},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := newEnv(t, storetest.NewMemory(t, sessions.Options{}), Config{})
			resp := e.post(tt.path, tt.body(e))
			io.Copy(io.Discard, resp.Body)
			e.wait()
			if resp.StatusCode != tt.status {
				t.Fatalf("status %d, want %d", resp.StatusCode, tt.status)
			}
			e.mu.Lock()
			got := slices.Clone(e.received)
			e.mu.Unlock()
			switch {
			case tt.note && len(got) != 1:
				t.Fatalf("response_url got %d messages, want one note", len(got))
			case tt.note:
				wantPosted(t, got[0], ephemeral, false, "isn't one of mine")
			case len(got) != 0:
				t.Fatalf("response_url got %+v, want nothing", got)
			}
			if obs := e.observations(); len(obs) != 1 || obs[0].outcome != tt.outcome {
				t.Fatalf("observed %v, want one %s", obs, tt.outcome)
			}
		})
	}
}

// TestMethodNotAllowed checks that only POST is served.
func TestMethodNotAllowed(t *testing.T) {
	e := newEnv(t, storetest.NewMemory(t, sessions.Options{}), Config{})
	resp, err := e.srv.Client().Get(e.srv.URL + "/slack/commands")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusMethodNotAllowed {
		t.Fatalf("GET /slack/commands: %d, want 405", resp.StatusCode)
	}
}

// TestRegisterWithoutSecret checks that nothing is mounted for Socket Mode
// alone.
func TestRegisterWithoutSecret(t *testing.T) {
	e := newEnv(t, storetest.NewMemory(t, sessions.Options{}), Config{})
	a, err := New(e.a.svc, Config{AppToken: "xapp-1", BotToken: testToken}, nil)
	if err != nil {
		t.Fatal(err)
	}
	mux := http.NewServeMux()
	a.Register(mux)
	req, _ := http.NewRequest(http.MethodPost, "/slack/commands", nil)
	if _, pattern := mux.Handler(req); pattern != "" {
		t.Fatalf("without a signing secret %q is mounted", pattern)
	}
}
