package slack

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"

	"github.com/slack-go/slack/slacktest"

	"github.com/connect4/connect4/bot/match"
	"github.com/connect4/connect4/sessions"
	"github.com/connect4/connect4/sessions/storetest"
)

// updates is a fake of Slack's Web API that records chat.update calls
// (slacktest's own server does not fake it).
type updates struct {
	mu    sync.Mutex
	calls []update
}

type update struct{ channel, ts, text, blocks string }

func (u *updates) got() []update {
	u.mu.Lock()
	defer u.mu.Unlock()
	return append([]update(nil), u.calls...)
}

func newUpdatesAPI(t *testing.T) (*updates, string) {
	u := &updates{}
	api := slacktest.NewTestServer(func(c slacktest.Customize) {
		c.Handle("/auth.test", func(w http.ResponseWriter, r *http.Request) {
			fmt.Fprintf(w, `{"ok":true,"user_id":%q,"user":"connect4","team_id":%q}`, botUserID, testTeam)
		})
		c.Handle("/users.info", func(w http.ResponseWriter, r *http.Request) {
			fmt.Fprintf(w, `{"ok":true,"user":{"id":%q,"name":%q,"locale":"en-US"}}`, r.FormValue("user"), strings.ToLower(r.FormValue("user")))
		})
		c.Handle("/chat.update", func(w http.ResponseWriter, r *http.Request) {
			u.mu.Lock()
			u.calls = append(u.calls, update{r.FormValue("channel"), r.FormValue("ts"), r.FormValue("text"), r.FormValue("blocks")})
			u.mu.Unlock()
			fmt.Fprintf(w, `{"ok":true,"channel":%q,"ts":%q}`, r.FormValue("channel"), r.FormValue("ts"))
		})
	})
	api.Start()
	t.Cleanup(api.Stop)
	return u, api.GetAPIURL()
}

// TestTypedCancelEditsTheChallenge: a challenge withdrawn with a typed
// "/connect4 cancel" loses its buttons when the bot posted its message
// (chat.update on its ts). A challenge answered in the command's response
// has no ts (Slack gives response_url messages none), so the cancel's
// reply says its buttons no longer do anything, and a click on them says
// the challenge was cancelled (the issue: "A typed cancel leaves the
// challenge's buttons live; clicking Accept then says the board has moved
// on").
func TestTypedCancelEditsTheChallenge(t *testing.T) {
	const withdrew = "withdrew the challenge to"
	const stay = "The challenge's message above still shows its buttons, but they no longer do anything."
	tests := []struct {
		name        string
		postReplies bool
	}{
		{"posted by the bot", true},
		{"the command's response", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			u, apiURL := newUpdatesAPI(t)
			st := storetest.NewMemory(t, sessions.Options{})
			e := newEnv(t, st, Config{PostReplies: tt.postReplies, APIURL: apiURL})

			resp := e.post("/slack/commands", commandBody("UA", "<@UB>"))
			body, _ := io.ReadAll(resp.Body)
			recs, err := st.Active(t.Context(), match.Key{Platform: Platform, Workspace: testTeam, Channel: testChan})
			if err != nil || len(recs) != 1 {
				t.Fatalf("Active = %v, %v", recs, err)
			}
			ts := recs[0].Message.Timestamp
			if tt.postReplies != (ts != "") {
				t.Fatalf("challenge's message ts %q (response %q), want one only when the bot posts it", ts, body)
			}

			cancel := e.slash("UA", "cancel")
			e.wait()
			if !strings.Contains(cancel.Text+sectionText(cancel), withdrew) {
				t.Errorf("cancel answered %+v, want %q", cancel, withdrew)
			}
			if said := strings.Contains(cancel.Text+sectionText(cancel), stay); said == tt.postReplies {
				t.Errorf("cancel answered %q: says the buttons stay = %v, want %v", cancel.Text, said, !tt.postReplies)
			}
			calls := u.got()
			if !tt.postReplies {
				if len(calls) != 0 {
					t.Errorf("chat.update called %+v for a message with no ts", calls)
				}
				// The buttons left on the response still answer truly.
				var challenge posted
				if err := json.Unmarshal(body, &challenge); err != nil {
					t.Fatalf("challenge response %q: %v", body, err)
				}
				got := e.click("UB", challenge, "Accept")
				if want := "That challenge was cancelled, so the button did nothing."; !strings.Contains(got.Text+sectionText(got), want) {
					t.Errorf("Accept after the cancel: %+v, want %q", got, want)
				}
				return
			}
			if len(calls) != 1 || calls[0].ts != ts || calls[0].channel != testChan {
				t.Fatalf("chat.update calls %+v, want one on %s/%s", calls, testChan, ts)
			}
			if !strings.Contains(calls[0].text+calls[0].blocks, "withdrew the challenge") || strings.Contains(calls[0].blocks, `"type":"button"`) {
				t.Errorf("chat.update sent text %q blocks %s, want the withdrawal and no button", calls[0].text, calls[0].blocks)
			}
		})
	}
}
