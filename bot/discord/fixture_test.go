package discord

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/connect4/connect4/bot/match"
	"github.com/connect4/connect4/engine/solver"

	"github.com/connect4/connect4/bot"
	"github.com/connect4/connect4/engine"
	"github.com/connect4/connect4/sessions"
	"github.com/connect4/connect4/sessions/storetest"
)

// Identities used throughout the tests.
const (
	appID   = "900000000000000001" // the application, and its bot user
	guildID = "800000000000000001"
	chanID  = "700000000000000001"
)

// fakeCall is one REST request the fake Discord received.
type fakeCall struct {
	Method, Path string
	ContentType  string
	Body         []byte
}

// fakeDiscord is a local stand-in for Discord's REST API: it records every
// request and answers the few routes this adapter calls.
type fakeDiscord struct {
	srv   *httptest.Server
	mu    sync.Mutex
	calls []fakeCall
	// lost is how many of the next webhook calls get 404, as when an edit
	// overtakes its deferral.
	lost int
	// failUploads answers every multipart request 500; hangUploads never
	// answers one (until the client gives up).
	failUploads, hangUploads bool
}

func newFakeDiscord(t testing.TB) *fakeDiscord {
	f := &fakeDiscord{}
	f.srv = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		f.mu.Lock()
		ct := r.Header.Get("Content-Type")
		f.calls = append(f.calls, fakeCall{Method: r.Method, Path: r.URL.Path, ContentType: ct, Body: body})
		n := len(f.calls)
		lost := f.lost > 0 && strings.Contains(r.URL.Path, "/webhooks/")
		if lost {
			f.lost--
		}
		failUpload := f.failUploads && strings.HasPrefix(ct, "multipart/")
		hangUpload := f.hangUploads && strings.HasPrefix(ct, "multipart/")
		f.mu.Unlock()
		if hangUpload {
			<-r.Context().Done()
			return
		}
		w.Header().Set("Content-Type", "application/json")
		switch {
		case failUpload:
			w.WriteHeader(http.StatusInternalServerError)
			w.Write([]byte(`{"message":"upload failed","code":0}`))
		case lost:
			w.WriteHeader(http.StatusNotFound)
			w.Write([]byte(`{"message":"Unknown Webhook","code":10015}`))
		case r.Method == http.MethodPut && strings.HasSuffix(r.URL.Path, "/commands"):
			w.Write(body)
		case r.Method == http.MethodPost && strings.HasSuffix(r.URL.Path, "/callback"),
			r.Method == http.MethodDelete:
			w.WriteHeader(http.StatusNoContent)
		case r.Method == http.MethodPatch || (r.Method != http.MethodPut && strings.Contains(r.URL.Path, "/webhooks/")),
			r.Method == http.MethodPost && strings.Contains(r.URL.Path, "/channels/") && strings.HasSuffix(r.URL.Path, "/messages"): // the bot's own posts
			fmt.Fprintf(w, `{"id":"600000000000000%03d","channel_id":%q}`, n, chanID)
		default:
			w.WriteHeader(http.StatusNotFound)
			w.Write([]byte(`{"message":"Unknown route","code":0}`))
		}
	}))
	t.Cleanup(f.srv.Close)
	return f
}

// take returns and forgets the calls received so far.
func (f *fakeDiscord) take() []fakeCall {
	f.mu.Lock()
	defer f.mu.Unlock()
	c := f.calls
	f.calls = nil
	return c
}

// gotResponse is an interaction response or webhook message as Discord
// reads it.
type gotResponse struct {
	Type int      `json:"type"`
	Data *gotData `json:"data"`
}

// gotData is a message: the data of a response, or the body of a webhook
// edit or follow-up.
type gotData struct {
	Content         string       `json:"content"`
	Flags           int          `json:"flags"`
	Components      []gotRow     `json:"components"`
	AllowedMentions *gotMentions `json:"allowed_mentions"`
	Embeds          []gotEmbed   `json:"embeds"`
}

// gotEmbed is an embed: the help's second part.
type gotEmbed struct {
	Description string `json:"description"`
}

// gotMentions is allowed_mentions: who the message may ping.
type gotMentions struct {
	Parse []string `json:"parse"`
	Users []string `json:"users"`
}

type gotRow struct {
	Type       int         `json:"type"`
	Components []gotButton `json:"components"`
}

type gotButton struct {
	Type     int    `json:"type"`
	Label    string `json:"label"`
	Style    int    `json:"style"`
	CustomID string `json:"custom_id"`
	Disabled bool   `json:"disabled"`
}

// content is the message text, or "".
func (r gotResponse) content() string {
	if r.Data == nil {
		return ""
	}
	return r.Data.Content
}

// button returns the button labelled label, failing t when there is none.
func (r gotResponse) button(t testing.TB, label string) gotButton {
	t.Helper()
	if r.Data != nil {
		for _, row := range r.Data.Components {
			for _, b := range row.Components {
				if b.Label == label {
					return b
				}
			}
		}
	}
	t.Fatalf("no button %q on %q", label, r.content())
	return gotButton{}
}

// fixture is one adapter on one store, served over HTTP with a test key and
// a fake Discord behind its REST calls.
type fixture struct {
	t     testing.TB
	a     *Adapter
	mux   *http.ServeMux
	priv  ed25519.PrivateKey
	fake  *fakeDiscord
	store bot.Store

	// unread are calls to the fake taken while looking for another one
	// (webhookCall), kept for the next take.
	unread []fakeCall

	mu       sync.Mutex
	observed []string // "kind/outcome" per interaction
	logs     bytes.Buffer
	n        int // interactions sent, for ids and tokens
}

// testAI is a predictable AI: the leftmost column with room, after delay.
func testAI(delay time.Duration) bot.MoveFunc {
	return func(ctx context.Context, g *engine.Game, _ solver.Level, _ time.Duration) (int, error) {
		cfg, history := g.Config(), g.History()
		select {
		case <-time.After(delay):
		case <-ctx.Done():
			return 0, ctx.Err()
		}
		heights := make([]int, cfg.Cols)
		for _, c := range history {
			heights[c]++
		}
		for c, h := range heights {
			if h < cfg.Rows {
				return c, nil
			}
		}
		return 0, fmt.Errorf("board full")
	}
}

func newFixture(t testing.TB, st bot.Store, aiDelay time.Duration) *fixture {
	t.Helper()
	return newFixtureWith(t, st, aiDelay, nil)
}

// newFixtureWith is newFixture with the adapter's Config changed by edit
// (when not nil) before New.
func newFixtureWith(t testing.TB, st bot.Store, aiDelay time.Duration, edit func(*Config)) *fixture {
	t.Helper()
	return newFixtureOpts(t, st, bot.Options{AI: testAI(aiDelay)}, edit)
}

// newFixtureOpts is newFixtureWith with the Service's options opt (its
// Logger is the fixture's).
func newFixtureOpts(t testing.TB, st bot.Store, opt bot.Options, edit func(*Config)) *fixture {
	t.Helper()
	pub, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	f := &fixture{t: t, priv: priv, fake: newFakeDiscord(t), store: st, mux: http.NewServeMux()}
	log := slog.New(slog.NewTextHandler(syncWriter{&f.mu, &f.logs}, &slog.HandlerOptions{Level: slog.LevelDebug}))
	opt.Logger = log
	svc := bot.New(st, opt)
	cfg := Config{
		PublicKey: hex.EncodeToString(pub), ApplicationID: appID, APIURL: f.fake.srv.URL,
		Observe: func(kind, outcome string, elapsed time.Duration) {
			f.mu.Lock()
			defer f.mu.Unlock()
			f.observed = append(f.observed, kind+"/"+outcome)
		},
	}
	if edit != nil {
		edit(&cfg)
	}
	f.a, err = New(svc, cfg, log)
	if err != nil {
		t.Fatal(err)
	}
	// Human moves must answer in place even on a slow test machine.
	f.a.deferAfter = 5 * time.Second
	f.a.Register(f.mux)
	t.Cleanup(func() { _ = f.a.Close(context.Background()) })
	return f
}

type syncWriter struct {
	mu *sync.Mutex
	w  io.Writer
}

func (s syncWriter) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.w.Write(p)
}

// forEachStore runs f on the memory store and on real Redis.
func forEachStore(t *testing.T, f func(t *testing.T, st bot.Store)) {
	t.Run("memory", func(t *testing.T) { f(t, storetest.NewMemory(t, sessions.Options{})) })
	t.Run("redis", func(t *testing.T) {
		c := storetest.Redis(t)
		f(t, storetest.NewRedis(t, c, sessions.Options{Prefix: storetest.Prefix(t, c)}))
	})
}

// sign returns the signature headers of body made with priv.
func sign(priv ed25519.PrivateKey, ts string, body []byte) http.Header {
	h := http.Header{}
	h.Set("X-Signature-Timestamp", ts)
	h.Set("X-Signature-Ed25519", hex.EncodeToString(ed25519.Sign(priv, append([]byte(ts), body...))))
	return h
}

// do posts body with headers h to the interactions endpoint.
func (f *fixture) do(body []byte, h http.Header) *httptest.ResponseRecorder {
	r := httptest.NewRequestWithContext(f.t.Context(), http.MethodPost, InteractionsPath, bytes.NewReader(body))
	for k, v := range h {
		r.Header[k] = v
	}
	w := httptest.NewRecorder()
	f.mux.ServeHTTP(w, r)
	return w
}

// send posts the interaction in, signed, and decodes the 200 response.
func (f *fixture) send(in map[string]any) gotResponse {
	f.t.Helper()
	w := f.sendRaw(in)
	if ct := w.Header().Get("Content-Type"); ct != "application/json" {
		f.t.Fatalf("Content-Type %q, want application/json", ct)
	}
	var got gotResponse
	if err := json.Unmarshal(w.Body.Bytes(), &got); err != nil {
		f.t.Fatalf("response %q: %v", w.Body.String(), err)
	}
	return got
}

// userJSON is a user object for JSON.
func userJSON(id string) map[string]any {
	return map[string]any{"id": id, "username": "user" + strings.ToLower(id)}
}

// envelope is an interaction of type typ from userID in the test guild and
// channel (in a DM when guild is "").
func (f *fixture) envelope(typ int, userID, guild string, data map[string]any) map[string]any {
	f.n++
	in := map[string]any{
		"id": fmt.Sprintf("5000000000000%05d", f.n), "application_id": appID, "type": typ,
		"token": fmt.Sprintf("tok-%d", f.n), "channel_id": chanID, "version": 1, "data": data,
	}
	if guild != "" {
		in["guild_id"] = guild
		in["member"] = map[string]any{"user": userJSON(userID), "nick": nil}
	} else {
		in["user"] = userJSON(userID)
	}
	return in
}

// slashIn is /connect4 <sub> [options] by userID; users are the resolved
// users of its user options.
func (f *fixture) slashIn(userID, sub string, opts []map[string]any, users ...map[string]any) map[string]any {
	subOpt := map[string]any{"name": sub, "type": 1}
	if len(opts) > 0 {
		subOpt["options"] = opts
	}
	data := map[string]any{"id": "1", "name": "connect4", "type": 1, "options": []any{subOpt}}
	if len(users) > 0 {
		res := map[string]any{}
		for _, u := range users {
			res[u["id"].(string)] = u
		}
		data["resolved"] = map[string]any{"users": res}
	}
	return f.envelope(2, userID, guildID, data)
}

// slash sends /connect4 <sub> by userID.
func (f *fixture) slash(userID, sub string, opts []map[string]any, users ...map[string]any) gotResponse {
	f.t.Helper()
	return f.send(f.slashIn(userID, sub, opts, users...))
}

// opt is a command option.
func opt(name string, typ int, value any) map[string]any {
	return map[string]any{"name": name, "type": typ, "value": value}
}

// challenge sends /connect4 challenge opponent:<opp> by userID.
func (f *fixture) challenge(userID, opp string, extra ...map[string]any) gotResponse {
	f.t.Helper()
	return f.slash(userID, "challenge", append([]map[string]any{opt("opponent", 6, opp)}, extra...), userJSON(opp))
}

// clickIn is a click by userID on the button with customID.
func (f *fixture) clickIn(userID, customID string) map[string]any {
	return f.envelope(3, userID, guildID, map[string]any{"custom_id": customID, "component_type": 2})
}

// click clicks the button labelled label on message m as userID.
func (f *fixture) click(userID string, m gotResponse, label string) gotResponse {
	f.t.Helper()
	in := f.clickIn(userID, m.button(f.t, label).CustomID)
	in["message"] = map[string]any{"id": "600000000000000001", "channel_id": chanID}
	return f.send(in)
}

// want fails unless r has response type typ, flags and every fragment in
// its content.
func want(t testing.TB, r gotResponse, typ, flags int, fragments ...string) {
	t.Helper()
	gotFlags := 0
	if r.Data != nil {
		gotFlags = r.Data.Flags
	}
	if r.Type != typ || gotFlags != flags {
		t.Fatalf("response type %d flags %d %q, want type %d flags %d", r.Type, gotFlags, r.content(), typ, flags)
	}
	for _, fr := range fragments {
		if !strings.Contains(r.content(), fr) {
			t.Fatalf("content %q does not contain %q", r.content(), fr)
		}
	}
}

// rowSizes is the number of buttons in each action row of r.
func rowSizes(r gotResponse) []int {
	var n []int
	if r.Data != nil {
		for _, row := range r.Data.Components {
			n = append(n, len(row.Components))
		}
	}
	return n
}

// record returns the channel's stored record, or nil.
func (f *fixture) record(guild string) *match.Record {
	f.t.Helper()
	recs, err := f.store.Active(f.t.Context(), match.Key{Platform: "discord", Workspace: guild, Channel: chanID})
	if err != nil || len(recs) == 0 {
		return nil
	}
	return recs[0]
}

// observations returns the Observe calls so far.
func (f *fixture) observations() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return slices.Clone(f.observed)
}

// take returns the calls the fake has seen since the last take, those a
// webhookCall passed over first.
func (f *fixture) take() []fakeCall {
	calls := append(f.unread, f.fake.take()...)
	f.unread = nil
	return calls
}
