package slack

import (
	"testing"

	"github.com/connect4/connect4/sessions"
	"github.com/connect4/connect4/sessions/storetest"
)

// TestNewSeasonNeedsAdmin: /connect4 season new is for workspace admins
// and owners, as users.info says; anyone may list the seasons.
func TestNewSeasonNeedsAdmin(t *testing.T) {
	e := newEnv(t, storetest.NewMemory(t, sessions.Options{}), Config{})
	board := e.slash("UA", "<@UB>")
	board = e.click("UB", board, "Accept")
	for _, c := range []string{"1", "2", "1", "2", "1", "2"} {
		board = e.click(map[bool]string{true: "UA", false: "UB"}[c == "1"], board, c)
	}
	board = e.click("UA", board, "1")
	wantPosted(t, board, "", true, "<@UA> wins!", "Ratings: <@UA> ")
	wantPosted(t, e.slash("UA", "season new"), ephemeral, false, "Only people who can manage this channel")
	wantPosted(t, e.slash(adminID, "season new"), inChannel, false, "season 1 is archived")
	wantPosted(t, e.slash("UA", "seasons"), ephemeral, false, "Season 1 (ended ")
}

// TestSeveralGamesInOneChannel: two pairs play in one channel at the same
// time, each on its own message, click for click, and neither game's
// buttons act on the other.
func TestSeveralGamesInOneChannel(t *testing.T) {
	e := newEnv(t, storetest.NewMemory(t, sessions.Options{}), Config{})
	ab := e.click("UB", e.slash("UA", "<@UB>"), "Accept")
	cd := e.click("UD", e.slash("UC", "<@UD>"), "Accept")
	wantPosted(t, e.click("UC", ab, "3"), ephemeral, false, "not playing in this game")
	for i, c := range []string{"1", "2", "1", "2", "1", "2"} {
		ab = e.click(map[bool]string{true: "UA", false: "UB"}[i%2 == 0], ab, c)
		cd = e.click(map[bool]string{true: "UC", false: "UD"}[i%2 == 0], cd, c)
	}
	wantPosted(t, e.click("UA", ab, "1"), "", true, "<@UA> wins!")
	wantPosted(t, e.click("UC", cd, "1"), "", true, "<@UC> wins!")
}
