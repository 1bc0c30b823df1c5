package web

import (
	"context"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/connect4/connect4/bot"
	"github.com/connect4/connect4/bot/match"
	"github.com/connect4/connect4/engine"
	"github.com/connect4/connect4/engine/solver"
	"github.com/connect4/connect4/sessions"
	"github.com/connect4/connect4/sessions/storetest"
)

// Hostile names: markup, quotes, right-to-left marks, and a name as long
// as a name may be.
var (
	hostileAlice = match.Player{ID: "UALICE", Name: `<script>alert("a")</script>`}
	hostileBob   = match.Player{ID: "UBOB", Name: "Bob \"the\" 'Builder' \u202eevil\u202c & <b>bold</b>"}
	hostileCarol = match.Player{ID: "UCAROL", Name: strings.Repeat("C", 190) + strings.Repeat("\u200f", 10)} // 200 characters, right-to-left marks
)

// clock is a clock tests move.
type clock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *clock) add(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
}

// fixture is a bot on an in-memory store with its pages served.
type fixture struct {
	t     testing.TB
	store *sessions.Memory
	svc   *bot.Service
	web   *Web
	srv   *httptest.Server
	clock *clock
	key   match.Key
}

func newFixture(t testing.TB) *fixture {
	t.Helper()
	f := &fixture{t: t, store: storetest.NewMemory(t, sessions.Options{}), clock: &clock{now: time.Now()},
		key: match.Key{Platform: "slack", Workspace: "T1", Channel: "C1"}}
	log := slog.New(slog.NewTextHandler(io.Discard, nil))
	mux := http.NewServeMux()
	f.srv = httptest.NewServer(mux)
	t.Cleanup(f.srv.Close)
	links, err := NewLinks(Config{PublicURL: f.srv.URL, Secrets: map[string]string{"slack": "s3cret", "discord": "other"},
		Now: f.clock.Now})
	if err != nil {
		t.Fatal(err)
	}
	f.svc = bot.New(f.store, bot.Options{Logger: log, AI: firstFree, Pages: links,
		Analyze: func(ctx context.Context, g *engine.Game, budget time.Duration) (solver.Analysis, error) {
			return solver.Analyze(ctx, g, min(budget, 2*time.Second))
		}})
	w, err := New(f.svc, links, nil, log)
	if err != nil {
		t.Fatal(err)
	}
	f.web = w
	w.Register(mux)
	return f
}

// firstFree is an AI that plays the lowest free column.
func firstFree(_ context.Context, g *engine.Game, _ solver.Level, _ time.Duration) (int, error) {
	for c := range g.Config().Cols {
		if g.CanPlay(c) {
			return c, nil
		}
	}
	return 0, errors.New("board full")
}

// handle runs text typed by who in the fixture's channel.
func (f *fixture) handle(who match.Player, text string) bot.Reply {
	f.t.Helper()
	return f.svc.HandleText(context.Background(), bot.Command{Key: f.key, User: who}, text)
}

// click clicks the button of r labelled label as who.
func (f *fixture) click(r bot.Reply, who match.Player, label string) bot.Reply {
	f.t.Helper()
	for _, b := range r.Buttons {
		if b.Label == label && b.Value != "" {
			req, err := bot.ParseAction(b.Value)
			if err != nil {
				f.t.Fatal(err)
			}
			return f.svc.Handle(context.Background(), bot.Command{Key: f.key, User: who, Request: req})
		}
	}
	f.t.Fatalf("no button %q in reply %q (%v)", label, r.Text, r.Buttons)
	return bot.Reply{}
}

// play plays a game between the players (two, three or four, challenger
// first) in columns cols (0-based) and returns its last reply.
func (f *fixture) play(players []match.Player, extra string, cols []int) bot.Reply {
	f.t.Helper()
	text := ""
	for _, p := range players[1:] {
		text += "<@" + p.ID + "> "
	}
	req, err := bot.ParseText(text + extra)
	if err != nil {
		f.t.Fatal(err)
	}
	req.Opponent = players[1]
	copy(req.Others[:], players[2:])
	r := f.svc.Handle(context.Background(), bot.Command{Key: f.key, User: players[0], Request: req})
	if r.Problem != bot.ProblemNone {
		f.t.Fatalf("challenge refused: %s", r.Text)
	}
	for _, p := range players[1:] {
		r = f.click(r, p, "Accept")
	}
	for i, c := range cols {
		who := players[i%len(players)]
		if r.Game != nil {
			who = r.Players()[r.Game.Turn()-1]
		}
		r = f.click(r, who, strconv.Itoa(c+1))
		if r.Problem != bot.ProblemNone {
			f.t.Fatalf("move %d in column %d refused: %s", i+1, c+1, r.Text)
		}
	}
	return r
}

// linkOf returns the URL of r's link button.
func linkOf(t testing.TB, r bot.Reply) string {
	t.Helper()
	for _, b := range r.Buttons {
		if b.URL != "" {
			return b.URL
		}
	}
	t.Fatalf("no link button in %q", r.Text)
	return ""
}

// get fetches url and returns its status and body.
func get(t testing.TB, url string) (int, string) {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode, string(b)
}

// A short game won by alice: red in column 1 four times, yellow in 2.
var quickWin = []int{0, 1, 0, 1, 0, 1, 0}
