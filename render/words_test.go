package render_test

import (
	"math/rand/v2"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/connect4/connect4/bot"
	"github.com/connect4/connect4/bot/lang"
	"github.com/connect4/connect4/engine"
	"github.com/connect4/connect4/render"
)

// catalogueWords are render's Words from the bot's catalogue, as the bot
// passes them (bot.AltWords; this test may not import package bot).
func catalogueWords(l lang.Lang) render.Words {
	return func(id string, args map[string]any) string { return l.Say(id, lang.Args(args)) }
}

// randomGames returns n games of several sizes played at random, some
// won, some drawn, some resigned, some of 3 or 4 players.
func randomGames(t *testing.T, n int) []*engine.Game {
	t.Helper()
	rng := rand.New(rand.NewPCG(1, 2))
	var games []*engine.Game
	for i := range n {
		cfg := engine.Config{Rows: 4 + rng.IntN(7), Cols: 4 + rng.IntN(7), Connect: 3 + rng.IntN(2)}
		if i%7 == 3 {
			cfg.Players, cfg.Cols = 3+rng.IntN(2), 7+rng.IntN(4)
		}
		g, err := engine.New(cfg)
		if err != nil {
			t.Fatal(err)
		}
		stop := rng.IntN(cfg.Rows * cfg.Cols)
		for g.State() == engine.InProgress && g.Moves() < stop {
			legal := g.LegalColumns()
			if err := g.Play(g.Turn(), legal[rng.IntN(len(legal))]); err != nil {
				t.Fatal(err)
			}
		}
		if i%5 == 4 && g.State() == engine.InProgress {
			_ = g.Resign(g.Turn())
		}
		games = append(games, g)
	}
	return games
}

// TestCatalogueEnglishIsRenders checks that the catalogue's English alt.*
// messages say what render's own English says, for every kind of game,
// palette and name: the bot's English pictures keep their alt text.
func TestCatalogueEnglishIsRenders(t *testing.T) {
	names := []render.Names{{}, {Red: "alice", Yellow: "bob", Green: "carol", Blue: "dave"}}
	for _, g := range randomGames(t, 300) {
		for _, n := range names {
			for _, pal := range []render.ImagePalette{render.ImageStandard, render.ImageColourBlind} {
				want := render.AltText(g, n, pal)
				if got := render.AltTextIn(g, n, pal, catalogueWords(lang.English)); got != want {
					t.Fatalf("%v: the catalogue's English says\n%q\nrender's\n%q", g.History(), got, want)
				}
			}
			if got, want := render.DescribeIn(g, n, catalogueWords(lang.English)), render.Describe(g, n); got != want {
				t.Fatalf("%v: Describe in the catalogue's English %q, render's %q", g.History(), got, want)
			}
		}
	}
}

// TestAltTextFitsInEveryLanguage checks that the longest alt text (a full
// 10 × 10 board of single discs, long names) stays within MaxAltText in
// every language, and is in that language's words.
func TestAltTextFitsInEveryLanguage(t *testing.T) {
	g, err := engine.New(engine.Config{Rows: 10, Cols: 10, Connect: 10})
	if err != nil {
		t.Fatal(err)
	}
	for g.State() == engine.InProgress {
		// Alternate discs in every column: runs of one, the longest text.
		c := -1
		for _, m := range g.LegalColumns() {
			if g.Board().Height(m) == 0 || g.Board().At(g.Board().Height(m)-1, m) != g.Turn() {
				c = m
				break
			}
		}
		if c < 0 {
			c = g.LegalColumns()[0]
		}
		if err := g.Play(g.Turn(), c); err != nil {
			t.Fatal(err)
		}
	}
	long := render.Names{Red: strings.Repeat("r", 80), Yellow: strings.Repeat("y", 80)}
	for _, l := range lang.All {
		got := render.AltTextIn(g, long, render.ImageColourBlind, catalogueWords(l))
		if n := utf8.RuneCountInString(got); n > render.MaxAltText || n == 0 {
			t.Errorf("%s: %d characters, want 1 to %d", l, n, render.MaxAltText)
		}
		if !strings.HasPrefix(got, l.Say("alt.size", lang.Args{"Connect": 10, "Rows": 10, "Cols": 10})) {
			t.Errorf("%s: %q does not start with the language's alt.size", l, got)
		}
	}
}

// BenchmarkAltTextIn compares render's own English with another language
// as the bot says it (bot.AltWords) and through lang's Say, on a mid-game
// board.
func BenchmarkAltTextIn(b *testing.B) {
	g, _ := engine.New(engine.DefaultConfig())
	for _, c := range []int{3, 3, 2, 4, 4, 2, 5, 1, 0, 6, 6, 5, 3, 3} {
		_ = g.Play(g.Turn(), c)
	}
	n := render.Names{Red: "alice", Yellow: "bob"}
	b.Run("render", func(b *testing.B) {
		for b.Loop() {
			render.AltText(g, n, render.ImageStandard)
		}
	})
	b.Run("AltWords", func(b *testing.B) {
		w := bot.AltWords(lang.German)
		for b.Loop() {
			render.AltTextIn(g, n, render.ImageStandard, w)
		}
	})
	b.Run("Say", func(b *testing.B) {
		w := catalogueWords(lang.German)
		for b.Loop() {
			render.AltTextIn(g, n, render.ImageStandard, w)
		}
	})
}
