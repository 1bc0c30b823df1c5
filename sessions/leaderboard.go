package sessions

import (
	"cmp"
	"fmt"
	"slices"
)

// Tally is what an update adds to the channel leaderboard: a win for Winner
// and a loss for Loser, or, when Draw is set, a draw for each of the two. The
// zero value adds nothing. A resignation or a timeout claim is a win for the
// opponent like any other.
type Tally struct {
	Winner, Loser Player // for a draw, just the two players
	Draw          bool
}

// IsZero reports whether t adds nothing.
func (t Tally) IsZero() bool { return t == Tally{} }

func (t Tally) validate() error {
	if t.IsZero() {
		return nil
	}
	if err := validPlayer("tally winner", t.Winner, true); err != nil {
		return err
	}
	if err := validPlayer("tally loser", t.Loser, true); err != nil {
		return err
	}
	if t.Winner.ID == t.Loser.ID {
		return fmt.Errorf("tally: %q against themself", t.Winner.ID)
	}
	return nil
}

// Standing is one player's record in a channel.
type Standing struct {
	Player              Player
	Wins, Losses, Draws int
}

// Games returns the number of games the player finished.
func (s Standing) Games() int { return s.Wins + s.Losses + s.Draws }

// WinRate returns wins per finished game, 0 when there are none.
func (s Standing) WinRate() float64 {
	if g := s.Games(); g > 0 {
		return float64(s.Wins) / float64(g)
	}
	return 0
}

// rankStandings sorts by wins (most first), then fewer losses, then more
// games, then player id, and returns the first n (all when n ≤ 0).
func rankStandings(ss []Standing, n int) []Standing {
	slices.SortFunc(ss, func(a, b Standing) int {
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
