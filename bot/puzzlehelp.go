package bot

import (
	"context"
	"errors"
	"strings"

	"github.com/connect4/connect4/bot/lang"
	"github.com/connect4/connect4/bot/match"
	"github.com/connect4/connect4/engine"
	"github.com/connect4/connect4/engine/solver"
)

// Help with a puzzle under way: a hint names the family of columns the
// winning move is in (the centre, next to it, halfway out, the edges),
// never the column; giving up ends the puzzle and shows its solution.

// PuzzleAsk is what a puzzle command asks for. The zero value starts a
// new puzzle.
type PuzzleAsk uint8

const (
	PuzzleNew    PuzzleAsk = iota // a new puzzle (of Request.Level)
	PuzzleHint                    // a hint for the puzzle under way
	PuzzleGiveUp                  // the solution of the puzzle under way, which ends it
)

// parsePuzzle reads what follows "puzzle": a level, "hint", or "give up"
// (also "giveup", "solution").
func parsePuzzle(words []string) (Request, bool, error) {
	switch strings.ToLower(strings.Join(words, " ")) {
	case "hint":
		return Request{Kind: KindPuzzle, PuzzleAsk: PuzzleHint}, true, nil
	case "give up", "giveup", "give-up", "solution":
		return Request{Kind: KindPuzzle, PuzzleAsk: PuzzleGiveUp}, true, nil
	}
	return parseLevelled(KindPuzzle, words)
}

// puzzle runs a puzzle command.
func (s *Service) puzzle(ctx context.Context, cmd Command) (Reply, error) {
	switch cmd.PuzzleAsk {
	case PuzzleHint:
		return s.puzzleHint(ctx, cmd)
	case PuzzleGiveUp:
		return s.puzzleGiveUp(ctx, cmd)
	}
	return s.startPuzzle(ctx, cmd)
}

// ownPuzzle returns the puzzle cmd's user is solving in the channel, or
// ProblemNoPuzzle.
func (s *Service) ownPuzzle(ctx context.Context, cmd Command) (*match.Record, error) {
	r, err := s.store.PlayerGame(ctx, cmd.Key, cmd.User.ID)
	if errors.Is(err, match.ErrNoGame) || err == nil && (r.Puzzle == nil || r.Status != match.StatusPlaying) {
		return nil, userErr(ProblemNoPuzzle)
	}
	return r, err
}

// puzzleHint tells the one solving a puzzle, alone, which family of
// columns the winning move is in.
func (s *Service) puzzleHint(ctx context.Context, cmd Command) (Reply, error) {
	r, err := s.ownPuzzle(ctx, cmd)
	if err != nil {
		return Reply{}, err
	}
	g := r.Game
	if g.Turn() != r.ColorOf(cmd.User.ID) {
		return Reply{}, userErr(ProblemNotYourTurn, lang.Args{"Player": "<@" + r.PlayerOf(g.Turn()).ID + ">"})
	}
	c, ok := winningColumn(r.Puzzle, g)
	if !ok {
		return Reply{}, userErr(ProblemNoPuzzle)
	}
	l := s.userLang(cmd)
	return Reply{Visibility: Ephemeral, Text: l.Say(hintIDs[family(c, g.Config().Cols)], nil), Lang: l}, nil
}

// hintIDs are the hints by column family.
var hintIDs = [...]string{"puzzle.hint.centre", "puzzle.hint.nextToCentre", "puzzle.hint.halfway", "puzzle.hint.edge"}

// family is how far column c (0-based) of a board of cols columns is from
// the centre: 0 the centre, 1 next to it, 2 halfway out, 3 an edge (a 7 ×
// 6 board's columns 4; 3 and 5; 2 and 6; 1 and 7).
func family(c, cols int) int {
	d := 2*c - (cols - 1) // twice the distance from the centre, signed
	if d < 0 {
		d = -d
	}
	return min((d+1)/2, 3)
}

// winningColumn returns a column that keeps the puzzle's forced win: the
// solution's next move while the game has followed it, else the first
// column the solver finds that still wins in the moves left.
func winningColumn(pz *match.Puzzle, g *engine.Game) (int, bool) {
	h := g.History()
	if n := len(h) - pz.Start; n >= 0 && n < len(pz.Solution) && followed(pz, h) {
		return pz.Solution[n], true
	}
	for c := range g.Config().Cols {
		if !g.CanPlay(c) {
			continue
		}
		if _, failed := solver.PuzzleStatus(pz.Start, pz.WinIn, append(h[:len(h):len(h)], c)); !failed {
			return c, true
		}
	}
	return 0, false
}

// followed reports whether the moves after the puzzle's start are the
// solution's so far.
func followed(pz *match.Puzzle, h []int) bool {
	for i, c := range h[pz.Start:] {
		if i >= len(pz.Solution) || pz.Solution[i] != c {
			return false
		}
	}
	return true
}

// puzzleGiveUp ends the puzzle cmd's user is solving, shown in the
// channel with its solution.
func (s *Service) puzzleGiveUp(ctx context.Context, cmd Command) (Reply, error) {
	r, err := s.ownPuzzle(ctx, cmd)
	if err != nil {
		return Reply{}, err
	}
	var pz *match.Puzzle
	rec, err := s.store.Update(ctx, cmd.Key, r.ID, func(r *match.Record) (match.Tally, error) {
		if r.Puzzle == nil || r.Status != match.StatusPlaying || r.Game.State().Over() {
			return match.Tally{}, userErr(ProblemNoPuzzle)
		}
		me := r.ColorOf(cmd.User.ID)
		if me == engine.NoPlayer {
			return match.Tally{}, userErr(ProblemNoPuzzle)
		}
		if err := r.Game.Resign(me); err != nil {
			return match.Tally{}, err
		}
		pz = r.Puzzle
		tally, _ := settle(r, match.FinishResign, true)
		return tally, nil
	})
	if err != nil {
		return Reply{}, noGame(cmd, err)
	}
	s.finished(cmd, rec.Finish)
	l := s.channelLang(ctx, cmd, rec)
	text := l.Say("puzzle.gaveUp", lang.Args{"Player": "<@" + cmd.User.ID + ">", "Solution": solutionText(l, pz)})
	return gameView(l, rec, Public, text), nil
}
