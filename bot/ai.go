package bot

import (
	"context"
	"fmt"
	"time"

	"github.com/connect4/connect4/bot/match"

	"github.com/connect4/connect4/engine"
	"github.com/connect4/connect4/engine/solver"
)

// solverMove is the default MoveFunc: the engine/solver levels.
func solverMove(ctx context.Context, g *engine.Game, level solver.Level, budget time.Duration) (int, error) {
	cfg := g.Config()
	return solver.ChooseMove(ctx, cfg.Rows, cfg.Cols, cfg.Connect, g.History(), level, nil, budget)
}

// afterHuman finishes a reply after a human's action on rec (round g): in an
// AI game where it is now the AI's turn, the AI moves first, so that its
// answer lands in the same message update.
func (s *Service) afterHuman(ctx context.Context, cmd Command, rec *match.Record, vis Visibility, text string) (Reply, error) {
	g := rec.Game
	if rec.AILevel == solver.LevelNone || rec.Status != match.StatusPlaying || g.State().Over() ||
		rec.PlayerOf(g.Turn()).ID != rec.Opponent.ID {
		return gameView(rec, vis, text), nil
	}
	next, aiText, err := s.aiTurn(ctx, cmd, rec)
	if err != nil {
		// The human's move stands; the AI answers on the next click or board.
		s.log.Error("AI move failed", "channel", cmd.Key.String(), "err", err)
		return gameView(rec, vis, text+"\nI couldn't think of a move just now; click again or use `/connect4 board` to wake me."), nil
	}
	return gameView(next, vis, text+"\n"+aiText), nil
}

// aiTurn computes and stores the AI's move in rec's current round.
func (s *Service) aiTurn(ctx context.Context, cmd Command, rec *match.Record) (*match.Record, string, error) {
	budget := s.opt.AIBudget
	if dl, ok := ctx.Deadline(); ok {
		// Leave room to store the move and answer before the caller's deadline.
		budget = min(budget, time.Until(dl)*2/3)
	}
	col, err := s.opt.AI(ctx, rec.Game, rec.AILevel, budget)
	if err != nil {
		return nil, "", fmt.Errorf("choose move: %w", err)
	}
	at := rec.Game.Moves()
	var text string
	next, err := s.store.Update(ctx, cmd.Key, func(r *match.Record) (match.Tally, error) {
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
			var end string
			tally, end = settle(r, match.FinishNone)
			text += "\n" + end
		}
		return tally, nil
	})
	if err != nil {
		return nil, "", err
	}
	s.moved(cmd)
	if next.Status == match.StatusFinished {
		s.finished(cmd, next.Finish)
	}
	return next, text, nil
}
