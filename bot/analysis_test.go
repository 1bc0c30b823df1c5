package bot

import (
	"context"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/connect4/connect4/bot/lang"
	"github.com/connect4/connect4/engine"
	"github.com/connect4/connect4/engine/solver"
)

// countAnalyses makes h's service count its analyses, each within budget.
func countAnalyses(h *harness, budget time.Duration) *atomic.Int64 {
	var n atomic.Int64
	h.svc.opt.AnalysisBudget = budget
	h.svc.opt.Analyze = func(ctx context.Context, g *engine.Game, b time.Duration) (solver.Analysis, error) {
		n.Add(1)
		return solver.Analyze(ctx, g, b)
	}
	return &n
}

// analysedGame is a game of 32 moves that yellow wins: a position of
// Pons' test set L2_R1 played on by two medium players. Its turning point
// is move 25, where red played column 5 instead of connecting in 6.
const analysedGame = "55542243332345117644151156633622"

func digits(s string) []int {
	cols := make([]int, len(s))
	for i := range s {
		cols[i] = int(s[i] - '0')
	}
	return cols
}

func TestAnalysisFlow(t *testing.T) {
	forEachStoreInTurn(t, func(t *testing.T, h *harness) {
		runs := countAnalyses(h, time.Second)
		h.want(h.say("UA", "analyze"), Ephemeral, ProblemNothingToAnalyze)

		r := h.start("UA", "UB")
		if hasButton(r, "Analysis") {
			t.Fatalf("a game being played has an Analysis button: %v", r.Buttons)
		}
		cols := digits(analysedGame)
		r = h.drops(r, cols[:len(cols)-1]...)
		h.want(h.say("UA", "analyze"), Ephemeral, ProblemNothingToAnalyze)
		r = h.drops(r, cols[len(cols)-1])
		h.want(r, Update, ProblemNone, "wins")
		if !hasButton(r, "Analysis") {
			t.Fatalf("no Analysis button on the finished game: %v", r.Buttons)
		}

		a := h.say("UB", "analysis")
		red, yellow := r.Red.ID, r.Yellow.ID
		h.want(a, Ephemeral, ProblemNone, "*Analysis* of <@"+red+"> (red) vs <@"+yellow+"> (yellow), 32 moves: exact",
			"*Turning point:* move 25, <@"+red+">'s column 5 threw away the win; column 6 still won in 1 move.", "25.5✗", "32.2✓")
		if len(a.Text) > MaxAnalysisText {
			t.Errorf("analysis of %d characters, more than %d", len(a.Text), MaxAnalysisText)
		}
		if got := runs.Load(); got != 1 {
			t.Fatalf("%d analyses after one ask, want 1", got)
		}
		rec := h.record(r)
		if rec.Analysis == nil || len(rec.Analysis.Moves) != len(cols) {
			t.Fatalf("the record keeps no analysis of its %d moves: %+v", len(cols), rec.Analysis)
		}

		// Asking again, by command or by the button, costs no solve; a
		// spectator may look too.
		again := h.click("UC", r, "Analysis")
		h.want(again, Ephemeral, ProblemNone)
		if again.Text != a.Text {
			t.Errorf("the kept analysis reads\n%s\nwant\n%s", again.Text, a.Text)
		}
		h.want(h.say("UA", "analyze"), Ephemeral, ProblemNone, "*Turning point:* move 25")
		if got := runs.Load(); got != 1 {
			t.Errorf("%d analyses after three asks, want 1 (the kept one)", got)
		}
		// A spectator has no finished game of their own.
		h.want(h.say("UC", "analyze"), Ephemeral, ProblemNothingToAnalyze)
	})
}

func hasButton(r Reply, label string) bool {
	for _, b := range r.Buttons {
		if b.Label == label {
			return true
		}
	}
	return false
}

func TestAnalysisStaleButton(t *testing.T) {
	forEachStoreInTurn(t, func(t *testing.T, h *harness) {
		countAnalyses(h, 200*time.Millisecond)
		r := h.start("UA", "UB")
		r = h.drops(r, 1, 2, 1, 2, 1, 2, 1)
		i := -1
		for j, b := range r.Buttons {
			if b.Label == "Analysis" {
				i = j
			}
		}
		if i < 0 {
			t.Fatal("no Analysis button")
		}
		forged := r
		forged.Buttons = []Button{{Label: "Analysis", Value: Action{Kind: KindAnalyze, GameID: h.record(r).ID, Move: 3}.String()}}
		h.want(h.click("UA", forged, "Analysis"), Ephemeral, ProblemStale)
		forged.Buttons = []Button{{Label: "Analysis", Value: Action{Kind: KindAnalyze, GameID: "nosuchgame", Move: 7}.String()}}
		h.want(h.click("UA", forged, "Analysis"), Ephemeral, ProblemStale)
	})
}

func TestAnalysisTextFits(t *testing.T) {
	// A full board of 90 moves, each one marked,
	// must still fit.
	// Row by row on 9 columns: a checkerboard, with no line of 10.
	cfg := engine.Config{Rows: 10, Cols: 9, Connect: 10}
	g, err := engine.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	var a solver.Analysis
	for range 10 {
		for c := range 9 {
			if err := g.Play(g.Turn(), c); err != nil {
				t.Fatal(err)
			}
			a.Moves = append(a.Moves, solver.MoveVerdict{Column: c, Verdict: solver.KeptDraw, Only: true, Best: c})
		}
	}
	a.Proven = 90
	a.Turning = -1
	text := AnalysisText(lang.English, a, g, player("UA"), player("UB"))
	if len(text) > MaxAnalysisText || !strings.HasSuffix(text, "90.9!") {
		t.Errorf("analysis of %d characters (limit %d), ends %q", len(text), MaxAnalysisText, text[max(0, len(text)-20):])
	}
	for _, tc := range []struct {
		in   string
		n    int
		want string
	}{
		{"1.4✓ 2.4✓ 3.3✗", 100, "1.4✓ 2.4✓ 3.3✗"},
		{"1.4✓ 2.4✓ 3.3✗", 14, "1.4✓ 2.4✓"}, // ✓ is 3 bytes
		{"1.4✓2.4✓", 5, "1.4"},              // no space: whole runes only
		{"abc", 0, ""},
	} {
		if got := cut(tc.in, tc.n); got != tc.want {
			t.Errorf("cut(%q, %d) = %q, want %q", tc.in, tc.n, got, tc.want)
		}
	}
}

func TestAnalyzeMoves(t *testing.T) {
	t.Parallel() // it waits (its own servers, timers) and shares nothing
	text, err := AnalyzeMoves(t.Context(), lang.English, engine.DefaultConfig(), analysedGame, time.Second)
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"@red (red) vs @yellow (yellow), 32 moves: exact", "move 25, @red's column 5 threw away the win; column 6 still won in 1 move.", "32.2✓"} {
		if !strings.Contains(text, want) {
			t.Errorf("AnalyzeMoves text\n%s\ndoes not contain %q", text, want)
		}
	}
	other, err := AnalyzeMoves(t.Context(), lang.English, engine.Config{Rows: 7, Cols: 10, Connect: 4}, "1,2,1,2,1,2,10,2", 300*time.Millisecond) // a heuristic analysis takes its whole budget
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(other, "The solver is exact only on 7 columns × 6 rows") {
		t.Errorf("10x7 analysis does not say it is not exact:\n%s", other)
	}
	for _, tc := range []struct {
		cfg   engine.Config
		moves string
	}{
		{engine.DefaultConfig(), ""},
		{engine.DefaultConfig(), "18"},
		{engine.DefaultConfig(), "1x"},
		{engine.DefaultConfig(), "1111111"},
		{engine.DefaultConfig(), "12121212"}, // a move after the connect
		{engine.Config{Rows: 3, Cols: 7, Connect: 4}, "1"},
		{engine.Config{Rows: 6, Cols: 7, Connect: 4, Players: 3}, "123"},
	} {
		if _, err := AnalyzeMoves(t.Context(), lang.English, tc.cfg, tc.moves, time.Second); err == nil {
			t.Errorf("AnalyzeMoves(%+v, %q) = nil error", tc.cfg, tc.moves)
		}
	}
}
