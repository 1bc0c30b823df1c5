package bot

import (
	"context"
	"fmt"
	"runtime"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/connect4/connect4/bot/match"
	"github.com/connect4/connect4/engine"
	"github.com/connect4/connect4/engine/solver"
	"github.com/connect4/connect4/sessions"
	"github.com/connect4/connect4/sessions/storetest"
)

// TestAIBounded starts 4× as many AI games as the machine has cores and
// clicks a move in each at once, while pairs of humans play alongside. The
// AI searches running at once never exceed the bound; moves that find no
// slot in time are told to try again, with their own move kept; the human
// games are never refused. It reports the humans' p99 click latency with
// and without the AI load (measured, not asserted).
func TestAIBounded(t *testing.T) {
	cores := runtime.GOMAXPROCS(0)
	var running, peak atomic.Int64
	// A search that takes its whole budget, like hard in the opening.
	think := func(ctx context.Context, g *engine.Game, _ solver.Level, budget time.Duration) (int, error) {
		n := running.Add(1)
		defer running.Add(-1)
		for p := peak.Load(); n > p && !peak.CompareAndSwap(p, n); p = peak.Load() {
		}
		deadline := time.Now().Add(budget)
		for x := 0; time.Now().Before(deadline); x++ { // burn the CPU, as a search does
			if x%1024 == 0 && ctx.Err() != nil {
				break
			}
		}
		return g.LegalColumns()[0], nil
	}
	store := storetest.NewMemory(t, sessions.Options{})
	svc := New(store, Options{AI: think, AIBudget: 150 * time.Millisecond, AIQueueWait: 200 * time.Millisecond})
	self := match.Player{ID: "UBOT", Name: "connect4"}
	key := func(i int) match.Key {
		return match.Key{Platform: "test", Workspace: "T1", Channel: fmt.Sprintf("C%d", i)}
	}
	ctx := t.Context()

	humans := func(round int) []time.Duration {
		var mu sync.Mutex
		var lat []time.Duration
		var wg sync.WaitGroup
		for pair := range 4 {
			wg.Go(func() {
				k := key(1000 + 10*round + pair)
				a, b := match.Player{ID: "UA"}, match.Player{ID: "UB"}
				r := svc.HandleText(ctx, Command{Key: k, User: a, Self: self}, "<@UB>")
				req, _ := ParseAction(r.Buttons[0].Value)
				r = svc.Handle(ctx, Command{Key: k, User: b, Self: self, Request: req})
				for i := range 12 {
					mover := a
					if i%2 == 1 {
						mover = b
					}
					col := slices.IndexFunc(r.Buttons, func(b Button) bool { return !b.Disabled && b.Column == 1+i%3*2 })
					req, _ := ParseAction(r.Buttons[col].Value)
					start := time.Now()
					r = svc.Handle(ctx, Command{Key: k, User: mover, Self: self, Request: req})
					d := time.Since(start)
					if r.Problem != ProblemNone {
						t.Errorf("human move refused: %q", r.Text)
						return
					}
					mu.Lock()
					lat = append(lat, d)
					mu.Unlock()
				}
			})
		}
		wg.Wait()
		slices.Sort(lat)
		return lat
	}
	p99 := func(l []time.Duration) time.Duration { return l[len(l)*99/100] }

	quiet := humans(0)

	games := 4 * cores
	starts := make([]Reply, games)
	for i := range games {
		starts[i] = svc.HandleText(ctx, Command{Key: key(i), User: match.Player{ID: "UH"}, Self: self}, "ai hard")
		if starts[i].Problem != ProblemNone {
			t.Fatalf("start AI game %d: %q", i, starts[i].Text)
		}
	}
	var wg sync.WaitGroup
	var busy, answered atomic.Int64
	for i := range games {
		wg.Go(func() {
			req, _ := ParseAction(starts[i].Buttons[3].Value)
			r := svc.Handle(ctx, Command{Key: key(i), User: match.Player{ID: "UH"}, Self: self, Request: req})
			switch {
			case r.Problem != ProblemNone:
				t.Errorf("AI game %d: human move refused: %q", i, r.Text)
			case strings.Contains(r.Text, "many games at once"):
				busy.Add(1)
				if r.Game.Moves() != 1 {
					t.Errorf("AI game %d: busy reply with %d moves, want the human's 1 kept", i, r.Game.Moves())
				}
			case r.Game.Moves() == 2:
				answered.Add(1)
			default:
				t.Errorf("AI game %d: %d moves after the click: %q", i, r.Game.Moves(), r.Text)
			}
		})
	}
	loaded := humans(1)
	wg.Wait()

	if got := peak.Load(); got > int64(cores) {
		t.Errorf("%d AI searches ran at once, bound is %d", got, cores)
	}
	if answered.Load() == 0 {
		t.Error("no AI move was answered")
	}
	if busy.Load()+answered.Load() != int64(games) {
		t.Errorf("%d busy + %d answered of %d AI moves", busy.Load(), answered.Load(), games)
	}
	t.Logf("%d cores, %d AI games at once: %d answered, %d told to try again; peak %d searches",
		cores, games, answered.Load(), busy.Load(), peak.Load())
	t.Logf("human click p99: %v quiet, %v beside the AI load (%d clicks each)", p99(quiet), p99(loaded), len(loaded))
}

// TestReplayedCommand runs the same signed request twice: the second time
// nothing changes and the player is told why. A captured resign replayed
// after the rematch started is the attack this stops.
func TestReplayedCommand(t *testing.T) {
	forEachStore(t, func(t *testing.T, h *harness) {
		r := h.start("UA", "UB")
		req, err := ParseAction(r.Buttons[3].Value)
		if err != nil {
			t.Fatal(err)
		}
		cmd := Command{Key: h.key, User: player("UA"), Self: h.self, Request: req, Nonce: "1234567890"}
		first := h.svc.Handle(t.Context(), cmd)
		h.want(first, Update, ProblemNone, "dropped a disc in column 4")
		// The button's move number already makes a replayed click stale.
		if again := h.svc.Handle(t.Context(), cmd); again.Problem != ProblemStale && again.Problem != ProblemReplay {
			t.Errorf("replayed click: %v %q, want a refusal", again.Problem, again.Text)
		}
		rec := h.record(first)
		if rec.Game.Moves() != 1 {
			t.Errorf("%d moves after a replayed click, want 1", rec.Game.Moves())
		}
		// A resign replayed after the rematch started must not resign it.
		resign := Command{Key: h.key, User: player("UB"), Self: h.self, Request: Request{Kind: KindResign}, Nonce: "resign-1"}
		resigned := h.svc.Handle(t.Context(), resign)
		h.want(resigned, Public, ProblemNone, "resigned")
		h.want(h.click("UA", first, "4"), Ephemeral, ProblemGameOver)
		rematch := h.click("UA", resigned, "Rematch")
		h.want(rematch, Update, ProblemNone, "offers a rematch")
		started := h.click("UB", rematch, "Accept")
		h.want(started, Update, ProblemNone, "Rematch")
		h.want(h.svc.Handle(t.Context(), resign), Ephemeral, ProblemReplay)
		if rec := h.record(started); rec.Status != match.StatusPlaying || rec.ID == req.GameID {
			t.Errorf("the rematch %s is %v after a replayed resign, want a new game (not %s), playing", rec.ID, rec.Status, req.GameID)
		}
	})
}
