package bot

import (
	"context"
	"fmt"

	"github.com/connect4/connect4/bot/match"
	"github.com/connect4/connect4/engine"
)

// GameAt returns the game of record gameID in channel k as it stood after
// its first move moves (all of them: the stored game, with how it ended),
// for a picture the bot serves itself. It returns match.ErrNoGame when
// there is no such record or the game has fewer moves (a takeback, or
// another round since), and the store's errors as they are.
func (s *Service) GameAt(ctx context.Context, k match.Key, gameID string, moves int) (*engine.Game, error) {
	rec, err := s.store.Load(ctx, k, gameID)
	if err != nil {
		return nil, err
	}
	g := rec.Game
	switch {
	case g == nil || moves < 0 || moves > g.Moves():
		return nil, match.ErrNoGame
	case moves == g.Moves():
		return g, nil
	}
	out, err := engine.New(g.Config())
	if err != nil {
		return nil, fmt.Errorf("bot: replay game %s: %w", gameID, err)
	}
	for _, c := range g.History()[:moves] {
		if err := out.Play(out.Turn(), c); err != nil {
			return nil, fmt.Errorf("bot: replay game %s: %w", gameID, err)
		}
	}
	return out, nil
}
