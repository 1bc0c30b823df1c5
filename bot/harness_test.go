package bot

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/connect4/connect4/bot/match"
	"github.com/connect4/connect4/engine/solver"

	"github.com/connect4/connect4/engine"
	"github.com/connect4/connect4/sessions"
	"github.com/connect4/connect4/sessions/storetest"
)

// harness drives a Service in one channel, the way an adapter would.
type harness struct {
	t     *testing.T
	svc   *Service
	store Store
	clock *storetest.Clock
	key   match.Key
	self  match.Player
	// prefix is the Redis key prefix, "" for the memory store.
	prefix string
	mu     sync.Mutex // guards events: hooks run on every clicking goroutine
	events []string
	nonces atomic.Int64
}

// lowestColumn is a predictable AI for flow tests: the leftmost legal
// column.
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

// forEachStore runs f on the memory store and on real Redis, at once:
// each has its own harness, clock and key prefix.
func forEachStore(t *testing.T, f func(t *testing.T, h *harness)) {
	eachStore(t, true, f)
}

// forEachStoreInTurn is forEachStore one store after the other, for the
// tests whose solver races a budget: two solves at once on a busy machine
// may run out of it.
func forEachStoreInTurn(t *testing.T, f func(t *testing.T, h *harness)) {
	eachStore(t, false, f)
}

func eachStore(t *testing.T, parallel bool, f func(t *testing.T, h *harness)) {
	t.Run("memory", func(t *testing.T) {
		if parallel {
			t.Parallel()
		}
		clk := storetest.NewClock(time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC))
		f(t, newHarness(t, storetest.NewMemory(t, sessions.Options{Now: clk.Now}), clk, ""))
	})
	t.Run("redis", func(t *testing.T) {
		if parallel {
			t.Parallel()
		}
		c := storetest.Redis(t)
		prefix := storetest.Prefix(t, c)
		// Redis expires keys on its own clock, so the test clock starts now.
		clk := storetest.NewClock(time.Now())
		f(t, newHarness(t, storetest.NewRedis(t, c, sessions.Options{Prefix: prefix, Now: clk.Now}), clk, prefix))
	})
}

func newHarness(t *testing.T, st Store, clk *storetest.Clock, prefix string) *harness {
	h := &harness{t: t, store: st, clock: clk, prefix: prefix,
		key:  match.Key{Platform: "test", Workspace: "T1", Channel: "C1"},
		self: match.Player{ID: "UBOT", Name: "connect4"}}
	event := func(e string) {
		h.mu.Lock()
		defer h.mu.Unlock()
		h.events = append(h.events, e)
	}
	h.svc = New(st, Options{Now: clk.Now, AI: lowestColumn, Hooks: Hooks{
		GameStarted:  func(string, bool) { event("started") },
		Move:         func(string) { event("move") },
		GameFinished: func(_ string, r string) { event("finished:" + r) },
	}})
	return h
}

// say runs the text of a /connect4 command typed by user.
func (h *harness) say(user, text string) Reply {
	h.t.Helper()
	return h.svc.HandleText(h.t.Context(), Command{Key: h.key, User: player(user), Self: h.self}, text)
}

func player(id string) match.Player { return match.Player{ID: id, Name: strings.ToLower(id)} }

// click clicks the button labelled label on reply r as user.
func (h *harness) click(user string, r Reply, label string) Reply {
	h.t.Helper()
	i := slices.IndexFunc(r.Buttons, func(b Button) bool { return b.Label == label })
	if i < 0 {
		h.t.Fatalf("no button %q on %q (buttons %v)", label, r.Text, r.Buttons)
	}
	req, err := ParseAction(r.Buttons[i].Value)
	if err != nil {
		h.t.Fatalf("ParseAction(%q): %v", r.Buttons[i].Value, err)
	}
	// Every click is a signed request of its own, as on the platforms, so
	// that a use case writing twice for one click is caught taking its
	// second write for a replay.
	return h.svc.Handle(h.t.Context(), Command{Key: h.key, User: player(user), Self: h.self,
		Message: match.MessageRef{Channel: "C1", Timestamp: "1.0"}, Request: req, Nonce: fmt.Sprintf("click-%d", h.nonces.Add(1))})
}

// agree has offerer click label (Rematch or Next round) on r and the other
// player accept the offer, and returns the reply that starts the game.
func (h *harness) agree(offerer, other string, r Reply, label string) Reply {
	h.t.Helper()
	o := h.click(offerer, r, label)
	h.want(o, Update, ProblemNone, "<@"+offerer+"> offers", "<@"+other+">, do you accept?")
	return h.click(other, o, "Accept")
}

// record returns the stored record of the game r's buttons were drawn for.
func (h *harness) record(r Reply) *match.Record {
	h.t.Helper()
	for _, b := range r.Buttons {
		if req, err := ParseAction(b.Value); err == nil && req.GameID != "" {
			rec, err := h.store.Load(h.t.Context(), h.key, req.GameID)
			if err != nil {
				h.t.Fatalf("Load(%s): %v", req.GameID, err)
			}
			return rec
		}
	}
	h.t.Fatalf("reply %q has no game buttons", r.Text)
	return nil
}

// want fails the test unless r has visibility vis, problem p and contains
// every fragment in its text.
func (h *harness) want(r Reply, vis Visibility, p Problem, fragments ...string) {
	h.t.Helper()
	if r.Visibility != vis || r.Problem != p {
		h.t.Fatalf("reply %v/%v %q, want %v/%v", r.Visibility, r.Problem, r.Text, vis, p)
	}
	for _, f := range fragments {
		if !strings.Contains(r.Text, f) {
			h.t.Fatalf("reply %q does not contain %q", r.Text, f)
		}
	}
}

// start makes A challenge B and B accept, and returns the board reply.
func (h *harness) start(a, b string, variant ...string) Reply {
	h.t.Helper()
	r := h.say(a, strings.Join(append([]string{"<@" + b + ">"}, variant...), " "))
	h.want(r, Public, ProblemNone, "<@"+a+"> challenges <@"+b+"> to Connect Four")
	r = h.click(b, r, "Accept")
	h.want(r, Update, ProblemNone, "accepted")
	return r
}

// drops plays columns (1-based labels) alternately by the players to move,
// each click on the latest reply, and returns the last reply.
func (h *harness) drops(r Reply, cols ...int) Reply {
	h.t.Helper()
	for _, c := range cols {
		mover := r.Red.ID
		if r.Game.Turn() == engine.Yellow {
			mover = r.Yellow.ID
		}
		r = h.click(mover, r, strconv.Itoa(c))
		if r.Problem != ProblemNone {
			h.t.Fatalf("drop %d by %s refused: %q", c, mover, r.Text)
		}
	}
	return r
}
