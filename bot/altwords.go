package bot

import (
	"github.com/connect4/connect4/bot/lang"
	"github.com/connect4/connect4/render"
)

// AltWords are render's words (alt text, Describe) in l, from the
// catalogue's alt.* messages. English (and Unset) is nil: render's own
// English, which render's tests hold equal to the catalogue's.
func AltWords(l lang.Lang) render.Words {
	l = l.Or(lang.English)
	if l == lang.English {
		return nil
	}
	return func(id string, args map[string]any) string { return l.Say(id, lang.Args(args)) }
}
