// Package render draws a Connect Four game for chat: as emoji text, in a
// palette chosen by the caller (Slack shortcodes or Unicode for Discord and
// terminals); as a PNG picture of the board or an animated GIF replay, in
// the standard or the colour-blind safe colours; and in words, for
// notifications, alt text and screen readers.
//
// It imports only the engine (and golang.org/x/image to draw,
// klauspost/compress to deflate): it knows nothing of chat platforms, the
// store or how the text or images are sent. Its functions are pure and may
// be called concurrently; a Painter draws the same pictures but keeps what
// it drew, within a budget in bytes, so that the picture after a move costs
// what the move changed.
package render

import (
	"strings"

	"github.com/connect4/connect4/engine"
)

// Palette is the set of emoji a board is drawn with. Numbers holds the
// column headers 1..10. Green and Blue are the third and fourth players'
// discs, in games of 3 or 4.
type Palette struct {
	Empty, Red, Yellow string
	RedWin, YellowWin  string
	Green, Blue        string
	GreenWin, BlueWin  string
	Numbers            [engine.MaxSize]string
	Separator          string // between emoji on a line; "" for none
}

// Unicode returns the palette of standard Unicode emoji, for Discord and
// terminals.
func Unicode() Palette {
	return Palette{
		Empty: "⚪", Red: "🔴", Yellow: "🟡", RedWin: "🟥", YellowWin: "🟨",
		Green: "🟢", Blue: "🔵", GreenWin: "🟩", BlueWin: "🟦",
		Numbers: [engine.MaxSize]string{"1️⃣", "2️⃣", "3️⃣", "4️⃣", "5️⃣", "6️⃣", "7️⃣", "8️⃣", "9️⃣", "🔟"},
	}
}

// Slack returns the palette of Slack emoji shortcodes.
func Slack() Palette {
	return Palette{
		Empty: ":white_circle:", Red: ":red_circle:", Yellow: ":large_yellow_circle:",
		RedWin: ":large_red_square:", YellowWin: ":large_yellow_square:",
		Green: ":large_green_circle:", Blue: ":large_blue_circle:",
		GreenWin: ":large_green_square:", BlueWin: ":large_blue_square:",
		Numbers: [engine.MaxSize]string{":one:", ":two:", ":three:", ":four:", ":five:",
			":six:", ":seven:", ":eight:", ":nine:", ":keycap_ten:"},
	}
}

// Board returns g drawn in p: a header line of column numbers, then exactly
// Rows lines of Cols emoji, top row first, with nothing else on them. The
// discs of a winning line are drawn with the win emoji.
func Board(g *engine.Game, p Palette) string {
	b := g.Board()
	var win [engine.MaxSize][engine.MaxSize]bool
	for _, c := range g.WinningCells() {
		win[c.Row][c.Col] = true
	}
	// Room for the longest emoji in every cell, so that the board is
	// written in one allocation rather than in the dozen of a builder
	// growing, and in one pass.
	widest := max(len(p.Empty), len(p.Red), len(p.Yellow), len(p.Green), len(p.Blue),
		len(p.RedWin), len(p.YellowWin), len(p.GreenWin), len(p.BlueWin))
	n := b.Rows()*(1+b.Cols()*widest) + (b.Rows()+1)*(b.Cols()-1)*len(p.Separator)
	for c := 0; c < b.Cols(); c++ {
		n += len(p.Numbers[c])
	}
	var sb strings.Builder
	sb.Grow(n)
	for c := 0; c < b.Cols(); c++ {
		if c > 0 {
			sb.WriteString(p.Separator)
		}
		sb.WriteString(p.Numbers[c])
	}
	for r := b.Rows() - 1; r >= 0; r-- {
		sb.WriteByte('\n')
		for c := 0; c < b.Cols(); c++ {
			if c > 0 {
				sb.WriteString(p.Separator)
			}
			sb.WriteString(p.disc(b.At(r, c), win[r][c]))
		}
	}
	return sb.String()
}

func (p Palette) disc(pl engine.Player, win bool) string {
	if win {
		return p.Win(pl)
	}
	return p.Disc(pl)
}

// Disc returns the emoji of pl's discs, or Empty for NoPlayer.
func (p Palette) Disc(pl engine.Player) string {
	switch pl {
	case engine.Red:
		return p.Red
	case engine.Yellow:
		return p.Yellow
	case engine.Green:
		return p.Green
	case engine.Blue:
		return p.Blue
	}
	return p.Empty
}

// Win returns the emoji of pl's discs in a winning line, or Empty for
// NoPlayer.
func (p Palette) Win(pl engine.Player) string {
	switch pl {
	case engine.Red:
		return p.RedWin
	case engine.Yellow:
		return p.YellowWin
	case engine.Green:
		return p.GreenWin
	case engine.Blue:
		return p.BlueWin
	}
	return p.Empty
}

// Names are the display names of the players, for Describe and AltText;
// Green and Blue only in games of 3 or 4.
type Names struct{ Red, Yellow, Green, Blue string }

// of returns p's name with its colour in pal, such as "alice (red)", or the
// colour alone when p has no name, in w.
func (n Names) of(p engine.Player, sp *speaker) string {
	name := n.Red
	switch p {
	case engine.Yellow:
		name = n.Yellow
	case engine.Green:
		name = n.Green
	case engine.Blue:
		name = n.Blue
	}
	if name == "" {
		return sp.colour(p)
	}
	return sp.say("alt.named", "Name", name, "Colour", sp.colour(p))
}

// Describe says the state of g in words, with no emoji: the board size, the
// moves played, the last move and who is to move, or how the game ended.
// It is in English; DescribeIn says the same in other words.
func Describe(g *engine.Game, n Names) string {
	return DescribeIn(g, n, nil)
}

// DescribeIn is Describe in w's language (nil: English).
func DescribeIn(g *engine.Game, n Names, w Words) string {
	var sb strings.Builder
	describe(&sb, g, n, newSpeaker(w, ImageStandard), false)
	return sb.String()
}

// describe writes Describe's text in w, with the colours named as in pal;
// with detail, it also lists the discs column by column and says where the
// winning line runs, as AltText does.
func describe(sb *strings.Builder, g *engine.Game, n Names, sp *speaker, detail bool) {
	cfg := g.Config()
	sb.WriteString(sp.say("alt.size", "Connect", cfg.Connect, "Rows", cfg.Rows, "Cols", cfg.Cols))
	sb.WriteString(" ")
	if detail {
		writeColumns(sb, g, sp)
	}
	if last, ok := g.LastMove(); ok {
		who := g.Board().At(last.Row, last.Col)
		sb.WriteString(sp.say("alt.moves", "Count", g.Moves(), "Who", n.of(who, sp), "Column", last.Col+1))
	} else {
		sb.WriteString(sp.say("alt.noMoves"))
	}
	sb.WriteString(" ")
	switch g.State() {
	case engine.InProgress:
		sb.WriteString(sp.say("alt.toMove", "Who", n.of(g.Turn(), sp)))
	case engine.Won:
		lines := ""
		if detail {
			lines = winningLines(g, sp)
		}
		if lines != "" {
			sb.WriteString(sp.say("alt.wonLines", "Who", n.of(g.Winner(), sp), "Connect", cfg.Connect, "Lines", lines))
		} else {
			sb.WriteString(sp.say("alt.won", "Who", n.of(g.Winner(), sp), "Connect", cfg.Connect))
		}
	case engine.Draw:
		sb.WriteString(sp.say("alt.draw"))
	case engine.Resigned:
		if len(g.Players()) > 2 {
			sb.WriteString(sp.say("alt.othersLeft", "Who", n.of(g.Winner(), sp)))
			break
		}
		sb.WriteString(sp.say("alt.resigned", "Loser", n.of(g.Winner().Other(), sp), "Who", n.of(g.Winner(), sp)))
	}
}
