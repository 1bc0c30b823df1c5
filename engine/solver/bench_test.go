package solver

import (
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/connect4/connect4/engine"
)

// benchmarkSet solves every position of a set (or its first limit positions),
// each from a cleared transposition table, and reports nodes per position.
func benchmarkSet(b *testing.B, name string, limit int) {
	cases := loadSet(b, name)
	if limit > 0 && limit < len(cases) {
		cases = cases[:limit]
	}
	positions := make([]Position, len(cases))
	for i, c := range cases {
		p, err := ParsePosition(c.moves)
		if err != nil {
			b.Fatalf("line %d: %v", c.line, err)
		}
		positions[i] = p
	}
	s := NewSolver()
	var nodes, solved uint64
	for b.Loop() {
		for i, p := range positions {
			s.Reset()
			if got := s.Solve(p); got != cases[i].score {
				b.Fatalf("line %d %s: Solve = %d, want %d", cases[i].line, cases[i].moves, got, cases[i].score)
			}
			nodes += s.Nodes()
			solved++
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/1e3/float64(solved), "µs/pos")
	b.ReportMetric(float64(nodes)/float64(solved), "nodes/pos")
}

func BenchmarkSolve_L3_R1(b *testing.B) { benchmarkSet(b, "Test_L3_R1", 0) }
func BenchmarkSolve_L2_R1(b *testing.B) { benchmarkSet(b, "Test_L2_R1", 0) }
func BenchmarkSolve_L2_R2(b *testing.B) { benchmarkSet(b, "Test_L2_R2", 0) }
func BenchmarkSolve_L1_R1(b *testing.B) { benchmarkSet(b, "Test_L1_R1", 0) }

// The two hard sets are run on the leading subsets the reference figures use.
func BenchmarkSolve_L1_R2(b *testing.B) { benchmarkSet(b, "Test_L1_R2", 500) }
func BenchmarkSolve_L1_R3(b *testing.B) { benchmarkSet(b, "Test_L1_R3", 12) }

// BenchmarkHardMove times a hard move on the standard board with a 20ms budget
// (the exact solver's share is 10ms), on one AI kept between moves and on a
// new AI per move, which allocates its tables again; compare with -benchmem.
func BenchmarkHardMove(b *testing.B) {
	g := newGame(b, engine.DefaultConfig(), []int{3, 3, 2, 4})
	for _, bc := range []struct {
		name string
		ai   func() *AI
	}{
		{"kept", func() func() *AI { ai := NewAI(); return func() *AI { return ai } }()},
		{"new", NewAI},
	} {
		b.Run(bc.name, func(b *testing.B) {
			for b.Loop() {
				if _, err := bc.ai().ChooseMove(b.Context(), g, Hard, nil, 20*time.Millisecond); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// depthPositions returns n positions with depth discs, reached by seeded
// random play from the empty board, none of them already won or with a win
// at once for the player to move (those are trivial).
func depthPositions(depth, n int) []Position {
	rng := rand.New(rand.NewPCG(uint64(depth), 17))
	var out []Position
	for len(out) < n {
		var p Position
		for p.moves < depth {
			c := rng.IntN(Width)
			if !p.CanPlay(c) || p.IsWinningMove(c) {
				continue
			}
			p.Play(c)
		}
		if !p.CanWinNext() {
			out = append(out, p)
		}
	}
	return out
}

// BenchmarkSolveDepth solves positions at 0 to 16 discs from the empty board,
// exactly and as win/draw/loss only, each from a cleared table: how deep the
// solver takes over within the hard AI's budget, and how costly an opening
// book is to build. The shallow depths take minutes; run one at a time with
// -bench 'SolveDepth/weak/d=08' -benchtime 1x.
func BenchmarkSolveDepth(b *testing.B) {
	for _, kind := range []string{"weak", "exact"} {
		for d := 0; d <= 16; d++ {
			b.Run(fmt.Sprintf("%s/d=%02d", kind, d), func(b *testing.B) {
				positions := depthPositions(d, 4)
				s := NewSolver()
				var solved, nodes uint64
				for b.Loop() {
					for _, p := range positions {
						s.Reset()
						if kind == "weak" {
							s.weakSolve(p)
						} else {
							s.Solve(p)
						}
						nodes += s.Nodes()
						solved++
					}
				}
				b.ReportMetric(float64(b.Elapsed().Milliseconds())/float64(solved), "ms/pos")
				b.ReportMetric(float64(nodes)/float64(solved), "nodes/pos")
			})
		}
	}
}
