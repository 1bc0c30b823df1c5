package pairing

import (
	"errors"
	"fmt"
	"testing"
)

// TestRoundRobinBerger compares the tables with FIDE's Berger tables for
// 4 and 6 players (1-based there, 0-based here).
func TestRoundRobinBerger(t *testing.T) {
	for _, tc := range []struct {
		n    int
		want [][][2]int // per round, per board: white, black (1-based)
	}{
		{4, [][][2]int{{{1, 4}, {2, 3}}, {{4, 3}, {1, 2}}, {{2, 4}, {3, 1}}}},
		{6, [][][2]int{
			{{1, 6}, {2, 5}, {3, 4}},
			{{6, 4}, {5, 3}, {1, 2}},
			{{2, 6}, {3, 1}, {4, 5}},
			{{6, 5}, {1, 4}, {2, 3}},
			{{3, 6}, {4, 2}, {5, 1}},
		}},
	} {
		rounds, err := RoundRobin(tc.n, false)
		if err != nil {
			t.Fatal(err)
		}
		for r, rd := range rounds {
			var got [][2]int
			for _, p := range rd.Pairs {
				got = append(got, [2]int{p.White + 1, p.Black + 1})
			}
			if fmt.Sprint(got) != fmt.Sprint(tc.want[r]) || rd.Bye != NoBye {
				t.Errorf("RoundRobin(%d) round %d = %v bye %d, want %v", tc.n, r+1, got, rd.Bye, tc.want[r])
			}
		}
	}
}

// TestRoundRobinCovers checks, for 3 to 16 players, single and double,
// that every pair meets exactly once per cycle, every player is in every
// round once (an odd field: one bye a round, one per player per cycle),
// the second cycle swaps the first's colours, and colours stay balanced:
// a difference within 2 at every round, within 1 after each cycle, and
// never the same colour three times in a row within a cycle.
func TestRoundRobinCovers(t *testing.T) {
	for n := 3; n <= 16; n++ {
		for _, double := range []bool{false, true} {
			rounds, err := RoundRobin(n, double)
			if err != nil {
				t.Fatal(err)
			}
			if len(rounds) != RoundRobinRounds(n, double) {
				t.Fatalf("RoundRobin(%d, %v): %d rounds, want %d", n, double, len(rounds), RoundRobinRounds(n, double))
			}
			cycles := 1
			if double {
				cycles = 2
			}
			met := map[[2]int]int{}
			byes := make([]int, n)
			diff := make([]int, n)
			streak := make([]int, n) // signed run length of the last colour
			cycle := len(rounds) / cycles
			for r, rd := range rounds {
				seen := make([]bool, n)
				mark := func(p int) {
					if p < 0 || p >= n || seen[p] {
						t.Fatalf("RoundRobin(%d) round %d: player %d out of range or twice", n, r+1, p)
					}
					seen[p] = true
				}
				if (rd.Bye != NoBye) != (n%2 == 1) {
					t.Errorf("RoundRobin(%d) round %d: bye %d", n, r+1, rd.Bye)
				}
				if rd.Bye != NoBye {
					mark(rd.Bye)
					byes[rd.Bye]++
				}
				for _, p := range rd.Pairs {
					mark(p.White)
					mark(p.Black)
					met[[2]int{min(p.White, p.Black), max(p.White, p.Black)}]++
					if r >= cycle {
						first := rounds[r-cycle].Pairs
						if !contains(first, Pair{White: p.Black, Black: p.White}) {
							t.Errorf("RoundRobin(%d) round %d: %v is not a swap of round %d", n, r+1, p, r-cycle+1)
						}
					}
					for p, c := range map[int]int{p.White: 1, p.Black: -1} {
						diff[p] += c
						if r%cycle == 0 || streak[p]*c < 0 {
							streak[p] = 0
						}
						streak[p] += c
						if diff[p] > 2 || diff[p] < -2 || streak[p] > 2 || streak[p] < -2 {
							t.Errorf("RoundRobin(%d, %v) round %d: player %d colour difference %d, run %d", n, double, r+1, p, diff[p], streak[p])
						}
					}
				}
				if (r+1)%cycle == 0 {
					for p, d := range diff {
						if d > 1 || d < -1 {
							t.Errorf("RoundRobin(%d, %v) after round %d: player %d colour difference %d", n, double, r+1, p, d)
						}
					}
				}
			}
			for a := range n {
				for b := a + 1; b < n; b++ {
					if met[[2]int{a, b}] != cycles {
						t.Errorf("RoundRobin(%d, %v): %d and %d meet %d times, want %d", n, double, a, b, met[[2]int{a, b}], cycles)
					}
				}
				if want := cycles * (n % 2); byes[a] != want {
					t.Errorf("RoundRobin(%d, %v): player %d has %d byes, want %d", n, double, a, byes[a], want)
				}
			}
		}
	}
}

func contains(ps []Pair, p Pair) bool {
	for _, q := range ps {
		if q == p {
			return true
		}
	}
	return false
}

func TestRoundRobinPlayers(t *testing.T) {
	for _, n := range []int{-1, 0, 1, MaxPlayers + 1} {
		_, err := RoundRobin(n, false)
		var e *Error
		if !errors.As(err, &e) || e.Reason != ReasonPlayers {
			t.Errorf("RoundRobin(%d) = %v, want ReasonPlayers", n, err)
		}
	}
}
