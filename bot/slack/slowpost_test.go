package slack

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/connect4/connect4/bot/internal/adaptertest"
	"github.com/connect4/connect4/bot/match"
	"github.com/connect4/connect4/sessions"
	"github.com/connect4/connect4/sessions/storetest"
)

// slowChat is a Web API whose chat.postMessage answers after delay, and
// refuses messages with an image block in the channel refuseIn.
type slowChat struct {
	delay    time.Duration
	refuseIn string
	mu       sync.Mutex
	posts    []string // the channel of each post, "+image" when it had an image block
	answered int      // posts answered
	srv      *httptest.Server
}

func newSlowChat(t *testing.T, delay time.Duration, refuseIn string) *slowChat {
	c := &slowChat{delay: delay, refuseIn: refuseIn}
	c.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		switch r.URL.Path {
		case "/auth.test":
			fmt.Fprintf(w, `{"ok":true,"user_id":%q,"user":"connect4","team_id":%q}`, botUserID, testTeam)
		case "/users.info":
			fmt.Fprintf(w, `{"ok":true,"user":{"id":%q,"name":"x"}}`, r.FormValue("user"))
		case "/chat.postMessage":
			defer func() { c.mu.Lock(); c.answered++; c.mu.Unlock() }()
			ch, image := r.FormValue("channel"), strings.Contains(r.FormValue("blocks"), `"type":"image"`)
			c.mu.Lock()
			c.posts = append(c.posts, ch+map[bool]string{true: "+image"}[image])
			c.mu.Unlock()
			if image && ch == c.refuseIn {
				fmt.Fprint(w, `{"ok":false,"error":"invalid_blocks"}`)
				return
			}
			time.Sleep(c.delay) // the message is posted; the answer comes late
			fmt.Fprintf(w, `{"ok":true,"channel":%q,"ts":"1700000000.%06d"}`, ch, len(c.posts))
		default:
			fmt.Fprint(w, `{"ok":false,"error":"unknown_method"}`)
		}
	}))
	t.Cleanup(c.srv.Close)
	return c
}

// sent returns the posts, once every one has been answered.
func (c *slowChat) sent(t *testing.T) []string {
	adaptertest.WaitFor(t, "the posts answered", func() bool { c.mu.Lock(); defer c.mu.Unlock(); return c.answered == len(c.posts) })
	c.mu.Lock()
	defer c.mu.Unlock()
	return append([]string(nil), c.posts...)
}

// aiIn sends /connect4 ai easy in channel ch and waits for its delivery.
func (e *env) aiIn(ch string) {
	e.t.Helper()
	body := bytes.Replace(commandBody("UA", "ai easy"), []byte("channel_id="+testChan), []byte("channel_id="+ch), 1)
	resp := e.post("/slack/commands", body)
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK || len(b) != 0 {
		e.t.Fatalf("/connect4 ai in %s answered %d %q, want 200 and an empty body (posted later)", ch, resp.StatusCode, b)
	}
	e.wait()
}

// TestSlowPostPostsOnce posts a command's pictured reply with a
// chat.postMessage that answers after the bot stopped waiting (2.3 s, the
// bot waits postBudget): Slack did post it, so the reply is posted once,
// not again with the emoji board, and pictures stay on.
func TestSlowPostPostsOnce(t *testing.T) {
	if testing.Short() {
		t.Skip("waits for a slow Slack")
	}
	t.Parallel()
	chat := newSlowChat(t, postBudget+300*time.Millisecond, "")
	e := newEnv(t, storetest.NewMemory(t, sessions.Options{}),
		Config{APIURL: chat.srv.URL + "/", PostReplies: true, Pictures: true, PublicURL: "https://c4.example/"})
	e.aiIn(testChan)
	if got := chat.sent(t); len(got) != 1 || got[0] != testChan+"+image" {
		t.Fatalf("chat.postMessage calls %q, want one, with the picture", got)
	}
	if e.a.pics.off.has(match.Key{Platform: Platform, Workspace: testTeam, Channel: testChan}, time.Now()) {
		t.Error("pictures turned off after a post that timed out")
	}
}

// TestPictureRefusedPerChannel has Slack refuse the picture in one channel:
// the reply goes there with the emoji board, and pictures go on being
// posted in another channel.
func TestPictureRefusedPerChannel(t *testing.T) {
	chat := newSlowChat(t, 0, "CREFUSE")
	e := newEnv(t, storetest.NewMemory(t, sessions.Options{}),
		Config{APIURL: chat.srv.URL + "/", PostReplies: true, Pictures: true, PublicURL: "https://c4.example/"})
	e.aiIn("CREFUSE")
	e.aiIn("COTHER")
	want := []string{"CREFUSE+image", "CREFUSE", "COTHER+image"}
	if got := chat.sent(t); strings.Join(got, " ") != strings.Join(want, " ") {
		t.Fatalf("chat.postMessage calls %q, want %q", got, want)
	}
}
