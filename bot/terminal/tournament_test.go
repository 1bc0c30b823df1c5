package terminal_test

import (
	"context"
	"log/slog"
	"strings"
	"testing"

	"github.com/connect4/connect4/bot"
	"github.com/connect4/connect4/bot/terminal"
	"github.com/connect4/connect4/sessions"
)

// TestHotSeatTournament: connect4 play runs a tournament at one
// keyboard, `as <name>` switching players: opened, joined by button and
// typed, started, its games resigned round after round, the final table.
func TestHotSeatTournament(t *testing.T) {
	log := slog.New(slog.DiscardHandler)
	store, err := sessions.NewMemory(sessions.Options{})
	if err != nil {
		t.Fatal(err)
	}
	svc := bot.New(store, bot.Options{Logger: log})
	script := "/connect4 tournament new round-robin\nJoin the tournament\nas bob\n/connect4 tournament join\n" +
		"as carol\n/connect4 tournament join\nas alice\n/connect4 tournament start\n"
	// Each round, everyone tries to resign: the one with a game does.
	for range 3 {
		script += "as alice\n/connect4 resign\nas bob\n/connect4 resign\nas carol\n/connect4 resign\n"
	}
	script += "/connect4 tournament\n"
	var out strings.Builder
	a, err := terminal.New(svc, terminal.Config{In: strings.NewReader(script), Out: &out}, log)
	if err != nil {
		t.Fatal(err)
	}
	if err := a.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"opens a tournament: round robin", "[Join the tournament]", "3 players have joined",
		"Round 1 of 3 begins", "Round 2 of 3 begins", "Round 3 of 3 begins", "Final standings:", "Buchholz"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("the session does not show %q:\n%s", want, out.String())
		}
	}
}
