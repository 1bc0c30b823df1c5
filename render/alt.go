package render

import (
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
// named by colour alone (and should that still be too long, in a wordy
// language, the columns are left out). AltText is in English; AltTextIn
// says the same in other words.
func AltText(g *engine.Game, n Names, pal ImagePalette) string {
	return AltTextIn(g, n, pal, nil)
}

// AltTextIn is AltText in w's language (nil: English).
func AltTextIn(g *engine.Game, n Names, pal ImagePalette, w Words) string {
	var sb strings.Builder
	describe(&sb, g, n, pal.orStandard(), true, w)
	if utf8.RuneCountInString(sb.String()) > MaxAltText {
		sb.Reset()
		describe(&sb, g, Names{}, pal.orStandard(), true, w)
	}
	if utf8.RuneCountInString(sb.String()) > MaxAltText {
		sb.Reset()
		describe(&sb, g, Names{}, pal.orStandard(), false, w)
	}
	return sb.String()
}

// colour is the word for p's discs in pal, in w.
func colour(w Words, pal ImagePalette, p engine.Player) string {
	switch pal.PlayerColour(p) {
	case "red":
		return w.say("alt.colour.red", nil)
	case "yellow":
		return w.say("alt.colour.yellow", nil)
	case "green":
		return w.say("alt.colour.green", nil)
	case "blue":
		return w.say("alt.colour.blue", nil)
	case "orange":
		return w.say("alt.colour.orange", nil)
	case "pink":
		return w.say("alt.colour.pink", nil)
	}
	return pal.PlayerColour(p)
}

// writeColumns writes the discs of each column, bottom up, for AltText.
func writeColumns(sb *strings.Builder, g *engine.Game, pal ImagePalette, w Words) {
	b := g.Board()
	if g.Moves() == 0 {
		sb.WriteString(w.say("alt.boardEmpty", nil))
		sb.WriteString(" ")
		return
	}
	var cols strings.Builder
	for c := 0; c < b.Cols(); {
		if c > 0 {
			cols.WriteString("; ")
		}
		if b.Height(c) == 0 {
			end := c + 1
			for end < b.Cols() && b.Height(end) == 0 {
				end++
			}
			switch end - c {
			case 1:
				cols.WriteString(w.say("alt.columnEmpty", map[string]any{"Column": c + 1}))
			case 2:
				cols.WriteString(w.say("alt.columnsEmptyTwo", map[string]any{"From": c + 1, "To": end}))
			default:
				cols.WriteString(w.say("alt.columnsEmpty", map[string]any{"From": c + 1, "To": end}))
			}
			c = end
			continue
		}
		var discs strings.Builder
		for r := 0; r < b.Height(c); {
			p := b.At(r, c)
			run := 1
			for r+run < b.Height(c) && b.At(r+run, c) == p {
				run++
			}
			if r > 0 {
				discs.WriteString(", ")
			}
			if run > 1 {
				discs.WriteString(w.say("alt.run", map[string]any{"Count": run, "Colour": colour(w, pal, p)}))
			} else {
				discs.WriteString(colour(w, pal, p))
			}
			r += run
		}
		args := map[string]any{"Column": c + 1, "Discs": discs.String()}
		if b.Height(c) == b.Rows() {
			cols.WriteString(w.say("alt.columnFull", args))
		} else {
			cols.WriteString(w.say("alt.column", args))
		}
		c++
	}
	sb.WriteString(w.say("alt.discs", map[string]any{"Columns": cols.String()}))
	sb.WriteString(" ")
}

// winningLines says where each winning line of a won game runs, numbering
// rows from 1 at the bottom, as "in row 1, columns 2 to 5"; "" when there
// is none.
func winningLines(g *engine.Game, w Words) string {
	last, ok := g.LastMove()
	if !ok {
		return ""
	}
	cells := g.WinningCells()
	lines := ""
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
		var line string
		switch {
		case d.Row == 0:
			line = w.say("alt.lineRow", map[string]any{"Row": a.Row + 1, "From": a.Col + 1, "To": z.Col + 1})
		case d.Col == 0:
			line = w.say("alt.lineColumn", map[string]any{"Column": a.Col + 1, "From": a.Row + 1, "To": z.Row + 1})
		default:
			if a.Col > z.Col {
				a, z = z, a
			}
			line = w.say("alt.lineDiagonal", map[string]any{"FromColumn": a.Col + 1, "FromRow": a.Row + 1, "ToColumn": z.Col + 1, "ToRow": z.Row + 1})
		}
		if lines == "" {
			lines = line
		} else {
			lines = w.say("alt.and", map[string]any{"A": lines, "B": line})
		}
	}
	return lines
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
