package slack

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	slackapi "github.com/slack-go/slack"
	"github.com/slack-go/slack/slackevents"

	"github.com/connect4/connect4/bot"
	"github.com/connect4/connect4/sessions"
	"github.com/connect4/connect4/sessions/storetest"
)

// TestLinkButtons: a reply's link button becomes a Block Kit button with
// the url and an action id of its own, beside the buttons with values.
func TestLinkButtons(t *testing.T) {
	page := "https://c4.example.com/pages/abc.def"
	bs := blocks(bot.Message{Header: "x"}, []bot.Button{
		{Label: "Rematch", Value: "rematch|g1|7"},
		{Label: "Game page", URL: page},
		{Label: "Too long", URL: "https://c4.example.com/" + string(bytes.Repeat([]byte("a"), maxButtonURL))},
	})
	var got []*slackapi.ButtonBlockElement
	for _, b := range bs {
		if ab, ok := b.(*slackapi.ActionBlock); ok {
			for _, e := range ab.Elements.ElementSet {
				got = append(got, e.(*slackapi.ButtonBlockElement))
			}
		}
	}
	if len(got) != 2 {
		t.Fatalf("%d buttons, want 2 (the rematch and the page; the over-long link left out)", len(got))
	}
	if b := got[1]; b.URL != page || b.Value != "" || b.ActionID != linkPrefix+"1" || b.Text.Text != "Game page" {
		t.Errorf("link button %+v (text %q), want url %q, no value, action id %s1", b, b.Text.Text, page, linkPrefix)
	}
	if b := got[0]; b.URL != "" || b.Value != "rematch|g1|7" {
		t.Errorf("action button %+v", b)
	}
}

// TestLinkButtonClick: Slack reports a click on a link button too; the
// adapter acknowledges it and posts nothing.
func TestLinkButtonClick(t *testing.T) {
	e := newEnv(t, storetest.NewMemory(t, sessions.Options{}), Config{})
	status, posts := e.clickRaw(e.clickPayload("U1", linkPrefix+"3", ""))
	if status != http.StatusOK || len(posts) != 0 {
		t.Errorf("link click: status %d, %d posts; want 200 and none", status, len(posts))
	}
}

// previews is a fake bot.PagePreviewer: it knows one page.
type previews struct{ url string }

func (p previews) Preview(_ context.Context, u string) (bot.PagePreview, bool) {
	if u != p.url {
		return bot.PagePreview{}, false
	}
	return bot.PagePreview{Title: "Connect Four: Alice · Bob", Text: "Alice won in 7 moves.", ImageURL: u + "/board.png"}, true
}

// fakeUnfurls is a fake Web API that records chat.unfurl calls.
type fakeUnfurls struct {
	mu    sync.Mutex
	calls []url.Values
}

func (f *fakeUnfurls) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if r.URL.Path != "/chat.unfurl" {
		http.NotFound(w, r)
		return
	}
	if err := r.ParseForm(); err != nil {
		http.Error(w, err.Error(), 400)
		return
	}
	f.mu.Lock()
	f.calls = append(f.calls, r.PostForm)
	f.mu.Unlock()
	w.Header().Set("Content-Type", "application/json")
	_, _ = io.WriteString(w, `{"ok":true}`)
}

// TestLinkShared: Slack's url_verification is answered with its challenge;
// a link_shared event naming one of the pages is acknowledged and
// answered with chat.unfurl carrying the page's preview, and a link that
// is not a page gets no preview.
func TestLinkShared(t *testing.T) {
	page := "https://c4.example.com/pages/abc.def"
	fake := &fakeUnfurls{}
	api := httptest.NewServer(fake)
	t.Cleanup(api.Close)
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	a, err := New(bot.New(storetest.NewMemory(t, sessions.Options{}), bot.Options{Logger: log}), Config{
		SigningSecret: testSecret, BotToken: testToken, APIURL: api.URL + "/", Previews: previews{url: page},
	}, log)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = a.Close(context.Background()) })
	mux := http.NewServeMux()
	a.Register(mux)
	srv := httptest.NewServer(mux)
	t.Cleanup(srv.Close)
	send := func(body string, signed bool) (*http.Response, string) {
		t.Helper()
		req, _ := http.NewRequest(http.MethodPost, srv.URL+EventsPath, bytes.NewReader([]byte(body)))
		req.Header.Set("Content-Type", "application/json")
		ts := strconv.FormatInt(time.Now().Unix(), 10)
		req.Header.Set("X-Slack-Request-Timestamp", ts)
		secret := testSecret
		if !signed {
			secret = "not the secret"
		}
		req.Header.Set("X-Slack-Signature", sign(secret, ts, []byte(body)))
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		b, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		return resp, string(b)
	}
	if resp, body := send(`{"type":"url_verification","challenge":"ch4ll3nge"}`, true); resp.StatusCode != 200 || body != "ch4ll3nge" {
		t.Errorf("url_verification: %d %q", resp.StatusCode, body)
	}
	if resp, _ := send(`{"type":"url_verification","challenge":"x"}`, false); resp.StatusCode != http.StatusUnauthorized {
		t.Errorf("unsigned event: %d, want 401", resp.StatusCode)
	}
	ev := map[string]any{"type": "event_callback", "team_id": "T1", "event": map[string]any{
		"type": "link_shared", "channel": "C1", "message_ts": "1700000000.000100", "user": "U1",
		"links": []map[string]string{{"domain": "c4.example.com", "url": page}, {"domain": "c4.example.com", "url": "https://c4.example.com/pages/forged"}},
	}}
	js, _ := json.Marshal(ev)
	if resp, _ := send(string(js), true); resp.StatusCode != 200 {
		t.Fatalf("link_shared: %d", resp.StatusCode)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := a.work.Wait(ctx); err != nil {
		t.Fatal(err)
	}
	fake.mu.Lock()
	defer fake.mu.Unlock()
	if len(fake.calls) != 1 {
		t.Fatalf("%d chat.unfurl calls, want 1", len(fake.calls))
	}
	c := fake.calls[0]
	if c.Get("channel") != "C1" || c.Get("ts") != "1700000000.000100" || c.Get("token") != testToken {
		t.Errorf("chat.unfurl channel %q ts %q (token sent: %v)", c.Get("channel"), c.Get("ts"), c.Get("token") == testToken)
	}
	var unfurls map[string]slackapi.Attachment
	if err := json.Unmarshal([]byte(c.Get("unfurls")), &unfurls); err != nil {
		t.Fatalf("unfurls %q: %v", c.Get("unfurls"), err)
	}
	if len(unfurls) != 1 || unfurls[page].Title != "Connect Four: Alice · Bob" || unfurls[page].ImageURL != page+"/board.png" || unfurls[page].TitleLink != page {
		t.Errorf("unfurls %+v, want the one page's preview", unfurls)
	}
}

// TestManifestUnfurls: the manifest asks for what unfurls need: the
// scopes, the link_shared event at EventsPath and an unfurl domain.
func TestManifestUnfurls(t *testing.T) {
	m := readManifest(t)
	for _, s := range []string{"links:read", "links:write"} {
		if !slices.Contains(m.OAuthConfig.Scopes.Bot, s) {
			t.Errorf("bot scopes %v lack %s", m.OAuthConfig.Scopes.Bot, s)
		}
	}
	ev := m.Settings.EventSubscriptions
	if ev == nil || !strings.HasSuffix(ev.RequestUrl, EventsPath) || !slices.Contains(ev.BotEvents, "link_shared") {
		t.Errorf("event subscriptions %+v, want link_shared at …%s", ev, EventsPath)
	}
	if len(m.Features.UnfurlDomains) == 0 {
		t.Error("no unfurl_domains")
	}
}

// TestLinkSharedOverSocket: the same event over Socket Mode is answered
// the same way.
func TestLinkSharedOverSocket(t *testing.T) {
	page := "https://c4.example.com/pages/abc.def"
	fake := &fakeUnfurls{}
	api := httptest.NewServer(fake)
	t.Cleanup(api.Close)
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	a, err := New(bot.New(storetest.NewMemory(t, sessions.Options{}), bot.Options{Logger: log}), Config{
		BotToken: testToken, AppToken: "xapp-1", APIURL: api.URL + "/", Previews: previews{url: page},
	}, log)
	if err != nil {
		t.Fatal(err)
	}
	a.socketEvent(slackevents.EventsAPIEvent{Type: slackevents.CallbackEvent, InnerEvent: slackevents.EventsAPIInnerEvent{
		Type: "link_shared", Data: &slackevents.LinkSharedEvent{Type: "link_shared", Channel: "C9", MessageTimeStamp: "1.2",
			Links: []slackevents.SharedLinks{{Domain: "c4.example.com", URL: page}}}}})
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if err := a.Close(ctx); err != nil {
		t.Fatal(err)
	}
	fake.mu.Lock()
	defer fake.mu.Unlock()
	if len(fake.calls) != 1 || fake.calls[0].Get("channel") != "C9" || !strings.Contains(fake.calls[0].Get("unfurls"), page) {
		t.Errorf("chat.unfurl calls %v, want one for C9 with the page", fake.calls)
	}
}
