package slack

import (
	"strings"
	"testing"

	"github.com/connect4/connect4/bot/match"
)

// TestClockDrawAbortThroughHTTP: through the HTTP endpoints, a challenge
// with a clock shows each player's time and when the flag falls (Slack's
// date token); a draw offer shows Accept draw, whose click ends the game
// drawn; an abort before both have moved counts nowhere; a bad time
// control is one line to its sender alone.
func TestClockDrawAbortThroughHTTP(t *testing.T) {
	forEachStore(t, func(t *testing.T, e *env) {
		key := match.Key{Platform: Platform, Workspace: testTeam, Channel: testChan}
		wantPosted(t, e.slash("UA", "<@UB|bob> days 99"), ephemeral, false, "allows 1 to 14 days per move")

		ch := e.slash("UA", "<@UB|bob> clock 3+2")
		board := e.click("UB", ch, "Accept")
		if s := contextText(board); !strings.Contains(s, "3:00 left") || !strings.Contains(s, "Time runs out: <!date^") {
			t.Fatalf("status %q, want the time left and Slack's date token for the flag", s)
		}
		e.click("UA", board, "4")
		offer := e.slash("UA", "draw")
		wantPosted(t, offer, inChannel, false, "offers a draw")
		if b := button(offer, "Accept draw"); b == nil {
			t.Fatalf("offer buttons %v, want Accept draw", labels(offer))
		}
		drawn := e.click("UB", offer, "Accept draw")
		wantPosted(t, drawn, "", true, "accepted the draw")
		if s := contextText(drawn); strings.Contains(s, "your turn") {
			t.Fatalf("status %q after the draw, want no turn", s)
		}
		st, err := e.store.Stats(t.Context(), key, "UA")
		if err != nil || st.Draws != 1 {
			t.Fatalf("UA's stats after the draw: %+v, %v; want one draw", st, err)
		}

		e.click("UD", e.slash("UC", "<@UD|dan>"), "Accept")
		wantPosted(t, e.slash("UD", "abort"), inChannel, false, "aborted the game")
		if st, err := e.store.Stats(t.Context(), key, "UC"); err == nil && st.Wins+st.Losses+st.Draws != 0 {
			t.Fatalf("UC's stats after an abort: %+v, want nothing counted", st)
		}
	})
}
