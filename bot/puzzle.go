package bot

import (
	"context"
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"

	"github.com/connect4/connect4/bot/lang"
	"github.com/connect4/connect4/bot/match"

	"github.com/connect4/connect4/engine"
	"github.com/connect4/connect4/engine/solver"
)

// startPuzzle posts a puzzle of cmd.Level (medium by default): a position
// of 7 × 6 where the caller, to move, has a forced win in a few moves, to
// be played against the AI defending perfectly. The puzzle is shown in the
// channel, in its language.
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
	pick := rand.IntN
	if s.opt.PickPuzzle != nil {
		pick = s.opt.PickPuzzle
	}
	pz := set[pick(len(set))]
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
	red, intro := cmd.User.ID, "puzzle.intro.red"
	if g.Turn() == engine.Yellow {
		red, intro = ai.ID, "puzzle.intro.yellow"
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
	l := s.channelLang(ctx, cmd, rec)
	text := l.Say(intro, lang.Args{"Level": levelText(l, level), "Player": "<@" + cmd.User.ID + ">",
		"Moves": l.Say("unit.moves", lang.Args{"Count": pz.WinIn})})
	return gameView(l, rec, Public, text), nil
}

// levelText is a puzzle's level in l.
func levelText(l lang.Lang, level solver.Level) string {
	switch level {
	case solver.Easy:
		return l.Say("puzzle.level.easy", nil)
	case solver.Hard:
		return l.Say("puzzle.level.hard", nil)
	}
	return l.Say("puzzle.level.medium", nil)
}

// puzzleCheck judges the move just played in r, a puzzle, by the player
// solving it: when it keeps no forced win within the moves they have left,
// the puzzle is failed and they resign it. It returns the text to add, in
// l (""
// while the puzzle goes on) and the round's tally.
func puzzleCheck(l lang.Lang, r *match.Record, me engine.Player) (string, match.Tally, error) {
	pz, g := r.Puzzle, r.Game
	solved, failed := solver.PuzzleStatus(pz.Start, pz.WinIn, g.History())
	switch {
	case solved:
		return l.Say("puzzle.solved", lang.Args{"Solution": solutionText(l, pz)}), match.Tally{}, nil
	case !failed:
		return "", match.Tally{}, nil
	}
	if g.State().Over() {
		return l.Say("puzzle.failed", lang.Args{"Solution": solutionText(l, pz)}), match.Tally{}, nil
	}
	if err := g.Resign(me); err != nil {
		return "", match.Tally{}, err
	}
	tally, _ := settle(r, match.FinishResign, true)
	return l.Say("puzzle.slipped", lang.Args{"Solution": solutionText(l, pz)}), tally, nil
}

// solutionText is a puzzle's solution in l, the defender's replies in
// brackets.
func solutionText(l lang.Lang, pz *match.Puzzle) string {
	parts := make([]string, len(pz.Solution))
	for i, c := range pz.Solution {
		parts[i] = strconv.Itoa(c + 1)
		if i%2 == 1 {
			parts[i] = "(" + parts[i] + ")"
		}
	}
	return l.Say("puzzle.solution", lang.Args{"Moves": strings.Join(parts, " ")})
}
