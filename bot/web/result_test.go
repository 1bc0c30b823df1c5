package web

import (
	"testing"

	"github.com/connect4/connect4/bot"
	"github.com/connect4/connect4/bot/lang"
	"github.com/connect4/connect4/bot/match"
	"github.com/connect4/connect4/engine"
)

// TestResultText: a game page says how the game ended; a draw agreed on a
// board that is not full was called "Abandoned.".
func TestResultText(t *testing.T) {
	play := func(cols ...int) *engine.Game {
		g, err := engine.New(engine.DefaultConfig())
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range cols {
			if err := g.Play(g.Turn(), c); err != nil {
				t.Fatal(err)
			}
		}
		return g
	}
	players := []match.Player{{ID: "UA", Name: "alice"}, {ID: "UB", Name: "bob"}}
	tests := []struct {
		name   string
		status match.Status
		finish match.Finish
		game   *engine.Game
		want   string
	}{
		{"in progress", match.StatusPlaying, match.FinishNone, play(3, 3), "In progress: 2 moves played."},
		{"a draw agreed", match.StatusFinished, match.FinishDraw, play(3, 3, 4, 4), "A draw, agreed by the players."},
		{"abandoned", match.StatusFinished, match.FinishCancelled, play(3), "Abandoned."},
	}
	for _, tt := range tests {
		gp := bot.GamePage{Status: tt.status, Finish: tt.finish, Players: players, Game: tt.game}
		if got := resultText(lang.English, gp); got != tt.want {
			t.Errorf("%s: resultText = %q, want %q", tt.name, got, tt.want)
		}
	}
}
