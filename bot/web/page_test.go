package web

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/connect4/connect4/bot"
	"github.com/connect4/connect4/bot/lang"
	"github.com/connect4/connect4/bot/match"
)

// maxPage is the most a page may weigh.
const maxPage = 100 << 10

// pages plays a few games in a fresh fixture (two players, three with
// hostile names, a 9 × 7 board) and returns the fixture and one link of
// each kind.
func pages(t *testing.T) (f *fixture, game, multi, big, channel, player string) {
	f = newFixture(t)
	r := f.play([]match.Player{hostileAlice, hostileBob}, "", quickWin)
	game = linkOf(t, r)
	r = f.play([]match.Player{hostileCarol, hostileAlice, hostileBob}, "", []int{0, 1, 2, 0, 1, 2, 0, 1, 2, 0})
	multi = linkOf(t, r)
	dave := match.Player{ID: "UDAVE", Name: "Dave"}
	r = f.play([]match.Player{dave, hostileBob}, "9x7 connect 5", []int{0, 1, 0, 1, 0, 1, 0, 1, 0})
	big = linkOf(t, r)
	channel = linkOf(t, f.handle(hostileAlice, "leaderboard"))
	player = linkOf(t, f.handle(hostileAlice, "stats"))
	return
}

// TestPagesAreValidHTML fetches a page of each kind, with hostile names in
// them, and checks each: valid HTML5 with a lang attribute, no name
// rendered unescaped, under maxPage.
func TestPagesAreValidHTML(t *testing.T) {
	f, game, multi, big, channel, player := pages(t)
	bad := f.web.base + "pages/nope.nope"
	for _, tt := range []struct {
		name, url string
		status    int
	}{
		{"game", game, 200}, {"game of 3", multi, 200}, {"9x7 game", big, 200},
		{"channel", channel, 200}, {"player", player, 200}, {"not found", bad, 404},
	} {
		t.Run(tt.name, func(t *testing.T) {
			status, body := get(t, tt.url)
			if status != tt.status {
				t.Fatalf("GET %s = %d, want %d", tt.name, status, tt.status)
			}
			if err := checkHTML([]byte(body)); err != nil {
				t.Errorf("%s page: %v", tt.name, err)
			}
			if got := htmlLang([]byte(body)); got != "en" {
				t.Errorf("%s page: lang %q, want en", tt.name, got)
			}
			if len(body) > maxPage {
				t.Errorf("%s page: %d bytes, more than %d", tt.name, len(body), maxPage)
			}
			// (Single quotes need no escape in text, nor in the JSON the
			// script reads.)
			for _, raw := range []string{"<script>alert", "<b>bold", `"the"`} {
				if strings.Contains(body, raw) {
					t.Errorf("%s page: %q written unescaped", tt.name, raw)
				}
			}
			if tt.status == 200 && tt.name != "9x7 game" && !strings.Contains(textOf([]byte(body)), `<script>alert("a")</script>`) {
				t.Errorf("%s page: alice's name is not shown as text", tt.name)
			}
		})
	}
}

// TestEveryLanguage draws a game page in each language: valid, with its
// lang attribute, and none of the page's words left as a message id.
func TestEveryLanguage(t *testing.T) {
	f := newFixture(t)
	r := f.play([]match.Player{hostileAlice, hostileBob}, "", quickWin)
	tok := strings.TrimPrefix(linkOf(t, r), f.web.base+"pages/")
	l, err := f.web.signer.Parse(tok, f.clock.Now())
	if err != nil {
		t.Fatal(err)
	}
	for _, lg := range lang.All {
		p, err := f.web.view(context.Background(), l, tok)
		if err != nil {
			t.Fatal(err)
		}
		relang(f.web, p, lg, l)
		body := draw(t, f.web, p)
		if err := checkHTML(body); err != nil {
			t.Errorf("%s: %v", lg, err)
		}
		if got := htmlLang(body); got != lg.String() {
			t.Errorf("%s: lang %q", lg, got)
		}
		if ids := regexp.MustCompile(`web\.[a-z]+\.[a-zA-Z]+`).FindAllString(textOf(body), -1); len(ids) > 0 {
			t.Errorf("%s: message ids left in the page: %q", lg, ids)
		}
	}
}

// relang redraws p's game in lg.
func relang(w *Web, p *page, lg lang.Lang, l Link) {
	gp, _ := w.svc.GamePage(context.Background(), l.Key, l.ID)
	p.Lang = lg
	w.gameView(p, l, gp)
}

func draw(t *testing.T, w *Web, p *page) []byte {
	t.Helper()
	var b strings.Builder
	if err := w.assets.pages[p.Lang].Execute(&b, p); err != nil {
		t.Fatal(err)
	}
	return []byte(b.String())
}

// TestBadLinks: a tampered, foreign or expired link and a game or player
// the store no longer has each answer a short page with the right status.
func TestBadLinks(t *testing.T) {
	f := newFixture(t)
	r := f.play([]match.Player{hostileAlice, hostileBob}, "", quickWin)
	good := linkOf(t, r)
	tok := strings.TrimPrefix(good, f.web.base+"pages/")
	payload, sig, _ := strings.Cut(tok, ".")
	flip := func(s string) string {
		b := []byte(s)
		if b[len(b)/2] == 'A' {
			b[len(b)/2] = 'B'
		} else {
			b[len(b)/2] = 'A'
		}
		return string(b)
	}
	foreign := NewSigner(map[string]string{"slack": "another server's secret"})
	l, _ := f.web.signer.Parse(tok, f.clock.Now())
	otherChannel := l
	otherChannel.Key.Channel = "C2"
	gone := l
	gone.ID = "no-such-game"
	nobody := Link{Kind: KindPlayer, Key: l.Key, ID: "UNOBODY", Expires: l.Expires}
	base := f.web.base + "pages/"
	tests := []struct {
		name, url string
		want      int
	}{
		{"good", good, 200},
		{"tampered signature", base + payload + "." + flip(sig), 404},
		{"tampered payload", base + flip(payload) + "." + sig, 404},
		{"no signature", base + payload, 404},
		{"foreign secret", base + foreign.Token(l), 404},
		{"signed for another channel by another server", base + foreign.Token(otherChannel), 404},
		{"platform without a secret", base + NewSigner(map[string]string{"teams": "x"}).Token(Link{Kind: KindChannel, Key: match.Key{Platform: "teams", Workspace: "a", Channel: "b"}, Expires: l.Expires}), 404},
		{"too long", base + strings.Repeat("a", MaxToken+1), 404},
		{"game gone", base + f.web.signer.Token(gone), 410},
		{"player unknown", base + f.web.signer.Token(nobody), 410},
		{"board of a channel", base + f.web.signer.Token(Link{Kind: KindChannel, Key: l.Key, Expires: l.Expires}) + "/board.png", 404},
	}
	for _, tt := range tests {
		status, body := get(t, tt.url)
		if status != tt.want {
			t.Errorf("%s: status %d, want %d", tt.name, status, tt.want)
		}
		if err := checkHTML([]byte(body)); err != nil && !strings.HasSuffix(tt.url, ".png") {
			t.Errorf("%s: %v", tt.name, err)
		}
		if tt.want != 200 && len(body) > 8<<10 {
			t.Errorf("%s: a %d-byte answer, want a short page", tt.name, len(body))
		}
	}
	f.clock.add(DefaultTTL)
	if status, _ := get(t, good); status != http.StatusGone {
		t.Errorf("expired link: status %d, want 410", status)
	}
}

// TestOpenGraph checks the preview tags of a game page and that its
// picture is served.
func TestOpenGraph(t *testing.T) {
	f := newFixture(t)
	r := f.play([]match.Player{hostileAlice, hostileBob}, "", quickWin)
	url := linkOf(t, r)
	_, body := get(t, url)
	m := metas([]byte(body))
	for _, k := range []string{"og:title", "og:description", "og:image", "og:url", "og:type", "og:site_name", "twitter:card", "twitter:image"} {
		if m[k] == "" {
			t.Errorf("no %s tag", k)
		}
	}
	if m["og:url"] != url || m["twitter:card"] != "summary_large_image" || !strings.HasPrefix(m["og:image"], f.srv.URL+"/pages/") {
		t.Errorf("og:url %q (want %q), twitter:card %q, og:image %q", m["og:url"], url, m["twitter:card"], m["og:image"])
	}
	if !strings.Contains(m["og:title"], `<script>alert("a")</script>`) {
		t.Errorf("og:title %q does not name alice", m["og:title"])
	}
	resp, err := http.Get(m["og:image"])
	if err != nil {
		t.Fatal(err)
	}
	png, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "image/png" || !strings.HasPrefix(string(png), "\x89PNG") {
		t.Errorf("og:image: %d %s, %d bytes", resp.StatusCode, resp.Header.Get("Content-Type"), len(png))
	}
	_, body = get(t, linkOf(t, f.handle(hostileAlice, "leaderboard")))
	if m := metas([]byte(body)); m["og:title"] == "" || m["twitter:card"] != "summary" || m["og:image"] != "" {
		t.Errorf("channel page tags: %v", m)
	}
	p, ok := f.web.Preview(context.Background(), url)
	if !ok || p.ImageURL != m0(body, url, f) || !strings.Contains(p.Title, "alert") {
		t.Errorf("Preview(game) = %+v, %v", p, ok)
	}
	if _, ok := f.web.Preview(context.Background(), "https://example.com/pages/x"); ok {
		t.Error("Preview of a foreign URL is ok")
	}
}

// m0 is the og:image of url's page.
func m0(_ string, url string, f *fixture) string {
	_, body := get(f.t, url)
	return metas([]byte(body))["og:image"]
}

// TestLinkButtons: a finished game, the leaderboard, seasons and stats
// carry a link button to their page; a game in progress, a refusal and
// a Service without pages carry none.
func TestLinkButtons(t *testing.T) {
	f := newFixture(t)
	mid := f.play([]match.Player{hostileAlice, hostileBob}, "", quickWin[:3])
	for _, b := range mid.Buttons {
		if b.URL != "" {
			t.Errorf("a game in progress has link %q", b.Label)
		}
	}
	for _, c := range quickWin[3:] {
		mid = f.click(mid, mid.Players()[mid.Game.Turn()-1], itoa(c+1))
	}
	tests := []struct {
		name string
		r    bot.Reply
		kind Kind
	}{
		{"finished game", mid, KindGame},
		{"leaderboard", f.handle(hostileBob, "leaderboard"), KindChannel},
		{"seasons", f.handle(hostileBob, "seasons"), KindChannel},
		{"stats", f.handle(hostileBob, "stats"), KindPlayer},
		{"stats of someone", f.handle(hostileBob, "stats <@UALICE>"), KindPlayer},
	}
	for _, tt := range tests {
		u := linkOf(t, tt.r)
		l, err := f.web.signer.Parse(strings.TrimPrefix(u, f.web.base+"pages/"), f.clock.Now())
		if err != nil || l.Kind != tt.kind || l.Key != f.key {
			t.Errorf("%s: link %q = %+v, %v; want a %v link of %v", tt.name, u, l, err, tt.kind, f.key)
		}
		if tt.name == "stats of someone" && l.ID != "UALICE" {
			t.Errorf("stats of alice links to %q", l.ID)
		}
		if got := l.Expires.Sub(f.clock.Now()); got < DefaultTTL-time.Second || got > DefaultTTL {
			t.Errorf("%s: link expires in %v, want %v", tt.name, got, DefaultTTL)
		}
	}
	if r := f.handle(hostileBob, "resign"); strings.Contains(strings.Join(buttonLabels(r), ","), "page") {
		t.Errorf("a refusal has links: %v", buttonLabels(r))
	}
}

func buttonLabels(r bot.Reply) []string {
	var out []string
	for _, b := range r.Buttons {
		out = append(out, b.Label)
	}
	return out
}

// TestAnalysisEndpoint asks for a game's analysis as the page's button
// does: a verdict per move, kept so that the page then shows them.
func TestAnalysisEndpoint(t *testing.T) {
	f := newFixture(t)
	r := f.play([]match.Player{hostileAlice, hostileBob}, "", quickWin)
	url := linkOf(t, r)
	resp, err := http.Post(url+"/analysis", "", nil)
	if err != nil {
		t.Fatal(err)
	}
	var a analysisJSON
	err = json.NewDecoder(resp.Body).Decode(&a)
	resp.Body.Close()
	if err != nil || resp.StatusCode != 200 {
		t.Fatalf("POST analysis: %d, %v", resp.StatusCode, err)
	}
	if len(a.Verdicts) != len(quickWin) || len(a.Summary) == 0 {
		t.Fatalf("analysis: %d verdicts for %d moves, summary %q", len(a.Verdicts), len(quickWin), a.Summary)
	}
	_, body := get(t, url)
	if !strings.Contains(body, a.Verdicts[0]) || strings.Contains(body, `id="analyze"`) {
		t.Errorf("the page after the analysis does not show it (or still offers it)")
	}
	mid := f.play([]match.Player{{ID: "UX", Name: "x"}, {ID: "UY", Name: "y"}}, "", nil)
	_ = mid
	resp, err = http.Post(f.web.base+"pages/"+f.web.signer.Token(Link{Kind: KindChannel, Key: f.key, Expires: f.clock.Now().Add(time.Hour)})+"/analysis", "", nil)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != 404 {
		t.Errorf("analysis of a channel: %d, want 404", resp.StatusCode)
	}
}

// TestChannelAndPlayerPages: the channel page lists the store's
// leaderboard, games in progress and recent results; the player page the
// player's record and head to head.
func TestChannelAndPlayerPages(t *testing.T) {
	f := newFixture(t)
	f.play([]match.Player{hostileAlice, hostileBob}, "", quickWin)
	f.play([]match.Player{hostileBob, hostileAlice}, "", quickWin)
	dave, erin := match.Player{ID: "UDAVE", Name: "Dave"}, match.Player{ID: "UERIN", Name: "Erin"}
	f.play([]match.Player{dave, erin}, "", []int{3, 3})
	season := f.svc.Handle(context.Background(), bot.Command{Key: f.key, User: dave, CanManage: true, Request: bot.Request{Kind: bot.KindNewSeason}})
	if season.Problem != bot.ProblemNone {
		t.Fatalf("new season: %s", season.Text)
	}
	f.play([]match.Player{hostileAlice, hostileBob}, "", quickWin)
	_, body := get(t, linkOf(t, f.handle(hostileAlice, "leaderboard")))
	text := textOf([]byte(body))
	if !strings.Contains(body, `id="seasons"`) || !strings.Contains(text, "Season 1 (ended") {
		t.Error("channel page lacks the archived season")
	}
	for _, want := range []string{"Leaderboard", `<script>alert("a")</script>`, "Bob", "Dave", "Erin", "Recent results", "Games in progress"} {
		if !strings.Contains(text, want) {
			t.Errorf("channel page lacks %q", want)
		}
	}
	rated, _ := f.store.Ratings(context.Background(), f.key, 0)
	if got := strings.Count(body, "<tr><td class=\"n\">"); got != len(rated) {
		t.Errorf("channel page: %d leaderboard rows, the store rates %d", got, len(rated))
	}
	_, body = get(t, linkOf(t, f.handle(hostileAlice, "stats")))
	text = textOf([]byte(body))
	for _, want := range []string{"Rating history", "Head to head this season", "Bob"} {
		if !strings.Contains(text, want) {
			t.Errorf("player page lacks %q", want)
		}
	}
	if !strings.Contains(body, `id="h2h"`) {
		t.Error("player page has no head-to-head table")
	}
}

func itoa(n int) string { return strconv.Itoa(n) }

// TestLargestPage: a full 7 × 6 board between two players with names of
// 200 characters stays under maxPage.
func TestLargestPage(t *testing.T) {
	f := newFixture(t)
	long := match.Player{ID: "ULONG", Name: strings.Repeat("ž", 50) + strings.Repeat("x", 150)}
	r := f.play([]match.Player{hostileCarol, long}, "", drawnGame(t))
	_, body := get(t, linkOf(t, r))
	t.Logf("a full 7 × 6 game with names of 200 characters: %d bytes", len(body))
	if len(body) > maxPage {
		t.Errorf("a full 7 × 6 game with long names: %d bytes, more than %d", len(body), maxPage)
	}
	if err := checkHTML([]byte(body)); err != nil {
		t.Error(err)
	}
}

// TestColourBlindPalette: a channel with the colour-blind palette gets
// its colours and colour words on the page (and the shape marks, which
// every palette has).
func TestColourBlindPalette(t *testing.T) {
	f := newFixture(t)
	if r := f.handle(hostileAlice, "settings palette colourblind"); r.Problem != bot.ProblemNone {
		t.Fatalf("settings: %s", r.Text)
	}
	r := f.play([]match.Player{hostileAlice, hostileBob}, "", quickWin)
	_, body := get(t, linkOf(t, r))
	if !strings.Contains(body, `<body class="colourblind">`) {
		t.Error("the page is not in the colour-blind palette")
	}
	text := textOf([]byte(body))
	if !strings.Contains(text, "blue: ") || !strings.Contains(text, "orange: ") || strings.Contains(text, "yellow: ") {
		t.Errorf("colour words of the colour-blind palette missing: %q", text[:min(len(text), 600)])
	}
	if strings.Count(body, `<circle class="mark" r="8"/>`) != 3 {
		t.Errorf("yellow's three discs should carry the ring mark")
	}
}

// TestResignedGame: a game one player resigned says so, and its page
// stops at the moves played.
func TestResignedGame(t *testing.T) {
	f := newFixture(t)
	f.play([]match.Player{hostileAlice, hostileBob}, "", []int{3, 3, 2})
	r := f.handle(hostileBob, "resign")
	if r.Problem != bot.ProblemNone {
		t.Fatalf("resign: %s", r.Text)
	}
	_, body := get(t, linkOf(t, r))
	if want := "\u2068" + `<script>alert("a")</script>` + "\u2069 won by resignation."; !strings.Contains(textOf([]byte(body)), want) {
		t.Errorf("the page does not say %q", want)
	}
	if n := strings.Count(body, `<g class="disc`); n != 3 {
		t.Errorf("%d discs, want 3", n)
	}
}
