package bot

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/connect4/connect4/bot/match"
	"github.com/connect4/connect4/render"
)

// flowRatings plays rated games through the bot: each finished game between
// two people shows both new ratings and the change, a resignation counts as
// a loss for the one who resigned, an AI game changes no rating; the
// leaderboard ranks by rating and pings nobody; stats shows the rating,
// deviation, record, streak and sparkline, and head to head; only a manager
// can start a new season, which archives the standings.
func flowRatings(t *testing.T, h *harness) {
	// Game 1: UA beats UB on the board.
	r := h.drops(h.start("UA", "UB"), 1, 2, 1, 2, 1, 2, 1)
	ch, _ := match.Rate(match.Tally{Winner: player("UA"), Loser: player("UB"), Rated: true}, match.NewRating(), match.NewRating())
	want := fmt.Sprintf("Ratings: <@UA> %.0f? (+%.0f) · <@UB> %.0f? (−%.0f)",
		ch.After[0].Rating.Rating, math.Round(ch.After[0].Rating.Rating)-1500, ch.After[1].Rating.Rating, 1500-math.Round(ch.After[1].Rating.Rating))
	h.want(r, Update, ProblemNone, "<@UA> wins!", want)

	// Game 2: UB resigns the rematch: a loss for UB.
	r = h.agree("UB", "UA", r, "Rematch")
	h.want(r, Update, ProblemNone, "Rematch")
	r = h.say("UB", "resign")
	h.want(r, Public, ProblemNone, "resigned", "Ratings: <@UA> ", "<@UB> ")
	if !strings.Contains(r.Text, "(+") || !strings.Contains(r.Text, "(−") {
		t.Errorf("resignation's rating line %q lacks a gain and a loss", r.Text)
	}

	// An AI game in the channel changes no rating.
	ai := h.say("UC", "ai easy")
	h.want(ai, Public, ProblemNone, "takes on the AI")
	h.want(h.say("UC", "resign"), Public, ProblemNone, "resigned")
	if st, _ := h.store.Stats(t.Context(), h.key, "UC"); st.Rating != nil || st.Games() != 0 {
		t.Errorf("an AI game was rated or tallied: %+v", st)
	}

	lb := h.say("UC", "leaderboard")
	h.want(lb, Public, ProblemNone, "🥇 ua ", "· 2-0-0", "🥈 ub ", "· 0-2-0")
	if strings.Contains(lb.Text, "<@") {
		t.Errorf("the leaderboard mentions players: %q", lb.Text)
	}
	st := h.say("UC", "stats <@UA>")
	h.want(st, Ephemeral, ProblemNone, "<@UA> in this channel: rating ", "? (deviation ", "2 wins, 0 losses, 0 draws", "won the last 2", "Last 2 ratings: ")
	h.want(h.say("UC", "stats <@UA> <@UB>"), Ephemeral, ProblemNone, "<@UA> vs <@UB> this season: 2–0, 0 draws")
	h.want(h.say("UC", "stats <@UA> <@UC>"), Ephemeral, ProblemNone, "haven't played each other")

	// Seasons: refused without the right to manage the channel.
	h.want(h.say("UA", "season new"), Ephemeral, ProblemNotManager)
	cmd := Command{Key: h.key, User: player("UM"), Self: h.self, CanManage: true, Request: Request{Kind: KindNewSeason}}
	h.want(h.svc.Handle(t.Context(), cmd), Public, ProblemNone, "season 1 is archived (2 rated players)", "🥇 ua ")
	h.want(h.svc.Handle(t.Context(), cmd), Ephemeral, ProblemEmptySeason)
	h.want(h.say("UA", "seasons"), Ephemeral, ProblemNone, "Season 1 (ended ", "🥇 ua ", "🥈 ub ")
	if st, _ := h.store.Stats(t.Context(), h.key, "UA"); st.Rating != nil || st.Games() != 0 {
		t.Errorf("UA after the new season: %+v, want a fresh start", st)
	}
	h.want(h.say("UC", "leaderboard"), Public, ProblemNone, "No games have finished")
}

func TestSparkline(t *testing.T) {
	for _, tc := range []struct {
		in   []float64
		want string
	}{
		{nil, ""},
		{[]float64{1500}, "▅"},
		{[]float64{1500, 1500}, "▅▅"},
		{[]float64{1400, 1500, 1600}, "▁▅█"},
		{[]float64{1600, 1400}, "█▁"},
	} {
		if got := sparkline(tc.in); got != tc.want {
			t.Errorf("sparkline(%v) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestRatingText(t *testing.T) {
	r := match.NewRating()
	if got := ratingText(r); got != "1500?" {
		t.Errorf("new player's rating shows as %q, want 1500?", got)
	}
	r.Rating.Rating, r.Deviation = 1562.4, 80
	if got := ratingText(r); got != "1562" {
		t.Errorf("settled rating shows as %q, want 1562", got)
	}
}

// TestAIWithoutBotUser: where the platform does not say who this bot is,
// the AI is "the bot (level)" in every text, never a mention of nobody.
func TestAIWithoutBotUser(t *testing.T) {
	forEachStore(t, func(t *testing.T, h *harness) {
		h.self = match.Player{}
		r := h.say("UA", "ai easy")
		h.want(r, Public, ProblemNone, "takes on the AI (easy)")
		r = h.click("UA", r, "4")
		h.want(r, Update, ProblemNone, "the bot (easy) dropped a disc")
		m := r.Format(render.Unicode())
		for _, s := range []string{r.Text, m.Header, m.Status, r.Fallback()} {
			if strings.Contains(s, "<@"+aiID) {
				t.Errorf("the AI is mentioned as a user: %q", s)
			}
		}
		if !strings.Contains(m.Header, "vs 🟡 the bot (easy)") {
			t.Errorf("players line %q does not name the bot", m.Header)
		}
	})
}
