package slack

import (
	"encoding/json"
	"io"
	"net/http"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/connect4/connect4/bot/match"
	"github.com/connect4/connect4/sessions"
	"github.com/connect4/connect4/sessions/storetest"
)

// TestReplayedRequest sends one signed /connect4 resign, captured, twice:
// the second time, after a rematch began, it changes nothing and says so.
// On Memory and on Redis.
func TestReplayedRequest(t *testing.T) {
	testReplay(t, func(sig string) string { return sig })
}

// TestReplayedRequestOtherSpelling is TestReplayedRequest with the replay's
// X-Slack-Signature spelt with one hex digit in upper case, which Slack's
// signature check accepts: it is the same request, refused as a replay.
func TestReplayedRequestOtherSpelling(t *testing.T) {
	testReplay(t, func(sig string) string {
		i := strings.IndexAny(sig[len("v0="):], "abcdef") + len("v0=")
		return sig[:i] + strings.ToUpper(sig[i:i+1]) + sig[i+1:]
	})
}

// testReplay sends a signed /connect4 resign, and after a rematch began
// the same request again with its signature spelt by respell.
func testReplay(t *testing.T, respell func(sig string) string) {
	for _, st := range []struct {
		name string
		make func(t *testing.T) *env
	}{
		{"memory", func(t *testing.T) *env { return newEnv(t, storetest.NewMemory(t, sessions.Options{}), Config{}) }},
		{"redis", func(t *testing.T) *env {
			c := storetest.Redis(t)
			return newEnv(t, storetest.NewRedis(t, c, sessions.Options{Prefix: storetest.Prefix(t, c)}), Config{})
		}},
	} {
		t.Run(st.name, func(t *testing.T) {
			e := st.make(t)
			e.click("UB", e.slash("UA", "<@UB>"), "Accept")
			body := commandBody("UB", "resign")
			ts := strconv.FormatInt(time.Now().Unix(), 10)
			headers := map[string]string{"X-Slack-Request-Timestamp": ts, "X-Slack-Signature": sign(testSecret, ts, body)}
			send := func() posted {
				t.Helper()
				resp := e.send("/slack/commands", body, headers)
				defer resp.Body.Close()
				b, _ := io.ReadAll(resp.Body)
				if resp.StatusCode != http.StatusOK {
					t.Fatalf("resign: status %d %q", resp.StatusCode, b)
				}
				var p posted
				if err := json.Unmarshal(b, &p); err != nil {
					t.Fatal(err)
				}
				return p
			}
			resigned := send()
			wantPosted(t, resigned, inChannel, false, "@ub resigned. @ua wins!") // a new message: names, no pings
			rematch := e.click("UA", resigned, "Rematch")
			wantPosted(t, e.click("UB", rematch, "Accept"), "", true, "Rematch!")
			headers["X-Slack-Signature"] = respell(headers["X-Slack-Signature"])
			again := send() // the captured request, replayed within the window
			if !strings.Contains(again.Text, "already handled") {
				t.Errorf("replayed resign answered %q, want the already-handled note", again.Text)
			}
			rec, err := e.store.PlayerGame(t.Context(), match.Key{Platform: "slack", Workspace: testTeam, Channel: testChan}, "UB")
			if err != nil || rec.Status != match.StatusPlaying {
				t.Errorf("the rematch after a replayed resign: %+v, %v; want it playing", rec, err)
			}
		})
	}
}
