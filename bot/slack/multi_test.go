package slack

import (
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"

	"github.com/connect4/connect4/bot/match"
)

// TestThreePlayersThroughHTTP plays a game of 3 through the HTTP
// endpoints, with the requests Slack sends: a challenge naming two
// people, accepts one by one, refused, stale and racing clicks, a
// resignation that leaves the game going on, and a win.
func TestThreePlayersThroughHTTP(t *testing.T) {
	forEachStore(t, func(t *testing.T, e *env) {
		key := match.Key{Platform: Platform, Workspace: testTeam, Channel: testChan}
		// A bot user among the others is refused, like an opponent.
		wantPosted(t, e.slash("UA", "<@UB|bob> <@"+robotID+">"), ephemeral, false, "is a bot")
		wantPosted(t, e.slash("UA", "<@UB|bob> <@UC|cat> 6x6"), ephemeral, false, "3 players need at least 7 columns")
		wantPosted(t, e.slash("UA", "ai <@UB|bob>"), ephemeral, false, "only play two-player games")

		ch := e.slash("UA", "<@UB|bob> <@UC|cat> 9x7")
		// The challenge pings the two invited players, not the challenger.
		wantPosted(t, ch, inChannel, false, "@ua challenges <@UB> and <@UC> to a game of Connect Four for 3 players", "9 columns × 7 rows")
		if got := labels(ch); !slices.Equal(got, []string{"Accept", "Decline", "Cancel"}) {
			t.Fatalf("challenge buttons %v", got)
		}
		wantPosted(t, e.click("UZ", ch, "Accept"), ephemeral, false, "only they can answer")
		half := e.click("UC", ch, "Accept")
		// An edit, which notifies nobody.
		wantPosted(t, half, "", true, "<@UC> accepted.", "Accepted: <@UC>.", "<@UB>, do you accept?")
		wantPosted(t, e.click("UC", ch, "Accept"), ephemeral, false, "accepted already")
		board := e.click("UB", half, "Accept")
		wantPosted(t, board, "", true, "everyone is in!", ":red_circle: <@UA> vs :large_yellow_circle: <@UB> vs :large_green_circle: <@UC>", ":one:")
		if got := len(buttons(board)); got != 9 {
			t.Fatalf("%d board buttons, want 9 columns", got)
		}
		if s := contextText(board); !strings.Contains(s, ":red_circle: <@UA>, it's your turn") {
			t.Fatalf("status %q, want UA to move", s)
		}
		first := board
		wantPosted(t, e.click("UB", board, "4"), ephemeral, false, "not your turn")
		for i, col := range []int{1, 2, 3} {
			mover := []string{"UA", "UB", "UC"}[i]
			board = e.click(mover, board, strconv.Itoa(col))
			wantPosted(t, board, "", true, "<@"+mover+"> dropped a disc in column "+strconv.Itoa(col))
		}
		if !strings.Contains(sectionText(board), ":large_green_circle:") {
			t.Fatalf("board without green's disc:\n%s", sectionText(board))
		}
		wantPosted(t, e.click("UA", first, "5"), ephemeral, false, "out of date")

		// Racing clicks: all three click at once on the same board; one
		// move lands.
		before, err := e.store.PlayerGame(t.Context(), key, "UA")
		if err != nil {
			t.Fatal(err)
		}
		var wg sync.WaitGroup
		for i := range 9 {
			user := []string{"UA", "UB", "UC"}[i%3]
			col := 1 + i%9
			if user == "UA" {
				col = 1 // the player to move clicks column 1 three times
			}
			b := button(board, strconv.Itoa(col))
			body := e.clickPayload(user, b.ActionID, b.Value)
			wg.Go(func() {
				if resp := e.post("/slack/interactions", body); resp.StatusCode != http.StatusOK {
					t.Errorf("racing click: status %d", resp.StatusCode)
				}
			})
		}
		wg.Wait()
		e.wait()
		after, err := e.store.PlayerGame(t.Context(), key, "UA")
		if err != nil || after.Game.Moves() != before.Game.Moves()+1 || after.Game.History()[3] != 0 {
			t.Fatalf("after racing clicks: %v moves (history %v), %v; want exactly UA's move in column 1", after.Game.Moves(), after.Game.History(), err)
		}

		// UB resigns: the game goes on between UC and UA. A new message,
		// which pings nobody.
		rs := e.slash("UB", "resign")
		wantPosted(t, rs, inChannel, false, "@bob resigned and leaves the game", "@bob (left)", "@cat, it's your move")
		if s := contextText(rs); !strings.Contains(s, "@cat, it's your turn") {
			t.Fatalf("status %q, want UC to move (UB skipped)", s)
		}
		wantPosted(t, e.slash("UB", "resign"), ephemeral, false, "You've left this game")
		// UC and UA: UA completes column 1 (discs in moves 1 and 4).
		board = rs
		for _, m := range []struct {
			who string
			col int
		}{{"UC", 3}, {"UA", 1}, {"UC", 3}, {"UA", 1}} {
			board = e.click(m.who, board, strconv.Itoa(m.col))
		}
		wantPosted(t, board, "", true, "<@UA> wins!", ":large_red_square:")
		for id, want := range map[string][3]int{"UA": {1, 0, 0}, "UB": {0, 1, 0}, "UC": {0, 1, 0}} {
			st, err := e.store.Stats(t.Context(), key, id)
			if err != nil || [3]int{st.Wins, st.Losses, st.Draws} != want {
				t.Errorf("stats of %s = %+v, %v; want %v", id, st, err, want)
			}
		}
		if got := labels(board); !slices.Equal(got, []string{"Rematch"}) {
			t.Fatalf("buttons after the win %v, want Rematch", got)
		}
	})
}
