package slack

import (
	"bytes"
	"context"
	"crypto/hmac"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
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
	"github.com/slack-go/slack/slacktest"

	"github.com/connect4/connect4/bot"
	"github.com/connect4/connect4/bot/internal/adaptertest"
	"github.com/connect4/connect4/engine"
	"github.com/connect4/connect4/engine/solver"
	"github.com/connect4/connect4/sessions"
	"github.com/connect4/connect4/sessions/storetest"
)

const (
	testSecret = "test-signing-secret-0123456789ab"
	testToken  = "xoxb-test-token-never-logged"
	testTeam   = "T1"
	testChan   = "C1"
	botUserID  = "UBOT"   // what auth.test answers
	robotID    = "UROBO"  // a bot user according to users.info
	adminID    = "UADMIN" // a workspace admin according to users.info
	spanishID  = "USPAIN" // a user whose locale is es-ES according to users.info
)

// sign returns Slack's v0 signature of body at timestamp ts: "v0=" and the
// hex HMAC-SHA256 of "v0:<ts>:<body>" keyed with secret.
func sign(secret, ts string, body []byte) string {
	mac := hmac.New(sha256.New, []byte(secret))
	fmt.Fprintf(mac, "v0:%s:", ts)
	mac.Write(body)
	return "v0=" + hex.EncodeToString(mac.Sum(nil))
}

// lowestColumn is a predictable AI: the leftmost legal column.
func lowestColumn(_ context.Context, g *engine.Game, _ solver.Level, _ time.Duration) (int, error) {
	cfg, history := g.Config(), g.History()
	g, err := engine.New(cfg)
	if err != nil {
		return 0, err
	}
	for _, c := range history {
		if err := g.Play(g.Turn(), c); err != nil {
			return 0, err
		}
	}
	return g.LegalColumns()[0], nil
}

// posted is a message received on a response_url.
type posted struct {
	Path            string          `json:"-"`
	ResponseType    string          `json:"response_type"`
	ReplaceOriginal bool            `json:"replace_original"`
	DeleteOriginal  bool            `json:"delete_original"`
	Text            string          `json:"text"`
	Blocks          slackapi.Blocks `json:"blocks"`
}

// observation is one call of Config.Observe.
type observation struct{ kind, outcome string }

// env is an Adapter on a test store, served over HTTP, with a fake
// response_url server and a fake Web API.
type env struct {
	t       *testing.T
	a       *Adapter
	store   bot.Store
	srv     *httptest.Server // the adapter's endpoints
	hooks   *httptest.Server // response_url
	logs    *adaptertest.Buffer
	mu      sync.Mutex
	hookErr int // status the response_url server answers; 0 means 200
	// refuseImages makes the response_url server refuse messages with an
	// image block, as Slack does when it cannot use the picture.
	refuseImages bool
	received     []posted
	observed     []observation
	n            int // response_url counter
	hold         chan struct{}
	// teams are the workspaces of users from other organisations (Slack
	// Connect); everyone else is in testTeam.
	teams map[string]string
	// userInfos counts the users.info calls.
	userInfos int
}

// team returns the workspace user belongs to.
func (e *env) team(user string) string {
	if t, ok := e.teams[user]; ok {
		return t
	}
	return testTeam
}

// forEachStore runs f on the memory store and on real Redis.
func forEachStore(t *testing.T, f func(t *testing.T, e *env)) {
	t.Run("memory", func(t *testing.T) {
		f(t, newEnv(t, storetest.NewMemory(t, sessions.Options{}), Config{}))
	})
	t.Run("redis", func(t *testing.T) {
		c := storetest.Redis(t)
		prefix := storetest.Prefix(t, c)
		f(t, newEnv(t, storetest.NewRedis(t, c, sessions.Options{Prefix: prefix}), Config{}))
	})
}

// newEnv starts an env on st; cfg's zero fields get the test secret, token
// and fake Web API.
func newEnv(t *testing.T, st bot.Store, cfg Config) *env {
	t.Helper()
	e := &env{t: t, store: st, logs: &adaptertest.Buffer{}}
	e.hooks = httptest.NewServer(http.HandlerFunc(e.hook))
	t.Cleanup(e.hooks.Close)

	api := slacktest.NewTestServer(func(c slacktest.Customize) {
		c.Handle("/auth.test", func(w http.ResponseWriter, r *http.Request) {
			fmt.Fprintf(w, `{"ok":true,"user_id":%q,"user":"connect4","team_id":%q}`, botUserID, testTeam)
		})
		c.Handle("/users.info", func(w http.ResponseWriter, r *http.Request) {
			id := r.FormValue("user")
			e.mu.Lock()
			e.userInfos++
			e.mu.Unlock()
			locale := "en-US"
			if id == spanishID {
				locale = "es-ES"
			}
			if r.FormValue("include_locale") != "true" {
				locale = ""
			}
			fmt.Fprintf(w, `{"ok":true,"user":{"id":%q,"name":%q,"is_bot":%t,"is_admin":%t,"locale":%q}}`, id, strings.ToLower(id), id == robotID, id == adminID, locale)
		})
	})
	api.Start()
	t.Cleanup(api.Stop)

	if cfg.SigningSecret == "" {
		cfg.SigningSecret = testSecret
	}
	if cfg.BotToken == "" {
		cfg.BotToken = testToken
	}
	if cfg.APIURL == "" {
		cfg.APIURL = api.GetAPIURL()
	}
	cfg.Observe = func(kind, outcome string, _ time.Duration) {
		e.mu.Lock()
		defer e.mu.Unlock()
		e.observed = append(e.observed, observation{kind, outcome})
	}
	log := slog.New(slog.NewTextHandler(e.logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	svc := bot.New(st, bot.Options{AI: lowestColumn, Logger: log})
	a, err := New(svc, cfg, log)
	if err != nil {
		t.Fatalf("New: %v", err)
	}
	e.a = a
	mux := http.NewServeMux()
	a.Register(mux)
	e.srv = httptest.NewServer(mux)
	t.Cleanup(e.srv.Close)
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		if err := a.Close(ctx); err != nil {
			t.Errorf("Close: %v", err)
		}
		for _, secret := range []string{testSecret, testToken} {
			if strings.Contains(e.logs.String(), secret) {
				t.Errorf("logs contain a secret:\n%s", e.logs)
			}
		}
	})
	return e
}

// hook is the response_url server: it records what it is sent.
func (e *env) hook(w http.ResponseWriter, r *http.Request) {
	e.mu.Lock()
	hold := e.hold
	e.mu.Unlock()
	if hold != nil {
		select {
		case <-hold:
		case <-r.Context().Done():
			return
		}
	}
	var p posted
	body, _ := io.ReadAll(r.Body)
	if err := json.Unmarshal(body, &p); err != nil {
		e.t.Errorf("response_url got invalid JSON %q: %v", body, err)
	}
	p.Path = r.URL.Path
	e.mu.Lock()
	e.received = append(e.received, p)
	status := e.hookErr
	if e.refuseImages && imageBlock(p) != nil {
		status = http.StatusNotFound
	}
	e.mu.Unlock()
	if status != 0 {
		w.WriteHeader(status)
	}
}

// post sends a signed form request to the adapter's path.
func (e *env) post(path string, body []byte) *http.Response {
	e.t.Helper()
	ts := strconv.FormatInt(time.Now().Unix(), 10)
	return e.send(path, body, map[string]string{
		"X-Slack-Request-Timestamp": ts,
		"X-Slack-Signature":         sign(testSecret, ts, body),
	})
}

// send posts body to path with headers, as a form.
func (e *env) send(path string, body []byte, headers map[string]string) *http.Response {
	e.t.Helper()
	req, err := http.NewRequestWithContext(e.t.Context(), http.MethodPost, e.srv.URL+path, bytes.NewReader(body))
	if err != nil {
		e.t.Fatal(err)
	}
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	for k, v := range headers {
		req.Header.Set(k, v)
	}
	resp, err := e.srv.Client().Do(req)
	if err != nil {
		e.t.Fatalf("POST %s: %v", path, err)
	}
	e.t.Cleanup(func() { resp.Body.Close() })
	return resp
}

// commandBody is the form Slack sends for "/connect4 text" typed by user.
func commandBody(user, text string) []byte { return commandBodyIn(testTeam, user, text) }

// commandBodyIn is commandBody for a user of team.
func commandBodyIn(team, user, text string) []byte {
	return []byte(url.Values{
		"token": {"ignored"}, "team_id": {team}, "team_domain": {"test"},
		"channel_id": {testChan}, "channel_name": {"general"},
		"user_id": {user}, "user_name": {strings.ToLower(user)},
		"command": {"/connect4"}, "text": {text},
		"response_url": {"https://hooks.slack.invalid/commands/x"}, "trigger_id": {"1.2.3"},
		"api_app_id": {"A1"},
	}.Encode())
}

// slash runs "/connect4 text" as user and returns the decoded response
// body, failing unless the status is 200.
func (e *env) slash(user, text string) posted {
	e.t.Helper()
	resp := e.post("/slack/commands", commandBodyIn(e.team(user), user, text))
	body, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != http.StatusOK {
		e.t.Fatalf("/connect4 %s by %s: status %d %q", text, user, resp.StatusCode, body)
	}
	if ct := resp.Header.Get("Content-Type"); ct != "application/json" {
		e.t.Fatalf("/connect4 %s: Content-Type %q", text, ct)
	}
	var p posted
	if err := json.Unmarshal(body, &p); err != nil {
		e.t.Fatalf("/connect4 %s: body %q: %v", text, body, err)
	}
	return p
}

// clickPayload is a block_actions payload: user clicks a button with
// actionID and value on the game message in the test channel.
func (e *env) clickPayload(user, actionID, value string) []byte {
	e.mu.Lock()
	e.n++
	n := e.n
	e.mu.Unlock()
	p := map[string]any{
		"type": "block_actions", "api_app_id": "A1", "token": "ignored", "trigger_id": "1.2.3",
		"team":         map[string]any{"id": e.team(user), "domain": "test"},
		"user":         map[string]any{"id": user, "username": strings.ToLower(user), "name": strings.ToLower(user), "team_id": e.team(user)},
		"channel":      map[string]any{"id": testChan, "name": "general"},
		"container":    map[string]any{"type": "message", "message_ts": "1700000000.000100", "channel_id": testChan, "is_ephemeral": false},
		"message":      map[string]any{"type": "message", "ts": "1700000000.000100", "text": "Connect Four"},
		"response_url": e.hooks.URL + "/actions/" + strconv.Itoa(n),
		"actions": []map[string]any{{
			"action_id": actionID, "block_id": "c4_buttons_0", "value": value, "type": "button",
			"text": map[string]any{"type": "plain_text", "text": "x"}, "action_ts": "1700000001.000200",
		}},
	}
	js, err := json.Marshal(p)
	if err != nil {
		e.t.Fatal(err)
	}
	return []byte(url.Values{"payload": {string(js)}}.Encode())
}

// clickRaw sends a signed click and waits for the background work; it
// returns the status and what the response_url received meanwhile.
func (e *env) clickRaw(body []byte) (int, []posted) {
	e.t.Helper()
	e.mu.Lock()
	before := len(e.received)
	e.mu.Unlock()
	resp := e.post("/slack/interactions", body)
	got, _ := io.ReadAll(resp.Body)
	if resp.StatusCode == http.StatusOK && len(got) != 0 {
		e.t.Errorf("click acknowledged with body %q, want an empty 200", got)
	}
	e.wait()
	e.mu.Lock()
	defer e.mu.Unlock()
	return resp.StatusCode, slices.Clone(e.received[before:])
}

func (e *env) wait() {
	e.t.Helper()
	ctx, cancel := context.WithTimeout(e.t.Context(), 10*time.Second)
	defer cancel()
	if err := e.a.work.Wait(ctx); err != nil {
		e.t.Fatalf("Wait: %v", err)
	}
}

// click clicks the button labelled label on message m as user, and returns
// the one message the response_url received.
func (e *env) click(user string, m posted, label string) posted {
	e.t.Helper()
	b := button(m, label)
	if b == nil {
		e.t.Fatalf("no button %q on %q (buttons %v)", label, m.Text, labels(m))
	}
	status, got := e.clickRaw(e.clickPayload(user, b.ActionID, b.Value))
	if status != http.StatusOK || len(got) != 1 {
		e.t.Fatalf("click %q by %s: status %d, response_url got %d messages %+v", label, user, status, len(got), got)
	}
	return got[0]
}

// buttons returns the buttons of m's actions blocks.
func buttons(m posted) []*slackapi.ButtonBlockElement {
	var bs []*slackapi.ButtonBlockElement
	for _, b := range m.Blocks.BlockSet {
		if ab, ok := b.(*slackapi.ActionBlock); ok && ab.Elements != nil {
			for _, el := range ab.Elements.ElementSet {
				if btn, ok := el.(*slackapi.ButtonBlockElement); ok {
					bs = append(bs, btn)
				}
			}
		}
	}
	return bs
}

func button(m posted, label string) *slackapi.ButtonBlockElement {
	for _, b := range buttons(m) {
		if b.Text != nil && b.Text.Text == label {
			return b
		}
	}
	return nil
}

func labels(m posted) []string {
	var ls []string
	for _, b := range buttons(m) {
		ls = append(ls, b.Text.Text)
	}
	return ls
}

// sectionText returns the text of m's section blocks, joined by newlines.
func sectionText(m posted) string {
	var parts []string
	for _, b := range m.Blocks.BlockSet {
		if sb, ok := b.(*slackapi.SectionBlock); ok && sb.Text != nil {
			parts = append(parts, sb.Text.Text)
		}
	}
	return strings.Join(parts, "\n")
}

// contextText returns the text of m's context blocks.
func contextText(m posted) string {
	var parts []string
	for _, b := range m.Blocks.BlockSet {
		if cb, ok := b.(*slackapi.ContextBlock); ok {
			for _, el := range cb.ContextElements.Elements {
				if tb, ok := el.(*slackapi.TextBlockObject); ok {
					parts = append(parts, tb.Text)
				}
			}
		}
	}
	return strings.Join(parts, "\n")
}

// wantPosted fails unless m was sent with the given delivery and its
// fallback text and sections contain every fragment.
func wantPosted(t *testing.T, m posted, responseType string, replace bool, fragments ...string) {
	t.Helper()
	if m.ResponseType != responseType || m.ReplaceOriginal != replace || m.DeleteOriginal {
		t.Fatalf("message %q: response_type %q replace_original %v delete_original %v, want %q %v false",
			m.Text, m.ResponseType, m.ReplaceOriginal, m.DeleteOriginal, responseType, replace)
	}
	if strings.TrimSpace(m.Text) == "" {
		t.Fatalf("message without a text fallback: %+v", m)
	}
	all := sectionText(m) + "\n" + m.Text
	for _, f := range fragments {
		if !strings.Contains(all, f) {
			t.Fatalf("message does not contain %q:\ntext: %s\nsections: %s", f, m.Text, sectionText(m))
		}
	}
}

// observations returns the Observe calls so far.
func (e *env) observations() []observation {
	e.mu.Lock()
	defer e.mu.Unlock()
	return slices.Clone(e.observed)
}
