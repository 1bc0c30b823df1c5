package bot

import (
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/connect4/connect4/bot/match"
)

// flowOffers: a rematch needs the other player's consent; an offer can be
// declined, withdrawn, and lapses; declining the next round ends the match
// as it stands; a claim is only possible in a game both agreed to.
func flowOffers(t *testing.T, h *harness) {
	won := h.drops(h.start("UA", "UB"), 1, 2, 1, 2, 1, 2, 1)
	// The winner offers a rematch and waits: nothing starts, and with a
	// short turn timeout there is nothing to claim.
	offer := h.click("UA", won, "Rematch")
	h.want(offer, Update, ProblemNone, "<@UA> offers a rematch")
	h.clock.Advance(2 * time.Minute)
	h.want(h.say("UA", "claim"), Ephemeral, ProblemNoGame)
	// Declined: the game stays over, and may be offered again.
	h.want(h.click("UB", offer, "Decline"), Update, ProblemNone, "<@UB> declined the rematch")
	h.want(h.click("UA", offer, "Accept"), Ephemeral, ProblemNoOffer)
	// Withdrawn by the one who offered; the other cannot withdraw it.
	offer = h.click("UA", won, "Rematch")
	h.want(h.click("UB", offer, "Withdraw"), Ephemeral, ProblemOnlyOfferer, "<@UA>")
	h.want(h.click("UA", offer, "Withdraw"), Update, ProblemNone, "<@UA> withdrew the rematch offer")
	// Lapsed.
	offer = h.click("UA", won, "Rematch")
	h.clock.Advance(DefaultChallengeTTL + time.Second)
	h.want(h.click("UB", offer, "Accept"), Ephemeral, ProblemOfferExpired, "That rematch offer has expired. Challenge them again with `/connect4 challenge @someone`.")
	// Both asking is agreement.
	h.click("UA", won, "Rematch")
	r := h.click("UB", won, "Rematch")
	h.want(r, Update, ProblemNone, "Rematch! <@UB> is red")

	// In a match, declining the next round ends the match where it stands.
	h.want(h.say("UA", "resign"), Public, ProblemNone, "<@UA> resigned")
	m := h.drops(h.start("UA", "UB", "first-to", "2"), 1, 2, 1, 2, 1, 2, 1)
	h.want(m, Update, ProblemNone, "<@UA> leads 1–0, first to 2.")
	next := h.click("UA", m, "Next round")
	h.want(next, Update, ProblemNone, "<@UA> offers round 2")
	// A lapsed next round: its button stays on the board, so it says to click it.
	h.clock.Advance(DefaultChallengeTTL + time.Second)
	h.want(h.click("UB", next, "Accept"), Ephemeral, ProblemOfferExpired, "That next-round offer has expired. Click Next round")
	next = h.click("UA", m, "Next round")
	h.want(h.click("UB", next, "Decline"), Update, ProblemNone, "<@UB> declined the next round, so the match ends <@UA> 1 – 0 <@UB>")
	rec := h.record(next)
	if rec.Status != match.StatusFinished || rec.Finish != match.FinishDeclined {
		t.Errorf("after a declined next round: %v %v, want finished, declined", rec.Status, rec.Finish)
	}
}

// flowResignInMatch: resign forfeits the current game only, and says what
// that does to the match; resign match forfeits the match.
func flowResignInMatch(t *testing.T, h *harness) {
	r := h.start("UA", "UB", "first-to", "3")
	r = h.drops(r, 1, 2, 1, 2, 1, 2, 1) // UA 1–0
	h.want(h.agree("UB", "UA", r, "Next round"), Update, ProblemNone, "Round 2!")
	r = h.say("UB", "resign")
	h.want(r, Public, ProblemNone, "<@UB> resigned. <@UA> wins!", "<@UA> leads 2–0, first to 3.")
	if r.Score == "" || r.Buttons[len(r.Buttons)-1].Label != "Next round" {
		t.Fatalf("after a resigned round: score %q, buttons %v; want the match to go on", r.Score, r.Buttons)
	}
	h.want(h.agree("UA", "UB", r, "Next round"), Update, ProblemNone, "Round 3! <@UA> is red")
	r = h.say("UB", "resign match")
	h.want(r, Public, ProblemNone, "<@UB> gave up the match.", "<@UA> wins the match 3–0.")
	if rec := h.record(r); rec.Status != match.StatusFinished {
		t.Errorf("after resign match: %v, want finished", rec.Status)
	}
}

// flowTakebacks: a takeback asked for, accepted, declined, lapsed by the
// opponent's move, and raced with it; against the AI it is immediate.
func flowTakebacks(t *testing.T, h *harness) {
	r := h.start("UA", "UB")
	h.want(h.say("UA", "takeback"), Ephemeral, ProblemNothingToTakeBack, "<@UB>")
	r = h.drops(r, 4) // UA plays 4
	h.want(h.say("UB", "takeback"), Ephemeral, ProblemNothingToTakeBack, "<@UA>")
	ask := h.say("UA", "takeback")
	h.want(ask, Public, ProblemNone, "<@UA> asks to take back their move in column 4. <@UB>, do you agree?")
	h.want(h.say("UA", "takeback"), Ephemeral, ProblemTakebackPending)
	h.want(h.click("UA", ask, "Allow takeback"), Ephemeral, ProblemOwnTakeback)
	back := h.click("UB", ask, "Allow takeback")
	h.want(back, Update, ProblemNone, "<@UB> allowed the takeback: <@UA>, it's your move again.")
	if back.Game.Moves() != 0 || back.Red.ID != "UA" {
		t.Fatalf("after the takeback: %d moves", back.Game.Moves())
	}
	h.want(h.click("UB", r, "3"), Ephemeral, ProblemStale) // the old board is out of date

	// Declined.
	r = h.drops(back, 3)
	ask = h.say("UA", "takeback")
	h.want(h.click("UB", ask, "Refuse"), Update, ProblemNone, "<@UB> refused <@UA>'s takeback.")
	if rec := h.record(ask); rec.Game.Moves() != 1 || rec.Takeback != nil {
		t.Fatalf("after a refused takeback: %d moves, request %+v", rec.Game.Moves(), rec.Takeback)
	}

	// Lapsed: the opponent moves instead of answering.
	ask = h.say("UA", "takeback")
	r = h.drops(r, 5) // UB plays
	h.want(h.click("UB", ask, "Allow takeback"), Ephemeral, ProblemTakebackLapsed)

	// Raced with the opponent's move: exactly one of them lands.
	r = h.drops(r, 6) // UA plays
	ask = h.say("UA", "takeback")
	var wg sync.WaitGroup
	var accept, move Reply
	wg.Go(func() { accept = h.click("UB", ask, "Allow takeback") })
	wg.Go(func() { move = h.click("UB", r, "2") })
	wg.Wait()
	rec := h.record(ask)
	switch {
	case accept.Problem == ProblemNone && move.Problem != ProblemNone:
		if rec.Game.Moves() != 2 {
			t.Errorf("takeback won the race but the game has %d moves, want 2", rec.Game.Moves())
		}
	case move.Problem == ProblemNone && accept.Problem == ProblemTakebackLapsed:
		if rec.Game.Moves() != 4 {
			t.Errorf("the move won the race but the game has %d moves, want 4", rec.Game.Moves())
		}
	default:
		t.Errorf("race of takeback and move: %v %q / %v %q; want exactly one to land", accept.Problem, accept.Text, move.Problem, move.Text)
	}

	// Against the AI: the player's move and the AI's reply come out at once.
	h.say("UA", "resign")
	ai := h.say("UA", "ai easy")
	ai = h.click("UA", ai, "4")
	if ai.Game.Moves() != 2 {
		t.Fatalf("AI game: %d moves after one click, want 2", ai.Game.Moves())
	}
	tb := h.say("UA", "takeback")
	h.want(tb, Public, ProblemNone, "took back their last move and my reply")
	if tb.Game.Moves() != 0 {
		t.Errorf("AI takeback left %d moves, want 0", tb.Game.Moves())
	}
}

// flowOpenChallenge: an open challenge pings nobody, may be accepted by
// anyone but its challenger (not declined), and when 20 people click
// Accept at once exactly one game starts; a player already in a game
// cannot take it.
func flowOpenChallenge(t *testing.T, h *harness) {
	open := h.say("UA", "open 8x7 connect 5")
	h.want(open, Public, ProblemNone, "<@UA> is looking for a game of Connect Four on a board of 8 columns × 7 rows, connect 5! Anyone here can accept.")
	if len(open.Notify) != 0 {
		t.Errorf("an open challenge notifies %v, want nobody", open.Notify)
	}
	h.want(h.click("UA", open, "Accept"), Ephemeral, ProblemOwnChallenge)
	busy := h.start("UX", "UY") // UX is playing elsewhere in the channel
	_ = busy
	h.want(h.click("UX", open, "Accept"), Ephemeral, ProblemBusy)

	var wg sync.WaitGroup
	replies := make([]Reply, 20)
	for i := range replies {
		wg.Go(func() { replies[i] = h.click(fmt.Sprintf("UP%02d", i), open, "Accept") })
	}
	wg.Wait()
	started, winner := 0, ""
	for i, r := range replies {
		if r.Problem == ProblemNone {
			started++
			winner = fmt.Sprintf("UP%02d", i)
		}
	}
	if started != 1 {
		t.Fatalf("%d of 20 racing accepts started a game, want exactly 1", started)
	}
	rec, err := h.store.PlayerGame(t.Context(), h.key, "UA")
	if err != nil || rec.Status != match.StatusPlaying || rec.Opponent.ID != winner || rec.Game.Config().Cols != 8 {
		t.Fatalf("after the race: %+v, %v; want UA playing %s on 8 columns", rec, err, winner)
	}

	// Declining an open challenge makes no sense; its challenger may cancel it.
	h.say("UA", "resign")
	open = h.say("UA", "open")
	if len(open.Buttons) != 2 {
		t.Errorf("open challenge buttons %v, want Accept and Cancel only", open.Buttons)
	}
	acc, _ := ParseAction(open.Buttons[0].Value)
	decline := Command{Key: h.key, User: player("UB"), Self: h.self, Request: Request{Kind: KindDecline, GameID: acc.GameID}}
	h.want(h.svc.Handle(t.Context(), decline), Ephemeral, ProblemOpenDecline) // a forged Decline
	h.want(h.click("UA", open, "Cancel"), Update, ProblemNone, "<@UA> withdrew their open challenge.")
}

// flowCrossedOpen: two players who each posted an open challenge can
// accept each other's: the accepter's own is withdrawn (said in the
// reply), and its Accept is stale after.
func flowCrossedOpen(t *testing.T, h *harness) {
	a := h.say("UA", "open")
	b := h.say("UB", "open")
	h.want(a, Public, ProblemNone, "Anyone here can accept")
	h.want(b, Public, ProblemNone, "Anyone here can accept")
	r := h.click("UB", a, "Accept")
	h.want(r, Update, ProblemNone, "<@UB>'s own open challenge is withdrawn: they took this one instead.")
	rec := h.record(r)
	if rec.Status != match.StatusPlaying || rec.Challenger.ID != "UA" || rec.Opponent.ID != "UB" {
		t.Fatalf("after the crossed accept: %+v, want UA playing UB", rec)
	}
	// A cancelled challenge is not kept: it is gone or finished.
	old, err := h.store.Load(t.Context(), h.key, b.GameID)
	if !errors.Is(err, match.ErrNoGame) && (err != nil || old.Status != match.StatusFinished) {
		t.Fatalf("UB's own open challenge: %+v, %v; want withdrawn", old, err)
	}
	// Nobody can take UB's withdrawn challenge now.
	h.want(h.click("UC", b, "Accept"), Ephemeral, ProblemStale)
}
