package terminal

import (
	"strconv"

	"github.com/connect4/connect4/render"
)

// discCells is how many terminal cells a disc emoji of render.Unicode
// takes (East Asian Wide).
const discCells = 2

// Palette returns the board palette of the terminal: the Unicode discs of
// render.Unicode, which terminals (and tmux) draw two cells wide, under a
// header of plain digits padded to two cells (by display width: see
// cells), so that each column number
// sits over its column. Keycap emoji (1️⃣) are drawn one cell wide by tmux
// and drift left of the discs. Each call returns a new value.
func Palette() render.Palette {
	p := render.Unicode()
	for c := range p.Numbers {
		p.Numbers[c] = padCells(strconv.Itoa(c+1), discCells)
	}
	return p
}
