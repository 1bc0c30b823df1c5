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
)

// press clicks the button labelled label on r as user, like click, but
// reports problems with t.Errorf so that it may run on any goroutine.
func (h *harness) press(user string, r Reply, label string) (Reply, bool) {
	i := slices.IndexFunc(r.Buttons, func(b Button) bool { return b.Label == label })
	if i < 0 {
		h.t.Errorf("no button %q on %q", label, r.Text)
		return Reply{}, false
	}
	req, err := ParseAction(r.Buttons[i].Value)
	if err != nil {
		h.t.Errorf("ParseAction(%q): %v", r.Buttons[i].Value, err)
		return Reply{}, false
	}
	return h.svc.Handle(h.t.Context(), Command{Key: h.key, User: player(user), Self: h.self,
		Message: match.MessageRef{Channel: "C1", Timestamp: "1.0"}, Request: req}), true
}

// flowManyGames: 4 pairs play to the end in one channel at the same time,
// their clicks interleaved; clicks on another pair's board, a spectator's
// look and typed commands each reach only the game they should.
func flowManyGames(t *testing.T, h *harness) {
	const games = 4
	boards := make([]Reply, games)
	red := func(i int) string { return fmt.Sprintf("UR%d", i) }
	yellow := func(i int) string { return fmt.Sprintf("UY%d", i) }
	for i := range games {
		boards[i] = h.start(red(i), yellow(i))
		h.clock.Advance(time.Millisecond) // Active lists games oldest first
	}
	h.want(h.say("UZ", "board"), Ephemeral, ProblemNone,
		"Games here: @ur0 vs @uy0; @ur1 vs @uy1; @ur2 vs @uy2; @ur3 vs @uy3")
	// A player of game 1 clicking game 0's board, and a stranger.
	h.want(h.click(red(1), boards[0], "1"), Ephemeral, ProblemNotInGame)
	h.want(h.click("UZ", boards[0], "1"), Ephemeral, ProblemNotInGame)
	// A tampered button: game 1's id with game 0's move number is stale
	// or refused, never a move in game 0.
	forged := Command{Key: h.key, User: player(red(0)), Self: h.self, Request: Request{
		Kind: KindDrop, GameID: mustGameID(t, boards[1]), Move: 0, Column: 0}}
	h.want(h.svc.Handle(t.Context(), forged), Ephemeral, ProblemNotInGame)
	forged.GameID = "nosuchgame" // an id that names nothing: the button is out of date
	h.want(h.svc.Handle(t.Context(), forged), Ephemeral, ProblemStale)

	// Game i: Red plays column i+1, Yellow column i+2, so Red wins on its
	// fourth disc; games 2 and 3 resign and claim instead of the last move.
	var wg sync.WaitGroup
	finals := make([]Reply, games)
	for i := range games {
		wg.Go(func() {
			r := boards[i]
			for m := range 6 {
				mover, col := red(i), i+1
				if m%2 == 1 {
					mover, col = yellow(i), i+2
				}
				next, ok := h.press(mover, r, strconv.Itoa(col))
				if !ok || next.Problem != ProblemNone {
					t.Errorf("game %d move %d by %s: %v %q", i, m, mover, next.Problem, next.Text)
					return
				}
				r = next
			}
			finals[i] = r
		})
	}
	wg.Wait()
	if t.Failed() {
		t.FailNow()
	}
	// The last moves, typed and clicked, each in its own game.
	won := h.click(red(0), finals[0], "1")
	h.want(won, Update, ProblemNone, "<@UR0> wins!")
	h.want(h.click(red(1), finals[1], "2"), Update, ProblemNone, "<@UR1> wins!")
	h.want(h.say(yellow(2), "resign"), Public, ProblemNone, "<@UY2> resigned. <@UR2> wins!")
	h.want(h.say(yellow(3), "takeback"), Public, ProblemNone, "<@UY3> asks to take back their move in column 5")
	h.want(h.say(red(3), "takeback"), Ephemeral, ProblemNothingToTakeBack, "<@UY3>")
	h.want(h.say(yellow(3), "resign"), Public, ProblemNone, "<@UY3> resigned. <@UR3> wins!")
	for i := range games {
		rec := h.record(finals[i])
		if rec.Status != match.StatusFinished || rec.Rounds[0].Winner != red(i) {
			t.Errorf("game %d: %v won by %v, want finished, won by %s", i, rec.Status, rec.Rounds, red(i))
		}
		want := 6
		if i < 2 {
			want = 7
		}
		if rec.Game.Moves() != want {
			t.Errorf("game %d has %d moves, want %d: another game's click landed in it", i, rec.Game.Moves(), want)
		}
		st, _ := h.store.Stats(t.Context(), h.key, red(i))
		if st.Wins != 1 || st.Games() != 1 {
			t.Errorf("%s: %+v, want exactly one win", red(i), st)
		}
	}
	h.want(h.say("UZ", "board"), Ephemeral, ProblemNoGame)
	// Each pair rematches on its own finished board.
	r := h.agree(yellow(0), red(0), won, "Rematch")
	h.want(r, Update, ProblemNone, "Rematch! <@UY0> is red")
	if r.Game.Moves() != 0 || mustGameID(t, r) == mustGameID(t, won) {
		t.Errorf("rematch: %d moves, id %s (old %s); want a new game", r.Game.Moves(), mustGameID(t, r), mustGameID(t, won))
	}
	h.want(h.say(red(1), "board"), Ephemeral, ProblemNone, "Games here: @ur0 vs @uy0")
}

// flowGameLimits: a player in a game cannot start or be drawn into
// another, a refusal names the game; a channel holds 10 games at once; 50
// racing challenges around one player start exactly one.
func flowGameLimits(t *testing.T, h *harness) {
	h.start("UA", "UB")
	h.want(h.say("UA", "<@UC>"), Ephemeral, ProblemBusy, "You're playing <@UB> in this channel already")
	h.want(h.say("UC", "<@UB>"), Ephemeral, ProblemBusy, "<@UB> is playing <@UA> in this channel already")
	h.want(h.say("UB", "ai"), Ephemeral, ProblemBusy, "You're playing <@UA> in this channel already")
	c := h.say("UC", "<@UD>")
	h.want(c, Public, ProblemNone, "<@UC> challenges <@UD>")
	h.want(h.say("UE", "<@UD>"), Ephemeral, ProblemBusy, "<@UD> has a challenge from <@UC> to answer")
	h.want(h.say("UD", "decline"), Public, ProblemNone, "<@UD> declined the challenge from <@UC>")
	h.want(h.say("UE", "<@UD>"), Public, ProblemNone, "<@UE> challenges <@UD>")
	h.want(h.say("UD", "accept"), Public, ProblemNone, "accepted")

	// 50 racing challenges to UZ: exactly one is made.
	var wg sync.WaitGroup
	replies := make([]Reply, 50)
	for i := range replies {
		wg.Go(func() {
			replies[i] = h.svc.HandleText(t.Context(), Command{Key: h.key, User: player(fmt.Sprintf("UX%02d", i)), Self: h.self}, "<@UZ>")
		})
	}
	wg.Wait()
	made := 0
	for _, r := range replies {
		switch {
		case r.Problem == ProblemNone:
			made++
		case r.Problem != ProblemBusy || !strings.Contains(r.Text, "<@UZ> has a challenge from"):
			t.Errorf("racing challenge: %v %q, want ProblemBusy naming the challenge to UZ", r.Problem, r.Text)
		}
	}
	if made != 1 {
		t.Fatalf("%d of 50 racing challenges to one player were made, want 1", made)
	}
	// Three games so far: seven more fit, the eleventh does not.
	for i := range 7 {
		h.start(fmt.Sprintf("UP%d", i), fmt.Sprintf("UQ%d", i))
	}
	h.want(h.say("UM", "<@UN>"), Ephemeral, ProblemChannelFull, "10 games going")
	h.want(h.say("UM", "ai"), Ephemeral, ProblemChannelFull)
	recs, err := h.store.Active(t.Context(), h.key)
	if err != nil || len(recs) != 10 {
		t.Fatalf("Active = %d games, %v; want 10", len(recs), err)
	}
	h.want(h.say("UA", "resign"), Public, ProblemNone, "<@UA> resigned")
	h.want(h.say("UM", "<@UN>"), Public, ProblemNone, "<@UM> challenges <@UN>")
}
