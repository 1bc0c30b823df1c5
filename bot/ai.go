package bot

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/connect4/connect4/bot/match"
	"github.com/connect4/connect4/bot/slots"

	"github.com/connect4/connect4/engine/solver"
)

// afterHuman finishes a reply after a human's action on rec (round g): in an
// AI game where it is now the AI's turn, the AI moves first, so that its
// answer lands in the same message update.
func (s *Service) afterHuman(ctx context.Context, cmd Command, rec *match.Record, vis Visibility, text speech) (Reply, error) {
	g := rec.Game
	if rec.AILevel == solver.LevelNone || rec.Status != match.StatusPlaying || g.State().Over() ||
		rec.PlayerOf(g.Turn()).ID != rec.Opponent.ID {
		l := s.channelLang(ctx, cmd, rec)
		return gameView(l, rec, vis, text.in(l)), nil
	}
	next, aiText, err := s.aiTurn(ctx, cmd, rec)
	if err != nil {
		// The human's move stands; the AI answers on the next board.
		switch {
		case errors.Is(err, slots.ErrBusy):
			s.log.Warn("AI busy", "channel", cmd.Key.String())
			l := s.channelLang(ctx, cmd, rec)
			return gameView(l, rec, vis, text.line(words("game.ai.busy", nil)).in(l)), nil
		case ctx.Err() != nil:
			// The caller gave up (shutdown, or the platform's deadline): not a fault.
			s.log.Info("AI move abandoned", "channel", cmd.Key.String(), "err", err)
		default:
			s.log.Error("AI move failed", "channel", cmd.Key.String(), "err", err)
		}
		l := s.channelLang(ctx, cmd, rec)
		return gameView(l, rec, vis, text.line(words("game.ai.failed", nil)).in(l)), nil
	}
	l := s.channelLang(ctx, cmd, next)
	return gameView(l, next, vis, text.line(aiText).in(l)), nil
}

// aiTurn computes and stores the AI's move in rec's current round.
func (s *Service) aiTurn(ctx context.Context, cmd Command, rec *match.Record) (*match.Record, speech, error) {
	budget := s.opt.AIBudget
	if dl, ok := ctx.Deadline(); ok {
		// Leave room to store the move and answer before the caller's deadline.
		budget = min(budget, time.Until(dl)*2/3)
	}
	if err := s.slots.Acquire(ctx); err != nil {
		return nil, nil, err
	}
	col, err := s.opt.AI(ctx, rec.Game, rec.AILevel, budget)
	s.slots.Release()
	if err != nil {
		return nil, nil, fmt.Errorf("choose move: %w", err)
	}
	// The human's write recorded the request's nonce; this second write
	// of the same request must not be taken for its replay.
	ctx = match.WithNonce(ctx, "")
	at := rec.Game.Moves()
	var text speech
	next, err := s.store.Update(ctx, cmd.Key, rec.ID, func(r *match.Record) (match.Tally, error) {
		if r.ID != rec.ID || r.Status != match.StatusPlaying {
			return match.Tally{}, userErr(ProblemStale)
		}
		cur := r.Game
		if cur.Moves() != at {
			return match.Tally{}, userErr(ProblemStale)
		}
		if err := cur.Play(cur.Turn(), col); err != nil {
			return match.Tally{}, fmt.Errorf("AI move %d: %w", col, err)
		}
		text = moveText(r.Opponent, col)
		var tally match.Tally
		if cur.State().Over() {
			var end speech
			tally, end = settle(r, match.FinishNone, false)
			text = text.line(end)
		}
		return tally, nil
	})
	if err != nil {
		return nil, nil, err
	}
	s.moved(cmd)
	if next.Status == match.StatusFinished {
		s.finished(cmd, next.Finish)
	}
	return next, text, nil
}
