package slack

import (
	"strconv"
	"testing"

	"github.com/connect4/connect4/bot/match"
	"github.com/connect4/connect4/sessions"
	"github.com/connect4/connect4/sessions/storetest"
)

// otherTeam is a second organisation sharing testChan through Slack
// Connect: its users' payloads carry its team id, not testTeam, in which
// the bot is installed.
const otherTeam = "T2OTHER"

// TestSlackConnectOneChannel plays a game in a channel shared by two
// organisations: UX of otherTeam challenges UA of testTeam, and both
// play by commands and clicks whose payloads name their own teams. They
// play one game, kept under the installation's team, and UX's `board` and
// `resign` find it.
func TestSlackConnectOneChannel(t *testing.T) {
	forEachStore(t, func(t *testing.T, e *env) {
		e.teams = map[string]string{"UX": otherTeam}
		home := match.Key{Platform: Platform, Workspace: testTeam, Channel: testChan}

		ch := e.slash("UX", "<@UA|alice>")
		wantPosted(t, ch, inChannel, false, "challenges <@UA>")
		board := e.click("UA", ch, "Accept")
		wantPosted(t, board, "", true, "<@UA> accepted!")
		for i, col := range []int{4, 4, 3, 3} {
			mover := []string{"UX", "UA"}[i%2]
			board = e.click(mover, board, strconv.Itoa(col))
			wantPosted(t, board, "", true, "<@"+mover+"> dropped a disc in column "+strconv.Itoa(col))
		}
		rec, err := e.store.PlayerGame(t.Context(), home, "UX")
		if err != nil || rec.Game.Moves() != 4 {
			t.Fatalf("game of UX under the installation's team: %+v, %v; want 4 moves", rec, err)
		}
		split := home
		split.Workspace = otherTeam
		if r, err := e.store.PlayerGame(t.Context(), split, "UX"); err == nil {
			t.Fatalf("a game under UX's own team: %+v", r)
		}
		wantPosted(t, e.slash("UX", "board"), inChannel, false, ":red_circle:")
		wantPosted(t, e.slash("UX", "resign"), inChannel, false, "@ux resigned. @alice wins!")
		lb := e.slash("UA", "leaderboard")
		wantPosted(t, lb, inChannel, false, "1-0-0", "0-1-0")
	})
}

// TestSlackConnectWithoutInstallTeam checks the keys when auth.test names
// no workspace the games can live in (an org-wide Enterprise Grid
// install): the payload's team, as before.
func TestSlackConnectWithoutInstallTeam(t *testing.T) {
	e := newEnv(t, storetest.NewMemory(t, sessions.Options{}), Config{})
	e.a.selfMu.Lock()
	e.a.self, e.a.home = match.Player{ID: botUserID}, ""
	e.a.selfMu.Unlock()
	e.teams = map[string]string{"UX": otherTeam}
	wantPosted(t, e.slash("UX", "<@UA|alice>"), inChannel, false, "challenges <@UA>")
	k := match.Key{Platform: Platform, Workspace: otherTeam, Channel: testChan}
	if _, err := e.store.PlayerGame(t.Context(), k, "UX"); err != nil {
		t.Fatalf("no challenge under the payload's team: %v", err)
	}
}
