package engine

import (
	"math/rand/v2"
	"testing"
)

// randomGames returns n random games on cfg, as move lists, for benchmarks.
func randomGames(cfg Config, n int) [][]int {
	rng := rand.New(rand.NewPCG(1, uint64(n)))
	games := make([][]int, n)
	for i := range games {
		g, _ := New(cfg)
		for g.State() == InProgress {
			l := g.LegalColumns()
			_ = g.Play(g.Turn(), l[rng.IntN(len(l))])
		}
		games[i] = g.History()
	}
	return games
}

// BenchmarkMove measures one move with its win check on the standard board,
// over whole random games (ns/move is the figure to read).
func BenchmarkMove(b *testing.B) {
	benchMoves(b, DefaultConfig())
}

// BenchmarkMove10x10 is BenchmarkMove on the largest board (two-word bitboard).
func BenchmarkMove10x10(b *testing.B) {
	benchMoves(b, Config{Rows: 10, Cols: 10, Connect: 5})
}

// BenchmarkMoveFourPlayers is BenchmarkMove for four players on the
// standard board.
func BenchmarkMoveFourPlayers(b *testing.B) {
	benchMoves(b, Config{Rows: 6, Cols: 7, Connect: 4, Players: 4})
}

func benchMoves(b *testing.B, cfg Config) {
	games := randomGames(cfg, 256)
	fresh, _ := New(cfg)
	moves := 0
	i := 0
	for b.Loop() {
		g := *fresh
		for _, c := range games[i%len(games)] {
			if g.Play(g.toMove(), c) != nil {
				b.Fatal("rejected")
			}
		}
		moves += len(games[i%len(games)])
		i++
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(moves), "ns/move")
}

// BenchmarkRandomGame plays a whole random game, choosing legal columns.
func BenchmarkRandomGame(b *testing.B) {
	rng := rand.New(rand.NewPCG(3, 4))
	for b.Loop() {
		g, _ := New(DefaultConfig())
		for g.State() == InProgress {
			c := rng.IntN(7)
			for !g.CanPlay(c) {
				c = (c + 1) % 7
			}
			_ = g.Play(g.Turn(), c)
		}
	}
}

// BenchmarkNaiveCheck is the referee's full-board scan after one move, on
// mid-game standard boards: the comparison for BenchmarkMove.
func BenchmarkNaiveCheck(b *testing.B) {
	games := randomGames(DefaultConfig(), 256)
	refs := make([]*referee, len(games))
	for i, h := range games {
		refs[i] = newReferee(DefaultConfig())
		for j, c := range h[:len(h)/2] {
			refs[i].drop(Player(j%2+1), c)
		}
	}
	i := 0
	for b.Loop() {
		refs[i%len(refs)].scan()
		i++
	}
}

func BenchmarkEncode(b *testing.B) {
	g := play(b, DefaultConfig(), randomGames(DefaultConfig(), 1)[0]...)
	for b.Loop() {
		_, _ = g.MarshalBinary()
	}
}

func BenchmarkDecode(b *testing.B) {
	enc, _ := play(b, DefaultConfig(), randomGames(DefaultConfig(), 1)[0]...).MarshalBinary()
	for b.Loop() {
		if _, err := Decode(enc); err != nil {
			b.Fatal(err)
		}
	}
}
