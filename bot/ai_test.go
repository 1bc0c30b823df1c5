package bot

import (
	"strconv"
	"testing"
	"time"

	"github.com/connect4/connect4/engine"
	"github.com/connect4/connect4/sessions"
	"github.com/connect4/connect4/sessions/storetest"
)

// TestAIGameWithSolver plays a whole game against the real AI (the
// engine/solver levels, not a stand-in) through the bot flow, then a
// rematch in which the AI opens.
func TestAIGameWithSolver(t *testing.T) {
	for _, level := range []string{"easy", "medium", "hard"} {
		t.Run(level, func(t *testing.T) {
			clk := storetest.NewClock(time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC))
			h := newHarness(t, storetest.NewMemory(t, sessions.Options{Now: clk.Now}), clk, "")
			h.svc = New(h.store, Options{Now: clk.Now, AIBudget: 50 * time.Millisecond})
			r := h.say("UA", "ai "+level)
			h.want(r, Public, ProblemNone, "takes on the AI ("+level+")")
			for moves := 0; r.Game.State() == engine.InProgress; moves++ {
				if moves > 42 {
					t.Fatal("the game did not end")
				}
				// The human plays the leftmost open column, a weak plan.
				col := r.Game.LegalColumns()[0]
				before := r.Game.Moves()
				r = h.click("UA", r, strconv.Itoa(col+1))
				h.want(r, Update, ProblemNone, "<@UA> dropped a disc")
				if r.Game.State() == engine.InProgress && r.Game.Moves() != before+2 {
					t.Fatalf("after the human's move the AI did not answer in the same update: %d moves, want %d", r.Game.Moves(), before+2)
				}
			}
			if level == "hard" && r.Game.Winner() != engine.Yellow {
				t.Errorf("hard AI lost to leftmost-column play:\n%s", r.Text)
			}
			r = h.click("UA", r, "Rematch")
			h.want(r, Update, ProblemNone, "Rematch!", "<@UBOT> dropped a disc")
			if r.Red.ID != "UBOT" || r.Game.Moves() != 1 || r.Game.Turn() != engine.Yellow {
				t.Fatalf("rematch: red %s, %d moves, turn %v; want the AI red and already moved", r.Red.ID, r.Game.Moves(), r.Game.Turn())
			}
			if top, _ := h.store.Leaderboard(t.Context(), h.key, 10); len(top) != 0 {
				t.Errorf("AI games reached the leaderboard: %v", top)
			}
		})
	}
}
