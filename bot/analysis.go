package bot

import (
	"context"
	"errors"
	"fmt"
	"github.com/connect4/connect4/bot/lang"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/connect4/connect4/bot/match"
	"github.com/connect4/connect4/bot/slots"

	"github.com/connect4/connect4/engine"
	"github.com/connect4/connect4/engine/solver"
)

// MaxAnalysisText is the longest analysis reply: within Discord's 2000
// characters of message content and Slack's 3000 of a section's text, with
// room for what the adapters add around it.
const MaxAnalysisText = 1900

// analysisMargin is the time an analysis leaves before the caller's
// deadline to store its result and answer.
const analysisMargin = 700 * time.Millisecond

// errNoTime means the caller's deadline leaves no time to analyse.
var errNoTime = errors.New("bot: no time left to analyse")

// analyzable reports whether the solver can judge g: a game of two players.
func analyzable(g *engine.Game) bool { return g.Config().NumPlayers() == 2 }

// analyze answers /connect4 analyze (the caller's last finished game in the
// channel) and the Analysis button (the game it was drawn for): an
// ephemeral walk through the game with the solver's verdict on each move.
// The analysis is kept on the record, so asking again costs no solve.
func (s *Service) analyze(ctx context.Context, cmd Command) (Reply, error) {
	var (
		rec *match.Record
		err error
	)
	if cmd.FromButton() {
		rec, err = s.store.Load(ctx, cmd.Key, cmd.GameID)
		if errors.Is(err, match.ErrNoGame) {
			return Reply{}, userErr(ProblemStale)
		}
	} else {
		rec, err = s.store.LastFinished(ctx, cmd.Key, cmd.User.ID)
		if errors.Is(err, match.ErrNoGame) {
			return Reply{}, userErr(ProblemNothingToAnalyze)
		}
	}
	if err != nil {
		return Reply{}, err
	}
	g := rec.Game
	switch {
	case cmd.FromButton() && cmd.Move != g.Moves():
		return Reply{}, userErr(ProblemStale)
	case rec.Status != match.StatusFinished:
		return Reply{}, userErr(ProblemNotOverYet)
	case !analyzable(g) || g.Moves() == 0:
		return Reply{}, userErr(ProblemNothingToAnalyze)
	}
	history := g.History()
	a := rec.Analysis
	if a == nil || !slices.Equal(a.Columns(), history) {
		fresh, err := s.runAnalysis(ctx, g)
		if errors.Is(err, slots.ErrBusy) || errors.Is(err, errNoTime) {
			return Reply{}, userErr(ProblemAnalysisBusy)
		}
		if err != nil {
			return Reply{}, err
		}
		a = &fresh
		// Keep it for the next ask; a failure to keep it costs only that.
		_, err = s.store.Update(match.WithNonce(ctx, ""), cmd.Key, rec.ID, func(r *match.Record) (match.Tally, error) {
			if r.Status != match.StatusFinished || !slices.Equal(r.Game.History(), history) {
				return match.Tally{}, match.ErrNoChange
			}
			r.Analysis = a
			return match.Tally{}, nil
		})
		if err != nil {
			s.log.Warn("analysis not kept", "channel", cmd.Key.String(), "err", err)
		}
	}
	red, yellow := rec.Colors()
	return Reply{Visibility: Ephemeral, Text: AnalysisText(*a, g, red, yellow),
		People: []match.Player{red, yellow}}, nil
}

// runAnalysis runs the solver on g within the service's analysis budget and
// the caller's deadline, in one of the AI's search slots (an analysis takes a
// core, like a search).
func (s *Service) runAnalysis(ctx context.Context, g *engine.Game) (solver.Analysis, error) {
	budget := s.opt.AnalysisBudget
	if dl, ok := ctx.Deadline(); ok {
		budget = min(budget, time.Until(dl)-analysisMargin)
	}
	if budget <= 0 {
		return solver.Analysis{}, errNoTime
	}
	if err := s.slots.Acquire(ctx); err != nil {
		return solver.Analysis{}, err
	}
	defer s.slots.Release()
	return s.opt.Analyze(ctx, g, budget)
}

// AnalysisText writes a for people: whether it is exact, the turning point,
// each player's mistakes and only moves, and a compact line per move, within
// MaxAnalysisText characters. g is the game a judges, red and yellow its
// players (named as <@id> mentions).
func AnalysisText(a solver.Analysis, g *engine.Game, red, yellow match.Player) string {
	who := func(i int) match.Player {
		if i%2 == 0 {
			return red
		}
		return yellow
	}
	var b strings.Builder
	n := len(a.Moves)
	fmt.Fprintf(&b, "*Analysis* of %s (red) vs %s (yellow), %d moves", mention(red), mention(yellow), n)
	if cfg := g.Config(); a.Exact {
		b.WriteString(": exact, by the solver that plays 7 × 6 perfectly.\n")
	} else {
		fmt.Fprintf(&b, " on a board of %s.\nThe solver is exact only on 7 columns × 6 rows with a line of 4: here it can only prove the forced wins and losses it finds within a few moves, and says nothing of the rest.\n", sizeText(lang.English, cfg))
	}
	switch {
	case a.Proven < n && !a.Exact:
		fmt.Fprintf(&b, "%d of the %d moves have a proof; the others are marked ?.\n", a.Proven, n)
	case a.Proven < n:
		first := n - a.Proven // the unproven moves are the earliest ones
		if a.Proven == 0 {
			b.WriteString("Nothing could be proven in the time there was.\n")
		} else {
			fmt.Fprintf(&b, "Moves 1–%d were not proven in the time there was (the opening is the longest to solve); moves %d–%d were.\n", first, first+1, n)
		}
	}
	if t := a.Turning; t >= 0 {
		m := a.Moves[t]
		fmt.Fprintf(&b, "*Turning point:* move %d, %s's column %d %s", t+1, mention(who(t)), m.Column+1, turningText(m))
		b.WriteString("\n")
	} else if a.Proven == n {
		if a.Exact {
			b.WriteString("No move changed the outcome: both sides played it as well as it could be played.\n")
		} else {
			b.WriteString("No mistake was proven.\n")
		}
	}
	for side := range 2 {
		var mistakes, only []string
		for i := side; i < n; i += 2 {
			switch m := a.Moves[i]; {
			case m.Verdict.Mistake():
				mistakes = append(mistakes, strconv.Itoa(i+1))
			case m.Only:
				only = append(only, strconv.Itoa(i+1))
			}
		}
		fmt.Fprintf(&b, "%s: %s", mention(who(side)), countText(len(mistakes), "mistake"))
		if len(mistakes) > 0 {
			fmt.Fprintf(&b, " (move %s)", strings.Join(mistakes, ", "))
		}
		fmt.Fprintf(&b, ", %s", countText(len(only), "only move"))
		if len(only) > 0 {
			fmt.Fprintf(&b, " found (move %s)", strings.Join(only, ", "))
		}
		b.WriteString(".\n")
	}
	b.WriteString("Move by move (column, then ✓ kept the outcome, ! the only move that did, ✗ a mistake, · lost anyway, ? not proven):\n")
	head := b.String()
	var line strings.Builder
	for i, m := range a.Moves {
		if i > 0 {
			line.WriteByte(' ')
		}
		fmt.Fprintf(&line, "%d.%d%s", i+1, m.Column+1, verdictMark(m))
	}
	text := head + line.String()
	if len(text) > MaxAnalysisText {
		text = head + cut(line.String(), MaxAnalysisText-len(head)-1) + "…"
	}
	return text
}

// turningText says what the turning move did and what was there instead.
func turningText(m solver.MoveVerdict) string {
	var s string
	switch m.Verdict {
	case solver.ThrewWin:
		s = "threw away the win"
	case solver.DrawToLoss:
		s = "lost the game: it had been a draw"
	case solver.MissedWin:
		s = "missed a forced win"
	case solver.IntoLoss:
		s = "walked into a forced loss"
	default:
		s = m.Verdict.String()
	}
	if m.Best < 0 {
		return s + "."
	}
	switch {
	case m.BestIn > 0:
		return fmt.Sprintf("%s; column %d still won in %s.", s, m.Best+1, countText(m.BestIn, "move"))
	case m.Verdict == solver.ThrewWin || m.Verdict == solver.MissedWin:
		return fmt.Sprintf("%s; column %d still won.", s, m.Best+1)
	case m.Verdict == solver.DrawToLoss:
		return fmt.Sprintf("%s; column %d still drew.", s, m.Best+1)
	}
	return fmt.Sprintf("%s; column %d was not proven lost.", s, m.Best+1)
}

// verdictMark is a move's mark in the move-by-move line.
func verdictMark(m solver.MoveVerdict) string {
	switch {
	case m.Verdict.Mistake():
		return "✗"
	case m.Only:
		return "!"
	case m.Verdict == solver.KeptWin || m.Verdict == solver.KeptDraw:
		return "✓"
	case m.Verdict == solver.StillLost:
		return "·"
	}
	return "?"
}

// countText is "1 move", "3 moves", "no move".
func countText(n int, what string) string {
	switch n {
	case 0:
		return "no " + what
	case 1:
		return "1 " + what
	}
	if what == "move" {
		return lang.English.Say("unit.moves", lang.Args{"Count": n})
	}
	return strconv.Itoa(n) + " " + what + "s"
}

// cut returns the longest prefix of s of at most n bytes that ends at a space
// (or is whole runes).
func cut(s string, n int) string {
	if n <= 0 {
		return ""
	}
	if len(s) <= n {
		return s
	}
	if i := strings.LastIndexByte(s[:n], ' '); i > 0 {
		return s[:i]
	}
	return strings.ToValidUTF8(s[:n], "")
}

// AnalyzeMoves analyses the game of moves on a board of cfg, for the
// terminal: moves are 1-based columns, as digits ("4453") when the board has
// at most 9 columns, or separated by commas or spaces. It returns the same
// text as the chat's Analysis, with the players named red and yellow, or an
// error for a bad board, a move the game refuses, or too many players.
func AnalyzeMoves(ctx context.Context, cfg engine.Config, moves string, budget time.Duration) (string, error) {
	g, err := engine.New(cfg)
	if err != nil {
		return "", err
	}
	if !analyzable(g) {
		return "", fmt.Errorf("analyze: %d players: the solver judges games of two", cfg.NumPlayers())
	}
	var cols []string
	if strings.ContainsAny(moves, ", ") || cfg.Cols > 9 {
		cols = strings.FieldsFunc(moves, func(r rune) bool { return r == ',' || r == ' ' })
	} else {
		cols = strings.Split(moves, "")
	}
	for i, c := range cols {
		n, err := strconv.Atoi(c)
		if err != nil || n < 1 || n > cfg.Cols {
			return "", fmt.Errorf("analyze: move %d: %q is not a column 1-%d", i+1, c, cfg.Cols)
		}
		if err := g.Play(g.Turn(), n-1); err != nil {
			return "", fmt.Errorf("analyze: move %d: %w", i+1, err)
		}
	}
	if g.Moves() == 0 {
		return "", errors.New("analyze: no moves to analyse")
	}
	a, err := solver.Analyze(ctx, g, budget)
	if err != nil {
		return "", err
	}
	red, yellow := match.Player{ID: "red"}, match.Player{ID: "yellow"}
	return PlainMentions(AnalysisText(a, g, red, yellow), red, yellow), nil
}
