package discord

import (
	"slices"
	"testing"
)

// TestSeasonsAndNewCommands: starting a new season needs Manage Channels,
// Manage Server or Administrator in the member's permissions; resign takes
// a match option, stats a versus option, and takeback is a subcommand.
func TestSeasonsAndNewCommands(t *testing.T) {
	f := newFixture(t, sessionsMemory(), 0)
	m := f.click("UB", f.challenge("UA", "UB"), "Accept")
	m = f.play(m, "UA", "UB", 1, 2, 1, 2, 1, 2, 1)
	want(t, m, typeUpdate, 0, "<@UA> wins!", "Ratings: <@UA> ")

	newSeason := func(perms string) gotResponse {
		in := f.slashIn("UC", "new_season", nil)
		in["member"].(map[string]any)["permissions"] = perms
		return f.send(in)
	}
	want(t, newSeason("0"), typeMessage, flagEphemeral, "Only people who can manage this channel")
	want(t, newSeason("2048"), typeMessage, flagEphemeral, "Only people who can manage this channel") // Send Messages
	want(t, f.slash("UA", "seasons", nil), typeMessage, flagEphemeral, "No season has ended")
	want(t, newSeason("16"), typeMessage, 0, "season 1 is archived") // Manage Channels
	want(t, f.slash("UA", "seasons", nil), typeMessage, flagEphemeral, "Season 1 (ended ")
	want(t, newSeason("32"), typeMessage, flagEphemeral, "no rated games yet") // Manage Server, but nothing to archive

	// head to head, takeback and resign match on a fresh game
	m = f.click("UB", f.challenge("UA", "UB"), "Accept")
	f.play(m, "UA", "UB", 3)
	want(t, f.slash("UA", "takeback", nil), typeMessage, 0, "<@UA> asks to take back their move in column 4")
	r := f.slash("UA", "resign", []map[string]any{opt("match", 5, true)})
	want(t, r, typeMessage, 0, "<@UA> resigned. <@UB> wins!")
	want(t, f.slash("UC", "stats", []map[string]any{opt("player", 6, "UA"), opt("versus", 6, "UB")}, userJSON("UA"), userJSON("UB")),
		typeMessage, flagEphemeral, "<@UA> vs <@UB> this season: 0–1, 0 draws")
}

// TestPings: a challenge pings the challenged player only; a leaderboard
// or a re-posted board pings nobody, although it names players.
func TestPings(t *testing.T) {
	f := newFixture(t, sessionsMemory(), 0)
	pings := func(what string, r gotResponse, want ...string) {
		t.Helper()
		am := r.Data.AllowedMentions
		if am == nil || am.Parse == nil || len(am.Parse) != 0 || !slices.Equal(am.Users, want) {
			t.Errorf("%s: allowed_mentions %+v, want parse [] and users %v", what, am, want)
		}
	}
	ch := f.challenge("UA", "UB")
	pings("challenge", ch, "UB")
	m := f.click("UB", ch, "Accept")
	pings("accept (an edit)", m)
	pings("board", f.slash("UA", "board", nil))
	pings("leaderboard", f.slash("UC", "leaderboard", nil))
}

// TestOpenChallenge: /connect4 open with options posts a challenge that
// pings nobody and that anyone may accept.
func TestOpenChallenge(t *testing.T) {
	f := newFixture(t, sessionsMemory(), 0)
	open := f.slash("UA", "open", []map[string]any{opt("cols", 4, 8), opt("first_to", 4, 2)})
	want(t, open, typeMessage, 0, "is looking for a game of Connect Four on a board of 8 columns × 6 rows, connect 4, first to 2 wins!")
	if am := open.Data.AllowedMentions; am == nil || len(am.Users) != 0 || len(am.Parse) != 0 {
		t.Errorf("open challenge allowed_mentions %+v, want nobody", am)
	}
	want(t, f.click("UC", open, "Accept"), typeUpdate, 0, "<@UC> accepted! <@UA> is red and goes first.")
}
