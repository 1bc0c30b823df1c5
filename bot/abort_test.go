package bot

import (
	"strings"
	"testing"

	"github.com/connect4/connect4/bot/match"
)

// TestAbort: before both players have moved either may abort, and the
// game counts nowhere (no round, no rating, no leaderboard line); once
// both have moved it is refused with one line that changes nothing.
func TestAbort(t *testing.T) {
	forEachStore(t, func(t *testing.T, h *harness) {
		r := h.start("UA", "UB")
		r = h.drops(r, 4) // only UA has moved
		a := h.say("UB", "abort")
		h.want(a, Public, ProblemNone, "<@UB> aborted the game", "counts nowhere")
		got := h.record(r)
		if got.Status != match.StatusFinished || got.Finish != match.FinishCancelled || len(got.Rounds) != 0 || got.Rating != nil {
			t.Fatalf("after abort: %v/%v rounds %v rating %v, want cancelled, no round, unrated", got.Status, got.Finish, got.Rounds, got.Rating)
		}
		if lb := h.say("UA", "leaderboard"); lb.Problem != ProblemNone || strings.Contains(lb.Text, "ua") || strings.Contains(lb.Text, "UA") {
			t.Fatalf("leaderboard after an aborted game: %q, want nobody on it", lb.Text)
		}

		r = h.start("UA", "UB")
		r = h.drops(r, 4, 4)
		a = h.say("UA", "abort")
		h.want(a, Ephemeral, ProblemGameOver, "Too late to abort")
		if got := h.record(r); got.Status != match.StatusPlaying {
			t.Fatalf("a refused abort changed the game: %v", got.Status)
		}
	})
}
