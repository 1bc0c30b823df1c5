package bot

import (
	"context"
	"errors"
	"fmt"
	"sync/atomic"
	"time"

	"github.com/connect4/connect4/bot/match"

	"github.com/connect4/connect4/engine/solver"
)

// errAIBusy means every AI search slot stayed taken for as long as a move
// may wait for one.
var errAIBusy = errors.New("bot: all AI search slots busy")

// aiSlots bounds the AI searches running at once: a search takes a core and
// up to 14 MiB, so without a bound a burst of AI games would take the memory
// and the CPU that human moves need. Moves beyond the bound wait for a slot
// in a short queue, and give up after a while or when the queue is full.
type aiSlots struct {
	run     chan struct{} // a token per running search
	waiting atomic.Int64
	maxWait int64         // most moves queued for a slot
	wait    time.Duration // longest a move waits for a slot
	running atomic.Int64  // searches running now, for tests and metrics
}

func newAISlots(n int, wait time.Duration) *aiSlots {
	return &aiSlots{run: make(chan struct{}, n), maxWait: int64(4 * n), wait: wait}
}

// acquire takes a slot, waiting at most s.wait; it returns errAIBusy when
// none came free in time or the queue is full, or ctx's error.
func (s *aiSlots) acquire(ctx context.Context) error {
	select {
	case s.run <- struct{}{}:
		s.running.Add(1)
		return nil
	default:
	}
	if s.waiting.Add(1) > s.maxWait {
		s.waiting.Add(-1)
		return errAIBusy
	}
	defer s.waiting.Add(-1)
	t := time.NewTimer(s.wait)
	defer t.Stop()
	select {
	case s.run <- struct{}{}:
		s.running.Add(1)
		return nil
	case <-t.C:
		return errAIBusy
	case <-ctx.Done():
		return ctx.Err()
	}
}

func (s *aiSlots) release() {
	s.running.Add(-1)
	<-s.run
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
		// The human's move stands; the AI answers on the next board.
		switch {
		case errors.Is(err, errAIBusy):
			s.log.Warn("AI busy", "channel", cmd.Key.String())
			return gameView(rec, vis, text+"\nI'm thinking about many games at once: try again in a moment with `/connect4 board`."), nil
		case ctx.Err() != nil:
			// The caller gave up (shutdown, or the platform's deadline): not a fault.
			s.log.Info("AI move abandoned", "channel", cmd.Key.String(), "err", err)
		default:
			s.log.Error("AI move failed", "channel", cmd.Key.String(), "err", err)
		}
		return gameView(rec, vis, text+"\nI couldn't think of a move just now; use `/connect4 board` to wake me."), nil
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
	if err := s.slots.acquire(ctx); err != nil {
		return nil, "", err
	}
	col, err := s.opt.AI(ctx, rec.Game, rec.AILevel, budget)
	s.slots.release()
	if err != nil {
		return nil, "", fmt.Errorf("choose move: %w", err)
	}
	// The human's write recorded the request's nonce; this second write
	// of the same request must not be taken for its replay.
	ctx = match.WithNonce(ctx, "")
	at := rec.Game.Moves()
	var text string
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
			var end string
			tally, end = settle(r, match.FinishNone, false)
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
