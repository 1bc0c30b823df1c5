package terminal_test

import (
	"context"
	"log/slog"
	"os"
	"strings"

	"github.com/connect4/connect4/bot"
	"github.com/connect4/connect4/bot/terminal"
	"github.com/connect4/connect4/sessions"
)

// A scripted session: alice challenges bob, bob accepts, alice plays
// column 4, someone types a column that does not exist.
func ExampleAdapter_Run() {
	log := slog.New(slog.DiscardHandler)
	store, err := sessions.NewMemory(sessions.Options{})
	if err != nil {
		panic(err)
	}
	svc := bot.New(store, bot.Options{Logger: log})
	script := "/connect4 @bob\nas bob\nAccept\nas alice\n4\n9\n"
	a, err := terminal.New(svc, terminal.Config{In: strings.NewReader(script), Out: os.Stdout}, log)
	if err != nil {
		panic(err)
	}
	if err := a.Run(context.Background()); err != nil {
		panic(err)
	}
	// Output:
	// ── #general ──
	// @alice challenges @bob to Connect Four!
	// @bob, do you accept? The challenge expires in 10 minutes.
	// [Accept] [Decline] [Cancel]
	// (you are now bob)
	// ── message updated ──
	// @bob accepted! @alice is red and goes first.
	// 🔴 @alice vs 🟡 @bob
	// 1 2 3 4 5 6 7
	// ⚪⚪⚪⚪⚪⚪⚪
	// ⚪⚪⚪⚪⚪⚪⚪
	// ⚪⚪⚪⚪⚪⚪⚪
	// ⚪⚪⚪⚪⚪⚪⚪
	// ⚪⚪⚪⚪⚪⚪⚪
	// ⚪⚪⚪⚪⚪⚪⚪
	// 🔴 @alice, it's your turn (move 1).
	// [1] [2] [3] [4] [5] [6] [7] [Offer draw]
	// (you are now alice)
	// ── message updated ──
	// @alice dropped a disc in column 4.
	// 🔴 @alice vs 🟡 @bob
	// 1 2 3 4 5 6 7
	// ⚪⚪⚪⚪⚪⚪⚪
	// ⚪⚪⚪⚪⚪⚪⚪
	// ⚪⚪⚪⚪⚪⚪⚪
	// ⚪⚪⚪⚪⚪⚪⚪
	// ⚪⚪⚪⚪⚪⚪⚪
	// ⚪⚪⚪🔴⚪⚪⚪
	// 🟡 @bob, it's your turn (move 2).
	// [1] [2] [3] [4] [5] [6] [7] [Offer draw]
	// (there is no column 9: this board has columns 1 to 7)
}
