package bot

import (
	"github.com/connect4/connect4/bot/lang"
	"github.com/connect4/connect4/render"
)

// AltWords are render's words (alt text, Describe) in l, from the
// catalogue's alt.* messages; English for Unset.
func AltWords(l lang.Lang) render.Words {
	return func(id string, args map[string]any) string { return l.Or(lang.English).Say(id, lang.Args(args)) }
}
