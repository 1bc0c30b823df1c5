package bot

import (
	"context"
	"errors"
	"fmt"

	"github.com/connect4/connect4/engine"
	"github.com/connect4/connect4/sessions"
)

// drop drops the clicking player's disc in the clicked column, then lets
// the AI answer in an AI game.
func (s *Service) drop(ctx context.Context, cmd Command) (Reply, error) {
	var text string
	var over bool
	rec, err := s.store.Update(ctx, cmd.Key, func(r *sessions.Record) (sessions.Tally, error) {
		g, me, err := s.playable(r, cmd)
		if err != nil {
			return sessions.Tally{}, err
		}
		if cmd.Move != g.Moves() {
			return sessions.Tally{}, userErr(ProblemStale)
		}
		if t := g.Turn(); t != me {
			return sessions.Tally{}, userErr(ProblemNotYourTurn, playerOf(r, t).ID)
		}
		if err := g.Play(me, cmd.Column); err != nil {
			var me *engine.MoveError
			if errors.As(err, &me) && me.Reason == engine.ReasonColumnFull {
				return sessions.Tally{}, userErr(ProblemColumnFull, cmd.Column+1)
			}
			if errors.As(err, &me) && me.Reason == engine.ReasonOutOfRange {
				return sessions.Tally{}, userErr(ProblemStale)
			}
			return sessions.Tally{}, err
		}
		text = moveText(cmd.User, cmd.Column)
		var tally sessions.Tally
		if over = g.State().Over(); over {
			var end string
			tally, end = settle(r, g, sessions.FinishNone)
			text += "\n" + end
		}
		r.Game = encode(g)
		if cmd.Message != (sessions.MessageRef{}) {
			r.Message = cmd.Message
		}
		return tally, nil
	})
	if err != nil {
		return Reply{}, noGame(err)
	}
	s.moved(cmd)
	if rec.Status == sessions.StatusFinished {
		s.finished(cmd, rec.Finish)
	}
	g, err := rec.DecodeGame()
	if err != nil {
		return Reply{}, err
	}
	return s.afterHuman(ctx, cmd, rec, g, Update, text)
}

// playable checks that cmd's user may act in rec's current round and
// returns the round and the user's color.
func (s *Service) playable(r *sessions.Record, cmd Command) (*engine.Game, engine.Player, error) {
	if cmd.FromButton() && r.ID != cmd.GameID {
		return nil, 0, userErr(ProblemStale)
	}
	switch r.Status {
	case sessions.StatusPending:
		return nil, 0, userErr(ProblemNotStarted, r.Opponent.ID)
	case sessions.StatusFinished:
		if !cmd.FromButton() {
			return nil, 0, userErr(ProblemNoGame)
		}
		return nil, 0, userErr(ProblemGameOver)
	}
	me := colorOf(r, cmd.User.ID)
	if me == engine.NoPlayer {
		return nil, 0, userErr(ProblemNotInGame)
	}
	g, err := r.DecodeGame()
	if err != nil {
		return nil, 0, err
	}
	if g.State().Over() {
		return nil, 0, userErr(ProblemRoundOver)
	}
	return g, me, nil
}

// noGame turns ErrNoGame into its refusal.
func noGame(err error) error {
	if errors.Is(err, sessions.ErrNoGame) {
		return userErr(ProblemNoGame)
	}
	return err
}

// settle records the end of rec's current round g: the round result, and
// the end of the match when a player has reached FirstTo wins (or at once
// for a resignation or a timeout, which end the match). finish is
// FinishResign or FinishTimeout for those, FinishNone for an end on the
// board. It returns the tally for the leaderboard (none in AI games) and
// the announcement.
func settle(r *sessions.Record, g *engine.Game, finish sessions.Finish) (sessions.Tally, string) {
	red, yellow := colors(r)
	var tally sessions.Tally
	var text string
	res := sessions.RoundResult{Finish: finish}
	switch g.State() {
	case engine.Draw:
		res.Finish = sessions.FinishDraw
		tally = sessions.Tally{Winner: red, Loser: yellow, Draw: true}
		text = "It's a draw!"
	default:
		w, l := red, yellow
		if g.Winner() == engine.Yellow {
			w, l = yellow, red
		}
		res.Winner = w.ID
		tally = sessions.Tally{Winner: w, Loser: l}
		switch finish {
		case sessions.FinishResign:
			text = fmt.Sprintf("<@%s> resigned. <@%s> wins!", l.ID, w.ID)
		case sessions.FinishTimeout:
			text = fmt.Sprintf("<@%s> didn't move in time. <@%s> wins!", l.ID, w.ID)
		default:
			res.Finish = sessions.FinishWin
			text = fmt.Sprintf("<@%s> wins!", w.ID)
		}
	}
	r.Rounds = append(r.Rounds, res)
	if r.AILevel != "" {
		tally = sessions.Tally{}
	}
	matchOver := r.FirstTo <= 1 || finish != sessions.FinishNone ||
		(res.Winner != "" && wins(r, res.Winner) >= r.FirstTo)
	switch {
	case matchOver:
		r.Status, r.Finish = sessions.StatusFinished, res.Finish
		if r.FirstTo > 1 && res.Winner != "" {
			text += fmt.Sprintf(" <@%s> wins the match %d–%d.", res.Winner, wins(r, res.Winner), len(r.Rounds)-wins(r, res.Winner)-draws(r))
		}
	default:
		text += fmt.Sprintf(" That was round %d; first to %d wins the match.", len(r.Rounds), r.FirstTo)
	}
	return tally, text
}

func draws(r *sessions.Record) int {
	n := 0
	for _, rr := range r.Rounds {
		if rr.Winner == "" {
			n++
		}
	}
	return n
}

// end resigns the current game for cmd.User (KindResign), or claims it for
// the player who has waited longer than the turn timeout (KindClaim).
func (s *Service) end(ctx context.Context, cmd Command) (Reply, error) {
	now := s.opt.Now()
	var text string
	rec, err := s.store.Update(ctx, cmd.Key, func(r *sessions.Record) (sessions.Tally, error) {
		g, me, err := s.playable(r, cmd)
		if err != nil {
			return sessions.Tally{}, err
		}
		finish := sessions.FinishResign
		if cmd.Kind == KindResign {
			if err := g.Resign(me); err != nil {
				return sessions.Tally{}, err
			}
		} else {
			idle := g.Turn()
			if idle == me {
				return sessions.Tally{}, userErr(ProblemYourMove)
			}
			if left := r.Updated.Add(s.opt.TurnTimeout).Sub(now); left > 0 {
				return sessions.Tally{}, userErr(ProblemTooEarly, playerOf(r, idle).ID, duration(left))
			}
			if err := g.Resign(idle); err != nil {
				return sessions.Tally{}, err
			}
			finish = sessions.FinishTimeout
		}
		tally, t := settle(r, g, finish)
		text = t
		r.Game = encode(g)
		return tally, nil
	})
	if err != nil {
		return Reply{}, noGame(err)
	}
	s.finished(cmd, rec.Finish)
	g, err := rec.DecodeGame()
	if err != nil {
		return Reply{}, err
	}
	return gameView(rec, g, Public, text), nil
}

// nextRound starts the next round of a match, colors swapped.
func (s *Service) nextRound(ctx context.Context, cmd Command) (Reply, error) {
	var text string
	rec, err := s.store.Update(ctx, cmd.Key, func(r *sessions.Record) (sessions.Tally, error) {
		if r.ID != cmd.GameID {
			return sessions.Tally{}, userErr(ProblemStale)
		}
		if r.Status != sessions.StatusPlaying {
			return sessions.Tally{}, userErr(ProblemGameOver)
		}
		if colorOf(r, cmd.User.ID) == engine.NoPlayer {
			return sessions.Tally{}, userErr(ProblemNotInGame)
		}
		g, err := r.DecodeGame()
		if err != nil {
			return sessions.Tally{}, err
		}
		if !g.State().Over() || g.Moves() != cmd.Move {
			return sessions.Tally{}, userErr(ProblemStale) // the next round has already begun
		}
		_, yellow := colors(r)
		next, err := engine.New(r.Config())
		if err != nil {
			return sessions.Tally{}, err
		}
		r.RedID, r.Game = yellow.ID, encode(next)
		if cmd.Message != (sessions.MessageRef{}) {
			r.Message = cmd.Message
		}
		text = fmt.Sprintf("Round %d! <@%s> is red and goes first.", len(r.Rounds)+1, yellow.ID)
		return sessions.Tally{}, nil
	})
	if err != nil {
		return Reply{}, noGame(err)
	}
	g, err := rec.DecodeGame()
	if err != nil {
		return Reply{}, err
	}
	return s.afterHuman(ctx, cmd, rec, g, Update, text)
}

func (s *Service) moved(cmd Command) {
	if f := s.opt.Hooks.Move; f != nil {
		f(cmd.Key.Platform)
	}
}
