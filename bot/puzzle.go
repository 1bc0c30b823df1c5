package bot

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"

	"github.com/connect4/connect4/bot/match"

	"github.com/connect4/connect4/engine"
	"github.com/connect4/connect4/engine/solver"
)

// startPuzzle posts a puzzle of cmd.Level (medium by default): a position
// of 7 × 6 where the caller, to move, has a forced win in a few moves, to
// be played against the AI defending perfectly.
func (s *Service) startPuzzle(ctx context.Context, cmd Command) (Reply, error) {
	level := cmd.Level
	if level == solver.LevelNone {
		level = solver.Medium
	}
	set, err := solver.Puzzles(level)
	if err != nil {
		return Reply{}, fmt.Errorf("puzzles: %w", err)
	}
	if len(set) == 0 {
		return Reply{}, fmt.Errorf("puzzles: none of level %v", level)
	}
	pz := set[rand.IntN(len(set))]
	g, err := engine.New(engine.DefaultConfig())
	if err != nil {
		return Reply{}, err
	}
	for _, c := range pz.Moves {
		if err := g.Play(g.Turn(), c); err != nil {
			return Reply{}, fmt.Errorf("puzzle position: %w", err)
		}
	}
	ai := aiPlayer(cmd.Self, solver.Hard)
	if ai.ID == cmd.User.ID {
		return Reply{}, userErr(ProblemSelfChallenge)
	}
	red, color := cmd.User.ID, "red"
	if g.Turn() == engine.Yellow {
		red, color = ai.ID, "yellow"
	}
	rec := &match.Record{
		Key: cmd.Key, Status: match.StatusPlaying,
		Challenger: cmd.User, Opponent: ai, RedID: red,
		Game: g, FirstTo: 1, AILevel: solver.Hard, Message: cmd.Message,
		Puzzle: &match.Puzzle{Level: level, Start: len(pz.Moves), WinIn: pz.WinIn, Solution: pz.Solution},
	}
	if err := s.store.Create(ctx, rec); err != nil {
		return Reply{}, busy(cmd, err)
	}
	s.started(cmd, true)
	text := fmt.Sprintf("*Puzzle* (%s) for <@%s>: you're %s and it's your move. Win in %s against my perfect defence.",
		level, cmd.User.ID, color, countText(pz.WinIn, "move"))
	return gameView(s.channelLang(ctx, cmd, rec), rec, Public, text), nil
}

// puzzleCheck judges the move just played in r, a puzzle, by the player
// solving it: when it keeps no forced win within the moves they have left,
// the puzzle is failed and they resign it. It returns the text to add (""
// while the puzzle goes on) and the round's tally.
func puzzleCheck(r *match.Record, me engine.Player) (string, match.Tally, error) {
	pz, g := r.Puzzle, r.Game
	solved, failed := solver.PuzzleStatus(pz.Start, pz.WinIn, g.History())
	switch {
	case solved:
		return "Puzzle solved! " + solutionText(pz), match.Tally{}, nil
	case !failed:
		return "", match.Tally{}, nil
	}
	if g.State().Over() {
		return "Puzzle failed. " + solutionText(pz), match.Tally{}, nil
	}
	if err := g.Resign(me); err != nil {
		return "", match.Tally{}, err
	}
	tally, _ := settle(r, match.FinishResign, true)
	return "That move lets the win slip: there's no forced win in the moves you have left. Puzzle failed. " +
		solutionText(pz), tally, nil
}

// solutionText is a puzzle's solution, the defender's replies in brackets.
func solutionText(pz *match.Puzzle) string {
	parts := make([]string, len(pz.Solution))
	for i, c := range pz.Solution {
		parts[i] = strconv.Itoa(c + 1)
		if i%2 == 1 {
			parts[i] = "(" + parts[i] + ")"
		}
	}
	return "Solution: " + strings.Join(parts, " ") + "."
}
