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

// TestHotSeatClockDrawAbort: connect4 play takes a time control, shows
// the players' time left, offers and accepts a draw, and aborts a game,
// as the chat platforms do.
func TestHotSeatClockDrawAbort(t *testing.T) {
	script := "/connect4 @bob clock 3+2\nas bob\nAccept\nas alice\n4\n/connect4 draw\nas bob\nAccept draw\n" +
		"/connect4 @carol\nas carol\nAccept\n/connect4 abort\n"
	out := hotSeat(t, script)
	for _, want := range []string{"@bob: 3:00 left", "[Accept draw] [Decline draw]", "@bob accepted the draw: the game is drawn.",
		"@carol aborted the game before everyone had moved"} {
		if !strings.Contains(out, want) {
			t.Errorf("the session does not show %q:\n%s", want, out)
		}
	}
}

// hotSeat plays script at one keyboard on a fresh memory store and
// returns what the terminal printed.
func hotSeat(t *testing.T, script string) string {
	t.Helper()
	log := slog.New(slog.DiscardHandler)
	store, err := sessions.NewMemory(sessions.Options{})
	if err != nil {
		t.Fatal(err)
	}
	svc := bot.New(store, bot.Options{Logger: log})
	var out strings.Builder
	a, err := terminal.New(svc, terminal.Config{In: strings.NewReader(script), Out: &out}, log)
	if err != nil {
		t.Fatal(err)
	}
	if err := a.Run(context.Background()); err != nil {
		t.Fatal(err)
	}
	return out.String()
}
