package bot

import (
	"context"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/connect4/connect4/bot/match"
	"github.com/connect4/connect4/engine"
	"github.com/connect4/connect4/engine/solver"
)

// perfectAI makes h's AI the real hard level, the puzzles' perfect defender.
func perfectAI(h *harness) {
	ai := solver.NewAI()
	h.svc.opt.AI = func(ctx context.Context, g *engine.Game, level solver.Level, budget time.Duration) (int, error) {
		return ai.ChooseMove(ctx, g, level, nil, time.Second)
	}
}

// bestColumn is the solver's best column in g (7 × 6), 1-based.
func bestColumn(t *testing.T, g *engine.Game) int {
	var moves strings.Builder
	for _, c := range g.History() {
		moves.WriteString(strconv.Itoa(c + 1))
	}
	p, err := solver.ParsePosition(moves.String())
	if err != nil {
		t.Fatal(err)
	}
	col, _ := solver.NewSolver().BestMove(p)
	return col + 1
}

func TestPuzzleFlow(t *testing.T) {
	forEachStoreInTurn(t, func(t *testing.T, h *harness) {
		perfectAI(h)
		for _, level := range []string{"easy", "medium", "hard"} {
			r := h.say("UA", "puzzle "+level)
			h.want(r, Public, ProblemNone, "*Puzzle* ("+level+") for <@UA>", "it's your move")
			rec := h.record(r)
			pz := rec.Puzzle
			if pz == nil || pz.Level.String() != level || rec.Game.Moves() != pz.Start || rec.PlayerOf(rec.Game.Turn()).ID != "UA" {
				t.Fatalf("puzzle record %+v, game of %d moves, %s to move", pz, rec.Game.Moves(), rec.PlayerOf(rec.Game.Turn()).ID)
			}
			h.want(h.say("UA", "takeback"), Ephemeral, ProblemPuzzleNoTakeback)
			// Best play wins in the moves allowed, against the best defence.
			for own := 1; ; own++ {
				if own > pz.WinIn {
					t.Fatalf("%s puzzle not solved in %d moves", level, pz.WinIn)
				}
				r = h.click("UA", r, strconv.Itoa(bestColumn(t, r.Game)))
				if r.Problem != ProblemNone {
					t.Fatalf("move refused: %q", r.Text)
				}
				if r.Game.State().Over() {
					break
				}
			}
			h.want(r, Update, ProblemNone, "<@UA> wins!", "Puzzle solved! Solution: ")
			if hasButton(r, "Rematch") || !hasButton(r, "Analysis") {
				t.Errorf("buttons after a puzzle %v, want Analysis and no Rematch", r.Buttons)
			}
			h.want(h.click("UA", r, "1"), Ephemeral, ProblemGameOver)
		}
	})
}

func TestPuzzleFailed(t *testing.T) {
	forEachStoreInTurn(t, func(t *testing.T, h *harness) {
		perfectAI(h)
		// The analysis below needs the puzzle's moves proven, not the
		// opening before them, which takes the whole default budget.
		h.svc.opt.AnalysisBudget = 2 * time.Second
		r := h.say("UA", "puzzle hard")
		rec := h.record(r)
		// A column that keeps no win in the moves allowed.
		bad := -1
		for c := range 7 {
			if !rec.Game.CanPlay(c) {
				continue
			}
			if _, failed := solver.PuzzleStatus(rec.Puzzle.Start, rec.Puzzle.WinIn, append(rec.Game.History(), c)); failed {
				bad = c
				break
			}
		}
		if bad < 0 {
			t.Skip("every column of this puzzle keeps the win") // never for a hard one in practice
		}
		stale := r
		r = h.click("UA", r, strconv.Itoa(bad+1))
		h.want(r, Update, ProblemNone, "That move lets the win slip", "Puzzle failed. Solution: ")
		if got := h.record(r); got.Status != match.StatusFinished || got.Finish != match.FinishResign {
			t.Errorf("failed puzzle: status %v finish %v, want finished by resignation", got.Status, got.Finish)
		}
		h.want(h.click("UA", stale, "4"), Ephemeral, ProblemGameOver) // as for any finished game
		h.want(h.say("UA", "rematch"), Ephemeral, ProblemRematchButton)
		// The analysis says what failed it, not "no mistake". It spends
		// its whole budget on the opening before the puzzle, so it runs
		// on one store: TestAnalysisFlow takes an analysis through both.
		if h.prefix != "" {
			return
		}
		slip := strconv.Itoa(rec.Game.Moves() + 1)
		a := h.say("UA", "analyze")
		h.want(a, Ephemeral, ProblemNone, "*Puzzle failed* at move "+slip, "<@UA>: 1 mistake (move "+slip+")")
		if strings.Contains(a.Text, "<@UA>: no mistake") {
			t.Errorf("failed puzzle's analysis: %s", a.Text)
		}
	})
}
