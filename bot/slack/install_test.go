package slack

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"encoding/json"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
	slackapi "github.com/slack-go/slack"

	"github.com/connect4/connect4/bot"
	"github.com/connect4/connect4/bot/internal/adaptertest"
	"github.com/connect4/connect4/bot/match"
	"github.com/connect4/connect4/sessions"
	"github.com/connect4/connect4/sessions/storetest"
)

// multiEnv is the many-workspace mode under test: replicas (adapters) on
// one store of games and installations, all talking to one fake Slack.
type multiEnv struct {
	t     *testing.T
	fake  *fakeSlack
	data  bot.Store
	inst  Installs
	hooks *httptest.Server // response_url
	logs  *adaptertest.Buffer
	// dump returns every Redis key of the test with its value; nil for
	// the memory store.
	dump func() map[string]string

	mu       sync.Mutex
	received []posted
}

// replica is one adapter of a multiEnv, served over HTTP, with a clock
// the test moves.
type replica struct {
	a   *Adapter
	srv *httptest.Server
	clk *storetest.Clock
}

func newKey() string {
	b := make([]byte, 32)
	rand.Read(b)
	return base64.StdEncoding.EncodeToString(b)
}

// forEachInstallStore runs f on the memory store, on real Redis and on a
// Redis Cluster started for it.
func forEachInstallStore(t *testing.T, f func(t *testing.T, m *multiEnv)) {
	t.Run("memory", func(t *testing.T) {
		t.Parallel()
		st := storetest.NewMemory(t, sessions.Options{})
		f(t, newMultiEnv(t, st, sessions.NewMemoryInstalls(st), nil))
	})
	t.Run("redis", func(t *testing.T) {
		t.Parallel()
		redisMulti(t, storetest.Redis(t), f)
	})
	t.Run("cluster", func(t *testing.T) {
		t.Parallel()
		redisMulti(t, storetest.Cluster(t), f)
	})
}

func redisMulti(t *testing.T, c redis.UniversalClient, f func(t *testing.T, m *multiEnv)) {
	prefix := storetest.Prefix(t, c)
	st := storetest.NewRedis(t, c, sessions.Options{Prefix: prefix})
	f(t, newMultiEnv(t, st, sessions.NewRedisInstalls(st), func() map[string]string { return storetest.Dump(t, c, prefix) }))
}

func newMultiEnv(t *testing.T, data bot.Store, inst Installs, dump func() map[string]string) *multiEnv {
	m := &multiEnv{t: t, fake: newFakeSlack(t), data: data, inst: inst, logs: &adaptertest.Buffer{}, dump: dump}
	m.hooks = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var p posted
		json.NewDecoder(r.Body).Decode(&p)
		m.mu.Lock()
		m.received = append(m.received, p)
		m.mu.Unlock()
	}))
	t.Cleanup(m.hooks.Close)
	t.Cleanup(func() {
		for _, s := range m.fake.secrets() {
			if strings.Contains(m.logs.String(), s) {
				t.Errorf("the logs show a secret (%.12s…)", s)
			}
		}
	})
	return m
}

// replica starts an adapter with secret key key on the env's stores.
func (m *multiEnv) replica(key string) *replica {
	m.t.Helper()
	clk := storetest.NewClock(time.Now())
	log := slog.New(slog.NewTextHandler(m.logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	svc := bot.New(m.data, bot.Options{AI: lowestColumn, Logger: log})
	a, err := New(svc, Config{SigningSecret: testSecret, APIURL: m.fake.url(), PostReplies: true,
		OAuth: OAuth{ClientID: fakeClientID, ClientSecret: fakeClientSecret, SecretKey: key, Store: m.inst}}, log)
	if err != nil {
		m.t.Fatalf("New: %v", err)
	}
	a.ws.now, a.ws.purgeDelay = clk.Now, 0
	mux := http.NewServeMux()
	a.Register(mux)
	srv := httptest.NewServer(mux)
	m.t.Cleanup(srv.Close)
	m.t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		a.Close(ctx)
	})
	return &replica{a: a, srv: srv, clk: clk}
}

// noRedirect is a client that shows redirects instead of following them.
var noRedirect = &http.Client{CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}

// start runs GET /slack/install and returns the state and its cookie.
func (r *replica) start(t *testing.T) (string, *http.Cookie) {
	t.Helper()
	resp, err := noRedirect.Get(r.srv.URL + InstallPath)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	loc, err := url.Parse(resp.Header.Get("Location"))
	if resp.StatusCode != http.StatusFound || err != nil || !strings.HasPrefix(loc.String(), AuthorizeURL+"?") {
		t.Fatalf("GET /slack/install: %d to %q, want a redirect to %s", resp.StatusCode, loc, AuthorizeURL)
	}
	q := loc.Query()
	if q.Get("client_id") != fakeClientID || q.Get("scope") != strings.Join(Scopes, ",") || q.Get("state") == "" {
		t.Fatalf("authorize URL %s lacks the client id, the scopes or a state", loc)
	}
	var cookie *http.Cookie
	for _, c := range resp.Cookies() {
		if c.Name == stateCookie {
			cookie = c
		}
	}
	if cookie == nil || cookie.Value != q.Get("state") || !cookie.HttpOnly {
		t.Fatalf("the state's cookie is %+v", cookie)
	}
	return q.Get("state"), cookie
}

// callback runs GET /slack/oauth/callback with query and cookie (nil:
// none), and returns the status and the page.
func (r *replica) callback(t *testing.T, query url.Values, cookie *http.Cookie, acceptLang string) (int, string) {
	t.Helper()
	req, _ := http.NewRequestWithContext(t.Context(), http.MethodGet, r.srv.URL+CallbackPath+"?"+query.Encode(), nil)
	if cookie != nil {
		req.AddCookie(cookie)
	}
	if acceptLang != "" {
		req.Header.Set("Accept-Language", acceptLang)
	}
	resp, err := noRedirect.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	if ct := resp.Header.Get("Content-Type"); ct != "text/html; charset=utf-8" {
		t.Errorf("callback page of type %q", ct)
	}
	return resp.StatusCode, string(body)
}

// install installs the app in id (a team, or an enterprise org-wide)
// through r, as a browser does.
func (r *replica) install(t *testing.T, id string) string {
	t.Helper()
	state, cookie := r.start(t)
	status, page := r.callback(t, url.Values{"code": {"code-" + id}, "state": {state}}, cookie, "")
	if status != http.StatusOK {
		t.Fatalf("install %s: status %d\n%s", id, status, page)
	}
	return page
}

// signed posts body to path on r, signed, with contentType.
func (r *replica) signed(t *testing.T, path, contentType string, body []byte) (*http.Response, []byte) {
	t.Helper()
	ts := strconv.FormatInt(time.Now().Unix(), 10)
	req, _ := http.NewRequestWithContext(t.Context(), http.MethodPost, r.srv.URL+path, strings.NewReader(string(body)))
	req.Header.Set("Content-Type", contentType)
	req.Header.Set("X-Slack-Request-Timestamp", ts)
	req.Header.Set("X-Slack-Signature", sign(testSecret, ts, body))
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	out, _ := io.ReadAll(resp.Body)
	return resp, out
}

// command runs "/connect4 text" as user in channel of team (of
// enterprise, "" outside a Grid) and returns the response body's message
// (zero when the reply was posted with chat.postMessage).
func (r *replica) command(t *testing.T, team, enterprise, channel, user, text string) posted {
	t.Helper()
	form := url.Values{"team_id": {team}, "channel_id": {channel}, "user_id": {user}, "user_name": {strings.ToLower(user)},
		"command": {"/connect4"}, "text": {text}, "response_url": {"https://hooks.slack.invalid/x"}}
	if enterprise != "" {
		form.Set("enterprise_id", enterprise)
		form.Set("is_enterprise_install", "true")
	}
	resp, body := r.signed(t, "/slack/commands", "application/x-www-form-urlencoded", []byte(form.Encode()))
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("/connect4 %s in %s: status %d %q", text, team, resp.StatusCode, body)
	}
	var p posted
	if len(body) > 0 {
		if err := json.Unmarshal(body, &p); err != nil {
			t.Fatalf("/connect4 %s: %q: %v", text, body, err)
		}
	}
	r.wait(t)
	return p
}

// event posts an Events API callback of team with inner event.
func (r *replica) event(t *testing.T, team string, auth map[string]any, inner map[string]any) int {
	t.Helper()
	ev := map[string]any{"type": "event_callback", "team_id": team, "api_app_id": "A1", "event": inner,
		"event_id": "Ev1", "event_time": time.Now().Unix()}
	if auth != nil {
		ev["authorizations"] = []map[string]any{auth}
	}
	b, _ := json.Marshal(ev)
	resp, _ := r.signed(t, EventsPath, "application/json", b)
	r.wait(t)
	return resp.StatusCode
}

func (r *replica) wait(t *testing.T) {
	t.Helper()
	ctx, cancel := context.WithTimeout(t.Context(), 10*time.Second)
	defer cancel()
	if err := r.a.work.Wait(ctx); err != nil {
		t.Fatalf("Wait: %v", err)
	}
}

// purge runs every due purge job to its end.
func (r *replica) purge(t *testing.T) {
	t.Helper()
	for i := 0; r.a.purgeOne(t.Context()); i++ {
		if i > 10 {
			t.Fatal("purge jobs never ran out")
		}
	}
}

// lastPosted returns the last chat.postMessage into channel, decoded.
func (m *multiEnv) lastPosted(channel string) posted {
	calls := m.fake.recorded("chat.postMessage")
	for i := len(calls) - 1; i >= 0; i-- {
		if calls[i].channel == channel {
			form, _ := url.ParseQuery(calls[i].body)
			var p posted
			p.Text = form.Get("text")
			json.Unmarshal([]byte(form.Get("blocks")), &p.Blocks)
			return p
		}
	}
	return posted{}
}

// click clicks button b of a message in channel of team as user.
func (r *replica) click(t *testing.T, m *multiEnv, team, channel, user string, b *slackapi.ButtonBlockElement) {
	t.Helper()
	p := map[string]any{"type": "block_actions", "team": map[string]any{"id": team}, "user": map[string]any{"id": user, "name": user},
		"channel": map[string]any{"id": channel}, "container": map[string]any{"channel_id": channel, "message_ts": "1700000000.000001"},
		"response_url": m.hooks.URL + "/a", "actions": []map[string]any{{"action_id": b.ActionID, "block_id": "b", "value": b.Value}}}
	js, _ := json.Marshal(p)
	resp, body := r.signed(t, "/slack/interactions", "application/x-www-form-urlencoded", []byte(url.Values{"payload": {string(js)}}.Encode()))
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("click: %d %q", resp.StatusCode, body)
	}
	r.wait(t)
}

// checkTokens fails unless every recorded Web API call went with the
// token of the installation serving the workspace it was about: calls
// naming channel C<team>… or user U…<team> carry <team>'s token, or, for
// the teams an org-wide install serves, that organisation's.
func (m *multiEnv) checkTokens(t *testing.T, orgOf map[string]string) {
	t.Helper()
	n := 0
	for _, c := range m.fake.recorded() {
		team := ""
		switch {
		case strings.HasPrefix(c.channel, "C"):
			team = strings.TrimPrefix(strings.SplitN(c.channel, "x", 2)[0], "C")
		case c.user != "":
			team = c.user[strings.LastIndex(c.user, "T"):]
		}
		if team == "" {
			continue
		}
		want := team
		if org, ok := orgOf[team]; ok {
			want = org
		}
		if id, _ := tokenOwner(c.token); id != want {
			t.Errorf("%s about %s/%s went with %s's token, want %s's", c.method, c.channel, c.user, id, want)
		}
		n++
	}
	if n < 6 {
		t.Errorf("only %d Web API calls checked: the test would not test much", n)
	}
}

// TestTwoWorkspaces: two workspaces install; games in both run side by
// side, every Web API call carrying its own workspace's token; an org-wide
// install serves two of its workspaces; an uninstall purges exactly that
// workspace's keys (a SCAN on Redis and on the Cluster) and leaves the
// others'; Redis never holds a token in clear.
func TestTwoWorkspaces(t *testing.T) {
	t.Parallel()
	forEachInstallStore(t, func(t *testing.T, m *multiEnv) {
		key := newKey()
		r1, r2 := m.replica(key), m.replica(key) // two replicas
		page := r1.install(t, "T1")
		if !strings.Contains(page, "Team &lt;b&gt;T1&lt;/b&gt;") || strings.Contains(page, "<b>T1") {
			t.Errorf("the success page does not escape the workspace's name:\n%s", page)
		}
		if !strings.Contains(page, "/connect4 help") {
			t.Errorf("the success page does not say what to do next:\n%s", page)
		}
		r2.install(t, "T2")

		// Side by side, through both replicas: a challenge, its accept, a
		// move, in each workspace in turn.
		for _, team := range []string{"T1", "T2"} {
			r := map[string]*replica{"T1": r1, "T2": r2}[team]
			r.command(t, team, "", "C"+team, "UA"+team, "<@UB"+team+">")
		}
		for _, team := range []string{"T2", "T1"} {
			r := map[string]*replica{"T1": r2, "T2": r1}[team] // the other replica
			r.command(t, team, "", "C"+team, "UB"+team, "accept")
		}
		for _, team := range []string{"T1", "T2"} {
			msg := m.lastPosted("C" + team)
			bs := buttons(msg)
			if len(bs) == 0 {
				t.Fatalf("%s: the game's message has no buttons: %+v", team, msg)
			}
			for _, u := range []string{"UA" + team, "UB" + team} {
				r1.click(t, m, team, "C"+team, u, bs[0])
			}
		}
		for _, team := range []string{"T1", "T2"} {
			k := match.Key{Platform: Platform, Workspace: team, Channel: "C" + team}
			recs, err := m.data.Active(t.Context(), k)
			if err != nil || len(recs) != 1 || recs[0].Game.Moves() == 0 {
				t.Fatalf("%s: active games %v, %v; want one game with a move", team, recs, err)
			}
			// A timed notice, as the schedule's worker sends it.
			if err := r2.a.Post(t.Context(), k, match.MessageRef{}, bot.Reply{Visibility: bot.Public, Text: "reminder"}); err != nil {
				t.Errorf("%s: timed post: %v", team, err)
			}
		}

		// An org-wide install serves two of its workspaces.
		r1.install(t, "E1")
		for _, team := range []string{"T3", "T4"} {
			r2.command(t, team, "E1", "C"+team, "UA"+team, "<@UB"+team+">")
			k := match.Key{Platform: Platform, Workspace: team, Channel: "C" + team}
			if err := r1.a.Post(t.Context(), k, match.MessageRef{}, bot.Reply{Visibility: bot.Public, Text: "reminder"}); err != nil {
				t.Errorf("%s: timed post through the org's install: %v", team, err)
			}
		}
		m.checkTokens(t, map[string]string{"T3": "E1", "T4": "E1"})
		if got := len(m.fake.recorded("chat.postMessage")); got < 8 {
			t.Errorf("%d chat.postMessage calls, want the games' replies and the notices", got)
		}

		var before map[string]string
		if m.dump != nil {
			before = m.dump()
			m.noSecrets(t, before)
		}
		// Slack sends both events, and may repeat one.
		for _, inner := range []map[string]any{{"type": "app_uninstalled"}, {"type": "tokens_revoked", "tokens": map[string]any{"bot": []string{"UBOTT1"}}}, {"type": "app_uninstalled"}} {
			if status := r2.event(t, "T1", nil, inner); status != http.StatusOK {
				t.Fatalf("event %v: status %d", inner, status)
			}
		}
		r1.purge(t)
		if p := r1.command(t, "T1", "", "CT1", "UAT1", "board"); !strings.Contains(p.Text, "not installed") || p.ResponseType != ephemeral {
			t.Errorf("a command in the uninstalled workspace got %+v, want the ephemeral 'not installed'", p)
		}
		k1 := match.Key{Platform: Platform, Workspace: "T1", Channel: "CT1"}
		if recs, _ := m.data.Active(t.Context(), k1); len(recs) > 0 {
			t.Errorf("T1's games outlive its purge: %v", recs)
		}
		if err := r2.a.Post(t.Context(), k1, match.MessageRef{}, bot.Reply{Visibility: bot.Public, Text: "x"}); !errors.Is(err, bot.ErrUndeliverable) {
			t.Errorf("a timed post in the uninstalled workspace = %v, want ErrUndeliverable", err)
		}
		k2 := match.Key{Platform: Platform, Workspace: "T2", Channel: "CT2"}
		if recs, _ := m.data.Active(t.Context(), k2); len(recs) != 1 {
			t.Errorf("T2's game went with T1's purge: %v", recs)
		}
		if m.dump == nil {
			return
		}
		after := m.dump()
		m.noSecrets(t, after)
		for k, v := range before {
			t1 := strings.Contains(k, "{slack:T1:") || strings.Contains(k, "{slack:inst:T1}") || strings.Contains(k, "{slack:home:T1}")
			switch {
			case t1:
				if _, ok := after[k]; ok {
					t.Errorf("T1's key %s survived the purge", k)
				}
			case strings.Contains(k, "{sched:") || strings.Contains(k, "{slack:purge}") || strings.Contains(k, "{slack:oauth}"):
				if strings.Contains(after[k], "slack:T1:") {
					t.Errorf("%s still names a T1 channel", k)
				}
			case after[k] != v:
				t.Errorf("key %s changed in T1's purge", k)
			}
		}
		for k := range after {
			// T1 as a part of a key's name, not inside a random id or
			// nonce (a T2 game's id or an OAuth state may hold "T1").
			if t1Part.MatchString(k) {
				t.Errorf("after the purge SCAN finds %s", k)
			}
		}
	})
}

// t1Part matches a key naming workspace T1 as one of its parts.
var t1Part = regexp.MustCompile(`[{:]T1[:}]`)

// noSecrets fails if any Redis value holds a token or the client secret.
func (m *multiEnv) noSecrets(t *testing.T, dump map[string]string) {
	t.Helper()
	secrets := m.fake.secrets()
	if len(secrets) < 4 {
		t.Fatalf("only %d secrets issued", len(secrets))
	}
	for k, v := range dump {
		for _, s := range secrets {
			if strings.Contains(v, s) || strings.Contains(k, s) {
				t.Errorf("Redis key %s holds a secret in clear (%.12s…)", k, s)
			}
		}
	}
}

// TestTokenRotation: with token rotation on, an access token about to
// expire is renewed once across replicas, however many requests find it
// so at once, and every call after carries the new token.
func TestTokenRotation(t *testing.T) {
	t.Parallel()
	forEachInstallStore(t, func(t *testing.T, m *multiEnv) {
		m.fake.expiresIn = 12 * 3600
		key := newKey()
		reps := []*replica{m.replica(key), m.replica(key), m.replica(key)}
		reps[0].install(t, "T1")
		for _, r := range reps {
			r.clk.Advance(12*time.Hour - 10*time.Minute) // within renewBefore of the expiry
		}
		var wg sync.WaitGroup
		for i := range 6 {
			wg.Go(func() { reps[i%3].command(t, "T1", "", "CT1", "UAT1", "board") })
		}
		wg.Wait()
		m.fake.mu.Lock()
		refreshes, gen, tries := m.fake.refreshes["T1"], m.fake.gen["T1"], m.fake.tries
		m.fake.mu.Unlock()
		if refreshes != 1 || gen != 2 || tries != 1 {
			t.Fatalf("%d renewals asked, %d done (generation %d), want exactly 1", tries, refreshes, gen)
		}
		inst, err := m.inst.Installation(t.Context(), "T1")
		if err != nil || inst.Version != 2 || !inst.Expires.After(reps[0].clk.Now().Add(11*time.Hour)) {
			t.Fatalf("the stored installation after renewal: %+v, %v", inst, err)
		}
		before := len(m.fake.recorded())
		reps[1].command(t, "T1", "", "CT1", "UAT1", "<@UBT1>")
		calls := m.fake.recorded()[before:]
		if len(calls) == 0 {
			t.Fatal("no Web API call after the renewal")
		}
		for _, c := range calls {
			if c.token != accessToken("T1", 2) {
				t.Errorf("%s after the renewal carried %.14s…, want the new token", c.method, c.token)
			}
		}

		// Past the new token's expiry: nobody may use it; one replica
		// renews while the others wait for it.
		for _, r := range reps {
			r.clk.Advance(13 * time.Hour)
		}
		before = len(m.fake.recorded())
		for i := range 6 {
			wg.Go(func() {
				n := strconv.Itoa(i)
				if p := reps[i%3].command(t, "T1", "", "CT1", "UA"+n+"T1", "<@UB"+n+"T1>"); strings.Contains(p.Text, "cannot read") {
					t.Errorf("a challenge while the token was renewed got %q", p.Text)
				}
			})
		}
		wg.Wait()
		m.fake.mu.Lock()
		refreshes, tries = m.fake.refreshes["T1"], m.fake.tries
		m.fake.mu.Unlock()
		if refreshes != 2 || tries != 2 {
			t.Errorf("after the expiry %d renewals asked, %d done, want 2 in all", tries, refreshes)
		}
		calls = m.fake.recorded()[before:]
		if len(calls) < 6 {
			t.Fatalf("%d Web API calls for 6 challenges", len(calls))
		}
		for _, c := range calls {
			if c.token != accessToken("T1", 3) {
				t.Errorf("%s after the expiry carried %.14s…, want the third token", c.method, c.token)
			}
		}
		if m.dump != nil {
			m.noSecrets(t, m.dump())
		}
	})
}

// TestSecretKeyRotation: installations sealed under the old key are read
// once a new key is put in front of it; a replica given only the new key
// cannot open them, and says so without a crash.
func TestSecretKeyRotation(t *testing.T) {
	t.Parallel()
	st := storetest.NewMemory(t, sessions.Options{})
	m := newMultiEnv(t, st, sessions.NewMemoryInstalls(st), nil)
	oldKey, newK := newKey(), newKey()
	m.replica(oldKey).install(t, "T1")
	rotated := m.replica(newK + "," + oldKey)
	before := len(m.fake.recorded("users.info"))
	rotated.command(t, "T1", "", "CT1", "UAT1", "<@UBT1>")
	// The command looks up the opponent (is it a bot?) and the sender's
	// locale: each with the token sealed under the old key.
	got := m.fake.recorded("users.info")[before:]
	if len(got) == 0 {
		t.Fatal("after the key rotation the command made no users.info call")
	}
	for _, c := range got {
		if c.token != accessToken("T1", 1) {
			t.Fatalf("after the key rotation the command's users.info went with %.14s…", c.token)
		}
	}
	rotated.install(t, "T2") // sealed under the new key
	if p := m.replica(oldKey).command(t, "T2", "", "CT2", "UAT2", "board"); !strings.Contains(p.Text, "cannot read") {
		t.Errorf("a replica without the new key answered %+v, want the 'cannot read' apology", p)
	}
	if p := m.replica(newK).command(t, "T1", "", "CT1", "UAT1", "board"); !strings.Contains(p.Text, "cannot read") {
		t.Errorf("a replica without the old key answered %+v, want the 'cannot read' apology", p)
	}
}

// TestInstallRefusals: a forged, replayed, expired or foreign state, a
// code Slack refuses and a callback with an error each get a page saying
// so and change nothing.
func TestInstallRefusals(t *testing.T) {
	t.Parallel()
	st := storetest.NewMemory(t, sessions.Options{})
	m := newMultiEnv(t, st, sessions.NewMemoryInstalls(st), nil)
	r := m.replica(newKey())
	other := m.replica(newKey()) // another deployment's key

	state, cookie := r.start(t)
	forged := state[:len(state)-2] + "AA"
	otherState, otherCookie := other.start(t)
	tests := []struct {
		name   string
		query  url.Values
		cookie *http.Cookie
		status int
		want   string
	}{
		{"access_denied", url.Values{"error": {"access_denied"}, "state": {state}}, cookie, http.StatusOK, "cancelled"},
		{"forged state", url.Values{"code": {"code-T9"}, "state": {forged}}, &http.Cookie{Name: stateCookie, Value: forged}, http.StatusBadRequest, "expired or was already used"},
		{"another deployment's state", url.Values{"code": {"code-T9"}, "state": {otherState}}, otherCookie, http.StatusBadRequest, "expired or was already used"},
		{"no cookie", url.Values{"code": {"code-T9"}, "state": {state}}, nil, http.StatusBadRequest, "expired or was already used"},
		{"another browser's cookie", url.Values{"code": {"code-T9"}, "state": {state}}, otherCookie, http.StatusBadRequest, "expired or was already used"},
		{"no state", url.Values{"code": {"code-T9"}}, cookie, http.StatusBadRequest, "expired or was already used"},
		{"code refused", url.Values{"code": {"code-REFUSED"}, "state": {state}}, cookie, http.StatusBadRequest, "did not accept"},
		{"replayed state", url.Values{"code": {"code-T9"}, "state": {state}}, cookie, http.StatusBadRequest, "expired or was already used"},
	}
	for _, tt := range tests {
		status, page := r.callback(t, tt.query, tt.cookie, "")
		if status != tt.status || !strings.Contains(page, tt.want) || !strings.Contains(page, `href="/slack/install"`) {
			t.Errorf("%s: %d\n%s\nwant %d with %q and a link to start again", tt.name, status, page, tt.status, tt.want)
		}
		if _, err := m.inst.Installation(t.Context(), "T9"); !errors.Is(err, match.ErrNotInstalled) {
			t.Fatalf("%s: T9 is installed (%v)", tt.name, err)
		}
	}
	// Expired: 10 minutes after the install began.
	state, cookie = r.start(t)
	r.clk.Advance(stateTTL + time.Second)
	if status, page := r.callback(t, url.Values{"code": {"code-T9"}, "state": {state}}, cookie, "de-DE,de;q=0.9"); status != http.StatusBadRequest ||
		!strings.Contains(page, "abgelaufen") || !strings.Contains(page, `lang="de"`) {
		t.Errorf("expired state: %d\n%s", status, page)
	}
	if _, err := m.inst.Installation(t.Context(), "T9"); !errors.Is(err, match.ErrNotInstalled) {
		t.Fatalf("an expired state installed T9 (%v)", err)
	}
	// A successful install's callback, replayed, changes nothing.
	state, cookie = r.start(t)
	q := url.Values{"code": {"code-T9"}, "state": {state}}
	if status, page := r.callback(t, q, cookie, ""); status != http.StatusOK {
		t.Fatalf("install: %d %s", status, page)
	}
	inst, _ := m.inst.Installation(t.Context(), "T9")
	if status, _ := r.callback(t, q, cookie, ""); status != http.StatusBadRequest {
		t.Errorf("the replayed callback answered %d", status)
	}
	if again, _ := m.inst.Installation(t.Context(), "T9"); again.Version != inst.Version {
		t.Errorf("the replayed callback wrote the installation again (version %d, was %d)", again.Version, inst.Version)
	}
}

// TestEvents: url_verification is answered; unsigned events are refused;
// an event of a workspace without an installation is acknowledged and
// ignored; app_home_opened publishes the user's Home tab with the
// workspace's token, at most once a minute.
func TestEvents(t *testing.T) {
	t.Parallel()
	st := storetest.NewMemory(t, sessions.Options{})
	m := newMultiEnv(t, st, sessions.NewMemoryInstalls(st), nil)
	r := m.replica(newKey())
	resp, body := r.signed(t, EventsPath, "application/json", []byte(`{"type":"url_verification","token":"x","challenge":"chal-123"}`))
	if resp.StatusCode != http.StatusOK || string(body) != "chal-123" {
		t.Errorf("url_verification: %d %q", resp.StatusCode, body)
	}
	req, _ := http.NewRequest(http.MethodPost, r.srv.URL+EventsPath, strings.NewReader(`{"type":"url_verification","challenge":"x"}`))
	if resp, _ := http.DefaultClient.Do(req); resp.StatusCode != http.StatusUnauthorized {
		t.Errorf("an unsigned event: %d, want 401", resp.StatusCode)
	}
	if status := r.event(t, "T7", nil, map[string]any{"type": "app_uninstalled"}); status != http.StatusOK {
		t.Errorf("an uninstall of a workspace never installed: %d", status)
	}
	if _, ok, _ := m.inst.ClaimPurge(t.Context(), time.Minute); ok {
		t.Error("an uninstall of a workspace never installed queued a purge")
	}
	if status := r.event(t, "T7", nil, map[string]any{"type": "app_home_opened", "user": "UAT7", "tab": "home"}); status != http.StatusOK ||
		len(m.fake.recorded("views.publish")) != 0 {
		t.Errorf("app_home_opened without an installation: %d, %d publishes", status, len(m.fake.recorded("views.publish")))
	}
	if status := r.event(t, "T1", nil, map[string]any{"type": "no_such_event"}); status != http.StatusOK {
		t.Errorf("an unknown event: %d", status)
	}

	r.install(t, "T1")
	r.command(t, "T1", "", "CT1", "UAT1", "<@UBT1>")
	r.command(t, "T1", "", "CT1", "UBT1", "accept")
	for range 2 {
		if status := r.event(t, "T1", nil, map[string]any{"type": "app_home_opened", "user": "UAT1", "tab": "home"}); status != http.StatusOK {
			t.Fatalf("app_home_opened: %d", status)
		}
	}
	pubs := m.fake.recorded("views.publish")
	if len(pubs) != 1 {
		t.Fatalf("%d publishes for two opens within a minute, want 1", len(pubs))
	}
	p := pubs[0]
	p.body = strings.NewReplacer(`\u003c`, "<", `\u003e`, ">", `\u0026`, "&").Replace(p.body)
	if p.token != accessToken("T1", 1) || p.user != "UAT1" {
		t.Errorf("views.publish for %s with %.10s…", p.user, p.token)
	}
	for _, want := range []string{"<@UBT1>", "<#CT1>", "https://t1.slack.test/archives/CT1/p1700000000", "/connect4 ai"} {
		if !strings.Contains(p.body, want) {
			t.Errorf("the Home tab lacks %q:\n%s", want, p.body)
		}
	}
	if !strings.Contains(p.body, "Deine laufenden Spiele") {
		t.Errorf("the Home tab is not in the user's language (de-DE):\n%s", p.body)
	}
}

// TestConfigOAuth: the many-workspace settings are checked together, each
// problem naming its variable, and never showing a secret.
func TestConfigOAuth(t *testing.T) {
	st := storetest.NewMemory(t, sessions.Options{})
	svc := bot.New(st, bot.Options{})
	inst := sessions.NewMemoryInstalls(st)
	tests := []struct {
		cfg  Config
		want []string
	}{
		{Config{SigningSecret: "s", OAuth: OAuth{ClientID: "1", ClientSecret: "x", SecretKey: newKey(), Store: inst}}, nil},
		{Config{SigningSecret: "s", OAuth: OAuth{ClientID: "1", SecretKey: "short", Store: inst}}, []string{"SLACK_CLIENT_SECRET", "CONNECT4_SECRET_KEY"}},
		{Config{AppToken: "xapp-1", BotToken: "xoxb-1", OAuth: OAuth{ClientID: "1", ClientSecret: "x", SecretKey: newKey(), Store: inst}},
			[]string{"SLACK_SIGNING_SECRET is required", "excludes SLACK_BOT_TOKEN"}},
		{Config{SigningSecret: "s", OAuth: OAuth{ClientSecret: "x"}}, []string{"SLACK_CLIENT_SECRET is set without SLACK_CLIENT_ID"}},
	}
	for i, tt := range tests {
		_, err := New(svc, tt.cfg, nil)
		if (err == nil) != (tt.want == nil) {
			t.Errorf("%d: New = %v, want errors %q", i, err, tt.want)
			continue
		}
		for _, w := range tt.want {
			if !strings.Contains(err.Error(), w) {
				t.Errorf("%d: New = %v, want %q", i, err, w)
			}
		}
		if err != nil && strings.Contains(err.Error(), tt.cfg.OAuth.SecretKey) && tt.cfg.OAuth.SecretKey != "" {
			t.Errorf("%d: the error shows the key", i)
		}
	}
}

// TestNotInstalled: a command or a click from a workspace without an
// installation gets the ephemeral "not installed", and nothing else
// happens.
func TestNotInstalled(t *testing.T) {
	t.Parallel()
	st := storetest.NewMemory(t, sessions.Options{})
	m := newMultiEnv(t, st, sessions.NewMemoryInstalls(st), nil)
	r := m.replica(newKey())
	r.install(t, "T1")
	for _, team := range []string{"T8", "not-a-team"} {
		p := r.command(t, team, "", "CT8", "UAT8", "ai")
		if p.ResponseType != ephemeral || !strings.Contains(p.Text, "not installed in this workspace") {
			t.Errorf("a command from %s got %+v", team, p)
		}
	}
	r.command(t, "T8", "E8", "CT8", "UAT8", "ai") // an organisation not installed either
	r.click(t, m, "T8", "CT8", "UAT8", &slackapi.ButtonBlockElement{ActionID: actionPrefix + "drop", Value: "x"})
	m.mu.Lock()
	got := m.received
	m.mu.Unlock()
	if len(got) != 1 || got[0].ResponseType != ephemeral || !strings.Contains(got[0].Text, "not installed") {
		t.Errorf("a click from T8 got %+v on its response_url", got)
	}
	if recs, _ := st.Active(t.Context(), match.Key{Platform: Platform, Workspace: "T8", Channel: "CT8"}); len(recs) > 0 {
		t.Errorf("a workspace without an installation started a game: %v", recs)
	}
	if calls := m.fake.recorded(); len(calls) != 1 || calls[0].method != "auth.test" {
		t.Errorf("Web API calls %v, want only the install's auth.test", calls)
	}
}
