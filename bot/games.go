package bot

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/connect4/connect4/bot/match"
)

// A channel holds several games at once, each its own record. A button
// names the game it was drawn for (Command.GameID), so a click acts on that
// game only; a typed command acts on the caller's own active game or open
// challenge, which the store finds by player.

// target returns the id of the game cmd acts on: the one its button was
// drawn for, else the caller's active game or open challenge. When the
// caller has none it returns match.ErrNoGame if the channel has no game
// either, and the refusal ProblemNotInGame if it has.
func (s *Service) target(ctx context.Context, cmd Command) (string, error) {
	if cmd.GameID != "" {
		return cmd.GameID, nil
	}
	r, err := s.store.PlayerGame(ctx, cmd.Key, cmd.User.ID)
	if errors.Is(err, match.ErrNoGame) {
		recs, aerr := s.store.Active(ctx, cmd.Key)
		if aerr != nil {
			return "", aerr
		}
		if len(recs) > 0 {
			return "", userErr(ProblemNotInGame)
		}
	}
	if err != nil {
		return "", err
	}
	return r.ID, nil
}

// gamesHere lists the channel's active games for someone who has none of
// their own, in plain names so that a look pings nobody; ProblemNoGame when
// there are none.
func (s *Service) gamesHere(ctx context.Context, k match.Key) (Reply, error) {
	recs, err := s.store.Active(ctx, k)
	if err != nil {
		return Reply{}, err
	}
	if len(recs) == 0 {
		return Reply{}, userErr(ProblemNoGame)
	}
	parts := make([]string, len(recs))
	for i, r := range recs {
		names := make([]string, 0, r.NumPlayers())
		for _, p := range r.Seats() {
			names = append(names, "@"+plainName(p))
		}
		if r.Status == match.StatusPending {
			parts[i] = fmt.Sprintf("%s has challenged %s", names[0], strings.Join(names[1:], ", "))
		} else {
			parts[i] = strings.Join(names, " vs ")
		}
	}
	return Reply{Visibility: Ephemeral, Text: "Games here: " + strings.Join(parts, "; ")}, nil
}

// ownGame returns the caller's active game or open challenge, or, when
// they have none, nil and the reply listing the channel's games.
func (s *Service) ownGame(ctx context.Context, cmd Command) (*match.Record, *Reply, error) {
	rec, err := s.store.PlayerGame(ctx, cmd.Key, cmd.User.ID)
	if errors.Is(err, match.ErrNoGame) {
		r, err := s.gamesHere(ctx, cmd.Key)
		if err != nil {
			return nil, nil, err
		}
		return nil, &r, nil
	}
	if err != nil {
		return nil, nil, err
	}
	return rec, nil, nil
}
