package pairing

import (
	"cmp"
	"errors"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
)

// play gives every game of rd a random result from rng.
func play(rd Round, rng *rand.Rand) Round {
	rd = rd.Clone()
	for i := range rd.Pairs {
		rd.Pairs[i].Result = Result(1 + rng.IntN(3))
	}
	return rd
}

// naive is the reference: whether the players of set (a bit set) can all
// be paired (with one of them, who has had no bye, sitting out when the
// count is odd) with no repeat and every pair allowed by ok. It pairs the
// lowest-numbered player with each other in turn, trying every pairing.
func naive(set uint64, byeTaken []bool, met func(a, b int) bool, ok func(a, b int) bool) bool {
	var ps []int
	for p := range 64 {
		if set&(1<<uint(p)) != 0 {
			ps = append(ps, p)
		}
	}
	if len(ps)%2 == 1 {
		for _, b := range ps {
			if !byeTaken[b] && naive(set&^(1<<uint(b)), byeTaken, met, ok) {
				return true
			}
		}
		return false
	}
	var rec func(set uint64) bool
	failed := map[uint64]bool{}
	rec = func(set uint64) bool {
		if set == 0 {
			return true
		}
		if failed[set] {
			return false
		}
		a := 0
		for set&(1<<uint(a)) == 0 {
			a++
		}
		for b := a + 1; b < 64; b++ {
			if set&(1<<uint(b)) != 0 && !met(a, b) && ok(a, b) && rec(set&^(1<<uint(a)|1<<uint(b))) {
				return true
			}
		}
		failed[set] = true
		return false
	}
	return rec(set)
}

// TestSwissProperties plays Swiss tournaments of 3 to 16 players over 1 to
// 9 rounds (fewer than the players), with seeded random results, and
// checks every round: each player in it once; with an odd count exactly
// one bye, never to a player who had one, and to the lowest-ranked
// player without one unless the rest could then not be paired by every
// rule; no colour difference beyond 2;
// no repeat pairing while the reference finds a pairing without one that
// keeps every colour difference within 2 (the colour rule comes first); no
// third same colour in a row while the reference finds a pairing that
// avoids it (and every other rule).
func TestSwissProperties(t *testing.T) {
	seeds := 40
	if testing.Short() {
		seeds = 5
	}
	var repeats, threes, rounds int
	for n := 3; n <= 16; n++ {
		for seed := range seeds {
			rng := rand.New(rand.NewPCG(uint64(n), uint64(seed)))
			var history []Round
			for r := 0; r < min(9, n-1); r++ {
				cs, err := cards(n, history, SwissByePoints, true)
				if err != nil {
					t.Fatal(err)
				}
				rd, err := Swiss(n, history, nil)
				if err != nil {
					t.Fatalf("n=%d seed=%d round %d: %v", n, seed, r+1, err)
				}
				rounds++
				where := fmt.Sprintf("n=%d seed=%d round %d", n, seed, r+1)
				checkRound(t, where, n, rd, cs, nil)
				met := func(a, b int) bool { return cs[a].met&(1<<uint(b)) != 0 }
				balanced := func(a, b int) bool {
					x, y := &cs[a], &cs[b]
					return x.mayHave(1, levelBalanced) && y.mayHave(-1, levelBalanced) || x.mayHave(-1, levelBalanced) && y.mayHave(1, levelBalanced)
				}
				byes := make([]bool, n)
				for p := range n {
					byes[p] = cs[p].bye
				}
				all := uint64(1)<<uint(n) - 1
				repeat, three := false, false
				for _, g := range rd.Pairs {
					repeat = repeat || met(g.White, g.Black)
					w1, w2 := cs[g.White].last()
					b1, b2 := cs[g.Black].last()
					three = three || w1 == 1 && w2 == 1 || b1 == -1 && b2 == -1
				}
				if repeat {
					repeats++
					if naive(all, byes, met, balanced) {
						t.Errorf("%s: %v repeats a pairing, but one without a repeat exists", where, rd)
					}
				}
				if three {
					threes++
					strict := func(a, b int) bool {
						x, y := &cs[a], &cs[b]
						return x.mayHave(1, levelStrict) && y.mayHave(-1, levelStrict) || x.mayHave(-1, levelStrict) && y.mayHave(1, levelStrict)
					}
					if naive(all, byes, met, strict) {
						t.Errorf("%s: %v gives a colour three times in a row, but a pairing without exists", where, rd)
					}
				}
				if rd.Bye != NoBye {
					// The bye goes to the lowest-ranked player without one,
					// unless the rest cannot then be paired by every rule.
					ranked := make([]int, n)
					for p := range ranked {
						ranked[p] = p
					}
					slices.SortStableFunc(ranked, func(a, b int) int { return cmp.Compare(cs[b].score, cs[a].score) })
					low := -1
					for i := n - 1; i >= 0 && low < 0; i-- {
						if !cs[ranked[i]].bye {
							low = ranked[i]
						}
					}
					others := make([]bool, n)
					for p := range others {
						others[p] = p != low
					}
					strict := func(a, b int) bool {
						x, y := &cs[a], &cs[b]
						return x.mayHave(1, levelStrict) && y.mayHave(-1, levelStrict) || x.mayHave(-1, levelStrict) && y.mayHave(1, levelStrict)
					}
					if rd.Bye != low && naive(all, others, met, strict) {
						t.Errorf("%s: bye to %d, but %d is lower-ranked and the rest pair", where, rd.Bye, low)
					}
				}
				history = append(history, play(rd, rng))
			}
		}
	}
	t.Logf("%d rounds: %d with a repeat pairing, %d with a colour three times in a row, each unavoidable", rounds, repeats, threes)
}

// checkRound checks rd against the cards before it: every player but the
// withdrawn in it once, one bye exactly when the count is odd and only to
// a player without one, colour differences within 2.
func checkRound(t *testing.T, where string, n int, rd Round, cs []card, out []int) {
	t.Helper()
	seen := make([]bool, n)
	for _, p := range out {
		seen[p] = true
	}
	active := n - len(out)
	mark := func(p int) {
		if p < 0 || p >= n || seen[p] {
			t.Fatalf("%s: player %d out of range, withdrawn or twice in %v", where, p, rd)
		}
		seen[p] = true
	}
	switch {
	case active%2 == 1 && rd.Bye == NoBye, active%2 == 0 && rd.Bye != NoBye:
		t.Errorf("%s: %d players, bye %d", where, active, rd.Bye)
	case rd.Bye != NoBye:
		mark(rd.Bye)
		if cs[rd.Bye].bye {
			t.Errorf("%s: a second bye for player %d", where, rd.Bye)
		}
	}
	for _, g := range rd.Pairs {
		mark(g.White)
		mark(g.Black)
		if g.Result != NoResult {
			t.Errorf("%s: new game %v has a result", where, g)
		}
		if d := cs[g.White].diff + 1; d > 2 {
			t.Errorf("%s: player %d colour difference %d", where, g.White, d)
		}
		if d := cs[g.Black].diff - 1; d < -2 {
			t.Errorf("%s: player %d colour difference %d", where, g.Black, d)
		}
	}
	for p, ok := range seen {
		if !ok {
			t.Errorf("%s: player %d left out of %v", where, p, rd)
		}
	}
}

// TestSwissFirstRound checks the Dutch first round: top half against
// bottom half in seed order, the top half's colours alternating by board.
func TestSwissFirstRound(t *testing.T) {
	for _, tc := range []struct {
		n    int
		want string
	}{
		{4, "{[{0 2 none} {3 1 none}] -1}"},
		{5, "{[{0 2 none} {3 1 none}] 4}"},
		{8, "{[{0 4 none} {5 1 none} {2 6 none} {7 3 none}] -1}"},
	} {
		rd, err := Swiss(tc.n, nil, nil)
		if got := fmt.Sprint(rd); err != nil || got != tc.want {
			t.Errorf("Swiss(%d, nil, nil) = %s, %v, want %s", tc.n, got, err, tc.want)
		}
	}
}

// TestSwissSecondRound is worked by hand. Round 1: 0 (White) beat 2; 3
// (White) lost to 1. The winners 0 and 1 meet, the losers 2 and 3 meet.
// 0 had White, 1 Black: 1 gets White. 2 had Black, 3 White: 2 gets White.
func TestSwissSecondRound(t *testing.T) {
	r1 := Round{Bye: NoBye, Pairs: []Pair{{0, 2, WhiteWins}, {3, 1, BlackWins}}}
	rd, err := Swiss(4, []Round{r1}, nil)
	want := "{[{1 0 none} {2 3 none}] -1}"
	if got := fmt.Sprint(rd); err != nil || got != want {
		t.Errorf("Swiss round 2 = %s, %v, want %s", got, err, want)
	}
}

// TestSwissWithdrawn leaves withdrawn players out, and an odd field left
// gives the bye to the lowest-ranked without one.
func TestSwissWithdrawn(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	n := 9
	var history []Round
	out := []int{}
	for r := range 6 {
		if r == 2 {
			out = append(out, 3)
		}
		if r == 4 {
			out = append(out, 7)
		}
		cs, _ := cards(n, history, SwissByePoints, true)
		rd, err := Swiss(n, history, out)
		if err != nil {
			t.Fatalf("round %d: %v", r+1, err)
		}
		checkRound(t, fmt.Sprintf("round %d", r+1), n, rd, cs, out)
		history = append(history, play(rd, rng))
	}
}

func TestSwissErrors(t *testing.T) {
	ok := Round{Bye: NoBye, Pairs: []Pair{{0, 1, Draw}, {2, 3, WhiteWins}}}
	for _, tc := range []struct {
		name      string
		n         int
		history   []Round
		withdrawn []int
		want      Reason
	}{
		{"one player", 1, nil, nil, ReasonPlayers},
		{"too many", MaxPlayers + 1, nil, nil, ReasonPlayers},
		{"all but one withdrawn", 4, nil, []int{0, 1, 2}, ReasonPlayers},
		{"withdrawn out of range", 4, nil, []int{4}, ReasonHistory},
		{"rounds", 4, []Round{ok, ok, ok}, nil, ReasonRounds},
		{"unfinished", 4, []Round{{Bye: NoBye, Pairs: []Pair{{0, 1, NoResult}, {2, 3, Draw}}}}, nil, ReasonUnfinished},
		{"twice", 4, []Round{{Bye: NoBye, Pairs: []Pair{{0, 1, Draw}, {1, 3, Draw}}}}, nil, ReasonHistory},
		{"out of range", 4, []Round{{Bye: NoBye, Pairs: []Pair{{0, 9, Draw}}}}, nil, ReasonHistory},
		{"bye out of range", 4, []Round{{Bye: -2}}, nil, ReasonHistory},
		{"self", 4, []Round{{Bye: NoBye, Pairs: []Pair{{2, 2, Draw}}}}, nil, ReasonHistory},
		{"result", 4, []Round{{Bye: NoBye, Pairs: []Pair{{0, 1, Result(9)}}}}, nil, ReasonHistory},
	} {
		_, err := Swiss(tc.n, tc.history, tc.withdrawn)
		var e *Error
		if !errors.As(err, &e) || e.Reason != tc.want {
			t.Errorf("%s: Swiss = %v, want %v", tc.name, err, tc.want)
		}
	}
}

// TestSwissByesExhausted: when withdrawals leave only players who have had
// a bye, the lowest-ranked of them sits out again rather than the round
// failing.
func TestSwissByesExhausted(t *testing.T) {
	h := []Round{
		{Bye: 4, Pairs: []Pair{{0, 2, WhiteWins}, {3, 1, BlackWins}}},
		{Bye: 3, Pairs: []Pair{{1, 0, Draw}, {2, 4, Draw}}},
		{Bye: 2, Pairs: []Pair{{0, 4, WhiteWins}, {3, 1, Draw}}},
	}
	rd, err := Swiss(5, h, []int{0, 1})
	// 2, 3 and 4 each have 1½ (by round, 2: 0+½+1, 3: 0+1+½, 4: 1+½+0): by seed the
	// lowest-ranked is 4.
	if err != nil || rd.Bye != 4 || len(rd.Pairs) != 1 || rd.Pairs[0].White+rd.Pairs[0].Black != 5 {
		t.Errorf("Swiss = %v, %v, want 2 against 3 and the bye to 4", rd, err)
	}
}
