package pairing

import (
	"cmp"
	"slices"
)

// Standing is one player's line of a tournament's table. Buchholz and
// SonnebornBerger are in points; they are multiples of ¼, exact in a
// float64, so they compare exactly.
type Standing struct {
	Player int    // the player's seed index
	Rank   int    // 1 for the first; players equal on score and both tiebreaks share a rank
	Score  Points // in half points
	Games  int    // games finished, byes not counted
	// Buchholz is the sum of the scores of the player's opponents.
	Buchholz float64
	// SonnebornBerger is the sum of the scores of the opponents the
	// player beat, plus half the scores of those they drew with.
	SonnebornBerger float64
}

// Standings returns the table of n players after the rounds in history,
// first place first: by score, then Buchholz, then Sonneborn-Berger, then
// seed. A bye scores byePoints (SwissByePoints in a Swiss, 0 in a round
// robin, where every player sits out equally) and counts in neither
// tiebreak, being no game against anyone; a game without a result counts
// nothing yet. Opponents' scores are their whole scores, byes included,
// and a withdrawn player keeps the score they had. It returns an *Error
// (ReasonPlayers, ReasonHistory) for n out of range or an invalid history.
func Standings(n int, history []Round, byePoints Points) ([]Standing, error) {
	if n < MinPlayers || n > MaxPlayers {
		return nil, errorf(ReasonPlayers, "%d players, want %d to %d", n, MinPlayers, MaxPlayers)
	}
	cs, err := cards(n, history, byePoints, false)
	if err != nil {
		return nil, err
	}
	st := make([]Standing, n)
	for p := range st {
		st[p] = Standing{Player: p, Score: cs[p].score}
	}
	for _, rd := range history {
		for _, g := range rd.Pairs {
			if g.Result == NoResult {
				continue
			}
			for _, p := range [2]int{g.White, g.Black} {
				q := g.Opponent(p)
				opp := cs[q].score.Float()
				st[p].Games++
				st[p].Buchholz += opp
				switch pts, _ := g.Points(p); pts {
				case 2:
					st[p].SonnebornBerger += opp
				case 1:
					st[p].SonnebornBerger += opp / 2
				}
			}
		}
	}
	slices.SortFunc(st, func(a, b Standing) int {
		return cmp.Or(-a.compare(b), cmp.Compare(a.Player, b.Player))
	})
	for i := range st {
		st[i].Rank = i + 1
		if i > 0 && st[i].compare(st[i-1]) == 0 {
			st[i].Rank = st[i-1].Rank
		}
	}
	return st, nil
}

// compare orders a and b by score, Buchholz and Sonneborn-Berger, the
// better one greater.
func (a Standing) compare(b Standing) int {
	return cmp.Or(cmp.Compare(a.Score, b.Score), cmp.Compare(a.Buchholz, b.Buchholz), cmp.Compare(a.SonnebornBerger, b.SonnebornBerger))
}
