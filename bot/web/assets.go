package web

import (
	"crypto/sha256"
	"embed"
	"encoding/base64"
	"fmt"
	"html/template"

	"github.com/connect4/connect4/bot/lang"
)

//go:embed templates/page.html assets/page.css assets/page.js
var files embed.FS

// assets are the page template, one per language (its t function says
// that language's words), the style sheet and the game page's script,
// and the Content-Security-Policy that allows exactly those.
type assets struct {
	pages map[lang.Lang]*template.Template
	css   template.CSS
	js    template.JS
	csp   string
}

// loadAssets parses the embedded template and reads the style and script.
func loadAssets() (assets, error) {
	css, err := files.ReadFile("assets/page.css")
	if err != nil {
		return assets{}, err
	}
	js, err := files.ReadFile("assets/page.js")
	if err != nil {
		return assets{}, err
	}
	base, err := template.New("page.html").Funcs(template.FuncMap{"t": words(lang.English)}).ParseFS(files, "templates/page.html")
	if err != nil {
		return assets{}, fmt.Errorf("web: page template: %w", err)
	}
	a := assets{pages: map[lang.Lang]*template.Template{}, css: template.CSS(css), js: template.JS(js)}
	for _, l := range lang.All {
		t, err := base.Clone()
		if err != nil {
			return assets{}, err
		}
		a.pages[l] = t.Funcs(template.FuncMap{"t": words(l)})
	}
	a.csp = "default-src 'none'; style-src '" + hash(css) + "'; script-src '" + hash(js) +
		"'; img-src 'self'; connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'"
	return a, nil
}

// hash is a CSP source for an inline element holding b.
func hash(b []byte) string {
	sum := sha256.Sum256(b)
	return "sha256-" + base64.StdEncoding.EncodeToString(sum[:])
}

// words returns the template's t function in l: t "id" says message id,
// t "id" "Name" value … fills its placeholders.
func words(l lang.Lang) func(id string, kv ...any) string {
	return func(id string, kv ...any) string {
		var args lang.Args
		if len(kv) > 0 {
			args = lang.Args{}
			for i := 0; i+1 < len(kv); i += 2 {
				if k, ok := kv[i].(string); ok {
					args[k] = kv[i+1]
				}
			}
		}
		return l.Say(id, args)
	}
}

// templateWords are the message ids the template says: listed here so
// that the catalogue's tests see them used (TestTemplateWords checks the
// template says no other).
var templateWords = []string{
	"web.site", "web.footer", "web.game.players", "web.game.left", "web.game.board", "web.board.title",
	"web.step.first", "web.step.prev", "web.step.slider", "web.step.next", "web.step.last", "web.step.keys",
	"web.game.moves", "web.analysis.title", "web.analysis.ask", "web.analysis.unavailable", "web.nav.channel",
	"web.title.channel", "web.channel.leaderboard", "web.col.player", "web.col.rating", "web.col.wins",
	"web.col.losses", "web.col.draws", "web.provisional", "web.channel.unrated", "web.channel.empty",
	"web.channel.playing", "web.channel.recent", "web.channel.seasons", "web.channel.noSeasons", "web.none",
	"web.player.deviation", "web.col.games", "web.player.winRate", "web.player.streak", "web.player.history",
	"web.player.noHistory", "web.player.headToHead", "web.col.opponent", "web.player.games",
}
