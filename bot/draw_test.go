package bot

import (
	"testing"

	"github.com/connect4/connect4/bot/match"
)

// TestDrawOffer: an offer shows Accept and Decline on the game message;
// the offerer cannot accept it; the other's accept ends the game drawn,
// rated; an offer lapses when the other player moves instead; a decline
// withdraws it; and games that take none refuse it in one line.
func TestDrawOffer(t *testing.T) {
	forEachStore(t, func(t *testing.T, h *harness) {
		h.drops(h.start("UA", "UB"), 4)
		o := h.say("UA", "draw")
		h.want(o, Public, ProblemNone, "<@UA> offers a draw. <@UB>, do you accept?")
		if !hasButton(o, "Accept draw") || !hasButton(o, "Decline draw") {
			t.Fatalf("offer buttons %v, want Accept draw and Decline draw", o.Buttons)
		}
		if c := h.click("UA", o, "Accept draw"); c.Problem != ProblemOwnOffer {
			t.Fatalf("the offerer accepting: %v %q", c.Problem, c.Text)
		}
		// UB moves instead: the offer lapses.
		m := h.drops(o, 3)
		if hasButton(m, "Accept draw") || h.record(m).DrawOffer != "" {
			t.Fatalf("after UB's move the offer stands: %v", m.Buttons)
		}
		if c := h.click("UB", o, "Accept draw"); c.Problem == ProblemNone {
			t.Fatalf("accepting a lapsed offer: %q", c.Text)
		}
		// UB offers and UA declines; UA offers again and UB accepts.
		o = h.say("UB", "draw")
		d := h.click("UA", o, "Decline draw")
		h.want(d, Update, ProblemNone, "<@UA> declined the draw offer.")
		o = h.say("UA", "draw")
		a := h.click("UB", o, "Accept draw")
		h.want(a, Update, ProblemNone, "<@UB> accepted the draw")
		got := h.record(m)
		if got.Status != match.StatusFinished || got.Finish != match.FinishDraw || got.Rating == nil || len(got.Rounds) != 1 || got.Rounds[0].Winner != "" {
			t.Fatalf("after the accept: %v/%v rounds %v rating %v, want a rated draw", got.Status, got.Finish, got.Rounds, got.Rating)
		}
		if !a.Ended || hasButton(a, "Accept draw") {
			t.Fatalf("the drawn game's message: ended %v buttons %v, want no turn and no draw buttons", a.Ended, a.Buttons)
		}
		for _, b := range a.Buttons {
			if b.Column > 0 && !b.Disabled {
				t.Fatalf("column %d still clickable after the draw", b.Column)
			}
		}

		h.start("UC", "UD", "first-to", "3")
		if r := h.say("UC", "draw"); r.Problem == ProblemNone {
			t.Fatalf("a draw offer in a match: %q, want refused", r.Text)
		}
		h.say("UE", "<@UBOT>")
		if r := h.say("UE", "draw"); r.Problem == ProblemNone {
			t.Fatalf("a draw offer to the AI: %q, want refused", r.Text)
		}
	})
}

// TestOfferDrawButton: every game message of a two-player single game in
// progress carries Offer draw, which does what /connect4 draw does; the
// offer lapses when the offerer's opponent moves, and the button comes
// back; a match, a game against the AI and a finished game show none.
func TestOfferDrawButton(t *testing.T) {
	forEachStore(t, func(t *testing.T, h *harness) {
		g := h.drops(h.start("UA", "UB"), 4)
		if !hasButton(g, "Offer draw") {
			t.Fatalf("game buttons %v, want Offer draw", g.Buttons)
		}
		o := h.click("UA", g, "Offer draw") // UA offers while UB is to move
		h.want(o, Update, ProblemNone, "<@UA> offers a draw. <@UB>, do you accept?")
		if hasButton(o, "Offer draw") || !hasButton(o, "Accept draw") || len(o.Notify) != 1 || o.Notify[0] != "UB" {
			t.Fatalf("after the offer: buttons %v notify %v, want Accept draw instead of Offer draw, UB pinged", o.Buttons, o.Notify)
		}
		if c := h.click("UC", g, "Offer draw"); c.Problem == ProblemNone {
			t.Fatalf("a spectator offering a draw: %q, want refused", c.Text)
		}
		m := h.drops(o, 3) // UB moves instead: the offer lapses
		if !hasButton(m, "Offer draw") || h.record(m).DrawOffer != "" {
			t.Fatalf("after UB's move: buttons %v offer %q, want Offer draw back and no offer", m.Buttons, h.record(m).DrawOffer)
		}
		o = h.click("UB", m, "Offer draw")
		a := h.click("UA", o, "Accept draw")
		h.want(a, Update, ProblemNone, "<@UA> accepted the draw")
		if got := h.record(a); got.Status != match.StatusFinished || got.Finish != match.FinishDraw {
			t.Fatalf("after the accept: %v/%v, want drawn", got.Status, got.Finish)
		}
		if hasButton(a, "Offer draw") {
			t.Errorf("a finished game offers a draw: %v", a.Buttons)
		}
		if m := h.start("UC", "UD", "first-to", "3"); hasButton(m, "Offer draw") {
			t.Errorf("a match offers a draw: %v", m.Buttons)
		}
		if ai := h.say("UE", "<@UBOT>"); hasButton(ai, "Offer draw") {
			t.Errorf("a game against the AI offers a draw: %v", ai.Buttons)
		}
	})
}
