package discord

import (
	"strings"
	"testing"

	"github.com/connect4/connect4/bot/match"
)

// TestClockDrawAbortInteractions: through signed interactions, the
// challenge's clock option starts a clocked game whose message shows the
// time left and the flag as Discord's relative timestamp; the days option
// out of range and a bad clock are one ephemeral line; /connect4 draw
// offers a draw whose Accept draw button ends the game drawn; /connect4
// abort before both have moved counts nowhere.
func TestClockDrawAbortInteractions(t *testing.T) {
	f := newFixture(t, sessionsMemory(), 0)
	want(t, f.challenge("UA", "UB", opt("clock", 3, "0+0")), typeMessage, flagEphemeral, "gives no time at all")
	want(t, f.challenge("UA", "UB", opt("clock", 3, "3+2"), opt("days", 4, 2)), typeMessage, flagEphemeral, "is not a time control")
	if f.record(guildID) != nil {
		t.Fatal("a refused challenge was stored")
	}
	m := f.click("UB", f.challenge("UA", "UB", opt("clock", 3, "3+2")), "Accept")
	if c := m.content(); !strings.Contains(c, "<@UA>: 3:00 left") || !strings.Contains(c, "Time runs out: <t:") || !strings.Contains(c, ":R>") {
		t.Fatalf("game message %q, want the time left and a relative timestamp", c)
	}
	if rec := f.record(guildID); rec == nil || !rec.Timed() {
		t.Fatalf("record %+v, want a game under a clock", rec)
	}
	f.click("UA", m, "4")
	o := f.slash("UA", "draw", nil)
	want(t, o, typeMessage, 0, "<@UA> offers a draw")
	d := f.click("UB", o, "Accept draw")
	want(t, d, typeUpdate, 0, "<@UB> accepted the draw: the game is drawn.")
	if rec := f.record(guildID); rec != nil && rec.Status != match.StatusFinished {
		t.Fatalf("after the draw: %v, want the game over", rec.Status)
	}
	if strings.Contains(d.content(), "your turn") {
		t.Fatalf("drawn game's message %q, want no turn", d.content())
	}

	f.click("UD", f.challenge("UC", "UD"), "Accept")
	want(t, f.slash("UD", "abort", nil), typeMessage, 0, "<@UD> aborted the game")
}
