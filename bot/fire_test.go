package bot

import (
	"context"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/connect4/connect4/bot/match"
	"github.com/connect4/connect4/engine"
	"github.com/connect4/connect4/sessions"
	"github.com/connect4/connect4/sessions/storetest"
)

// Timings of the schedule tests.
const (
	testTTL     = 10 * time.Minute
	testRemind  = time.Hour
	testTimeout = 24 * time.Hour
	testIdle    = 6 * 24 * time.Hour
)

// timedHarness is a harness on Memory with a fake clock and every timer on.
func timedHarness(t *testing.T) (*harness, *sessions.Memory) {
	clk := storetest.NewClock(time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC))
	m := storetest.NewMemory(t, sessions.Options{Now: clk.Now})
	return newTimedHarness(t, m, clk, ""), m
}

// newTimedHarness is a harness on st with every timer on.
func newTimedHarness(t *testing.T, st Store, clk *storetest.Clock, prefix string) *harness {
	h := newHarness(t, st, clk, prefix)
	h.svc = New(st, Options{Now: clk.Now, AI: lowestColumn, ChallengeTTL: testTTL, TurnTimeout: testTimeout,
		RemindAfter: testRemind, IdleAfter: testIdle})
	return h
}

// eachTimedStore runs f on timedHarness's memory store and on real Redis
// with the same options, at once, each with its schedule: on Redis a
// game's moves within a minute of each other leave their timers' entries
// early (lazy timers), which the schedule must neither fire early nor lose.
func eachTimedStore(t *testing.T, f func(t *testing.T, h *harness, sched Schedule)) {
	t.Run("memory", func(t *testing.T) {
		t.Parallel()
		h, m := timedHarness(t)
		f(t, h, m)
	})
	t.Run("redis", func(t *testing.T) {
		t.Parallel()
		c := storetest.Redis(t)
		prefix := storetest.Prefix(t, c)
		// Redis expires keys on its own clock, so the test clock starts
		// now, or rather at this minute's start: a test's moves made
		// within a minute of it then share a slot of time (see
		// sessions' ttlRefresh), and are plain.
		clk := storetest.NewClock(time.Now().Truncate(time.Minute))
		st := storetest.NewRedis(t, c, sessions.Options{Prefix: prefix, Now: clk.Now})
		f(t, newTimedHarness(t, st, clk, prefix), st)
	})
}

// fired claims what is due, fires each entry and marks it done, and
// returns the notices with their kinds.
func fired(t *testing.T, h *harness, sched Schedule) (kinds []string, notices []Notice) {
	t.Helper()
	due, err := sched.Claim(t.Context(), 100, time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	for _, d := range due {
		n, err := h.svc.Fire(t.Context(), d)
		if err != nil {
			t.Fatalf("Fire(%v): %v", d.Kind, err)
		}
		if err := sched.Done(t.Context(), d); err != nil {
			t.Fatal(err)
		}
		if !n.IsZero() {
			kinds = append(kinds, d.Kind.String())
			notices = append(notices, n)
		}
	}
	return kinds, notices
}

func wantFired(t *testing.T, h *harness, sched Schedule, want ...string) []Notice {
	t.Helper()
	kinds, ns := fired(t, h, sched)
	if !slices.Equal(kinds, want) {
		t.Fatalf("fired %v at %v, want %v", kinds, h.clock.Now().Format(time.TimeOnly), want)
	}
	return ns
}

func newTestGame(t *testing.T) *engine.Game {
	g, err := engine.New(engine.DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	return g
}

func TestChallengeExpires(t *testing.T) {
	h, m := timedHarness(t)
	r := h.say("UA", "<@UB>")
	rec := h.record(r)
	h.clock.Advance(testTTL - time.Second)
	wantFired(t, h, m)
	h.clock.Advance(time.Second)
	n := wantFired(t, h, m, "expire")[0]
	if n.Edit == nil || n.Post != nil || len(n.Edit.Buttons) != 0 || !strings.Contains(n.Edit.Text, "expired") {
		t.Fatalf("notice %+v, want an edit saying it expired, without buttons", n.Edit)
	}
	got, _ := h.store.Load(t.Context(), h.key, rec.ID)
	if got.Status != match.StatusFinished || got.Finish != match.FinishExpired {
		t.Fatalf("record %v/%v, want finished/expired", got.Status, got.Finish)
	}
	h.clock.Advance(testIdle)
	wantFired(t, h, m)
	if m.Pending() != 0 {
		t.Fatalf("%d entries left, want none", m.Pending())
	}
}

func TestTurnTimers(t *testing.T) { eachTimedStore(t, testTurnTimers) }

func testTurnTimers(t *testing.T, h *harness, m Schedule) {
	r := h.start("UA", "UB")
	r = h.drops(r, 4) // UB to move
	h.clock.Advance(testRemind)
	n := wantFired(t, h, m, "remind")[0]
	if n.Post == nil || n.Edit != nil || !slices.Equal(n.Post.Notify, []string{"UB"}) || n.Post.Visibility != Public ||
		!strings.Contains(n.Post.Text, "<@UB>, it's your move") || !strings.Contains(n.Post.Text, "against ua") {
		t.Fatalf("reminder %+v, want a new message notifying UB, naming the opponent", n.Post)
	}
	h.clock.Advance(testRemind) // at most one per turn
	wantFired(t, h, m)
	if c := h.click("UA", r, "1"); c.Problem != ProblemNotYourTurn {
		t.Fatalf("UA's drop out of turn: %v", c.Problem)
	}
	h.clock.Advance(testTimeout - 2*testRemind)
	n = wantFired(t, h, m, "timeout")[0]
	if n.Edit == nil || !hasButton(*n.Edit, "Claim") || !strings.Contains(n.Edit.Text, "<@UA> may claim") {
		t.Fatalf("timeout notice %+v, want an edit offering UA a Claim button", n.Edit)
	}
	if c := h.click("UB", *n.Edit, "Claim"); c.Problem != ProblemYourMove {
		t.Fatalf("the idle player's claim: %v %q, want ProblemYourMove", c.Problem, c.Text)
	}
	c := h.click("UA", *n.Edit, "Claim")
	h.want(c, Public, ProblemNone)
	if got := h.record(r); got.Finish != match.FinishTimeout {
		t.Fatalf("after the claim: finish %v, want timeout", got.Finish)
	}
	h.clock.Advance(testIdle)
	wantFired(t, h, m)
}

func TestMoveCancelsReminder(t *testing.T) { eachTimedStore(t, testMoveCancelsReminder) }

func testMoveCancelsReminder(t *testing.T, h *harness, m Schedule) {
	r := h.start("UA", "UB")
	r = h.drops(r, 4)
	h.clock.Advance(testRemind - time.Second)
	r = h.drops(r, 4) // UB moves a second before the reminder
	h.clock.Advance(2 * time.Second)
	wantFired(t, h, m)
	h.clock.Advance(testRemind)
	n := wantFired(t, h, m, "remind")[0]
	if !slices.Equal(n.Post.Notify, []string{"UA"}) {
		t.Fatalf("reminder notifies %v, want UA, whose turn it is now", n.Post.Notify)
	}
	_ = r
}

// TestQuickMovesPutTimersOff: moves a few seconds apart put the turn's
// timers off, and each fires once, at its time: on Redis the later moves'
// entries stay where the first put them (lazy timers), and the schedule
// finds them early and puts them off.
func TestQuickMovesPutTimersOff(t *testing.T) {
	eachTimedStore(t, func(t *testing.T, h *harness, m Schedule) {
		r := h.start("UA", "UB")
		r = h.drops(r, 4) // UB to move
		first := h.clock.Now()
		for range 4 {
			h.clock.Advance(5 * time.Second)
			r = h.drops(r, 3)
		}
		last := h.clock.Now() // UB to move again, 20 s after the first drop
		h.clock.Advance(first.Add(testRemind).Sub(h.clock.Now()))
		wantFired(t, h, m)
		h.clock.Advance(last.Add(testRemind).Sub(h.clock.Now()) - time.Millisecond)
		wantFired(t, h, m)
		h.clock.Advance(time.Millisecond)
		n := wantFired(t, h, m, "remind")[0]
		if n.Post == nil || !slices.Equal(n.Post.Notify, []string{"UB"}) {
			t.Fatalf("reminder %+v, want one notifying UB", n.Post)
		}
		h.clock.Advance(testRemind)
		wantFired(t, h, m)
		h.clock.Advance(last.Add(testTimeout).Sub(h.clock.Now()) - time.Millisecond)
		wantFired(t, h, m)
		h.clock.Advance(time.Millisecond)
		wantFired(t, h, m, "timeout")
	})
}

func TestTakebackExpires(t *testing.T) {
	h, m := timedHarness(t)
	r := h.start("UA", "UB")
	h.drops(r, 4)
	h.want(h.say("UA", "takeback"), Public, ProblemNone)
	h.clock.Advance(testTTL)
	n := wantFired(t, h, m, "expire")[0]
	if n.Edit == nil || !strings.Contains(n.Edit.Text, "takeback request expired") || hasButton(*n.Edit, "Allow takeback") {
		t.Fatalf("notice %+v, want the game without the takeback", n.Edit)
	}
	if got := h.record(r); got.Takeback != nil {
		t.Fatalf("takeback %+v still pending", got.Takeback)
	}
	// The takeback kept UB's turn timers: the reminder comes an hour after UA's move.
	h.clock.Advance(testRemind - testTTL)
	wantFired(t, h, m, "remind")
}

func TestIdleGameAbandoned(t *testing.T) { eachTimedStore(t, testIdleGameAbandoned) }

func testIdleGameAbandoned(t *testing.T, h *harness, m Schedule) {
	r := h.start("UA", "UB")
	h.clock.Advance(testIdle - testTimeout)
	wantFired(t, h, m, "remind", "timeout")
	h.clock.Advance(testTimeout)
	n := wantFired(t, h, m, "abandon")[0]
	if n.Edit == nil || len(n.Edit.Buttons) != 0 || !strings.Contains(n.Edit.Text, "abandoned") {
		t.Fatalf("notice %+v, want a final edit saying abandoned, without buttons", n.Edit)
	}
	got := h.record(r)
	if got.Status != match.StatusFinished || got.Active(h.clock.Now()) {
		t.Fatalf("abandoned record %v, want finished", got.Status)
	}
	h.want(h.say("UA", "<@UB>"), Public, ProblemNone) // the players are free
}

func TestOfferExpires(t *testing.T) {
	h, m := timedHarness(t)
	r := h.start("UA", "UB")
	r = h.drops(r, 1, 2, 1, 2, 1, 2, 1) // UA wins
	o := h.click("UB", r, "Rematch")
	h.want(o, Update, ProblemNone, "offers a rematch")
	h.clock.Advance(testTTL)
	n := wantFired(t, h, m, "expire")[0]
	if n.Edit == nil || !strings.Contains(n.Edit.Text, "rematch offer expired") || hasButton(*n.Edit, "Accept") || hasButton(*n.Edit, "Rematch") {
		t.Fatalf("notice %+v, want the board without the offer's buttons", n.Edit)
	}
}

// TestFireAgainAfterCrash: a worker that dies after its update landed but
// before its notice went out leaves the entry, claimed again after the
// lease, to a worker that sends the notice without writing again.
func TestFireAgainAfterCrash(t *testing.T) {
	h, m := timedHarness(t)
	r := h.start("UA", "UB")
	h.clock.Advance(testRemind)
	due, err := m.Claim(t.Context(), 10, time.Minute)
	if err != nil || len(due) != 1 {
		t.Fatalf("Claim = %v, %v", due, err)
	}
	if _, err := h.svc.Fire(t.Context(), due[0]); err != nil { // ...and the worker dies
		t.Fatal(err)
	}
	v := h.record(r).Version
	h.clock.Advance(time.Minute)
	kinds, ns := fired(t, h, m)
	if !slices.Equal(kinds, []string{"remind"}) || ns[0].Post == nil {
		t.Fatalf("after the lease: %v, want the reminder again", kinds)
	}
	if got := h.record(r).Version; got != v {
		t.Fatalf("version %d after the second fire, want %d: nothing written", got, v)
	}
	if m.Pending() == 0 {
		t.Fatal("no entries left: the timeout and abandon timers are gone")
	}
}

// fakeNotifier records what a worker sends, failing as told.
type fakeNotifier struct {
	mu    sync.Mutex
	fail  func(n int) error // the error of the n-th call (from 1), nil for success
	calls int
	sent  []string // "edit:<text>" or "post:<text>"
}

func (f *fakeNotifier) send(what string, r Reply) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.calls++
	if f.fail != nil {
		if err := f.fail(f.calls); err != nil {
			return err
		}
	}
	f.sent = append(f.sent, what+":"+r.Text)
	return nil
}

func (f *fakeNotifier) Edit(_ context.Context, _ match.Key, _ match.MessageRef, r Reply) error {
	return f.send("edit", r)
}

func (f *fakeNotifier) Post(_ context.Context, _ match.Key, _ match.MessageRef, r Reply) error {
	return f.send("post", r)
}

func (f *fakeNotifier) snapshot() []string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return slices.Clone(f.sent)
}

type counter struct {
	mu sync.Mutex
	n  map[string]int
}

func (c *counter) hook(name string) func(string) {
	return func(kind string) {
		c.mu.Lock()
		defer c.mu.Unlock()
		if c.n == nil {
			c.n = map[string]int{}
		}
		c.n[name+":"+kind]++
	}
}

func (c *counter) get(k string) int {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.n[k]
}

func (c *counter) hooks() WorkerHooks {
	return WorkerHooks{Due: c.hook("due"), Handled: c.hook("handled"), Failed: c.hook("failed"), Retried: c.hook("retried")}
}

func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// TestTimersThreePlayers: in a game of 3 the reminder names both others,
// and the timeout offers the Claim button to the next player after the
// idle one, the only one who may claim.
func TestTimersThreePlayers(t *testing.T) {
	h, m := timedHarness(t)
	r := h.say("UA", "<@UB> <@UC>")
	r = h.click("UB", r, "Accept")
	r = h.click("UC", r, "Accept")
	h.want(r, Update, ProblemNone)
	mover := r.Game.Turn()
	rec := h.record(r)
	idle := rec.PlayerOf(mover)
	h.clock.Advance(testRemind)
	n := wantFired(t, h, m, "remind")[0]
	if !slices.Equal(n.Post.Notify, []string{idle.ID}) || strings.Count(n.Post.Text, " and ") != 1 {
		t.Fatalf("reminder %q notifying %v, want %s named with the two others", n.Post.Text, n.Post.Notify, idle.ID)
	}
	h.clock.Advance(testTimeout - testRemind)
	n = wantFired(t, h, m, "timeout")[0]
	next := rec.PlayerOf(nextAfter(rec.Game, mover))
	if !hasButton(*n.Edit, "Claim") || !strings.Contains(n.Edit.Text, "<@"+next.ID+">, next to move, may claim, and <@"+idle.ID+"> then leaves the game") {
		t.Fatalf("timeout notice %q, want a Claim for %s that takes %s out", n.Edit.Text, next.ID, idle.ID)
	}
	c := h.click(next.ID, *n.Edit, "Claim")
	h.want(c, Public, ProblemNone)
}
