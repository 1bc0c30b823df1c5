package terminal_test

import (
	"strings"
	"testing"
)

// TestHotSeatTournament: connect4 play runs a tournament at one
// keyboard, `as <name>` switching players: opened, joined by button and
// typed, started, its games resigned round after round, the final table.
func TestHotSeatTournament(t *testing.T) {
	script := "/connect4 tournament new round-robin\nJoin the tournament\nas bob\n/connect4 tournament join\n" +
		"as carol\n/connect4 tournament join\nas alice\n/connect4 tournament start\n"
	// Each round, everyone tries to resign: the one with a game does.
	for range 3 {
		script += "as alice\n/connect4 resign\nas bob\n/connect4 resign\nas carol\n/connect4 resign\n"
	}
	script += "/connect4 tournament\n"
	out := hotSeat(t, script)
	for _, want := range []string{"opens a tournament: round robin", "[Join the tournament]", "3 players have joined",
		"Round 1 of 3 begins", "Round 2 of 3 begins", "Round 3 of 3 begins", "Final standings:", "Buchholz"} {
		if !strings.Contains(out, want) {
			t.Errorf("the session does not show %q:\n%s", want, out)
		}
	}
}
