package web

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/connect4/connect4/engine"
)

// The board's geometry in SVG units: a cell, the margin round the holes,
// and the strip below them for the column numbers.
const (
	cell   = 40
	margin = 6
	labels = 22
	hole   = 16 // radius of a hole
	discR  = 17 // radius of a disc
)

// board is a game's board as the SVG template draws it: every hole, and
// every disc with the move that dropped it, so that the page's script can
// show the board after any move by hiding the later discs.
type board struct {
	W, H   int
	Holes  []point
	Discs  []disc
	Cols   []label
	mover  []engine.Player // by move, 0-based
	Status string
}

type point struct{ X, Y int }

type label struct {
	X, Y int
	Text string
}

// disc is one disc: the move that dropped it (1-based), where, whose, and
// whether it is in the winning line.
type disc struct {
	M, Row, Col int
	P           engine.Player
	X, Y        int
	Win         bool
}

// drawBoard lays out g's board.
func drawBoard(g *engine.Game) board {
	cfg := g.Config()
	b := board{W: cfg.Cols*cell + 2*margin, H: cfg.Rows*cell + 2*margin + labels}
	x := func(col int) int { return margin + col*cell + cell/2 }
	y := func(row int) int { return margin + (cfg.Rows-1-row)*cell + cell/2 }
	for col := range cfg.Cols {
		for row := range cfg.Rows {
			b.Holes = append(b.Holes, point{x(col), y(row)})
		}
		b.Cols = append(b.Cols, label{X: x(col), Y: b.H - 6, Text: strconv.Itoa(col + 1)})
	}
	win := g.WinningCells()
	final := g.Board()
	heights := make([]int, cfg.Cols)
	for i, col := range g.History() {
		row := heights[col]
		heights[col]++
		p := final.At(row, col)
		b.mover = append(b.mover, p)
		d := disc{M: i + 1, Row: row, Col: col, P: p, X: x(col), Y: y(row)}
		d.Win = slices.ContainsFunc(win, func(c engine.Cell) bool { return c.Row == row && c.Col == col })
		b.Discs = append(b.Discs, d)
	}
	return b
}

// chart is a rating history drawn as a line: a polyline over the width,
// scaled between the lowest and highest rating.
type chart struct {
	W, H      int
	Points    string
	Dots      []point
	Low, High string
	LowY      int
	HighY     int
	Desc      string
}

// drawChart draws h, oldest first (at least two ratings).
func drawChart(h []float64) *chart {
	const w, ht, pad = 320, 120, 10
	lo, hi := slices.Min(h), slices.Max(h)
	c := &chart{W: w, H: ht, Low: fmt.Sprintf("%.0f", math.Round(lo)), High: fmt.Sprintf("%.0f", math.Round(hi)),
		LowY: ht - pad, HighY: pad}
	var pts []string
	for i, r := range h {
		px := 40 + i*(w-40-pad)/max(1, len(h)-1)
		py := ht / 2
		if hi > lo {
			py = ht - pad - int(math.Round((r-lo)/(hi-lo)*float64(ht-2*pad)))
		}
		pts = append(pts, strconv.Itoa(px)+","+strconv.Itoa(py))
		c.Dots = append(c.Dots, point{px, py})
	}
	c.Points = strings.Join(pts, " ")
	return c
}
