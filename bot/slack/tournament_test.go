package slack

import "testing"

// TestTournamentThroughHTTP: through the HTTP endpoints, a workspace admin
// opens a round robin of 3 with the typed grammar; players join with its
// button and by typing; a second join and a non-organiser's start are one
// line to the sender alone; the start posts round 1's games; each game
// resigned moves the tournament on, and the last posts the final table.
func TestTournamentThroughHTTP(t *testing.T) {
	forEachStore(t, func(t *testing.T, e *env) {
		wantPosted(t, e.slash("UA", "tournament new swiss"), ephemeral, false, "Only someone allowed to manage this channel")
		wantPosted(t, e.slash(adminID, "tournament new swiss rounds 0"), ephemeral, false, "Rounds go from 1 to 15")
		wantPosted(t, e.slash(adminID, "tournament new swiss days 99"), ephemeral, false, "allows 1 to 14 days per move")
		m := e.slash(adminID, "tournament new round-robin clock 5+3")
		wantPosted(t, m, inChannel, false, "opens a tournament: round robin")
		wantPosted(t, e.click("UA", m, "Join the tournament"), "", true, "joins the tournament", "1 player has joined")
		wantPosted(t, e.slash("UA", "tournament join"), ephemeral, false, "You have already joined this tournament.")
		wantPosted(t, e.slash("UB", "tournament join"), inChannel, false, "2 players have joined")
		wantPosted(t, e.slash("UC", "tournament join"), inChannel, false, "3 players have joined")
		wantPosted(t, e.slash("UA", "tournament start"), ephemeral, false, "Only the organiser")
		wantPosted(t, e.slash(adminID, "tournament start"), inChannel, false, "Round 1 of 3 begins", "Board 1:", "sits this round out")
		wantPosted(t, e.slash("UD", "tournament join"), ephemeral, false, "already started")
		for round := 1; round <= 3; round++ {
			var end posted
			for _, u := range []string{"UA", "UB", "UC"} {
				if r := e.slash(u, "resign"); r.ResponseType == inChannel {
					end = r
					break
				}
			}
			next := []string{"", "Round 2 of 3 begins", "Round 3 of 3 begins", "Final standings:"}[round]
			wantPosted(t, end, inChannel, false, "resigned", next)
		}
		wantPosted(t, e.slash("UB", "tournament"), inChannel, false, "Final standings:", "Buchholz")
	})
}
