package pairing

import (
	"math/rand/v2"
	"testing"
)

// swissHistory plays rounds of a Swiss of n players with seeded results.
func swissHistory(b *testing.B, n, rounds int) []Round {
	rng := rand.New(rand.NewPCG(1, 2))
	var h []Round
	for range rounds {
		rd, err := Swiss(n, h, nil)
		if err != nil {
			b.Fatal(err)
		}
		h = append(h, play(rd, rng))
	}
	return h
}

// BenchmarkSwiss pairs the next round of Swiss tournaments part-way
// through.
func BenchmarkSwiss(b *testing.B) {
	for _, tc := range []struct {
		name      string
		n, rounds int
	}{{"16/round9", 16, 8}, {"15/round9", 15, 8}, {"64/round9", 64, 8}} {
		b.Run(tc.name, func(b *testing.B) {
			h := swissHistory(b, tc.n, tc.rounds)
			for b.Loop() {
				if _, err := Swiss(tc.n, h, nil); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkRoundRobin builds the tables of a double round robin of 16.
func BenchmarkRoundRobin(b *testing.B) {
	for b.Loop() {
		if _, err := RoundRobin(16, true); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkStandings computes the table of a Swiss of 16 after 9 rounds.
func BenchmarkStandings(b *testing.B) {
	h := swissHistory(b, 16, 9)
	for b.Loop() {
		if _, err := Standings(16, h, SwissByePoints); err != nil {
			b.Fatal(err)
		}
	}
}
