package solver

import (
	"math/rand/v2"
	"testing"
	"time"

	"github.com/connect4/connect4/engine"
)

// typicalGames returns n games of 7 × 6 from the empty board between medium
// and easy, medium first in the even ones, seeded: the kind of game the
// analysis must prove from its first move.
func typicalGames(tb testing.TB, n int) []*engine.Game {
	tb.Helper()
	ai := NewAI()
	return playGames(tb, n, 2026, func(g *engine.Game, i int, rng *rand.Rand) (int, error) {
		level := Medium
		if g.Moves()%2 != i%2 {
			level = Easy
		}
		return ai.ChooseMove(tb.Context(), g, level, rng, time.Second)
	})
}

// playGames returns n games of 7 × 6 from the empty board, game i played
// to its end by choose with a generator seeded (i, seed).
func playGames(tb testing.TB, n int, seed uint64, choose func(g *engine.Game, i int, rng *rand.Rand) (int, error)) []*engine.Game {
	tb.Helper()
	games := make([]*engine.Game, n)
	for i := range games {
		g, err := engine.New(engine.DefaultConfig())
		if err != nil {
			tb.Fatal(err)
		}
		rng := rand.New(rand.NewPCG(uint64(i), seed))
		for !g.State().Over() {
			col, err := choose(g, i, rng)
			if err != nil {
				tb.Fatal(err)
			}
			if err := g.Play(g.Turn(), col); err != nil {
				tb.Fatal(err)
			}
		}
		games[i] = g
	}
	return games
}

// BenchmarkAnalyzeTypical analyses 30 games of medium against easy (see
// benchmarkAnalyze).
func BenchmarkAnalyzeTypical(b *testing.B) {
	benchmarkAnalyze(b, typicalGames(b, 30))
}

// BenchmarkAnalyzeRandom does the same for 30 games of random moves (any
// column that is not full, with equal chances), seeded: games that leave
// the AI's lines at once, whose openings only the complete levels of the
// outcome table hold.
func BenchmarkAnalyzeRandom(b *testing.B) {
	benchmarkAnalyze(b, playGames(b, 30, 77, func(g *engine.Game, _ int, rng *rand.Rand) (int, error) {
		var cols []int
		for c := range g.Config().Cols {
			if g.CanPlay(c) {
				cols = append(cols, c)
			}
		}
		return cols[rng.IntN(len(cols))], nil
	}))
}

// benchmarkAnalyze analyses games within the chat's budget (1.5 s), each
// from a new solver as the bot does, and reports the share of moves proven
// and the time a game took.
func benchmarkAnalyze(b *testing.B, games []*engine.Game) {
	var moves, proven, analyses int
	for b.Loop() {
		for _, g := range games {
			a, err := Analyze(b.Context(), g, 1500*time.Millisecond)
			if err != nil {
				b.Fatal(err)
			}
			moves += len(a.Moves)
			proven += a.Proven
			analyses++
		}
	}
	b.ReportMetric(100*float64(proven)/float64(moves), "%proven")
	b.ReportMetric(b.Elapsed().Seconds()/float64(analyses), "s/game")
	b.ReportMetric(float64(moves)/float64(analyses), "moves/game")
}
