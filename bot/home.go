package bot

import (
	"context"
	"errors"

	"github.com/connect4/connect4/bot/match"
)

// Overview is what a player's home page (Slack's App Home) shows of one
// channel: their game or open challenge there, their standing, and the
// game they last finished.
type Overview struct {
	Key match.Key
	// Game is the player's active game or open challenge, nil for none.
	Game *match.Record
	// Standing is the player's standing this season; Rating is nil before
	// their first rated game.
	Standing match.Standing
	// Last is the game the player most recently finished, while the store
	// keeps it; nil for none.
	Last *match.Record
}

// Overview returns userID's overview of channel k, from three reads the
// store answers anyway (PlayerGame, Stats, LastFinished). It returns the
// store's error when one of them fails.
func (s *Service) Overview(ctx context.Context, k match.Key, userID string) (Overview, error) {
	o := Overview{Key: k}
	r, err := s.store.PlayerGame(ctx, k, userID)
	switch {
	case err == nil:
		o.Game = r
	case !errors.Is(err, match.ErrNoGame):
		return o, err
	}
	if o.Standing, err = s.store.Stats(ctx, k, userID); err != nil {
		return o, err
	}
	r, err = s.store.LastFinished(ctx, k, userID)
	switch {
	case err == nil:
		o.Last = r
	case !errors.Is(err, match.ErrNoGame):
		return o, err
	}
	return o, nil
}
