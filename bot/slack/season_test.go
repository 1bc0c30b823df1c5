package slack

import (
	"testing"

	"github.com/connect4/connect4/sessions"
)

// TestNewSeasonNeedsAdmin: /connect4 season new is for workspace admins
// and owners, as users.info says; anyone may list the seasons.
func TestNewSeasonNeedsAdmin(t *testing.T) {
	e := newEnv(t, sessions.NewMemory(sessions.Options{}), Config{})
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
