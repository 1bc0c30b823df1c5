package discord

import (
	"testing"
)

// TestTournamentInteractions: through signed interactions, a manager
// opens a Swiss of 3 players with the tournament subcommand; players join
// with its button and with the action; a second join is one ephemeral
// line; the organiser starts it and the round's games are made; each game
// resigned ends a round and the last one posts the final table.
func TestTournamentInteractions(t *testing.T) {
	f := newFixture(t, sessionsMemory(), 0)
	tour := func(user string, manage bool, opts ...map[string]any) gotResponse {
		in := f.slashIn(user, "tournament", opts)
		if manage {
			in["member"].(map[string]any)["permissions"] = "16" // Manage Channels
		}
		return f.send(in)
	}
	want(t, tour("UO", false, opt("action", 3, "new"), opt("format", 3, "swiss")), typeMessage, flagEphemeral, "Only someone allowed to manage this channel")
	want(t, tour("UO", true, opt("action", 3, "new"), opt("format", 3, "swiss"), opt("clock", 3, "0+0")), typeMessage, flagEphemeral, "gives no time at all")
	m := tour("UO", true, opt("action", 3, "new"), opt("format", 3, "swiss"), opt("rounds", 4, 2), opt("clock", 3, "5+3"))
	want(t, m, typeMessage, 0, "<@UO> opens a tournament: Swiss system")
	j := f.click("UA", m, "Join the tournament")
	want(t, j, typeUpdate, 0, "<@UA> joins the tournament")
	want(t, tour("UA", false, opt("action", 3, "join")), typeMessage, flagEphemeral, "You have already joined this tournament.")
	want(t, tour("UB", false, opt("action", 3, "join")), typeMessage, 0, "2 players have joined")
	want(t, tour("UC", false, opt("action", 3, "join")), typeMessage, 0, "3 players have joined")
	want(t, tour("UA", false, opt("action", 3, "start")), typeMessage, flagEphemeral, "Only the organiser")
	s := tour("UO", false, opt("action", 3, "start"))
	want(t, s, typeMessage, 0, "Round 1 of 2 begins", "Board 1:", "sits this round out")
	for round := 1; round <= 2; round++ {
		var end gotResponse
		for _, u := range []string{"UA", "UB", "UC"} {
			r := f.slash(u, "resign", nil)
			if r.Data != nil && r.Data.Flags&flagEphemeral == 0 {
				end = r
				break
			}
		}
		next := "Round 2 of 2 begins"
		if round == 2 {
			next = "Final standings:"
		}
		want(t, end, typeMessage, 0, next)
	}
	want(t, tour("UA", false), typeMessage, 0, "Final standings:", "Buchholz")
}
