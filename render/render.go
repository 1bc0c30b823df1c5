// Package render draws a Connect Four game as emoji text for chat, in a
// palette chosen by the caller (Slack shortcodes or Unicode for Discord and
// terminals), and describes it in words for notifications and screen
// readers.
//
// It imports only the engine: it knows nothing of chat platforms, the store
// or how the text is sent.
package render

import (
	"fmt"
	"strings"

	"github.com/connect4/connect4/engine"
)

// Palette is the set of emoji a board is drawn with. Numbers holds the
// column headers 1..10.
type Palette struct {
	Empty, Red, Yellow string
	RedWin, YellowWin  string
	Numbers            [engine.MaxSize]string
	Separator          string // between emoji on a line; "" for none
}

// Unicode returns the palette of standard Unicode emoji, for Discord and
// terminals.
func Unicode() Palette {
	return Palette{
		Empty: "⚪", Red: "🔴", Yellow: "🟡", RedWin: "🟥", YellowWin: "🟨",
		Numbers: [engine.MaxSize]string{"1️⃣", "2️⃣", "3️⃣", "4️⃣", "5️⃣", "6️⃣", "7️⃣", "8️⃣", "9️⃣", "🔟"},
	}
}

// Slack returns the palette of Slack emoji shortcodes.
func Slack() Palette {
	return Palette{
		Empty: ":white_circle:", Red: ":red_circle:", Yellow: ":large_yellow_circle:",
		RedWin: ":large_red_square:", YellowWin: ":large_yellow_square:",
		Numbers: [engine.MaxSize]string{":one:", ":two:", ":three:", ":four:", ":five:",
			":six:", ":seven:", ":eight:", ":nine:", ":keycap_ten:"},
	}
}

// Board returns g drawn in p: a header line of column numbers, then exactly
// Rows lines of Cols emoji, top row first, with nothing else on them. The
// discs of a winning line are drawn with the win emoji.
func Board(g *engine.Game, p Palette) string {
	b := g.Board()
	win := map[engine.Cell]bool{}
	for _, c := range g.WinningCells() {
		win[c] = true
	}
	var sb strings.Builder
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
			sb.WriteString(p.disc(b.At(r, c), win[engine.Cell{Row: r, Col: c}]))
		}
	}
	return sb.String()
}

func (p Palette) disc(pl engine.Player, win bool) string {
	switch {
	case pl == engine.Red && win:
		return p.RedWin
	case pl == engine.Red:
		return p.Red
	case pl == engine.Yellow && win:
		return p.YellowWin
	case pl == engine.Yellow:
		return p.Yellow
	}
	return p.Empty
}

// Names are the display names of the two players, for Describe.
type Names struct{ Red, Yellow string }

func (n Names) of(p engine.Player) string {
	name := n.Red
	if p == engine.Yellow {
		name = n.Yellow
	}
	if name == "" {
		return p.String()
	}
	return fmt.Sprintf("%s (%s)", name, p)
}

// Describe says the state of g in words, with no emoji: the board size, the
// moves played, the last move and who is to move, or how the game ended.
func Describe(g *engine.Game, n Names) string {
	cfg := g.Config()
	var sb strings.Builder
	fmt.Fprintf(&sb, "Connect %d on %d rows by %d columns. ", cfg.Connect, cfg.Rows, cfg.Cols)
	switch m := g.Moves(); m {
	case 0:
		sb.WriteString("No moves yet. ")
	case 1:
		sb.WriteString("1 move played")
	default:
		fmt.Fprintf(&sb, "%d moves played", m)
	}
	if last, ok := g.LastMove(); ok {
		who := engine.Red
		if g.Moves()%2 == 0 {
			who = engine.Yellow
		}
		fmt.Fprintf(&sb, "; last: %s in column %d. ", n.of(who), last.Col+1)
	}
	switch g.State() {
	case engine.InProgress:
		fmt.Fprintf(&sb, "%s to move.", n.of(g.Turn()))
	case engine.Won:
		fmt.Fprintf(&sb, "%s won by connecting %d.", n.of(g.Winner()), cfg.Connect)
	case engine.Draw:
		sb.WriteString("The board is full: a draw.")
	case engine.Resigned:
		fmt.Fprintf(&sb, "%s resigned; %s won.", n.of(g.Winner().Other()), n.of(g.Winner()))
	}
	return sb.String()
}
