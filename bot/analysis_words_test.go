package bot

import (
	"strings"
	"testing"

	"github.com/connect4/connect4/bot/lang"
	"github.com/connect4/connect4/bot/match"
	"github.com/connect4/connect4/engine"
	"github.com/connect4/connect4/engine/solver"
)

// TestAnalysisWords checks the analysis wording: a puzzle's
// preset moves are nobody's mistakes or turning point, one proven move is
// not "moves 7–7", the unproven moves are said as ranges, and "no only
// move" is said only of moves all looked at.
func TestAnalysisWords(t *testing.T) {
	red, yellow := match.Player{ID: "UBOT"}, match.Player{ID: "UA"}
	g, err := engine.New(engine.DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	moves := func(n int, mistake int) []solver.MoveVerdict {
		ms := make([]solver.MoveVerdict, n)
		for i := range ms {
			ms[i] = solver.MoveVerdict{Column: i % 7, Verdict: solver.KeptDraw, Best: -1}
		}
		if mistake >= 0 {
			ms[mistake].Verdict = solver.ThrewWin
		}
		return ms
	}
	// unproven leaves the moves at the indexes given without a verdict.
	unproven := func(ms []solver.MoveVerdict, unknown ...int) solver.Analysis {
		for _, i := range unknown {
			ms[i].Verdict = solver.VerdictUnknown
		}
		return solver.Analysis{Exact: true, Moves: ms, Turning: -1, Proven: len(ms) - len(unknown)}
	}
	tests := []struct {
		name      string
		a         solver.Analysis
		from      int
		slip      int
		want, not []string
	}{
		{"puzzle: a mistake before its start", solver.Analysis{Exact: true, Moves: moves(16, 11), Turning: 11, Proven: 16}, 12, -1,
			[]string{"<@UA>: no mistake", "<@UBOT>: no mistake"}, []string{"Turning point", "move 12", "The outcome never changed"}},
		{"puzzle: a mistake after its start", solver.Analysis{Exact: true, Moves: moves(16, 13), Turning: 13, Proven: 16}, 12, -1,
			[]string{"Turning point:* move 14, <@UA>", "<@UA>: 1 mistake (move 14)"}, nil},
		{"a game: the same mistake counts", solver.Analysis{Exact: true, Moves: moves(16, 11), Turning: 11, Proven: 16}, 0, -1,
			[]string{"move 12, <@UA>", "<@UA>: 1 mistake (move 12)"}, nil},
		// The unproven moves said as ranges: those the outcome table and
		// the book hold are proven even when the time ran out before them.
		{"one move proven", unproven(moves(7, -1), 0, 1, 2, 3, 4, 5), 0, -1,
			[]string{"Moves 1–6 were not proven in the time there was"}, []string{"7–7"}},
		{"one move not proven", unproven(moves(7, -1), 4), 0, -1,
			[]string{"Move 5 was not proven in the time there was"}, []string{"5–5"}},
		{"moves not proven between proven ones", unproven(moves(12, -1), 3, 4, 6, 7, 8), 0, -1,
			[]string{"Moves 4–5, 7–9 were not proven in the time there was (the opening is the longest to solve); the others were."}, nil},
		// The failed puzzle: it fails on its move limit while the
		// solver still sees a win, so no move is a mistake of the game.
		{"puzzle failed on its move limit", solver.Analysis{Exact: true, Moves: moves(16, -1), Turning: -1, Proven: 16}, 12, 14,
			[]string{"*Puzzle failed* at move 15: <@UBOT>'s column 1", "<@UBOT>: 1 mistake (move 15)", "<@UA>: no mistake"}, []string{"<@UBOT>: no mistake"}},
		// The verb went with the number of moves, not of proofs: "1 of
		// the 5 moves have a proof".
		{"one of five proven, not exact", solver.Analysis{Moves: moves(5, -1), Turning: -1, Proven: 1}, 0, -1,
			[]string{"A proof was found for 1 of the 5 moves; the others are marked ?."}, []string{"have a proof"}},
		{"three of five proven, not exact", solver.Analysis{Moves: moves(5, -1), Turning: -1, Proven: 3}, 0, -1,
			[]string{"A proof was found for 3 of the 5 moves"}, nil},
		// Only moves: "no only move" only where every move was looked at.
		{"only moves all looked at", solver.Analysis{Exact: true, Moves: moves(16, -1), Turning: -1, Proven: 16}, 0, -1,
			[]string{"<@UBOT>: no mistake, no only move.", "<@UA>: no mistake, no only move."}, []string{"not checked"}},
		{"only moves looked at from move 12", solver.Analysis{Exact: true, Moves: moves(16, -1), Turning: -1, Proven: 16, OnlyFrom: 11}, 0, -1,
			[]string{"<@UBOT>: no mistake, no only move found (some moves not checked).", "<@UA>: no mistake, no only move found (some moves not checked)."}, nil},
		{"one side's moves all looked at", solver.Analysis{Exact: true, Moves: moves(16, -1), Turning: -1, Proven: 16, OnlyFrom: 1}, 0, -1,
			[]string{"<@UBOT>: no mistake, no only move found (some moves not checked).", "<@UA>: no mistake, no only move."}, nil},
		{"puzzle failed: a slip before its start is nobody's", solver.Analysis{Exact: true, Moves: moves(16, -1), Turning: -1, Proven: 16}, 12, 10,
			[]string{"<@UBOT>: no mistake"}, []string{"Puzzle failed"}},
	}
	for _, tt := range tests {
		got := analysisFrom(lang.English, tt.a, g, red, yellow, tt.from, tt.slip)
		for _, w := range tt.want {
			if !strings.Contains(got, w) {
				t.Errorf("%s: analysis lacks %q:\n%s", tt.name, w, got)
			}
		}
		for _, w := range tt.not {
			if strings.Contains(got, w) {
				t.Errorf("%s: analysis has %q:\n%s", tt.name, w, got)
			}
		}
	}
}
