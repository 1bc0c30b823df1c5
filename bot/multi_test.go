package bot

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/connect4/connect4/bot/match"
	"github.com/connect4/connect4/engine"
	"github.com/connect4/connect4/render"
)

// multiFlows are the whole games of 3 and 4 players, run on every store by
// TestMultiFlows and on a Redis Cluster by TestFlowsOnCluster.
var multiFlows = []struct {
	name string
	run  func(t *testing.T, h *harness)
}{
	{"ThreePlayers", flowThreePlayers},
	{"FourPlayers", flowFourPlayers},
	{"MultiChallengeEnds", flowMultiChallengeEnds},
	{"MultiRefusals", flowMultiRefusals},
	{"MultiBesideRated", flowMultiBesideRated},
}

func TestMultiFlows(t *testing.T) {
	t.Parallel() // each flow has its own store, key prefix and clock
	for _, f := range multiFlows {
		t.Run(f.name, func(t *testing.T) {
			t.Parallel()
			forEachStore(t, f.run)
		})
	}
}

// mover returns the id of the player to move on r's board.
func mover(t *testing.T, r Reply) string {
	t.Helper()
	turn := r.Game.Turn()
	ps := r.Players()
	if int(turn) < 1 || int(turn) > len(ps) {
		t.Fatalf("nobody to move on %q (turn %v)", r.Text, turn)
	}
	return ps[turn-1].ID
}

// multiDrops plays columns (1-based) by whoever is to move, each click on
// the latest reply.
func (h *harness) multiDrops(r Reply, cols ...int) Reply {
	h.t.Helper()
	for _, c := range cols {
		who := mover(h.t, r)
		r = h.click(who, r, strconv.Itoa(c))
		if r.Problem != ProblemNone {
			h.t.Fatalf("drop %d by %s refused: %q", c, who, r.Text)
		}
	}
	return r
}

// standing returns userID's wins, losses and draws in the channel.
func (h *harness) standing(userID string) [3]int {
	h.t.Helper()
	st, err := h.store.Stats(h.t.Context(), h.key, userID)
	if err != nil {
		h.t.Fatalf("Stats(%s): %v", userID, err)
	}
	return [3]int{st.Wins, st.Losses, st.Draws}
}

// flowThreePlayers: a challenge of three accepted one by one, a game with
// out-of-turn, stale and racing clicks, a claim by the next player and a
// resignation that leaves one player, the winner; then a rematch that
// needs everyone and rotates who starts.
func flowThreePlayers(t *testing.T, h *harness) {
	r := h.say("UA", "<@UB> <@UC>")
	h.want(r, Public, ProblemNone, "<@UA> challenges <@UB> and <@UC> to a game of Connect Four for 3 players!\n",
		"<@UB> and <@UC>, do you accept?")
	if !slices.Equal(r.Notify, []string{"UB", "UC"}) {
		t.Errorf("challenge notifies %v, want UB and UC", r.Notify)
	}
	challenge := r
	h.want(h.click("UA", r, "Accept"), Ephemeral, ProblemOwnChallenge)
	h.want(h.click("UZ", r, "Accept"), Ephemeral, ProblemNotInvited, "<@UB> and <@UC>")
	h.want(h.say("UB", "resign"), Ephemeral, ProblemNotStarted, "you haven't answered the challenge yet")

	r = h.click("UB", r, "Accept")
	h.want(r, Update, ProblemNone, "<@UB> accepted.", "Accepted: <@UB>.", "<@UC>, do you accept?")
	if r.Game != nil || len(r.Notify) != 0 {
		t.Fatalf("after one accept of two: game %v, notify %v; want a challenge still, pinging nobody", r.Game, r.Notify)
	}
	h.want(h.click("UB", challenge, "Accept"), Ephemeral, ProblemAlreadyAccepted, "<@UC>")
	if rec := h.record(r); rec.Status != match.StatusPending || !slices.Equal(rec.Accepted, []string{"UB"}) {
		t.Fatalf("stored %v accepted %v, want pending with UB's accept", rec.Status, rec.Accepted)
	}
	h.want(h.say("UC", "board"), Public, ProblemNone, "Accepted: <@UB>.")

	r = h.click("UC", r, "Accept")
	h.want(r, Update, ProblemNone, "everyone is in! <@UA> is red and goes first, then <@UB> and <@UC>.")
	if got := ids(r.Players()); !slices.Equal(got, []string{"UA", "UB", "UC"}) {
		t.Fatalf("players by colour %v, want UA UB UC", got)
	}
	m := r.Format(render.Unicode())
	for _, f := range []string{"🔴 <@UA> vs 🟡 <@UB> vs 🟢 <@UC>"} {
		if !strings.Contains(m.Header, f) {
			t.Errorf("header %q lacks %q", m.Header, f)
		}
	}
	if !strings.Contains(m.Status, "🔴 <@UA>, it's your turn") {
		t.Errorf("status %q, want UA to move", m.Status)
	}

	// Out of turn, then a stale click on an older board.
	h.want(h.click("UB", r, "1"), Ephemeral, ProblemNotYourTurn, "<@UA>")
	h.want(h.click("UC", r, "1"), Ephemeral, ProblemNotYourTurn, "<@UA>")
	old := r
	r = h.multiDrops(r, 1, 2, 3)
	if m := r.Format(render.Unicode()); !strings.Contains(m.Board, "🟢") || !strings.Contains(m.Status, "🔴 <@UA>, it's your turn (move 4)") {
		t.Errorf("after 3 moves: board %q status %q", m.Board, m.Status)
	}
	h.want(h.click("UA", old, "4"), Ephemeral, ProblemStale)

	// Racing clicks: every player clicks every column of the same board at
	// once; exactly one move lands.
	var wg sync.WaitGroup
	replies := make([]Reply, 21)
	for i := range replies {
		wg.Go(func() {
			replies[i], _ = h.press([]string{"UA", "UB", "UC"}[i%3], r, strconv.Itoa(1+i%7))
		})
	}
	wg.Wait()
	landed := 0
	for _, rep := range replies {
		if rep.Problem == ProblemNone {
			landed++
			r = rep
		}
	}
	if g := h.record(r).Game; landed != 1 || g.Moves() != 4 {
		t.Fatalf("%d racing clicks landed, %d moves stored; want exactly one more move (4)", landed, g.Moves())
	}

	// UB is to move. Only UC, who moves after UB, may claim, and only
	// after the turn timeout.
	if got := mover(t, r); got != "UB" {
		t.Fatalf("mover %s, want UB", got)
	}
	h.want(h.say("UA", "claim"), Ephemeral, ProblemNotNextToClaim, "<@UC>", "<@UB>")
	h.want(h.say("UB", "claim"), Ephemeral, ProblemYourMove)
	h.want(h.say("UC", "claim"), Ephemeral, ProblemTooEarly, "<@UB>")
	h.want(h.say("UA", "takeback"), Ephemeral, ProblemTakebackTwoPlayers)
	h.clock.Advance(DefaultTurnTimeout + time.Minute)
	r = h.say("UC", "claim")
	h.want(r, Public, ProblemNone, "<@UB> didn't move in time and leaves the game; their discs stay.", "<@UC>, it's your move.")
	if m := r.Format(render.Unicode()); !strings.Contains(m.Header, "🟡 <@UB> (left)") {
		t.Errorf("header %q does not mark UB as gone", m.Header)
	}
	if rec := h.record(r); rec.Status != match.StatusPlaying || !rec.Game.Left(engine.Yellow) || rec.Game.Moves() != 4 {
		t.Fatalf("after the claim: %v, yellow left %v, %d moves; want UB gone, the game going on with its discs", rec.Status, rec.Game.Left(engine.Yellow), rec.Game.Moves())
	}
	h.want(h.click("UB", r, "5"), Ephemeral, ProblemLeftGame)
	h.want(h.say("UB", "resign"), Ephemeral, ProblemLeftGame)
	h.want(h.say("UZ", "board"), Ephemeral, ProblemNone, "Games here: @ua vs @ub vs @uc")
	// UB's turns are skipped: UC, UA, UC.
	r = h.multiDrops(r, 5, 6, 5)
	if got := mover(t, r); got != "UA" {
		t.Fatalf("mover %s, want UA (UB skipped)", got)
	}
	r = h.say("UC", "resign")
	h.want(r, Public, ProblemNone, "<@UC> resigned and leaves the game", "<@UA> is the last player left and wins!")
	rec := h.record(r)
	if rec.Status != match.StatusFinished || rec.Finish != match.FinishResign || rec.Rating != nil {
		t.Fatalf("finished %v/%v rating %v, want finished by resignation, unrated", rec.Status, rec.Finish, rec.Rating)
	}
	for id, want := range map[string][3]int{"UA": {1, 0, 0}, "UB": {0, 1, 0}, "UC": {0, 1, 0}} {
		if got := h.standing(id); got != want {
			t.Errorf("%s: wins-losses-draws %v, want %v", id, got, want)
		}
	}
	rated, err := h.store.Ratings(t.Context(), h.key, 0)
	if err != nil || len(rated) != 0 {
		t.Errorf("Ratings = %v, %v; want nobody rated by a game of 3", rated, err)
	}

	// Rematch: everyone must agree, and yellow (UB) starts.
	o := h.click("UA", r, "Rematch")
	h.want(o, Update, ProblemNone, "<@UA> offers a rematch, with <@UB> to start", "<@UB> and <@UC>, do you accept?")
	h.want(h.click("UA", o, "Accept"), Ephemeral, ProblemOwnOffer)
	o = h.click("UB", o, "Accept")
	h.want(o, Update, ProblemNone, "<@UB> is in.", "<@UB> agreed.", "<@UC>, do you accept?")
	h.want(h.click("UB", o, "Accept"), Ephemeral, ProblemAlreadyAgreed, "<@UC>")
	h.want(h.click("UB", r, "Rematch"), Ephemeral, ProblemAlreadyAgreed, "<@UC>")
	n := h.click("UC", o, "Accept")
	h.want(n, Update, ProblemNone, "Rematch! <@UB> is red and goes first this time, then <@UC> and <@UA>.")
	if got := ids(n.Players()); !slices.Equal(got, []string{"UB", "UC", "UA"}) {
		t.Fatalf("rematch by colour %v, want UB UC UA", got)
	}
	h.want(h.click("UC", o, "Accept"), Ephemeral, ProblemNoOffer)
	if nr := h.record(n); nr.ID == rec.ID || nr.Status != match.StatusPlaying || len(nr.Others) != 1 {
		t.Fatalf("rematch record %s %v others %v", nr.ID, nr.Status, nr.Others)
	}
}

// flowFourPlayers: four players accept at the same moment (each accept
// recorded, one start), then Red wins on the board: a win for Red and a
// loss for each of the three others.
func flowFourPlayers(t *testing.T, h *harness) {
	r := h.say("UA", "challenge <@UB> <@UC> <@UD> 9x7")
	h.want(r, Public, ProblemNone, "<@UA> challenges <@UB>, <@UC> and <@UD> to a game of Connect Four for 4 players on a board of 9 columns × 7 rows")
	var wg sync.WaitGroup
	accepts := make([]Reply, 3)
	for i, who := range []string{"UB", "UC", "UD"} {
		wg.Go(func() { accepts[i], _ = h.press(who, r, "Accept") })
	}
	wg.Wait()
	starts := 0
	var board Reply
	for _, a := range accepts {
		if a.Problem != ProblemNone {
			t.Fatalf("racing accept refused: %q", a.Text)
		}
		if a.Game != nil {
			starts++
			board = a
		}
	}
	if starts != 1 {
		t.Fatalf("%d accepts started the game, want exactly the last one", starts)
	}
	if got := ids(board.Players()); !slices.Equal(got, []string{"UA", "UB", "UC", "UD"}) {
		t.Fatalf("players by colour %v", got)
	}
	if n := h.events; slices.Index(n, "started") < 0 || len(slices.DeleteFunc(slices.Clone(n), func(e string) bool { return e != "started" })) != 1 {
		t.Errorf("events %v, want one start", n)
	}
	m := board.Format(render.Slack())
	if !strings.Contains(m.Header, ":large_green_circle: <@UC> vs :large_blue_circle: <@UD>") {
		t.Errorf("Slack header %q lacks the green and blue players", m.Header)
	}
	// A1 B2 C3 D4, four times round, but A's fourth disc in column 1 wins.
	r = h.multiDrops(board, 1, 2, 3, 4, 1, 2, 3, 4, 1, 2, 3, 4)
	if m := r.Format(render.Unicode()); !strings.Contains(m.Board, "🔵") || !strings.Contains(m.Status, "🔴 <@UA>, it's your turn (move 13)") {
		t.Fatalf("board %q status %q", m.Board, m.Status)
	}
	h.want(h.click("UD", r, "1"), Ephemeral, ProblemNotYourTurn, "<@UA>")
	r = h.click("UA", r, "1")
	h.want(r, Update, ProblemNone, "<@UA> wins!")
	if m := r.Format(render.Unicode()); strings.Count(m.Board, "🟥") != 4 {
		t.Errorf("board %q, want the winning line drawn", m.Board)
	}
	if f := r.Fallback(); !strings.Contains(f, "ua (red) won by connecting 4") {
		t.Errorf("fallback %q", f)
	}
	for id, want := range map[string][3]int{"UA": {1, 0, 0}, "UB": {0, 1, 0}, "UC": {0, 1, 0}, "UD": {0, 1, 0}} {
		if got := h.standing(id); got != want {
			t.Errorf("%s: wins-losses-draws %v, want %v", id, got, want)
		}
	}
	h.want(h.say("UA", "leaderboard"), Public, ProblemNone, "ua", "1-0-0", "ud", "0-1-0")
	// The players are free again: a new challenge binds them afresh.
	h.want(h.say("UD", "<@UC> <@UB>"), Public, ProblemNone, "for 3 players")
}

// flowMultiChallengeEnds: a decline by any invited player and the
// expiry both call a challenge of 3 or 4 off, naming who; the players are
// bound until then.
func flowMultiChallengeEnds(t *testing.T, h *harness) {
	r := h.say("UA", "<@UB> <@UC> <@UD>")
	h.want(r, Public, ProblemNone, "for 4 players")
	// Every invited player is bound while it is pending.
	h.want(h.say("UZ", "<@UD>"), Ephemeral, ProblemBusy, "<@UD> has a challenge from <@UA> to answer")
	h.want(h.say("UZ", "<@UY> <@UC>"), Ephemeral, ProblemBusy, "<@UC>")
	h.want(h.say("UA", "<@UZ>"), Ephemeral, ProblemBusy, "You've challenged <@UB>, <@UC> and <@UD>")
	h.want(h.say("UZ", "board"), Ephemeral, ProblemNone, "Games here: @ua has challenged @UB, @UC, @UD")
	r = h.click("UB", r, "Accept")
	h.want(r, Update, ProblemNone, "Accepted: <@UB>.")
	d := h.click("UD", r, "Decline")
	h.want(d, Update, ProblemNone, "<@UD> declined, so the challenge from <@UA> to <@UB>, <@UC> and <@UD> is off.")
	h.want(h.click("UC", r, "Accept"), Ephemeral, ProblemStale)
	h.want(h.say("UZ", "<@UD>"), Public, ProblemNone, "<@UZ> challenges <@UD>")

	r = h.say("UA", "<@UB> <@UC>")
	r = h.click("UC", r, "Accept")
	h.want(r, Update, ProblemNone, "Accepted: <@UC>.")
	h.clock.Advance(DefaultChallengeTTL + time.Second)
	h.want(h.click("UB", r, "Accept"), Update, ProblemExpired, "The challenge from <@UA> expired before <@UB> accepted it.")
	h.want(h.say("UB", "<@UC>"), Public, ProblemNone, "<@UB> challenges <@UC>")
	// The challenger may cancel one.
	r = h.say("UA", "<@UE> <@UF>")
	h.want(h.click("UE", r, "Cancel"), Ephemeral, ProblemOnlyChallenger)
	h.want(h.click("UA", r, "Cancel"), Update, ProblemNone, "<@UA> withdrew the challenge to <@UE> and <@UF>.")
}

// flowMultiRefusals: what a challenge of 3 or 4 may not be, each with its
// reason, and nothing stored.
func flowMultiRefusals(t *testing.T, h *harness) {
	for _, tc := range []struct {
		text string
		p    Problem
		frag string
	}{
		{"<@UB> <@UC> 6x6", ProblemBoardTooSmall, "3 players need at least 7 columns"},
		{"<@UB> <@UC> <@UD> 7x4 connect 6", ProblemBoardTooSmall, "4 players with connect 6 need at least 4×(6+2) = 32 cells"},
		{"<@UB> <@UC> first-to 3", ProblemMultiMatch, "single game"},
		{"<@UB> <@UC> <@UD> <@UE>", ProblemTooManyPlayers, "at most 4 players"},
		{"<@UB> <@UB>", ProblemNamedTwice, "<@UB> is named twice"},
		{"<@UB> <@UA>", ProblemSelfChallenge, ""},
		{"<@UB> <@UBOT>", ProblemAITwoPlayers, "only play two-player games"},
		{"<@UBOT> <@UB>", ProblemAITwoPlayers, "only play two-player games"},
		{"ai <@UB>", ProblemAITwoPlayers, "only play two-player games"},
		{"ai <@UB> <@UC> hard", ProblemAITwoPlayers, "only play two-player games"},
		{"open <@UB>", ProblemUsage, ""},
	} {
		r := h.say("UA", tc.text)
		if r.Visibility != Ephemeral || r.Problem != tc.p || !strings.Contains(r.Text, tc.frag) {
			t.Errorf("%q: %v/%v %q, want ephemeral %v with %q", tc.text, r.Visibility, r.Problem, r.Text, tc.p, tc.frag)
		}
	}
	recs, err := h.store.Active(t.Context(), h.key)
	if err != nil || len(recs) != 0 {
		t.Fatalf("Active = %d records, %v; want nothing stored", len(recs), err)
	}
	// A bot user among the others, as an adapter marks it.
	cmd := Command{Key: h.key, User: player("UA"), Self: h.self, Request: Request{Kind: KindChallenge, Opponent: player("UB")}}
	cmd.Others[0], cmd.OtherIsBot[0] = player("UOTHERBOT"), true
	h.want(h.svc.Handle(t.Context(), cmd), Ephemeral, ProblemBotChallenge, "<@UOTHERBOT>")
	// A 3-player board that fits: 7 columns, 7×4 = 28 ≥ 3×(4+2).
	h.want(h.say("UA", "<@UB> <@UC> 7x4"), Public, ProblemNone, fmt.Sprintf("board of %d columns × %d rows", 7, 4))
}

// flowMultiBesideRated: in a channel with rated games, the leaderboard
// ranks by rating and still shows, apart, the players who have played
// only games of 3 or 4, which are never rated.
func flowMultiBesideRated(t *testing.T, h *harness) {
	r := h.click("UB", h.say("UA", "<@UB>"), "Accept")
	r = h.multiDrops(r, 1, 2, 1, 2, 1, 2, 1)
	h.want(r, Update, ProblemNone, "wins!")
	r = h.say("UC", "<@UD> <@UE>")
	h.click("UD", r, "Accept")
	r = h.click("UE", r, "Accept")
	h.want(r, Update, ProblemNone)
	h.say("UD", "resign")
	h.want(h.say("UE", "resign"), Public, ProblemNone, "is the last player left and wins!")
	lb := h.say("UZ", "leaderboard")
	h.want(lb, Public, ProblemNone, "rating", "ua", "ub", "Not rated yet (games of 3 or 4 only)")
	_, unrated, _ := strings.Cut(lb.Text, "Not rated yet")
	for _, w := range []string{"uc 1-0-0", "ud 0-1-0", "ue 0-1-0"} {
		if !strings.Contains(unrated, w) {
			t.Errorf("leaderboard %q: the unrated part lacks %q", lb.Text, w)
		}
	}
	if strings.Contains(unrated, "ua") {
		t.Errorf("leaderboard %q lists a rated player as unrated", lb.Text)
	}
}
