package solver

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/connect4/connect4/engine"
)

// Verdict is what one move did to its player's prospects, as far as the
// solver could prove. The zero value, VerdictUnknown, means nothing was
// proven about the move within the time allowed.
type Verdict uint8

// The verdicts, append-only.
const (
	VerdictUnknown Verdict = iota
	KeptWin                // the position was won for the mover and still is
	KeptDraw               // the position was a draw with best play and still is
	ThrewWin               // the position was won for the mover; after the move it is not
	DrawToLoss             // the position was a draw; after the move the mover loses
	StillLost              // the position was already lost for the mover, whatever they played
	// The two below are only given on boards where the solver is not exact:
	// they rest on forced wins found within the search's horizon.
	MissedWin // a forced win was proven and the move played is not proven to keep it
	IntoLoss  // the move played allows a proven forced loss that another move was not proven to allow
)

var verdictText = [...]string{
	VerdictUnknown: "not proven",
	KeptWin:        "kept the win",
	KeptDraw:       "kept the draw",
	ThrewWin:       "threw away a win",
	DrawToLoss:     "turned a draw into a loss",
	StillLost:      "already lost",
	MissedWin:      "missed a forced win",
	IntoLoss:       "walked into a forced loss",
}

// String returns the verdict in a few lower-case words ("kept the win").
func (v Verdict) String() string {
	if int(v) >= len(verdictText) {
		return fmt.Sprintf("verdict(%d)", uint8(v))
	}
	return verdictText[v]
}

// Mistake reports whether v made the mover's outcome worse.
func (v Verdict) Mistake() bool {
	return v == ThrewWin || v == DrawToLoss || v == MissedWin || v == IntoLoss
}

// MoveVerdict is the analysis of one move of a game.
type MoveVerdict struct {
	Column  int     // 0-based column played
	Verdict Verdict // what the move did
	// Only is set when the move played was the only column that kept the
	// position's outcome (a win or a draw) for the mover.
	Only bool
	// Best is a column that kept the best outcome there was, -1 when
	// unknown; BestIn is, when that outcome is a proven win, the number
	// of the mover's own moves (that one included) to their connect with
	// best play on both sides, 0 otherwise. Only the turning point has
	// BestIn on the standard board, where it is exact; elsewhere it is the
	// shortest win found.
	Best, BestIn int
}

// Analysis is the solver's verdict on each move of a game.
type Analysis struct {
	// Exact says the verdicts are exact: the standard 7 × 6 board with a
	// line of four, where the solver plays perfectly. Elsewhere they rest
	// on forced wins and losses found within a search horizon, and a move
	// with no proof gets VerdictUnknown.
	Exact bool
	Moves []MoveVerdict
	// Turning is the index in Moves of the turning point: the last move
	// that made its player's outcome worse, the one after which the game's
	// outcome with best play was the one it came to (or -1 when no move
	// was proven a mistake).
	Turning int
	// Proven is the number of moves with a verdict other than
	// VerdictUnknown. The moves left unproven are in the opening, whose
	// positions take the longest to solve, but not always its first ones:
	// the outcome table and the book hold those, and are looked up when
	// the time for searches has run out.
	Proven int
	// OnlyFrom is the index in Moves of the earliest move whose Only was
	// looked at, latest first: from it on, a move that kept the outcome
	// and is not marked Only had another column that kept it too; before
	// it the time ran out first, and such a move may have been the only
	// one. It is 0 when every move was looked at.
	OnlyFrom int
}

// Analyze walks the moves of g, a two-player game that may be over (won,
// drawn or resigned) or not, and gives each move a verdict. It works for at
// most budget (and stops earlier when ctx is done), from the last move
// backwards: late positions are solved fastest and fill the table that the
// earlier ones then use; on the standard board the outcome table and the
// opening book spare it the opening. Moves it had no time for are
// VerdictUnknown. Only and Best come after the verdicts, as time allows,
// and only from proofs: a move not marked Only may still have been the
// only one.
//
// It returns an *Error with ReasonNoGame for a nil g, and with
// ReasonBadSize for a game of more than two players, which the solver does
// not know how to judge. It is safe for concurrent use on distinct games; it
// allocates its own tables (about 33 MiB on the standard board).
func Analyze(ctx context.Context, g *engine.Game, budget time.Duration) (Analysis, error) {
	if g == nil {
		return Analysis{}, &Error{Reason: ReasonNoGame}
	}
	cfg := g.Config()
	if cfg.NumPlayers() != 2 {
		return Analysis{}, &Error{Reason: ReasonBadSize, Detail: fmt.Sprintf("%d players: analysis is for two", cfg.NumPlayers())}
	}
	start := time.Now()
	deadline := start.Add(budget)
	if d, ok := ctx.Deadline(); ok && d.Before(deadline) {
		deadline = d
	}
	// The verdicts get most of the time; the rest is for the labels (a
	// column that kept what a mistake threw away, the only moves) and for
	// the length of the win the turning point threw away.
	verdictsBy := start.Add(deadline.Sub(start) * 4 / 5)
	labelsBy := start.Add(deadline.Sub(start) * 9 / 10)
	history := g.History()
	a := Analysis{Exact: standard(cfg), Moves: make([]MoveVerdict, len(history)), Turning: -1}
	for i, c := range history {
		a.Moves[i] = MoveVerdict{Column: c, Best: -1}
	}
	var sv *Solver
	if a.Exact {
		sv = NewSolver()
		sv.useKnown(embeddedOutcomes(), embeddedBook())
		analyzeExact(&a, sv, embeddedOutcomes(), embeddedBook(), Position{}, history, verdictsBy, labelsBy, ctx.Done())
	} else {
		analyzeSearch(&a, cfg, history, deadline, ctx.Done())
	}
	a.derive()
	if a.Turning >= 0 && a.Exact {
		// How long the win lasted that the turning move threw away.
		t := &a.Moves[a.Turning]
		if before := positionOf(history[:a.Turning]); t.Best >= 0 && t.Verdict == ThrewWin {
			sv.limited, sv.deadline, sv.done, sv.aborted = true, deadline, ctx.Done(), false
			if col, v, ok := sv.bestMove(before, false); ok && col >= 0 && v > 0 {
				t.Best, t.BestIn = col, winIn(before.moves, v)
			}
		}
	}
	return a, nil
}

// standard reports whether cfg is the board the exact solver knows.
func standard(cfg engine.Config) bool {
	return cfg.Rows == Height && cfg.Cols == Width && cfg.Connect == 4 && cfg.NumPlayers() == 2
}

// positionOf returns the position after history, which the engine checked.
func positionOf(history []int) Position {
	var p Position
	for _, c := range history {
		p.Play(c)
	}
	return p
}

// winIn returns the number of the mover's own moves to their connect in a
// position with moves discs and a winning value v (as Solve gives it).
func winIn(moves, v int) int { return (cells+1-moves)/2 - v + 1 }

// unknown marks an outcome not proven; the others are 1 win, 0 draw, -1
// loss for the player to move.
const unknown = 2

// knownOutcome returns the outcome of p for the player to move from the
// outcome table or the opening book, without searching; ok is false when
// neither holds p.
func knownOutcome(table *Outcomes, book *Book, p Position) (int, bool) {
	if o, ok := table.Lookup(p); ok {
		return o, true
	}
	if _, v, ok := book.Lookup(p); ok {
		return max(-1, min(1, v)), true
	}
	return 0, false
}

// analyzeExact fills a.Moves with exact verdicts on the moves history
// played from root (the empty board for a game). It first proves the
// outcome of each position along the game, from the last to the first, in
// one solver whose table the later positions fill for the earlier ones,
// until verdictsBy: a move's verdict needs only the outcomes before and
// after it. Then, until labelsBy, it looks at the other columns: for each
// mistake, a column that kept the outcome (Best), latest first; then for
// each move that kept the outcome, whether it was the only one (Only, set
// only when every other column is proven worse).
func analyzeExact(a *Analysis, sv *Solver, table *Outcomes, book *Book, root Position, history []int, verdictsBy, labelsBy time.Time, done <-chan struct{}) {
	defer func() { sv.limited, sv.done = false, nil }()
	n := len(history)
	line := make([]Position, n+1)
	line[0] = root
	for i, c := range history {
		line[i+1] = line[i]
		line[i+1].Play(c)
	}
	// outcome[i] is the outcome of line[i] for the player to move.
	outcome := make([]int, n+1)
	for i := range outcome {
		outcome[i] = unknown
	}
	// keeper[i] is a column of line[i], other than the one played, that
	// keeps outcome[i] by a proof found without a search of its own, or -1.
	keeper := make([]int, n+1)
	sv.limited, sv.deadline, sv.done, sv.aborted = true, verdictsBy, done, false
	search := true
	for i := n; i >= 0; i-- {
		// Out of time, the earlier positions are only looked up: the
		// outcome table and the book hold the first ones.
		search = search && !stopped(verdictsBy, done)
		keeper[i] = -1
		if o, ok := lineOutcome(sv, table, book, line, history, outcome, i, search); ok {
			outcome[i] = o
		} else {
			search = false
		}
		// The search that proved a position won or drawn has left in the
		// table the column that does it: read now, before the searches of
		// the earlier positions overwrite it. While every search so far has
		// run to its end, what the table holds depends on the game alone,
		// not on the clock, and so does the column read from it.
		if search && i < n && outcome[i] >= 0 {
			keeper[i] = provenKeeper(sv, table, book, line[i], history[i], outcome[i], true)
		}
	}
	for i, c := range history {
		connects := line[i].IsWinningMove(c)
		if outcome[i] == unknown || !connects && outcome[i+1] == unknown {
			continue
		}
		before, after := outcome[i], 1 // a connect wins
		if !connects {
			after = -outcome[i+1]
		}
		m := MoveVerdict{Column: c, Best: -1}
		switch {
		case before == 1 && after == 1:
			m.Verdict, m.Best = KeptWin, c
		case before == 1:
			m.Verdict = ThrewWin
		case before == 0 && after == 0:
			m.Verdict, m.Best = KeptDraw, c
		case before == 0:
			m.Verdict = DrawToLoss
		default:
			m.Verdict = StillLost
		}
		a.Moves[i] = m
	}

	// The labels: first a column that kept what each mistake threw away,
	// then the only moves.
	a.OnlyFrom = n
	sv.deadline, sv.aborted = labelsBy, false
	for i := n - 1; i >= 0; i-- {
		if m := &a.Moves[i]; m.Verdict.Mistake() {
			// The column shown must be the same on every run: the table
			// is not read again, for after a search cut short what it
			// holds depends on the clock.
			col := keeper[i]
			if col < 0 {
				var ok bool
				if col, ok = keepingColumn(sv, table, book, line[i], m.Column, outcome[i], false); !ok {
					return
				}
			}
			m.Best = col
		}
	}
	for i := n - 1; i >= 0; i-- {
		// A connect is obvious enough, and an unproven move has no label.
		// Whether the move was the only one is a fact, not a choice: any
		// proof that another column kept the outcome will do, whenever the
		// table got it.
		if m := &a.Moves[i]; (m.Verdict == KeptWin || m.Verdict == KeptDraw) && !line[i].IsWinningMove(m.Column) && keeper[i] < 0 {
			col, ok := keepingColumn(sv, table, book, line[i], m.Column, outcome[i], true)
			if !ok {
				return
			}
			m.Only = col < 0
		}
		a.OnlyFrom = i
	}
}

// keepingColumn returns a column of p other than played that gives the
// player to move at least want (1 a win, 0 a draw), or -1 when every other
// column is proven worse; ok is false when the deadline came first. It
// takes the first that provenKeeper finds, else the first, centre first,
// that a search proves. With useTable false it reads nothing from the
// solver's table, whose entries may depend on the clock: the column then
// depends on p alone.
func keepingColumn(sv *Solver, table *Outcomes, book *Book, p Position, played, want int, useTable bool) (col int, ok bool) {
	if c := provenKeeper(sv, table, book, p, played, want, useTable); c >= 0 {
		return c, true
	}
	for _, c := range centreFirst {
		if c == played || !p.CanPlay(c) {
			continue
		}
		keeps, ok := keepsOutcome(sv, table, book, p, c, want)
		if !ok {
			return -1, false
		}
		if keeps {
			return c, true
		}
	}
	return -1, true
}

// provenKeeper returns a column of p other than played that gives the
// player to move at least want (1 a win, 0 a draw) by a proof had without
// a search, or -1: a connect, else (with useTable) the column stored with
// a lower bound on p's value in the solver's table, else a column whose
// position the outcome table or the book holds, or (with useTable) one
// whose upper bound in the table is low enough, centre first. A lower
// bound is stored only by the search of the column stored with it, an
// upper bound only when every column of its position was searched, and a
// table slot's index and tag identify its key exactly: each is a proof
// about that position.
func provenKeeper(sv *Solver, table *Outcomes, book *Book, p Position, played, want int, useTable bool) int {
	for _, c := range centreFirst {
		if c != played && p.CanPlay(c) && p.IsWinningMove(c) {
			return c
		}
	}
	if useTable {
		if v, lower, m, ok := sv.tableFor(p.moves).get(p.Key()); ok && lower && m > 0 && m-1 != played && v >= want {
			return m - 1
		}
	}
	for _, c := range centreFirst {
		if c == played || !p.CanPlay(c) {
			continue
		}
		q := p
		q.Play(c)
		if q.CanWinNext() {
			continue
		}
		if o, ok := knownOutcome(table, book, q); ok {
			if -o >= want {
				return c
			}
			continue
		}
		if v, lower, _, ok := sv.tableFor(q.moves).get(q.Key()); useTable && ok && !lower && -v >= want {
			return c
		}
	}
	return -1
}

// lineOutcome returns the outcome of line[i] for the player to move, given
// those of the later positions (outcome, where known); ok is false when the
// deadline came first, or search is false and it would take a search. A
// position whose next move connects, or leads to a position lost for the
// opponent, is won without a search; one the outcome table or the book
// holds is looked up; otherwise the solver proves it, knowing that it is at
// least the negative of the next position's and of the previous one's (when
// the table or the book holds that): a position after one lost for its
// mover is won without a search.
func lineOutcome(sv *Solver, table *Outcomes, book *Book, line []Position, history, outcome []int, i int, search bool) (int, bool) {
	p := line[i]
	n := len(history)
	switch {
	case i < n && p.IsWinningMove(history[i]):
		return 1, true
	case i < n && outcome[i+1] == -1:
		return 1, true
	case p.lastMoverWon():
		return -1, true
	case p.moves == cells:
		return 0, true
	}
	if o, ok := knownOutcome(table, book, p); ok {
		return o, true
	}
	lo := -1
	if i < n && outcome[i+1] != unknown {
		lo = -outcome[i+1] // the move played gets at least that
	}
	if i > 0 {
		// Every move of the position before gets its player at most that
		// position's outcome, so this one's is at least the negative of it:
		// the table or the book often holds the position before.
		if o, ok := knownOutcome(table, book, line[i-1]); ok {
			lo = max(lo, -o)
		}
	}
	if lo == 1 {
		return 1, true
	}
	if !search {
		return unknown, false
	}
	v, ok := sv.solveWithin(p, lo, 1)
	if !ok {
		return unknown, false
	}
	return max(-1, min(1, v)), true
}

// keepsOutcome reports whether playing col in p gives the player to move
// at least want (1 a win, 0 a draw), from the table or the book or by one
// null-window search; ok is false when the deadline came first.
func keepsOutcome(sv *Solver, table *Outcomes, book *Book, p Position, col, want int) (keeps, ok bool) {
	if p.IsWinningMove(col) {
		return true, true
	}
	q := p
	q.Play(col)
	if q.CanWinNext() {
		return false, true // the opponent connects: negamax must not be asked
	}
	if o, ok := knownOutcome(table, book, q); ok {
		return -o >= want, true
	}
	// The opponent's value must be at most -want.
	r := sv.negamax(q, -want, -want+1)
	if sv.aborted {
		return false, false
	}
	return r <= -want, true
}

// searchDepth is the deepest horizon, in plies, of the analysis on boards
// other than the standard one.
const searchDepth = 12

// analyzeSearch fills a.Moves on a board the exact solver does not know,
// from the forced wins and losses a depth-limited search proves: each move's
// position gets an equal share of what is left of the time.
func analyzeSearch(a *Analysis, cfg engine.Config, history []int, deadline time.Time, done <-chan struct{}) {
	for i := len(history) - 1; i >= 0; i-- {
		left := time.Until(deadline)
		if left <= 0 || stopped(deadline, done) {
			return
		}
		b, err := replay(cfg, history[:i])
		if err != nil {
			return // the engine checked the moves; nothing to judge otherwise
		}
		s := newSearcher(b, time.Now().Add(left/time.Duration(i+1)), done)
		var scores []int
		for d := 1; d <= min(searchDepth, b.rows*b.cols-b.moves); d++ {
			sc, ok := s.rootScores(d)
			if !ok {
				break
			}
			scores = sc
			if allProven(b, sc) {
				break
			}
		}
		if scores == nil {
			continue
		}
		a.Moves[i] = searchVerdict(b, scores, history[i])
	}
}

// allProven reports whether every playable column's score is a proven win or loss.
func allProven(b *board, scores []int) bool {
	for c := range b.cols {
		if b.canPlay(c) && !isProven(scores[c]) {
			return false
		}
	}
	return true
}

// searchVerdict judges playing col from the heuristic search's scores.
func searchVerdict(b *board, scores []int, col int) MoveVerdict {
	m := MoveVerdict{Column: col, Best: -1}
	bestCol, anyOpen := -1, false
	for c := range b.cols {
		if !b.canPlay(c) {
			continue
		}
		if bestCol < 0 || scores[c] > scores[bestCol] {
			bestCol = c
		}
		if scores[c] >= -winScore/2 {
			anyOpen = true // not a proven loss
		}
	}
	win := func(v int) bool { return v > winScore/2 }
	loss := func(v int) bool { return v < -winScore/2 }
	got := scores[col]
	switch {
	case win(scores[bestCol]) && win(got):
		m.Verdict = KeptWin
	case win(scores[bestCol]):
		m.Verdict = MissedWin
		// winScore - discs at the connect: the mover's discs from now, this one included.
		m.Best, m.BestIn = bestCol, (winScore-scores[bestCol]-b.moves+1)/2
	case loss(got) && anyOpen:
		m.Verdict = IntoLoss
		m.Best = bestCol
	case loss(got):
		m.Verdict = StillLost
	}
	if m.Verdict == KeptWin {
		wins := 0
		for c := range b.cols {
			if b.canPlay(c) && win(scores[c]) {
				wins++
			}
		}
		m.Only = wins == 1
	}
	return m
}

// The versions of the text form of an Analysis; a reader refuses any
// other. analysisVersion has no OnlyFrom (it is 0); analysisVersionOnly
// ends with it. An analysis whose only moves were all looked at is written
// in the first, which replicas that know no other still read.
const (
	analysisVersion     = "a1"
	analysisVersionOnly = "a2"
)

// MarshalText encodes a compactly, for storing beside its game: the version,
// "e" or "h" (exact or horizon), then per move its column, verdict and only
// flag, and its best column and win length when known, then OnlyFrom when
// it is not 0. Turning and Proven are derived again by UnmarshalText. It
// never fails.
func (a Analysis) MarshalText() ([]byte, error) {
	b := []byte(analysisVersion)
	if a.OnlyFrom != 0 {
		b = []byte(analysisVersionOnly)
	}
	if a.Exact {
		b = append(b, ";e;"...)
	} else {
		b = append(b, ";h;"...)
	}
	for i, m := range a.Moves {
		if i > 0 {
			b = append(b, ',')
		}
		b = strconv.AppendInt(b, int64(m.Column), 10)
		b = append(b, '.')
		b = strconv.AppendInt(b, int64(m.Verdict), 10)
		if m.Only {
			b = append(b, '!')
		}
		if m.Best >= 0 {
			b = append(b, '@')
			b = strconv.AppendInt(b, int64(m.Best), 10)
			if m.BestIn > 0 {
				b = append(b, ':')
				b = strconv.AppendInt(b, int64(m.BestIn), 10)
			}
		}
	}
	if a.OnlyFrom != 0 {
		b = append(b, ';')
		b = strconv.AppendInt(b, int64(a.OnlyFrom), 10)
	}
	return b, nil
}

// UnmarshalText decodes what MarshalText wrote. It returns an error, and
// leaves a unchanged, for anything else: another version, a column or best
// column outside 0-9, an unknown verdict, more moves than a 10 × 10 board
// holds, an OnlyFrom outside the moves.
func (a *Analysis) UnmarshalText(text []byte) error {
	bad := func(what string) error { return fmt.Errorf("solver: bad analysis: %s", what) }
	parts := strings.Split(string(text), ";")
	onlyFrom := ""
	if len(parts) == 4 && parts[0] == analysisVersionOnly {
		onlyFrom, parts = parts[3], parts[:3]
	} else if len(parts) != 3 || parts[0] != analysisVersion {
		return bad("header")
	}
	if parts[1] != "e" && parts[1] != "h" {
		return bad("header")
	}
	out := Analysis{Exact: parts[1] == "e", Turning: -1}
	if parts[2] != "" {
		moves := strings.Split(parts[2], ",")
		if len(moves) > engine.MaxSize*engine.MaxSize {
			return bad("too many moves")
		}
		for _, tok := range moves {
			var m MoveVerdict
			m.Best = -1
			col, rest, ok := strings.Cut(tok, ".")
			verdict, best, hasBest := strings.Cut(rest, "@")
			only := strings.HasSuffix(verdict, "!")
			verdict = strings.TrimSuffix(verdict, "!")
			c, err1 := strconv.Atoi(col)
			v, err2 := strconv.Atoi(verdict)
			if !ok || err1 != nil || err2 != nil || c < 0 || c >= engine.MaxSize || v < 0 || v >= len(verdictText) {
				return bad(fmt.Sprintf("move %q", tok))
			}
			m.Column, m.Verdict, m.Only = c, Verdict(v), only
			if hasBest {
				bc, in, hasIn := strings.Cut(best, ":")
				n, err := strconv.Atoi(bc)
				if err != nil || n < 0 || n >= engine.MaxSize {
					return bad(fmt.Sprintf("best column in %q", tok))
				}
				m.Best = n
				if hasIn {
					k, err := strconv.Atoi(in)
					if err != nil || k < 1 || k > engine.MaxSize*engine.MaxSize {
						return bad(fmt.Sprintf("win length in %q", tok))
					}
					m.BestIn = k
				}
			}
			out.Moves = append(out.Moves, m)
		}
	}
	if onlyFrom != "" {
		k, err := strconv.Atoi(onlyFrom)
		if err != nil || k < 1 || k > len(out.Moves) {
			return bad(fmt.Sprintf("only moves looked at from %q", onlyFrom))
		}
		out.OnlyFrom = k
	}
	out.derive()
	*a = out
	return nil
}

// derive sets Turning and Proven from Moves.
func (a *Analysis) derive() {
	a.Turning, a.Proven = -1, 0
	for i, m := range a.Moves {
		if m.Verdict != VerdictUnknown {
			a.Proven++
		}
		if m.Verdict.Mistake() {
			a.Turning = i
		}
	}
}

// Columns returns the columns of the moves a judges, for checking that it
// is the analysis of a given game.
func (a Analysis) Columns() []int {
	cols := make([]int, len(a.Moves))
	for i, m := range a.Moves {
		cols[i] = m.Column
	}
	return cols
}
