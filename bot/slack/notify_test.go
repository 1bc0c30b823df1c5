package slack

import (
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/connect4/connect4/bot"
	"github.com/connect4/connect4/bot/match"
	"github.com/connect4/connect4/sessions"
	"github.com/connect4/connect4/sessions/storetest"
)

// TestNotifyErrors: the bot's own edits map Slack's answers to what the
// schedule's worker does: wait a 429's Retry-After, drop what no retry
// mends, retry the rest; without a bot token nothing is sent.
func TestNotifyErrors(t *testing.T) {
	var answer func(w http.ResponseWriter)
	calls := 0
	api := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		calls++
		if r.URL.Path != "/chat.update" && r.URL.Path != "/chat.postMessage" {
			http.NotFound(w, r)
			return
		}
		if got := r.Header.Get("Authorization"); got != "Bearer "+testToken && r.FormValue("token") != testToken {
			t.Errorf("%s without the bot token", r.URL.Path)
		}
		answer(w)
	}))
	defer api.Close()
	svc := bot.New(storetest.NewMemory(t, sessions.Options{}), bot.Options{})
	a, err := New(svc, Config{SigningSecret: testSecret, BotToken: testToken, APIURL: api.URL}, nil)
	if err != nil {
		t.Fatal(err)
	}
	k := match.Key{Platform: Platform, Workspace: testTeam, Channel: testChan}
	ref := match.MessageRef{Channel: testChan, Timestamp: "1.0"}
	r := bot.Reply{Visibility: bot.Update, Text: "The challenge expired."}
	for _, tc := range []struct {
		name   string
		answer func(w http.ResponseWriter)
		check  func(err error) bool
	}{
		{"ok", func(w http.ResponseWriter) { fmt.Fprint(w, `{"ok":true,"channel":"C1","ts":"1.0"}`) }, func(err error) bool { return err == nil }},
		{"429", func(w http.ResponseWriter) {
			w.Header().Set("Retry-After", "7")
			w.WriteHeader(http.StatusTooManyRequests)
		}, func(err error) bool {
			var rl *bot.RateLimitError
			return errors.As(err, &rl) && rl.After == 7*time.Second
		}},
		{"message gone", func(w http.ResponseWriter) { fmt.Fprint(w, `{"ok":false,"error":"message_not_found"}`) },
			func(err error) bool { return errors.Is(err, bot.ErrUndeliverable) }},
		{"server error", func(w http.ResponseWriter) { w.WriteHeader(http.StatusInternalServerError) },
			func(err error) bool { return err != nil && !errors.Is(err, bot.ErrUndeliverable) }},
	} {
		answer = tc.answer
		for _, op := range []string{"edit", "post"} {
			var err error
			if op == "edit" {
				err = a.Edit(t.Context(), k, ref, r)
			} else {
				err = a.Post(t.Context(), k, ref, r)
			}
			if !tc.check(err) {
				t.Errorf("%s, %s: err = %v", tc.name, op, err)
			}
		}
	}

	before := calls
	noToken, err := New(svc, Config{SigningSecret: testSecret, APIURL: api.URL}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if noToken.CanNotify() {
		t.Error("CanNotify without a bot token")
	}
	if err := noToken.Edit(t.Context(), k, ref, r); !errors.Is(err, bot.ErrUndeliverable) || !strings.Contains(err.Error(), "SLACK_BOT_TOKEN") {
		t.Errorf("Edit without a token = %v, want ErrUndeliverable naming SLACK_BOT_TOKEN", err)
	}
	if calls != before {
		t.Errorf("%d calls without a token, want none", calls-before)
	}
}

// TestPostReplies: with PostReplies a slash command's public challenge is
// posted with chat.postMessage (the response is empty) and its channel and
// ts are attached to the game for the bot's own edits; a note stays in the
// response.
func TestPostReplies(t *testing.T) {
	st := storetest.NewMemory(t, sessions.Options{})
	e := newEnv(t, st, Config{PostReplies: true})
	resp := e.post("/slack/commands", commandBody("UA", "<@UB>"))
	body, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK || len(body) != 0 {
		t.Fatalf("challenge answered %d %q, want 200 and no body: it was posted", resp.StatusCode, body)
	}
	k := match.Key{Platform: Platform, Workspace: testTeam, Channel: testChan}
	recs, err := st.Active(t.Context(), k)
	if err != nil || len(recs) != 1 {
		t.Fatalf("Active = %v, %v", recs, err)
	}
	if m := recs[0].Message; m.Channel != testChan || m.Timestamp == "" {
		t.Fatalf("record's message %+v, want the posted message's channel and ts", m)
	}
	if p := e.slash("UA", "help"); p.ResponseType != ephemeral {
		t.Fatalf("help answered %+v, want an ephemeral response", p)
	}
}
