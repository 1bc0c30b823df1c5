package bot

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/connect4/connect4/bot/lang"
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
// ephemeral walk through the game with the solver's verdict on each move,
// in the language of the person asking (an analysis is only ever shown to
// them). The analysis is kept on the record, so asking again costs no solve.
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
	from, slip := 0, -1
	if rec.Puzzle != nil {
		from, slip = rec.Puzzle.Start, puzzleSlip(rec.Puzzle, history)
	}
	return Reply{Visibility: Ephemeral, Text: analysisFrom(s.userLang(cmd), *a, g, red, yellow, from, slip),
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

// AnalysisText writes a for people, in l: whether it is exact, the turning
// point, each player's mistakes and only moves, and a compact line per
// move, within MaxAnalysisText bytes. g is the game a judges, red and
// yellow its players (named as <@id> mentions).
func AnalysisText(l lang.Lang, a solver.Analysis, g *engine.Game, red, yellow match.Player) string {
	return analysisFrom(l, a, g, red, yellow, 0, -1)
}

// puzzleSlip returns the index in history of the solver's move that left
// the puzzle pz without a forced win in the moves allowed, or -1 when no
// move did (solved, given up, or still on). The solver may still see a
// win after it: the puzzle is failed on its move limit, which is why the
// analysis of the game alone calls it no mistake.
func puzzleSlip(pz *match.Puzzle, history []int) int {
	for i := pz.Start; i < len(history); i += 2 {
		solved, failed := solver.PuzzleStatus(pz.Start, pz.WinIn, history[:i+1])
		switch {
		case solved:
			return -1
		case failed:
			return i
		}
	}
	return -1
}

// analysisFrom is AnalysisText for a game whose first from moves nobody
// here played (a puzzle's position): no turning point, mistake or only
// move is put on a player before move from+1. slip is the index of the
// move that failed the puzzle (see puzzleSlip), or -1: it is said, and
// counted as its player's mistake.
func analysisFrom(l lang.Lang, a solver.Analysis, g *engine.Game, red, yellow match.Player, from, slip int) string {
	who := func(i int) match.Player {
		if i%2 == 0 {
			return red
		}
		return yellow
	}
	var b strings.Builder
	n := len(a.Moves)
	line := func(id string, args lang.Args) {
		b.WriteString(l.Say(id, args))
		b.WriteByte('\n')
	}
	header := lang.Args{"Red": mention(red), "Yellow": mention(yellow), "Moves": l.Say("unit.moves", lang.Args{"Count": n})}
	if a.Exact {
		line("analysis.header.exact", header)
	} else {
		header["Board"] = sizeText(l, g.Config())
		line("analysis.header.heuristic", header)
	}
	switch {
	case a.Proven < n && !a.Exact:
		line("analysis.proven.some", lang.Args{"Proven": a.Proven, "Count": n})
	case a.Proven == 0:
		line("analysis.proven.nothing", nil)
	case a.Proven == n-1: // not "moves 7–7"
		for i, m := range a.Moves {
			if m.Verdict == solver.VerdictUnknown {
				line("analysis.proven.move", lang.Args{"Move": i + 1})
			}
		}
	case a.Proven < n:
		line("analysis.proven.moves", lang.Args{"Moves": unprovenRanges(a.Moves)})
	}
	if t := a.Turning; t >= from {
		b.WriteString(turningText(l, t+1, who(t), a.Moves[t]))
		b.WriteByte('\n')
	} else if a.Turning < 0 && a.Proven == n {
		if a.Exact {
			line("analysis.noChange", nil)
		} else {
			line("analysis.noMistakeProven", nil)
		}
	}
	if slip >= from && slip < n {
		line("analysis.puzzle.slipped", lang.Args{"Move": slip + 1, "Player": mention(who(slip)), "Column": a.Moves[slip].Column + 1})
	}
	for side := range 2 {
		var mistakes, only []string
		unchecked := false // a move that kept the outcome, not looked at for Only
		for i := side; i < n; i += 2 {
			if i < from {
				continue
			}
			switch m := a.Moves[i]; {
			case m.Verdict.Mistake() || i == slip:
				mistakes = append(mistakes, strconv.Itoa(i+1))
			case m.Only:
				only = append(only, strconv.Itoa(i+1))
			case i < a.OnlyFrom && (m.Verdict == solver.KeptWin || m.Verdict == solver.KeptDraw):
				unchecked = true
			}
		}
		none := "analysis.noOnlyMove"
		if unchecked {
			none = "analysis.noOnlyMoveFound"
		}
		line("analysis.side", lang.Args{"Player": mention(who(side)),
			"Mistakes": listed(l, "analysis.noMistake", "analysis.mistakes", mistakes),
			"Only":     listed(l, none, "analysis.onlyMoves", only)})
	}
	line("analysis.legend", nil)
	head := b.String()
	var moves strings.Builder
	for i, m := range a.Moves {
		if i > 0 {
			moves.WriteByte(' ')
		}
		fmt.Fprintf(&moves, "%d.%d%s", i+1, m.Column+1, verdictMark(m))
	}
	text := head + moves.String()
	if len(text) > MaxAnalysisText {
		text = head + cut(moves.String(), MaxAnalysisText-len(head)-1) + "…"
	}
	return text
}

// unprovenRanges lists the numbers of the moves without a verdict as
// ranges, "4–9" or "4–5, 7–9".
func unprovenRanges(moves []solver.MoveVerdict) string {
	var b strings.Builder
	for i := 0; i < len(moves); i++ {
		if moves[i].Verdict != solver.VerdictUnknown {
			continue
		}
		j := i
		for j+1 < len(moves) && moves[j+1].Verdict == solver.VerdictUnknown {
			j++
		}
		if b.Len() > 0 {
			b.WriteString(", ")
		}
		b.WriteString(strconv.Itoa(i + 1))
		if j > i {
			b.WriteString("–")
			b.WriteString(strconv.Itoa(j + 1))
		}
		i = j
	}
	return b.String()
}

// listed says in l how many moves there are of a kind and which: the
// message none for no move, else the plural message some with the moves'
// numbers.
func listed(l lang.Lang, none, some string, moves []string) string {
	if len(moves) == 0 {
		return l.Say(none, nil)
	}
	return l.Say(some, lang.Args{"Count": len(moves), "Moves": strings.Join(moves, ", ")})
}

// turningText is the turning point's line in l: move number move, by p,
// what it did and what another column would have kept.
func turningText(l lang.Lang, move int, p match.Player, m solver.MoveVerdict) string {
	what := "analysis.verdict.changed"
	switch m.Verdict {
	case solver.ThrewWin:
		what = "analysis.verdict.threwWin"
	case solver.DrawToLoss:
		what = "analysis.verdict.drawToLoss"
	case solver.MissedWin:
		what = "analysis.verdict.missedWin"
	case solver.IntoLoss:
		what = "analysis.verdict.intoLoss"
	}
	args := lang.Args{"Move": move, "Player": mention(p), "Column": m.Column + 1, "What": l.Say(what, nil)}
	if m.Best < 0 {
		return l.Say("analysis.turning.plain", args)
	}
	best := lang.Args{"Column": m.Best + 1}
	switch {
	case m.BestIn > 0:
		best["Moves"] = l.Say("unit.moves", lang.Args{"Count": m.BestIn})
		args["Instead"] = l.Say("analysis.instead.wonIn", best)
	case m.Verdict == solver.ThrewWin || m.Verdict == solver.MissedWin:
		args["Instead"] = l.Say("analysis.instead.won", best)
	case m.Verdict == solver.DrawToLoss:
		args["Instead"] = l.Say("analysis.instead.drew", best)
	default:
		args["Instead"] = l.Say("analysis.instead.notLost", best)
	}
	return l.Say("analysis.turning.instead", args)
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
// text as the chat's Analysis, in l, with the players named red and yellow,
// or an error for a bad board, a move the game refuses, or too many players.
func AnalyzeMoves(ctx context.Context, l lang.Lang, cfg engine.Config, moves string, budget time.Duration) (string, error) {
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
	return PlainMentions(AnalysisText(l, a, g, red, yellow), red, yellow), nil
}
