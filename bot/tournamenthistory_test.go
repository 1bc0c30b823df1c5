package bot

import (
	"strings"
	"testing"
)

// TestTournamentHistory: a finished tournament's final table goes to the
// channel's record once: tournament history lists it with its winner and
// shows its table, stats counts the winner's tournaments; a cancelled one
// is not recorded.
func TestTournamentHistory(t *testing.T) {
	forEachStore(t, func(t *testing.T, h *harness) {
		ctx := t.Context()
		ts := h.store.(TournamentStore)
		h.want(h.say("UA", "tournament history"), Ephemeral, ProblemNone, "No tournament has finished in this channel yet.")
		h.svc.HandleText(ctx, Command{Key: h.key, User: player("UO"), Self: h.self, CanManage: true}, "tournament new round-robin")
		for _, u := range []string{"UA", "UB", "UC"} {
			h.say(u, "tournament join")
		}
		h.say("UO", "tournament start")
		// Every game is lost by whoever is not UA: UA wins everything.
		for round := 1; round <= 3; round++ {
			tr, err := ts.Tournament(ctx, h.key)
			if err != nil {
				t.Fatal(err)
			}
			for _, g := range tr.Rounds[round-1].Games {
				w, b := tr.Players[g.White].ID, tr.Players[g.Black].ID
				loser := w
				if w == "UA" {
					loser = b
				}
				if r := h.say(loser, "resign"); r.Problem != ProblemNone {
					t.Fatalf("round %d: %s resigns: %q", round, loser, r.Text)
				}
			}
		}
		hist, err := ts.TournamentHistory(ctx, h.key)
		if err != nil || len(hist) != 1 || len(hist[0].Winners()) != 1 || hist[0].Winners()[0].ID != "UA" || hist[0].Places[0].Score != 4 {
			t.Fatalf("history %+v (%v), want one tournament won by UA with 2 points", hist, err)
		}
		r := h.say("UB", "tournament history")
		h.want(r, Ephemeral, ProblemNone, "Finished tournaments here", "Round robin: won by <@UA>, score 2", "Final standings:", "1. <@UA>: score 2 (", "<@UC>: score 1 (")
		if s := h.say("UA", "stats"); !strings.Contains(s.Text, "Tournaments won here: 1") {
			t.Errorf("UA's stats %q, want a tournament won", s.Text)
		}
		if s := h.say("UB", "stats"); strings.Contains(s.Text, "Tournaments won") {
			t.Errorf("UB's stats %q count a tournament won", s.Text)
		}
		// A cancelled one is not recorded.
		h.svc.HandleText(ctx, Command{Key: h.key, User: player("UO"), Self: h.self, CanManage: true}, "tournament new swiss")
		for _, u := range []string{"UA", "UB", "UC"} {
			h.say(u, "tournament join")
		}
		h.say("UO", "tournament start")
		h.say("UO", "tournament cancel")
		if hist, _ := ts.TournamentHistory(ctx, h.key); len(hist) != 1 {
			t.Errorf("after a cancelled one: %d recorded, want 1", len(hist))
		}
	})
}
