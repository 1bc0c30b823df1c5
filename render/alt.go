package render

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/connect4/connect4/engine"
)

// MaxAltText is the most characters AltText returns: Slack's limit for an
// image's alt_text.
const MaxAltText = 2000

// AltText describes g's board in words, for the alt text of its image and
// for screen readers: Describe's sentences, with the colours named as the
// image in pal shows them, plus the discs of each column from left to
// right, bottom up (runs of one colour counted, runs of empty columns
// merged), and where a winning line runs. For example:
//
//	Connect 4 on 6 rows by 7 columns. Discs from the bottom up: column 1:
//	red; columns 2 and 3: empty; column 4: 2 red, yellow; ...
//
// The same game, names and palette always give the same text, of at most
// MaxAltText characters: should long names make it longer, the players are
// named by colour alone.
func AltText(g *engine.Game, n Names, pal ImagePalette) string {
	var sb strings.Builder
	describe(&sb, g, n, pal.orStandard(), true)
	if utf8.RuneCountInString(sb.String()) > MaxAltText {
		sb.Reset()
		describe(&sb, g, Names{}, pal.orStandard(), true)
	}
	return sb.String()
}

// writeText writes before, n in decimal and after: what fmt.Fprintf(sb,
// "before%dafter", n) writes, without its formatting machinery, for the
// text of every picture.
func writeText(sb *strings.Builder, before string, n int, after string) {
	var buf [20]byte
	sb.WriteString(before)
	sb.Write(strconv.AppendInt(buf[:0], int64(n), 10))
	sb.WriteString(after)
}

// writeColumns writes the discs of each column, bottom up, for AltText.
func writeColumns(sb *strings.Builder, g *engine.Game, pal ImagePalette) {
	b := g.Board()
	if g.Moves() == 0 {
		sb.WriteString("The board is empty. ")
		return
	}
	sb.WriteString("Discs from the bottom up: ")
	for c := 0; c < b.Cols(); {
		if c > 0 {
			sb.WriteString("; ")
		}
		if b.Height(c) == 0 {
			end := c + 1
			for end < b.Cols() && b.Height(end) == 0 {
				end++
			}
			switch end - c {
			case 1:
				writeText(sb, "column ", c+1, ": empty")
			case 2:
				writeText(sb, "columns ", c+1, " and ")
				writeText(sb, "", end, ": empty")
			default:
				writeText(sb, "columns ", c+1, " to ")
				writeText(sb, "", end, ": empty")
			}
			c = end
			continue
		}
		writeText(sb, "column ", c+1, ": ")
		for r := 0; r < b.Height(c); {
			p := b.At(r, c)
			run := 1
			for r+run < b.Height(c) && b.At(r+run, c) == p {
				run++
			}
			if r > 0 {
				sb.WriteString(", ")
			}
			if run > 1 {
				writeText(sb, "", run, " ")
			}
			sb.WriteString(pal.PlayerColour(p))
			r += run
		}
		if b.Height(c) == b.Rows() {
			sb.WriteString(" (full)")
		}
		c++
	}
	sb.WriteString(". ")
}

// writeLines says where each winning line of a won game runs, numbering
// rows from 1 at the bottom, as ": in row 1, columns 2 to 5".
func writeLines(sb *strings.Builder, g *engine.Game) {
	last, ok := g.LastMove()
	if !ok {
		return
	}
	cells := g.WinningCells()
	sep := ": "
	for _, d := range [...]engine.Cell{{Row: 0, Col: 1}, {Row: 1, Col: 0}, {Row: 1, Col: 1}, {Row: 1, Col: -1}} {
		// The winning cells in line with the last move along d, by their
		// step k from it; WinningCells holds only whole lines through
		// the last move, so there are Connect or more, or none.
		lo, hi, n := 0, 0, 0
		for _, c := range cells {
			k, on := step(last, c, d)
			if !on {
				continue
			}
			n++
			lo, hi = min(lo, k), max(hi, k)
		}
		if n < g.Config().Connect {
			continue
		}
		a := engine.Cell{Row: last.Row + lo*d.Row, Col: last.Col + lo*d.Col}
		z := engine.Cell{Row: last.Row + hi*d.Row, Col: last.Col + hi*d.Col}
		sb.WriteString(sep)
		sep = " and "
		switch {
		case d.Row == 0:
			fmt.Fprintf(sb, "in row %d, columns %d to %d", a.Row+1, a.Col+1, z.Col+1)
		case d.Col == 0:
			fmt.Fprintf(sb, "in column %d, rows %d to %d", a.Col+1, a.Row+1, z.Row+1)
		default:
			if a.Col > z.Col {
				a, z = z, a
			}
			fmt.Fprintf(sb, "diagonally from column %d row %d to column %d row %d", a.Col+1, a.Row+1, z.Col+1, z.Row+1)
		}
	}
}

// step returns k such that c = from + k·d, and whether there is one.
func step(from, c, d engine.Cell) (int, bool) {
	dr, dc := c.Row-from.Row, c.Col-from.Col
	switch {
	case d.Row == 0:
		return dc, dr == 0
	case d.Col == 0:
		return dr, dc == 0
	}
	return dr, dc == dr*d.Col
}
