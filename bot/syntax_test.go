package bot

import (
	"strings"
	"testing"

	"github.com/connect4/connect4/bot/lang"
)

// The example person inside a command is the language's own word: a
// Spanish or Brazilian player was told `/connect4 challenge @someone` in
// the middle of a sentence of their language.
func TestSyntaxExampleInTheLanguage(t *testing.T) {
	tests := []struct {
		l        lang.Lang
		platform string
		want     string
	}{
		{lang.English, "slack", "`/connect4 challenge @someone`"},
		{lang.English, "discord", "`/connect4 challenge opponent:@someone`"},
		{lang.Spanish, "slack", "`/connect4 challenge @alguien`"},
		{lang.Spanish, "discord", "`/connect4 challenge opponent:@alguien`"},
		{lang.PortugueseBR, "terminal", "`/connect4 challenge @alguém`"},
		{lang.PortugueseBR, "discord", "`/connect4 challenge opponent:@alguém`"},
		{lang.German, "slack", "`/connect4 challenge @jemand`"},
	}
	for _, tt := range tests {
		t.Run(tt.l.String()+"/"+tt.platform, func(t *testing.T) {
			if got := syntax(tt.l, tt.platform)["Challenge"]; got != tt.want {
				t.Errorf("syntax(%v, %q)[Challenge] = %q, want %q", tt.l, tt.platform, got, tt.want)
			}
			if got := ProblemNoGame.On(tt.l, tt.platform); !strings.Contains(got, tt.want) {
				t.Errorf("ProblemNoGame.On(%v, %q) = %q, want it to contain %q", tt.l, tt.platform, got, tt.want)
			}
		})
	}
	// No language but English shows the English example anywhere a
	// command is named.
	for _, l := range lang.All {
		if l == lang.English {
			continue
		}
		for _, platform := range []string{"slack", "discord", "terminal"} {
			for _, p := range []Problem{ProblemNoGame, ProblemNotInGame, ProblemGameOver, ProblemExpired, ProblemNothingToRematch} {
				if got := p.On(l, platform); strings.Contains(got, "@someone") {
					t.Errorf("%v.On(%v, %q) = %q: the English example", p, l, platform, got)
				}
			}
		}
	}
}
