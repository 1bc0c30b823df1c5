package bot

import (
	"context"
	"errors"
	"strings"

	"github.com/connect4/connect4/bot/lang"
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
			// Typed, no game named: "this game" would name none.
			return "", &UserError{Problem: ProblemNotInGame, ID: "problem.noGameOfYours"}
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
func (s *Service) gamesHere(ctx context.Context, cmd Command) (Reply, error) {
	recs, err := s.store.Active(ctx, cmd.Key)
	if err != nil {
		return Reply{}, err
	}
	if len(recs) == 0 {
		return Reply{}, userErr(ProblemNoGame)
	}
	l := s.userLang(cmd) // a note to the one asking
	parts := make([]string, len(recs))
	for i, r := range recs {
		ns := make([]string, 0, r.NumPlayers())
		for _, p := range r.Seats() {
			ns = append(ns, "@"+plainName(p))
		}
		if r.Status == match.StatusPending {
			parts[i] = l.Say("game.here.challenge", lang.Args{"Challenger": ns[0], "Players": strings.Join(ns[1:], l.Say("game.here.comma", nil))})
			continue
		}
		parts[i] = ns[0]
		for _, n := range ns[1:] {
			parts[i] = l.Say("game.players.vs", lang.Args{"Left": parts[i], "Right": n})
		}
	}
	return Reply{Visibility: Ephemeral, Lang: l, Text: l.Say("game.here.list", lang.Args{"Games": strings.Join(parts, l.Say("game.here.separator", nil))})}, nil
}

// ownGame returns the caller's active game or open challenge, or, when
// they have none, nil and the reply listing the channel's games.
func (s *Service) ownGame(ctx context.Context, cmd Command) (*match.Record, *Reply, error) {
	rec, err := s.store.PlayerGame(ctx, cmd.Key, cmd.User.ID)
	if errors.Is(err, match.ErrNoGame) {
		r, err := s.gamesHere(ctx, cmd)
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
