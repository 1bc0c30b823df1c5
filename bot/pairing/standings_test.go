package pairing

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"testing"
)

// TestStandings checks the table against examples worked by hand.
func TestStandings(t *testing.T) {
	for _, tc := range []struct {
		name    string
		n       int
		history []Round
		bye     Points
		want    []Standing
	}{
		{
			// Scores: P0 1+0+1 = 2, P1 ½+½+1 = 2, P2 0+1+½ = 1½,
			// P3 ½+1+0 = 1½, P4 ½+0+0 = ½, P5 ½+½+½ = 1½.
			// Buchholz: P0 s2+s3+s4 = 1½+1½+½ = 3½; P1 s4+s5+s3 = 3½;
			// P2 s0+s4+s5 = 2+½+1½ = 4; P3 s5+s0+s1 = 5½; P4 s1+s2+s0 = 5½;
			// P5 s3+s1+s2 = 5.
			// Sonneborn-Berger: P0 beat 2 and 4: 1½+½ = 2; P1 drew 4 and 5,
			// beat 3: ¼+¾+1½ = 2½; P2 beat 4, drew 5: ½+¾ = 1¼; P3 drew 5,
			// beat 0: ¾+2 = 2¾; P4 drew 1: 1; P5 drew 3, 1, 2: ¾+1+¾ = 2½.
			// P0 and P1 tie on score and Buchholz: Sonneborn-Berger puts P1
			// first; P3, P5, P2 tie on score: Buchholz orders them.
			name: "swiss of 6, 3 rounds",
			n:    6,
			history: []Round{
				{Bye: NoBye, Pairs: []Pair{{0, 2, WhiteWins}, {1, 4, Draw}, {3, 5, Draw}}},
				{Bye: NoBye, Pairs: []Pair{{0, 3, BlackWins}, {1, 5, Draw}, {2, 4, WhiteWins}}},
				{Bye: NoBye, Pairs: []Pair{{0, 4, WhiteWins}, {1, 3, WhiteWins}, {2, 5, Draw}}},
			},
			bye: SwissByePoints,
			want: []Standing{
				{Player: 1, Rank: 1, Score: 4, Games: 3, Buchholz: 3.5, SonnebornBerger: 2.5},
				{Player: 0, Rank: 2, Score: 4, Games: 3, Buchholz: 3.5, SonnebornBerger: 2},
				{Player: 3, Rank: 3, Score: 3, Games: 3, Buchholz: 5.5, SonnebornBerger: 2.75},
				{Player: 5, Rank: 4, Score: 3, Games: 3, Buchholz: 5, SonnebornBerger: 2.5},
				{Player: 2, Rank: 5, Score: 3, Games: 3, Buchholz: 4, SonnebornBerger: 1.25},
				{Player: 4, Rank: 6, Score: 1, Games: 3, Buchholz: 5.5, SonnebornBerger: 1},
			},
		},
		{
			// A bye scores a point and counts in neither tiebreak: P2 (bye)
			// and P0 (beat P1, who has 0) tie on everything and share first;
			// P1's Buchholz is P0's score, 1.
			name:    "bye",
			n:       3,
			history: []Round{{Bye: 2, Pairs: []Pair{{0, 1, WhiteWins}}}},
			bye:     SwissByePoints,
			want: []Standing{
				{Player: 0, Rank: 1, Score: 2, Games: 1},
				{Player: 2, Rank: 1, Score: 2},
				{Player: 1, Rank: 3, Games: 1, Buchholz: 1},
			},
		},
		{
			// A round robin's bye scores nothing; an unfinished game counts
			// nothing yet. P0 beat P1 (0): Buchholz 0, SB 0; P1 lost to
			// P0 (1): Buchholz 1; P2 has played nobody yet: Buchholz 0.
			name: "round robin bye, unfinished game",
			n:    3,
			history: []Round{
				{Bye: 2, Pairs: []Pair{{0, 1, WhiteWins}}},
				{Bye: 0, Pairs: []Pair{{1, 2, NoResult}}},
			},
			want: []Standing{
				{Player: 0, Rank: 1, Score: 2, Games: 1},
				{Player: 1, Rank: 2, Games: 1, Buchholz: 1},
				{Player: 2, Rank: 3},
			},
		},
	} {
		got, err := Standings(tc.n, tc.history, tc.bye)
		if err != nil || fmt.Sprint(got) != fmt.Sprint(tc.want) {
			t.Errorf("%s: Standings =\n%v, %v\nwant\n%v", tc.name, got, err, tc.want)
		}
	}
}

// TestStandingsProperties checks, over seeded random round robins, what
// any table must hold: the scores add up to the points played for, every
// Buchholz is the sum of the opponents' scores (computed naively, game by
// game), Sonneborn-Berger never exceeds Buchholz, and the order is by
// score, Buchholz, Sonneborn-Berger.
func TestStandingsProperties(t *testing.T) {
	for seed := range 200 {
		rng := rand.New(rand.NewPCG(uint64(seed), 1))
		n := 3 + rng.IntN(14)
		rounds, _ := RoundRobin(n, rng.IntN(2) == 0)
		var history []Round
		for _, rd := range rounds[:1+rng.IntN(len(rounds))] {
			history = append(history, play(rd, rng))
		}
		st, err := Standings(n, history, 0)
		if err != nil {
			t.Fatal(err)
		}
		score := map[int]float64{}
		games := 0
		for _, rd := range history {
			for _, g := range rd.Pairs {
				games++
				switch g.Result {
				case WhiteWins:
					score[g.White]++
				case BlackWins:
					score[g.Black]++
				case Draw:
					score[g.White] += 0.5
					score[g.Black] += 0.5
				}
			}
		}
		var total Points
		for i, s := range st {
			total += s.Score
			if s.Score.Float() != score[s.Player] {
				t.Errorf("seed %d: player %d score %v, want %v", seed, s.Player, s.Score.Float(), score[s.Player])
			}
			var b float64
			for _, rd := range history {
				for _, g := range rd.Pairs {
					if q := g.Opponent(s.Player); q >= 0 {
						b += score[q]
					}
				}
			}
			if s.Buchholz != b || s.SonnebornBerger > s.Buchholz {
				t.Errorf("seed %d: player %d Buchholz %v (want %v), SB %v", seed, s.Player, s.Buchholz, b, s.SonnebornBerger)
			}
			if i > 0 && s.compare(st[i-1]) > 0 {
				t.Errorf("seed %d: %v ranked below %v", seed, s, st[i-1])
			}
		}
		if int(total) != 2*games {
			t.Errorf("seed %d: scores add to %v half points, want %d", seed, total, 2*games)
		}
	}
}

func TestStandingsErrors(t *testing.T) {
	for _, tc := range []struct {
		n       int
		history []Round
		want    Reason
	}{
		{0, nil, ReasonPlayers},
		{3, []Round{{Bye: 5}}, ReasonHistory},
		{3, []Round{{Bye: 0, Pairs: []Pair{{0, 1, Draw}}}}, ReasonHistory},
	} {
		_, err := Standings(tc.n, tc.history, 0)
		var e *Error
		if !errors.As(err, &e) || e.Reason != tc.want {
			t.Errorf("Standings(%d, %v) = %v, want %v", tc.n, tc.history, err, tc.want)
		}
	}
}
