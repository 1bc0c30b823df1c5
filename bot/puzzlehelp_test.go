package bot

import (
	"testing"
	"time"

	"github.com/connect4/connect4/bot/lang"
	"github.com/connect4/connect4/sessions"
	"github.com/connect4/connect4/sessions/storetest"
)

func TestFamily(t *testing.T) {
	tests := []struct {
		cols int
		want []int // by column, 0-based
	}{
		{7, []int{3, 2, 1, 0, 1, 2, 3}},
		{9, []int{3, 3, 2, 1, 0, 1, 2, 3, 3}},
		{6, []int{3, 2, 1, 1, 2, 3}},
		{4, []int{2, 1, 1, 2}},
	}
	for _, tt := range tests {
		for c, want := range tt.want {
			if got := family(c, tt.cols); got != want {
				t.Errorf("family(%d, %d) = %d, want %d", c, tt.cols, got, want)
			}
		}
	}
}

func TestParsePuzzle(t *testing.T) {
	tests := []struct {
		in   string
		want PuzzleAsk
	}{
		{"puzzle", PuzzleNew},
		{"puzzle hard", PuzzleNew},
		{"puzzle hint", PuzzleHint},
		{"puzzle HINT", PuzzleHint},
		{"puzzle give up", PuzzleGiveUp},
		{"puzzle giveup", PuzzleGiveUp},
		{"puzzle solution", PuzzleGiveUp},
	}
	for _, tt := range tests {
		r, err := ParseText(tt.in)
		if err != nil || r.Kind != KindPuzzle || r.PuzzleAsk != tt.want {
			t.Errorf("ParseText(%q) = %+v, %v; want KindPuzzle, ask %d", tt.in, r, err, tt.want)
		}
	}
	if sug, ok := Suggest("puzzle hnit", nil); sug != "puzzle hint" || !ok {
		t.Errorf(`Suggest("puzzle hnit") = %q, %v; want "puzzle hint"`, sug, ok)
	}
}

// TestPuzzleHintAndGiveUp plays the case: a puzzle, a hint (the
// family of the solution's next move, to the solver alone), a give-up (the
// solution, to the channel, which ends it), and a hint after it.
func TestPuzzleHintAndGiveUp(t *testing.T) {
	clk := storetest.NewClock(time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC))
	h := newHarness(t, storetest.NewMemory(t, sessions.Options{Now: clk.Now}), clk, "")
	h.want(h.say("UA", "puzzle hint"), Ephemeral, ProblemNoPuzzle, "`/connect4 puzzle`")
	h.want(h.say("UA", "puzzle give up"), Ephemeral, ProblemNoPuzzle)
	start := h.say("UA", "puzzle easy")
	h.want(start, Public, ProblemNone, "Puzzle")
	rec := h.record(start)
	pz := rec.Puzzle
	hint := h.say("UA", "puzzle hint")
	h.want(hint, Ephemeral, ProblemNone)
	want := lang.English.Say(hintIDs[family(pz.Solution[0], 7)], nil)
	if hint.Text != want {
		t.Errorf("hint = %q, want %q (solution %v)", hint.Text, want, pz.Solution)
	}
	h.want(h.say("UB", "puzzle hint"), Ephemeral, ProblemNoPuzzle) // not theirs
	gave := h.say("UA", "puzzle give up")
	h.want(gave, Public, ProblemNone, "<@UA> gave up the puzzle.", solutionText(lang.English, pz))
	if r := h.record(gave); r == nil || !r.Game.State().Over() {
		t.Errorf("after giving up, the puzzle is not over: %+v", r)
	}
	h.want(h.say("UA", "puzzle hint"), Ephemeral, ProblemNoPuzzle)
}
