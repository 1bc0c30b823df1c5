package terminal

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/connect4/connect4/engine"
	"github.com/connect4/connect4/render"
)

// knownCells is the width of s in a terminal that draws the palette's disc
// emoji two cells wide and ASCII one, as tmux does; any other rune fails
// the test, since its width is not known.
func knownCells(t *testing.T, s string) int {
	t.Helper()
	p := render.Unicode()
	wide := map[string]bool{p.Empty: true, p.Red: true, p.Yellow: true, p.RedWin: true, p.YellowWin: true}
	n := 0
	for s != "" {
		r, size := utf8.DecodeRuneInString(s)
		switch {
		case r < utf8.RuneSelf:
			n++
		case wide[s[:size]]:
			n += discCells
		default:
			t.Fatalf("rune %q of unknown width", r)
		}
		s = s[size:]
	}
	return n
}

// TestPaletteAlignsHeader checks, on every board width, that each column
// number starts in the same terminal cell as the discs of its column.
func TestPaletteAlignsHeader(t *testing.T) {
	p := Palette()
	for cols := engine.MinSize; cols <= engine.MaxSize; cols++ {
		g, err := engine.New(engine.Config{Rows: 4, Cols: cols, Connect: 4})
		if err != nil {
			t.Fatal(err)
		}
		lines := strings.Split(render.Board(g, p), "\n")
		header, row := lines[0], lines[len(lines)-1]
		if h, r := knownCells(t, header), knownCells(t, row); h != r {
			t.Errorf("%d columns: header %q is %d cells, a row %d", cols, header, h, r)
		}
		for c := range cols {
			num := p.Numbers[c]
			at := strings.Index(header, num)
			if got, want := knownCells(t, header[:at]), c*discCells; got != want {
				t.Errorf("%d columns: number %q starts at cell %d, its discs at %d", cols, num, got, want)
			}
		}
	}
}

func TestPaletteKeepsTheDiscs(t *testing.T) {
	p, u := Palette(), render.Unicode()
	if p.Empty != u.Empty || p.Red != u.Red || p.Yellow != u.Yellow || p.RedWin != u.RedWin || p.YellowWin != u.YellowWin {
		t.Errorf("terminal discs %+v differ from render.Unicode's", p)
	}
	if p.Numbers[0] != "1 " || p.Numbers[9] != "10" {
		t.Errorf("numbers %q, want plain digits padded to 2 cells", p.Numbers)
	}
}
