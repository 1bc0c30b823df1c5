package render

import (
	"bytes"
	"fmt"
	"image"
	"image/color"
	"strings"
	"testing"

	"github.com/connect4/connect4/engine"
)

// TestImageThreeAndFourPlayers: in games of 3 and 4 players every disc is
// drawn in its player's own face colour, the four faces differ, and the
// third and fourth players' discs carry their shape cues (a dot and a
// square of their rim colour) in both palettes, so they can be told apart
// without colour.
func TestImageThreeAndFourPlayers(t *testing.T) {
	for _, players := range []int{3, 4} {
		for seed := uint64(1); seed <= 6; seed++ {
			cfg := engine.Config{Rows: 7, Cols: 9, Connect: 4, Players: players}
			g := randomGame(t, cfg, seed)
			for _, pal := range []ImagePalette{ImageStandard, ImageColourBlind} {
				t.Run(fmt.Sprintf("%d-%d-%v", players, seed, pal), func(t *testing.T) {
					var buf bytes.Buffer
					if err := PNG(&buf, g, ImageOptions{Palette: pal}); err != nil {
						t.Fatal(err)
					}
					checkMultiCells(t, decodePNG(t, buf.Bytes()), g, pal, DefaultCellSize)
				})
			}
		}
	}
}

func checkMultiCells(t *testing.T, img image.Image, g *engine.Game, pal ImagePalette, s int) {
	t.Helper()
	th := pal.theme()
	faces := map[color.RGBA]bool{th.board: true, th.hole: true}
	for i := range g.Players() {
		if faces[th.face[i]] {
			t.Fatalf("%v: player %d's face %v is used already", pal, i+1, th.face[i])
		}
		faces[th.face[i]] = true
	}
	b := g.Board()
	pad := s / 8
	at := func(r, c int, dx, dy float64) color.Color {
		return img.At(pad+c*s+s/2+int(dx*float64(s)), pad+(b.Rows()-1-r)*s+s/2+int(dy*float64(s)))
	}
	seen := map[engine.Player]bool{}
	for r := range b.Rows() {
		for c := range b.Cols() {
			p := b.At(r, c)
			if !p.Valid() {
				if got := at(r, c, 0, 0); !same(got, th.hole) {
					t.Errorf("empty cell %d,%d is %v, want the hole", r, c, got)
				}
				continue
			}
			seen[p] = true
			if got := at(r, c, 0.3, 0); !same(got, th.face[p-1]) {
				t.Errorf("%v disc at %d,%d: face %v, want %v", p, r, c, got, th.face[p-1])
			}
			// Inside the face: the cue, where the player has one. The
			// square's corner tells it from the third player's dot.
			want, corner := th.face[p-1], th.face[p-1]
			switch {
			case p == engine.Green:
				want = th.rim[p-1]
			case p == engine.Blue:
				want, corner = th.rim[p-1], th.rim[p-1]
			case p == engine.Yellow && pal == ImageColourBlind:
				want = th.rim[p-1]
			}
			if got := at(r, c, 0, -0.215); !same(got, want) {
				t.Errorf("%v %v disc at %d,%d: inside %v, want %v", pal, p, r, c, got, want)
			}
			if got := at(r, c, 0.2, -0.2); !same(got, corner) {
				t.Errorf("%v %v disc at %d,%d: corner %v, want %v", pal, p, r, c, got, corner)
			}
		}
	}
	if g.Moves() > 2*len(g.Players()) && len(seen) != len(g.Players()) {
		t.Errorf("only %d players' discs on a board of %d moves", len(seen), g.Moves())
	}
}

// TestColourTableFits: the table of every palette and number of players
// holds every colour a drawing uses, within 256.
func TestColourTableFits(t *testing.T) {
	for _, pal := range []ImagePalette{ImageStandard, ImageColourBlind} {
		for players := 2; players <= engine.MaxPlayers; players++ {
			th := pal.theme()
			tab := colourTable(th, players)
			if len(tab) > 256 {
				t.Errorf("%v, %d players: %d colours", pal, players, len(tab))
			}
			for i := range players {
				for _, c := range []color.RGBA{th.face[i], th.rim[i]} {
					if tab.Index(c) < 0 || !same(tab[tab.Index(c)], c) {
						t.Errorf("%v, %d players: colour %v missing", pal, players, c)
					}
				}
			}
		}
	}
}

func TestBoardFourColours(t *testing.T) {
	g, err := engine.New(engine.Config{Rows: 6, Cols: 7, Connect: 4, Players: 4})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []int{0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3, 0} {
		if err := g.Play(g.Turn(), c); err != nil {
			t.Fatal(err)
		}
	}
	got := Board(g, Unicode())
	want := "1️⃣2️⃣3️⃣4️⃣5️⃣6️⃣7️⃣\n" +
		"⚪⚪⚪⚪⚪⚪⚪\n" +
		"⚪⚪⚪⚪⚪⚪⚪\n" +
		"🟥⚪⚪⚪⚪⚪⚪\n" +
		"🟥🟡🟢🔵⚪⚪⚪\n" +
		"🟥🟡🟢🔵⚪⚪⚪\n" +
		"🟥🟡🟢🔵⚪⚪⚪"
	if got != want {
		t.Errorf("Board =\n%s\nwant\n%s", got, want)
	}
	d := Describe(g, Names{Red: "ann", Yellow: "ben", Green: "cat", Blue: "dan"})
	if !strings.Contains(d, "last: ann (red) in column 1") || !strings.Contains(d, "ann (red) won by connecting 4") {
		t.Errorf("Describe = %q", d)
	}
	// A game of 3 where two leave: the last one wins.
	g2, _ := engine.New(engine.Config{Rows: 6, Cols: 7, Connect: 4, Players: 3})
	_ = g2.Play(engine.Red, 3)
	_ = g2.Resign(engine.Yellow)
	if d := Describe(g2, Names{Red: "ann", Yellow: "ben", Green: "cat"}); !strings.Contains(d, "last: ann (red) in column 4") || !strings.Contains(d, "cat (green) to move") {
		t.Errorf("Describe after a leave = %q", d)
	}
	_ = g2.Resign(engine.Red)
	if d := Describe(g2, Names{Red: "ann", Yellow: "ben", Green: "cat"}); !strings.Contains(d, "The others left; cat (green) won.") {
		t.Errorf("Describe of the last one left = %q", d)
	}
}
