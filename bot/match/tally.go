package match

import (
	"errors"
	"fmt"
	"slices"
)

// Tally is what an update adds to the channel leaderboard: a win for Winner
// and a loss for Loser, or, when Draw is set, a draw for each of the two. The
// zero value adds nothing. A resignation or a timeout claim is a win for the
// opponent like any other.
//
// With Rated set the store also rates the game (see Rate) from the
// players' ratings before it, in the same atomic step, records the head to
// head, and sets the written record's Rating to the change.
//
// A game of 3 or 4 players names the third and fourth in Others: each gets
// what Loser gets (a loss, or a draw), and such a game is never rated.
type Tally struct {
	Winner, Loser Player // for a draw, just the two players
	Others        []Player
	Draw          bool
	Rated         bool
}

// IsZero reports whether t adds nothing.
func (t Tally) IsZero() bool {
	return t.Winner == Player{} && t.Loser == Player{} && len(t.Others) == 0 && !t.Draw && !t.Rated
}

// Validate reports what is wrong with t as a leaderboard change: a player
// without an id, over-long ids or names, or a player against themself.
func (t Tally) Validate() error {
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
	if len(t.Others) > 2 {
		return fmt.Errorf("tally: %d other players, at most 2", len(t.Others))
	}
	if len(t.Others) > 0 && t.Rated {
		return errors.New("tally: a game of more than two players is never rated")
	}
	seen := []string{t.Winner.ID, t.Loser.ID}
	for _, p := range t.Others {
		if err := validPlayer("tally player", p, true); err != nil {
			return err
		}
		if slices.Contains(seen, p.ID) {
			return fmt.Errorf("tally: %q twice", p.ID)
		}
		seen = append(seen, p.ID)
	}
	return nil
}

// Standing is one player's record in a channel.
type Standing struct {
	Player              Player
	Wins, Losses, Draws int
	// Rating is the player's rating this season, nil before their first
	// rated game.
	Rating *PlayerRating
	// History holds the player's latest ratings, oldest first (at most
	// HistoryLen); only Stats fills it.
	History []float64
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
