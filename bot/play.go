package bot

import (
	"context"
	"errors"
	"fmt"

	"github.com/connect4/connect4/bot/match"

	"github.com/connect4/connect4/engine"
	"github.com/connect4/connect4/engine/solver"
)

// drop drops the clicking player's disc in the clicked column, then lets
// the AI answer in an AI game.
func (s *Service) drop(ctx context.Context, cmd Command) (Reply, error) {
	var text string
	var over bool
	rec, err := s.store.Update(ctx, cmd.Key, func(r *match.Record) (match.Tally, error) {
		me, err := s.playable(r, cmd)
		if err != nil {
			return match.Tally{}, err
		}
		g := r.Game
		if cmd.Move != g.Moves() {
			return match.Tally{}, userErr(ProblemStale)
		}
		if t := g.Turn(); t != me {
			return match.Tally{}, userErr(ProblemNotYourTurn, r.PlayerOf(t).ID)
		}
		if err := g.Play(me, cmd.Column); err != nil {
			var me *engine.MoveError
			if errors.As(err, &me) && me.Reason == engine.ReasonColumnFull {
				return match.Tally{}, userErr(ProblemColumnFull, cmd.Column+1)
			}
			if errors.As(err, &me) && me.Reason == engine.ReasonOutOfRange {
				return match.Tally{}, userErr(ProblemStale)
			}
			return match.Tally{}, err
		}
		text = moveText(cmd.User, cmd.Column)
		var tally match.Tally
		if over = g.State().Over(); over {
			var end string
			tally, end = settle(r, match.FinishNone)
			text += "\n" + end
		}
		if !cmd.Message.IsZero() {
			r.Message = cmd.Message
		}
		return tally, nil
	})
	if err != nil {
		return Reply{}, noGame(err)
	}
	s.moved(cmd)
	if rec.Status == match.StatusFinished {
		s.finished(cmd, rec.Finish)
	}
	return s.afterHuman(ctx, cmd, rec, Update, text)
}

// playable checks that cmd's user may act in rec's current round and
// returns the user's color.
func (s *Service) playable(r *match.Record, cmd Command) (engine.Player, error) {
	if cmd.FromButton() && r.ID != cmd.GameID {
		return 0, userErr(ProblemStale)
	}
	switch r.Status {
	case match.StatusPending:
		return 0, userErr(ProblemNotStarted, r.Opponent.ID)
	case match.StatusFinished:
		if !cmd.FromButton() {
			return 0, userErr(ProblemNoGame)
		}
		return 0, userErr(ProblemGameOver)
	}
	me := r.ColorOf(cmd.User.ID)
	if me == engine.NoPlayer {
		return 0, userErr(ProblemNotInGame)
	}
	if r.Game.State().Over() {
		return 0, userErr(ProblemRoundOver)
	}
	return me, nil
}

// noGame turns ErrNoGame into its refusal.
func noGame(err error) error {
	if errors.Is(err, match.ErrNoGame) {
		return userErr(ProblemNoGame)
	}
	return err
}

// settle records the end of rec's current round: the round result, and
// the end of the match when a player has reached FirstTo wins (or at once
// for a resignation or a timeout, which end the match). finish is
// FinishResign or FinishTimeout for those, FinishNone for an end on the
// board. It returns the tally for the leaderboard (none in AI games) and
// the announcement.
func settle(r *match.Record, finish match.Finish) (match.Tally, string) {
	g := r.Game
	red, yellow := r.Colors()
	var tally match.Tally
	var text string
	res := match.RoundResult{Finish: finish}
	switch g.State() {
	case engine.Draw:
		res.Finish = match.FinishDraw
		tally = match.Tally{Winner: red, Loser: yellow, Draw: true}
		text = "It's a draw!"
	default:
		w, l := red, yellow
		if g.Winner() == engine.Yellow {
			w, l = yellow, red
		}
		res.Winner = w.ID
		tally = match.Tally{Winner: w, Loser: l}
		switch finish {
		case match.FinishResign:
			text = fmt.Sprintf("%s resigned. %s wins!", mention(l), mention(w))
		case match.FinishTimeout:
			text = fmt.Sprintf("%s didn't move in time. %s wins!", mention(l), mention(w))
		default:
			res.Finish = match.FinishWin
			text = fmt.Sprintf("%s wins!", mention(w))
		}
	}
	r.Rounds = append(r.Rounds, res)
	if r.AILevel != solver.LevelNone {
		tally = match.Tally{} // games against the AI count nowhere
	} else {
		tally.Rated = true // every finished game between two people is rated
	}
	matchOver := r.FirstTo <= 1 || finish != match.FinishNone || r.MatchWon()
	switch {
	case matchOver:
		r.Status, r.Finish = match.StatusFinished, res.Finish
		if r.FirstTo > 1 && res.Winner != "" {
			won := r.Wins(res.Winner)
			text += fmt.Sprintf(" <@%s> wins the match %d–%d.", res.Winner, won, len(r.Rounds)-won-r.Draws())
		}
	default:
		text += fmt.Sprintf(" That was round %d; first to %d wins the match.", len(r.Rounds), r.FirstTo)
	}
	return tally, text
}

// end resigns the current game for cmd.User (KindResign), or claims it for
// the player who has waited longer than the turn timeout (KindClaim).
func (s *Service) end(ctx context.Context, cmd Command) (Reply, error) {
	now := s.opt.Now()
	var text string
	rec, err := s.store.Update(ctx, cmd.Key, func(r *match.Record) (match.Tally, error) {
		me, err := s.playable(r, cmd)
		if err != nil {
			return match.Tally{}, err
		}
		g := r.Game
		finish := match.FinishResign
		if cmd.Kind == KindResign {
			if err := g.Resign(me); err != nil {
				return match.Tally{}, err
			}
		} else {
			idle := g.Turn()
			if idle == me {
				return match.Tally{}, userErr(ProblemYourMove)
			}
			if left := r.Updated.Add(s.opt.TurnTimeout).Sub(now); left > 0 {
				return match.Tally{}, userErr(ProblemTooEarly, r.PlayerOf(idle).ID, duration(left))
			}
			if err := g.Resign(idle); err != nil {
				return match.Tally{}, err
			}
			finish = match.FinishTimeout
		}
		tally, t := settle(r, finish)
		text = t
		return tally, nil
	})
	if err != nil {
		return Reply{}, noGame(err)
	}
	s.finished(cmd, rec.Finish)
	return gameView(rec, Public, text), nil
}

// nextRound starts the next round of a match, colors swapped.
func (s *Service) nextRound(ctx context.Context, cmd Command) (Reply, error) {
	var text string
	rec, err := s.store.Update(ctx, cmd.Key, func(r *match.Record) (match.Tally, error) {
		if r.ID != cmd.GameID {
			return match.Tally{}, userErr(ProblemStale)
		}
		if r.Status != match.StatusPlaying {
			return match.Tally{}, userErr(ProblemGameOver)
		}
		if r.ColorOf(cmd.User.ID) == engine.NoPlayer {
			return match.Tally{}, userErr(ProblemNotInGame)
		}
		g := r.Game
		if !g.State().Over() || g.Moves() != cmd.Move {
			return match.Tally{}, userErr(ProblemStale) // the next round has already begun
		}
		_, yellow := r.Colors()
		next, err := engine.New(r.Config())
		if err != nil {
			return match.Tally{}, err
		}
		r.RedID, r.Game = yellow.ID, next
		if !cmd.Message.IsZero() {
			r.Message = cmd.Message
		}
		text = fmt.Sprintf("Round %d! <@%s> is red and goes first.", len(r.Rounds)+1, yellow.ID)
		return match.Tally{}, nil
	})
	if err != nil {
		return Reply{}, noGame(err)
	}
	return s.afterHuman(ctx, cmd, rec, Update, text)
}

func (s *Service) moved(cmd Command) {
	if f := s.opt.Hooks.Move; f != nil {
		f(cmd.Key.Platform)
	}
}
