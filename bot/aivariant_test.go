package bot

import (
	"testing"
	"time"

	"github.com/connect4/connect4/engine/solver"
	"github.com/connect4/connect4/sessions"
	"github.com/connect4/connect4/sessions/storetest"
)

func TestParseAIVariant(t *testing.T) {
	tests := []struct {
		in    string
		level solver.Level
		v     Variant
		p     Problem
	}{
		{"ai", solver.LevelNone, Variant{}, ProblemNone},
		{"ai hard", solver.Hard, Variant{}, ProblemNone},
		{"ai hard 9x7", solver.Hard, Variant{Cols: 9, Rows: 7}, ProblemNone}, // the issue's
		{"ai 8x8 connect 5", solver.LevelNone, Variant{Cols: 8, Rows: 8, Connect: 5}, ProblemNone},
		{"ai easy first-to 3", solver.Easy, Variant{FirstTo: 3}, ProblemNone},
		{"ai first to 2 medium", solver.LevelNone, Variant{}, ProblemUsage}, // the level comes first
		{"ai impossible", solver.LevelNone, Variant{}, ProblemBadLevel},
		{"ai hard 9x0", solver.Hard, Variant{}, ProblemBadVariant},
	}
	for _, tt := range tests {
		r, err := ParseText(tt.in)
		if p := problemOf(err); p != tt.p {
			t.Errorf("ParseText(%q): problem %v (%v), want %v", tt.in, p, err, tt.p)
			continue
		}
		if tt.p != ProblemNone {
			continue
		}
		if r.Kind != KindAI || r.Level != tt.level || r.Variant != tt.v {
			t.Errorf("ParseText(%q) = %v %v %+v, want ai %v %+v", tt.in, r.Kind, r.Level, r.Variant, tt.level, tt.v)
		}
	}
}

// TestAIAnyVariant plays the AI on another board and as a match, typed
// both ways: "ai ..." and "@bot ...".
func TestAIAnyVariant(t *testing.T) {
	tests := []struct {
		text             string
		cols, rows, conn int
		firstTo          int
	}{
		{"ai hard 9x7", 9, 7, 4, 1},
		{"ai easy 8x8 connect 5 first-to 3", 8, 8, 5, 3},
		{"<@UBOT> first-to 2", 7, 6, 4, 2}, // the issue's: was a single game
	}
	for _, tt := range tests {
		clk := storetest.NewClock(time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC))
		h := newHarness(t, storetest.NewMemory(t, sessions.Options{Now: clk.Now}), clk, "")
		r := h.say("UA", tt.text)
		h.want(r, Public, ProblemNone)
		rec := h.record(r)
		c := rec.Game.Config()
		if c.Cols != tt.cols || c.Rows != tt.rows || c.Connect != tt.conn || rec.FirstTo != tt.firstTo || rec.AILevel == solver.LevelNone {
			t.Errorf("%q: %dx%d connect %d first-to %d (AI %v), want %dx%d connect %d first-to %d",
				tt.text, c.Cols, c.Rows, c.Connect, rec.FirstTo, rec.AILevel, tt.cols, tt.rows, tt.conn, tt.firstTo)
		}
	}
}

// TestAIMatchNextRound wins a round of a match against the AI and starts
// the next at once, the AI red and moving first.
func TestAIMatchNextRound(t *testing.T) {
	clk := storetest.NewClock(time.Date(2026, 11, 29, 12, 0, 0, 0, time.UTC))
	h := newHarness(t, storetest.NewMemory(t, sessions.Options{Now: clk.Now}), clk, "")
	r := h.say("UA", "ai easy first-to 2")
	// The AI (lowestColumn) plays column 1; four in column 4 wins.
	r = h.drops(r, 4, 4, 4, 4)
	if rec := h.record(r); len(rec.Rounds) != 1 || rec.Rounds[0].Winner != "UA" || rec.Status == 0 {
		t.Fatalf("after the first round: %+v, %q", rec.Rounds, r.Text)
	}
	next := h.click("UA", r, "Next round")
	h.want(next, Update, ProblemNone, "Round 2")
	rec := h.record(next)
	if rec.Game.Moves() != 1 || rec.RedID == "UA" {
		t.Errorf("round 2: %d moves, red %s; want the AI red with its first move played (%q)", rec.Game.Moves(), rec.RedID, next.Text)
	}
}
