package bot

import (
	"context"
	"fmt"
	"time"

	"github.com/connect4/connect4/engine"
	"github.com/connect4/connect4/engine/solver"
	"github.com/connect4/connect4/sessions"
)

// solverMove is the default MoveFunc: the engine/solver levels. It makes a
// solver.AI per move, so hard keeps no tables between moves; a Service that
// owns one *solver.AI would.
func solverMove(ctx context.Context, cfg engine.Config, history []int, level string, budget time.Duration) (int, error) {
	l, err := solver.ParseLevel(level)
	if err != nil {
		return 0, err
	}
	g, err := engine.New(cfg)
	if err != nil {
		return 0, err
	}
	for i, col := range history {
		if err := g.Play(g.Turn(), col); err != nil {
			return 0, fmt.Errorf("replay move %d: %w", i+1, err)
		}
	}
	return solver.NewAI().ChooseMove(ctx, g, l, nil, budget)
}

// validLevel reports whether level names an AI level.
func validLevel(level string) bool {
	switch level {
	case "easy", "medium", "hard":
		return true
	}
	return false
}

// afterHuman finishes a reply after a human's action on rec (round g): in an
// AI game where it is now the AI's turn, the AI moves first, so that its
// answer lands in the same message update.
func (s *Service) afterHuman(ctx context.Context, cmd Command, rec *sessions.Record, g *engine.Game, vis Visibility, text string) (Reply, error) {
	if rec.AILevel == "" || rec.Status != sessions.StatusPlaying || g.State().Over() ||
		playerOf(rec, g.Turn()).ID != rec.Opponent.ID {
		return gameView(rec, g, vis, text), nil
	}
	next, ng, aiText, err := s.aiTurn(ctx, cmd, rec, g)
	if err != nil {
		// The human's move stands; the AI answers on the next click or board.
		s.log.Error("AI move failed", "channel", cmd.Key.String(), "err", err)
		return gameView(rec, g, vis, text+"\nI couldn't think of a move just now; click again or use `/connect4 board` to wake me."), nil
	}
	return gameView(next, ng, vis, text+"\n"+aiText), nil
}

// aiTurn computes and stores the AI's move in rec's round g.
func (s *Service) aiTurn(ctx context.Context, cmd Command, rec *sessions.Record, g *engine.Game) (*sessions.Record, *engine.Game, string, error) {
	budget := s.opt.AIBudget
	if dl, ok := ctx.Deadline(); ok {
		// Leave room to store the move and answer before the caller's deadline.
		budget = min(budget, time.Until(dl)*2/3)
	}
	col, err := s.opt.AI(ctx, g.Config(), g.History(), rec.AILevel, budget)
	if err != nil {
		return nil, nil, "", fmt.Errorf("choose move: %w", err)
	}
	at := g.Moves()
	var text string
	next, err := s.store.Update(ctx, cmd.Key, func(r *sessions.Record) (sessions.Tally, error) {
		if r.ID != rec.ID || r.Status != sessions.StatusPlaying {
			return sessions.Tally{}, userErr(ProblemStale)
		}
		cur, err := r.DecodeGame()
		if err != nil {
			return sessions.Tally{}, err
		}
		if cur.Moves() != at {
			return sessions.Tally{}, userErr(ProblemStale)
		}
		if err := cur.Play(cur.Turn(), col); err != nil {
			return sessions.Tally{}, fmt.Errorf("AI move %d: %w", col, err)
		}
		text = moveText(r.Opponent, col)
		var tally sessions.Tally
		if cur.State().Over() {
			var end string
			tally, end = settle(r, cur, sessions.FinishNone)
			text += "\n" + end
		}
		r.Game = encode(cur)
		return tally, nil
	})
	if err != nil {
		return nil, nil, "", err
	}
	s.moved(cmd)
	if next.Status == sessions.StatusFinished {
		s.finished(cmd, next.Finish)
	}
	ng, err := next.DecodeGame()
	if err != nil {
		return nil, nil, "", err
	}
	return next, ng, text, nil
}
