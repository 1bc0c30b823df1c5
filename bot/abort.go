package bot

import (
	"context"

	"github.com/connect4/connect4/bot/lang"
	"github.com/connect4/connect4/bot/match"
	"github.com/connect4/connect4/engine"
)

// abort ends the caller's game before every player has made a move:
// unrated and counted nowhere (no round, no tally), as if it had never
// been played. Any player of the game may abort it; after the first
// round of a match, or once each player has moved, it is refused with one
// line, and resigning is the way out.
func (s *Service) abort(ctx context.Context, cmd Command) (Reply, error) {
	rec, err := s.updatePlayable(ctx, &cmd, func(r *match.Record, _ engine.Player) (match.Tally, error) {
		if tournamentGameID.MatchString(r.ID) {
			return match.Tally{}, &UserError{Problem: ProblemGameOver, ID: "tournament.problem.abort"}
		}
		if len(r.Rounds) > 0 || r.Game.Moves() >= r.NumPlayers() {
			return match.Tally{}, &UserError{Problem: ProblemGameOver, ID: "abort.problem.moved"}
		}
		r.Status, r.Finish, r.Offer, r.Takeback = match.StatusFinished, match.FinishCancelled, nil, nil
		return match.Tally{}, nil
	})
	if err != nil {
		return Reply{}, noGame(cmd, err)
	}
	s.finished(cmd, rec.Finish)
	l := s.channelLang(ctx, cmd, rec)
	v := gameView(l, rec, Public, say(l, "abort.done", lang.Args{"Player": mention(cmd.User)}))
	v.Buttons = nil // nothing to analyse, nothing to rematch: a new challenge starts over
	return v, nil
}
