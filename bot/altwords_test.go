package bot

import (
	"strings"
	"testing"

	"github.com/connect4/connect4/bot/lang"
	"github.com/connect4/connect4/engine"
	"github.com/connect4/connect4/render"
)

// TestAltWords checks that a board's alt text in another language is said
// from that language's catalogue, not render's English, and that English
// is render's own.
func TestAltWords(t *testing.T) {
	if AltWords(lang.English) != nil || AltWords(lang.Unset) != nil {
		t.Error("English is not render's own")
	}
	g, err := engine.New(engine.DefaultConfig())
	if err != nil {
		t.Fatal(err)
	}
	empty := render.AltTextIn(g, render.Names{}, render.ImageStandard, AltWords(lang.German))
	if want := lang.German.Say("alt.boardEmpty", nil); !strings.Contains(empty, want) || want == lang.English.Say("alt.boardEmpty", nil) {
		t.Errorf("German alt text of an empty board %q lacks %q", empty, want)
	}
}
