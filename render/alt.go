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
	describe(&sb, g, n, newSpeaker(w, pal.orStandard()), true)
	if utf8.RuneCountInString(sb.String()) > MaxAltText {
		sb.Reset()
		describe(&sb, g, Names{}, newSpeaker(w, pal.orStandard()), true)
	}
	if utf8.RuneCountInString(sb.String()) > MaxAltText {
		sb.Reset()
		describe(&sb, g, Names{}, newSpeaker(w, pal.orStandard()), false)
	}
	return sb.String()
}

// speaker says render's messages in one language and palette for one
// text: it reuses one map for the arguments (Words must not keep it) and
// says each colour once.
type speaker struct {
	w       Words
	pal     ImagePalette
	args    map[string]any
	colours [engine.MaxPlayers + 1]string // by engine.Player, once said
}

func newSpeaker(w Words, pal ImagePalette) *speaker {
	return &speaker{w: w, pal: pal, args: make(map[string]any, 4)}
}

// say returns message id with the arguments kv: name, value, name, value.
func (s *speaker) say(id string, kv ...any) string {
	clear(s.args)
	for i := 0; i+1 < len(kv); i += 2 {
		s.args[kv[i].(string)] = kv[i+1]
	}
	return s.w.say(id, s.args)
}

// colour is the word for p's discs in the palette.
func (s *speaker) colour(p engine.Player) string {
	if int(p) < len(s.colours) && s.colours[p] != "" {
		return s.colours[p]
	}
	var c string
	switch s.pal.PlayerColour(p) {
	case "red":
		c = s.say("alt.colour.red")
	case "yellow":
		c = s.say("alt.colour.yellow")
	case "green":
		c = s.say("alt.colour.green")
	case "blue":
		c = s.say("alt.colour.blue")
	case "orange":
		c = s.say("alt.colour.orange")
	case "pink":
		c = s.say("alt.colour.pink")
	default:
		c = s.pal.PlayerColour(p)
	}
	if int(p) < len(s.colours) {
		s.colours[p] = c
	}
	return c
}

// writeColumns writes the discs of each column, bottom up, for AltText.
func writeColumns(sb *strings.Builder, g *engine.Game, sp *speaker) {
	b := g.Board()
	if g.Moves() == 0 {
		sb.WriteString(sp.say("alt.boardEmpty"))
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
				cols.WriteString(sp.say("alt.columnEmpty", "Column", c+1))
			case 2:
				cols.WriteString(sp.say("alt.columnsEmptyTwo", "From", c+1, "To", end))
			default:
				cols.WriteString(sp.say("alt.columnsEmpty", "From", c+1, "To", end))
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
				discs.WriteString(sp.say("alt.run", "Count", run, "Colour", sp.colour(p)))
			} else {
				discs.WriteString(sp.colour(p))
			}
			r += run
		}
		if b.Height(c) == b.Rows() {
			cols.WriteString(sp.say("alt.columnFull", "Column", c+1, "Discs", discs.String()))
		} else {
			cols.WriteString(sp.say("alt.column", "Column", c+1, "Discs", discs.String()))
		}
		c++
	}
	sb.WriteString(sp.say("alt.discs", "Columns", cols.String()))
	sb.WriteString(" ")
}

// winningLines says where each winning line of a won game runs, numbering
// rows from 1 at the bottom, as "in row 1, columns 2 to 5"; "" when there
// is none.
func winningLines(g *engine.Game, sp *speaker) string {
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
			line = sp.say("alt.lineRow", "Row", a.Row+1, "From", a.Col+1, "To", z.Col+1)
		case d.Col == 0:
			line = sp.say("alt.lineColumn", "Column", a.Col+1, "From", a.Row+1, "To", z.Row+1)
		default:
			if a.Col > z.Col {
				a, z = z, a
			}
			line = sp.say("alt.lineDiagonal", "FromColumn", a.Col+1, "FromRow", a.Row+1, "ToColumn", z.Col+1, "ToRow", z.Row+1)
		}
		if lines == "" {
			lines = line
		} else {
			lines = sp.say("alt.and", "A", lines, "B", line)
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
