package glicko

import "testing"

// BenchmarkGame measures one game rated as its own period: both players
// updated, with step 5's iteration (ns/op is the figure to read).
func BenchmarkGame(b *testing.B) {
	sys := DefaultSystem()
	a := Rating{Rating: 1620, Deviation: 80, Volatility: 0.058}
	o := Rating{Rating: 1480, Deviation: 210, Volatility: 0.061}
	for b.Loop() {
		if _, _, err := sys.Game(a, o, Win); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkUpdatePaper measures the paper's three-game rating period for
// one player.
func BenchmarkUpdatePaper(b *testing.B) {
	sys := DefaultSystem()
	for b.Loop() {
		if _, err := sys.Update(paperPlayer, paperResults); err != nil {
			b.Fatal(err)
		}
	}
}
