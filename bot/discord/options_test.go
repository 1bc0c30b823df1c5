package discord

import (
	"testing"

	discordgo "github.com/bwmarrin/discordgo"

	"github.com/connect4/connect4/bot"
	"github.com/connect4/connect4/bot/match"
)

// TestNewOptions reads the options issue 30 added to the command: the AI
// on any board and match and who starts, first on a challenge, and the
// puzzle's hint and give up; a value the command does not offer is forged.
func TestNewOptions(t *testing.T) {
	str := func(name, v string) *option {
		return &option{Name: name, Type: discordgo.ApplicationCommandOptionString, Value: v}
	}
	num := func(name string, v float64) *option {
		return &option{Name: name, Type: discordgo.ApplicationCommandOptionInteger, Value: v}
	}
	sub := func(name string, opts ...*option) *interactionData {
		return &interactionData{Name: commandName, Options: []*option{{Name: name, Type: discordgo.ApplicationCommandOptionSubCommand, Options: opts}},
			Resolved: &resolved{Users: map[string]*user{"UB": {ID: "UB", Username: "bob"}}}}
	}
	tests := []struct {
		name    string
		d       *interactionData
		check   func(bot.Request) bool
		wantErr bool
	}{
		{"ai on 9x7, first to 2, AI first", sub("ai", str("level", "hard"), num("cols", 9), num("rows", 7), num("connect", 5), num("first_to", 2), str("first", "them")),
			func(r bot.Request) bool {
				v := r.Variant
				return r.Kind == bot.KindAI && v.Cols == 9 && v.Rows == 7 && v.Connect == 5 && v.FirstTo == 2 && v.First == bot.StarterThem
			}, false},
		{"challenge first random", sub("challenge", &option{Name: "opponent", Type: discordgo.ApplicationCommandOptionUser, Value: "UB"}, str("first", "random")),
			func(r bot.Request) bool { return r.Kind == bot.KindChallenge && r.Variant.First == bot.StarterRandom }, false},
		{"challenge first me", sub("challenge", &option{Name: "opponent", Type: discordgo.ApplicationCommandOptionUser, Value: "UB"}, str("first", "me")),
			func(r bot.Request) bool { return r.Variant.First == bot.StarterMe }, false},
		{"open first them", sub("open", str("first", "them")),
			func(r bot.Request) bool { return r.Kind == bot.KindOpen && r.Variant.First == bot.StarterThem }, false},
		{"forged first on open", sub("open", str("first", "never")), nil, true},
		{"puzzle hint", sub("puzzle", str("action", "hint")),
			func(r bot.Request) bool { return r.Kind == bot.KindPuzzle && r.PuzzleAsk == bot.PuzzleHint }, false},
		{"puzzle give up", sub("puzzle", str("action", "give_up")),
			func(r bot.Request) bool { return r.Kind == bot.KindPuzzle && r.PuzzleAsk == bot.PuzzleGiveUp }, false},
		{"forged first", sub("ai", str("first", "never")), nil, true},
		{"forged action", sub("puzzle", str("action", "solve")), nil, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := request(tt.d, match.Player{ID: "USELF"})
			if (err != nil) != tt.wantErr {
				t.Fatalf("request: %+v, %v; want error %v", got, err, tt.wantErr)
			}
			if !tt.wantErr && !tt.check(got) {
				t.Errorf("request = %+v", got)
			}
		})
	}
}
