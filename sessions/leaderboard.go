package sessions

import (
	"cmp"
	"slices"

	"github.com/connect4/connect4/bot/match"
)

// rankStandings sorts by wins (most first), then fewer losses, then more
// games, then player id, and returns the first n (all when n ≤ 0).
func rankStandings(ss []match.Standing, n int) []match.Standing {
	slices.SortFunc(ss, func(a, b match.Standing) int {
		return cmp.Or(
			cmp.Compare(b.Wins, a.Wins),
			cmp.Compare(a.Losses, b.Losses),
			cmp.Compare(b.Games(), a.Games()),
			cmp.Compare(a.Player.ID, b.Player.ID),
		)
	})
	if n > 0 && len(ss) > n {
		ss = ss[:n]
	}
	return ss
}
