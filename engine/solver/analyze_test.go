package solver

import (
	"context"
	"errors"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/connect4/connect4/engine"
)

// sign returns -1, 0 or 1.
func sign(v int) int { return max(-1, min(1, v)) }

// referenceOutcome returns the outcome for the player to move of playing col
// in p, by an exact Solve (not the weak one the analysis uses): the reference
// the analysis is checked against.
func referenceOutcome(s *Solver, p Position, col int) int {
	if p.IsWinningMove(col) {
		return 1
	}
	q := p
	q.Play(col)
	return -sign(s.Solve(q))
}

// TestAnalyzeAgreesWithSolve plays the public test sets' positions as games
// and checks every verdict against exact solves of each position and of
// each of its columns, and the last move's against the score the set gives.
func TestAnalyzeAgreesWithSolve(t *testing.T) {
	t.Parallel() // its analyses spend their budget on the opening: it waits for the clock
	var cases []testCase
	for _, set := range []string{"Test_L3_R1", "Test_L2_R1"} {
		cases = append(cases, spread(loadSet(t, set), samples(3, 1, 1))...)
	}
	ref := NewSolver()
	for _, tc := range cases {
		history := make([]int, len(tc.moves))
		for i := range tc.moves {
			history[i] = int(tc.moves[i] - '1')
		}
		g := newGame(t, engine.DefaultConfig(), history)
		// The opening would take minutes: the budget proves the later
		// moves, and every proven verdict is checked. Half a second proves
		// plenty of them; a second at full size and under the race detector.
		budget := 500 * time.Millisecond
		if fullSamples || raceEnabled {
			budget = time.Second
		}
		// A busy machine (CI beside other work) may prove nothing in the
		// budget: the budget doubles until something is proven, for this
		// test checks verdicts, not speed.
		var a Analysis
		for {
			var err error
			a, err = Analyze(t.Context(), g, budget)
			if err != nil {
				t.Fatalf("line %d: Analyze: %v", tc.line, err)
			}
			if a.Proven > 0 || budget >= 16*time.Second {
				break
			}
			budget *= 2
		}
		if !a.Exact || a.Proven == 0 {
			t.Fatalf("line %d: Exact %v, Proven %d of %d", tc.line, a.Exact, a.Proven, len(history))
		}
		// The last mover's outcome is the negative of the set's score.
		last := a.Moves[len(history)-1]
		if after := -sign(tc.score); !verdictAllows(last.Verdict, after) {
			t.Errorf("line %d: last move %v, but the set's score %d leaves its player %+d", tc.line, last.Verdict, tc.score, after)
		}
		// Moves played into positions of fewer discs are proven from the
		// outcome table and the book, which TestEmbeddedOutcomes,
		// TestSolveWithKnown and the book's tests hold to the solver: an
		// exact solve of each of their columns here takes minutes.
		// From OnlyFrom on the labels were all looked at: Only and Best
		// are exact there.
		for i := checkedFrom; i < len(history); i++ {
			if a.Moves[i].Verdict == VerdictUnknown {
				continue // TestAnalyzeOutOfTime checks which moves are proven first
			}
			checkMove(t, ref, tc.line, positionOf(history[:i]), i, a.Moves[i], i >= a.OnlyFrom)
		}
	}
}

// checkedFrom is the fewest discs of a position whose columns
// TestAnalyzeAgreesWithSolve solves to check the move played there.
const checkedFrom = 10

// checkMove checks m, the analysis of move i played in p, against exact
// solves of each column of p: its verdict, its Best column (for a mistake
// when set, and always with labelled) and its Only flag (when set, and when
// labelled also when not set).
func checkMove(t *testing.T, ref *Solver, line int, p Position, i int, m MoveVerdict, labelled bool) {
	t.Helper()
	best, keep := -2, 0
	var out [Width]int
	for c := range Width {
		if !p.CanPlay(c) {
			continue
		}
		out[c] = referenceOutcome(ref, p, c)
		best = max(best, out[c])
	}
	for c := range Width {
		if p.CanPlay(c) && out[c] == best {
			keep++
		}
	}
	got := out[m.Column]
	var want Verdict
	switch {
	case best == 1 && got == 1:
		want = KeptWin
	case best == 1:
		want = ThrewWin
	case best == 0 && got == 0:
		want = KeptDraw
	case best == 0:
		want = DrawToLoss
	default:
		want = StillLost
	}
	if m.Verdict != want || !verdictAllows(m.Verdict, got) {
		t.Errorf("line %d move %d (column %d): %v, want %v (best outcome %+d, played %+d)",
			line, i+1, m.Column+1, m.Verdict, want, best, got)
	}
	wantOnly := best >= 0 && got == best && keep == 1 && !p.IsWinningMove(m.Column)
	if m.Only && !wantOnly || labelled && m.Only != wantOnly {
		t.Errorf("line %d move %d: Only = %v, want %v", line, i+1, m.Only, wantOnly)
	}
	if m.Best >= 0 && out[m.Best] != best {
		t.Errorf("line %d move %d: Best column %d has outcome %+d, not the best %+d", line, i+1, m.Best+1, out[m.Best], best)
	}
	if labelled && m.Best < 0 && m.Verdict != StillLost {
		t.Errorf("line %d move %d: no Best column", line, i+1)
	}
}

// TestAnalyzeLabels analyses, without a deadline, the moves medium and easy
// players continue test-set positions with, and checks every verdict,
// every Only flag and every Best column against exact solves.
func TestAnalyzeLabels(t *testing.T) {
	ref := NewSolver()
	mistakes, only := 0, 0
	for i, tc := range spread(loadSet(t, "Test_L2_R1"), samples(4, 2, 2)) {
		root, err := ParsePosition(tc.moves)
		if err != nil {
			t.Fatal(err)
		}
		history := continuedBy(t, tc.moves, uint64(i), Medium, Easy).History()[len(tc.moves):]
		a := Analysis{Exact: true, Moves: make([]MoveVerdict, len(history))}
		for j, c := range history {
			a.Moves[j] = MoveVerdict{Column: c, Best: -1}
		}
		later := time.Now().Add(time.Hour)
		analyzeExact(&a, NewSolver(), nil, nil, root, history, later, later, nil)
		if a.OnlyFrom != 0 {
			t.Errorf("line %d: only moves looked at from move %d, want all with time to spare", tc.line, a.OnlyFrom+1)
		}
		p := root
		for j, c := range history {
			checkMove(t, ref, tc.line, p, len(tc.moves)+j, a.Moves[j], true)
			if a.Moves[j].Verdict.Mistake() {
				mistakes++
			}
			if a.Moves[j].Only {
				only++
			}
			p.Play(c)
		}
	}
	if mistakes == 0 || only == 0 {
		t.Errorf("%d mistakes, %d only moves: the test checks too little", mistakes, only)
	}
}

// TestProvenKeeper follows the analysis through typical games, from the
// last position back: the searches of the verdicts and of the labels fill
// the solver's table, and every column that provenKeeper then names, with
// the table or without it, must keep what it was asked for by an exact
// solve of its own in another solver.
func TestProvenKeeper(t *testing.T) {
	t.Parallel() // CPU-bound and shares nothing: runs beside the tests that wait
	table, book := embeddedOutcomes(), embeddedBook()
	ref := NewSolver()
	named, fromTable := 0, 0
	for gi, g := range typicalGames(t, samples(16, 10, 3)) {
		history := g.History()
		sv := NewSolver()
		sv.useKnown(table, book)
		check := func(p Position) {
			t.Helper()
			var out [Width]int // the reference outcome of each column, +2 when not solved yet
			for c := range out {
				out[c] = 2
			}
			for want := range 2 {
				for played := range Width {
					if !p.CanPlay(played) {
						continue
					}
					withTable := provenKeeper(sv, table, book, p, played, want, true)
					plain := provenKeeper(sv, table, book, p, played, want, false)
					if withTable != plain {
						fromTable++
					}
					for _, c := range []int{withTable, plain} {
						if c < 0 {
							continue
						}
						named++
						if out[c] == 2 && p.CanPlay(c) {
							out[c] = referenceOutcome(ref, p, c)
						}
						if c == played || !p.CanPlay(c) || out[c] < want {
							t.Errorf("game %d, %d discs, played %d, want %+d: column %d named, outcome %+d", gi, p.moves, played, want, c, out[c])
						}
					}
				}
			}
		}
		for i := len(history) - 1; i >= checkedFrom; i-- {
			p := positionOf(history[:i])
			sv.weakSolve(p) // as the verdicts do
			check(p)
			for c := range Width {
				if p.CanPlay(c) {
					keepsOutcome(sv, table, book, p, c, 0) // as the labels do
				}
			}
			check(p)
		}
	}
	if named == 0 || fromTable == 0 {
		t.Errorf("%d columns named, %d from the table: the test checks too little", named, fromTable)
	}
	t.Logf("%d columns named, %d from the table", named, fromTable)
}

// TestAnalyzeBestStable analyses typical games with budgets that cut the
// searches short at different points, and checks that a mistake labelled
// in two analyses of the same game names the same column in both: the
// column shown must not depend on the time there was.
func TestAnalyzeBestStable(t *testing.T) {
	t.Parallel() // its analyses spend their budget: it waits for the clock
	compared := 0
	for gi, g := range typicalGames(t, samples(12, 6, 2)) {
		var first Analysis
		for k, budget := range []time.Duration{1500 * time.Millisecond, 50 * time.Millisecond, 200 * time.Millisecond} {
			a, err := Analyze(t.Context(), g, budget)
			if err != nil {
				t.Fatal(err)
			}
			if k == 0 {
				first = a
				continue
			}
			for i, m := range a.Moves {
				if f := first.Moves[i]; m.Verdict.Mistake() && f.Verdict == m.Verdict && m.Best >= 0 && f.Best >= 0 && i != a.Turning && i != first.Turning {
					compared++
					if m.Best != f.Best {
						t.Errorf("game %d move %d: column %d at %v, %d at %v", gi, i+1, m.Best, budget, f.Best, 1500*time.Millisecond)
					}
				}
			}
		}
	}
	t.Logf("%d mistakes compared", compared)
}

// verdictAllows reports whether verdict v is possible for a move after
// which its player's outcome is after.
func verdictAllows(v Verdict, after int) bool {
	switch v {
	case KeptWin:
		return after == 1
	case KeptDraw:
		return after == 0
	case ThrewWin:
		return after <= 0
	case DrawToLoss, StillLost:
		return after == -1
	}
	return false
}

// TestAnalyzeTurningPoint continues test-set positions with two medium
// players, who make mistakes, and checks that the turning point is the last
// proven mistake and that the win it threw away lasted as long as Solve says.
func TestAnalyzeTurningPoint(t *testing.T) {
	t.Parallel() // its analyses spend their budget on the opening: it waits for the clock
	found := 0
	for i, tc := range spread(loadSet(t, "Test_L2_R1"), samples(6, 2, 3)) {
		g := continued(t, tc.moves, uint64(i))
		history := g.History()
		// The opening is rarely proven, so an analysis spends its whole
		// budget: a short one finds the turning point of most games, a
		// longer one the rest (and a busy machine's).
		var a Analysis
		for _, budget := range []time.Duration{500 * time.Millisecond, 2 * time.Second} {
			var err error
			if a, err = Analyze(t.Context(), g, budget); err != nil {
				t.Fatal(err)
			}
			if a.Turning >= 0 && a.Moves[a.Turning].Verdict == ThrewWin && a.Moves[a.Turning].BestIn != 0 {
				break
			}
		}
		lastMistake := -1
		for i, m := range a.Moves {
			if m.Verdict.Mistake() {
				lastMistake = i
			}
		}
		if a.Turning != lastMistake {
			t.Errorf("line %d: Turning = %d, want the last mistake %d", tc.line, a.Turning, lastMistake)
		}
		if a.Turning < 0 || a.Moves[a.Turning].Verdict != ThrewWin || a.Moves[a.Turning].BestIn == 0 {
			continue
		}
		found++
		m := a.Moves[a.Turning]
		p := positionOf(history[:a.Turning])
		ref := NewSolver()
		if v := ref.Solve(p); v <= 0 || m.BestIn != winIn(p.Moves(), v) {
			t.Errorf("line %d: turning point %+v: value %d, want BestIn %d", tc.line, m, v, winIn(p.Moves(), v))
		}
		if got := referenceOutcome(ref, p, m.Best); got != 1 {
			t.Errorf("line %d: turning point's Best column %d has outcome %+d, want a win", tc.line, m.Best+1, got)
		}
	}
	if found == 0 {
		t.Error("no game with a thrown-away win: the test checks nothing")
	}
}

// continued returns the game of moves (a test-set position) played on to
// its end by two medium players seeded with seed.
func continued(tb testing.TB, moves string, seed uint64) *engine.Game {
	tb.Helper()
	return continuedBy(tb, moves, seed, Medium, Medium)
}

// continuedBy returns the game of moves played on to its end by the levels
// first and second (the first and the second player), seeded with seed.
func continuedBy(tb testing.TB, moves string, seed uint64, first, second Level) *engine.Game {
	tb.Helper()
	history := make([]int, len(moves))
	for i := range moves {
		history[i] = int(moves[i] - '1')
	}
	g := newGame(tb, engine.DefaultConfig(), history)
	rng := rand.New(rand.NewPCG(seed, 99))
	for !g.State().Over() {
		level := first
		if g.Moves()%2 == 1 {
			level = second
		}
		col, err := NewAI().ChooseMove(tb.Context(), g, level, rng, time.Second)
		if err != nil {
			tb.Fatal(err)
		}
		if err := g.Play(g.Turn(), col); err != nil {
			tb.Fatal(err)
		}
	}
	return g
}

// TestAnalyzeOutOfTime checks that a budget too short for the opening
// leaves the opening's moves unknown and proves the latest ones, and that
// the moves whose positions the outcome table holds (the first ones) are
// proven even with no time for a search.
func TestAnalyzeOutOfTime(t *testing.T) {
	g := continued(t, "5554224333234511", 3)
	history := g.History()
	table, book := embeddedOutcomes(), embeddedBook()
	// known reports whether the outcome of the position after the first i
	// moves is had without a search: a connect, a lookup, a move that
	// connects or leaves the opponent lost, a position after one the
	// tables hold lost.
	var known func(i int) (int, bool)
	known = func(i int) (int, bool) {
		p := positionOf(history[:i])
		if p.lastMoverWon() {
			return -1, true
		}
		if o, ok := knownOutcome(table, book, p); ok {
			return o, true
		}
		if i < len(history) && p.IsWinningMove(history[i]) {
			return 1, true
		}
		if o, ok := known(i + 1); ok && o == -1 && i < len(history) {
			return 1, true
		}
		if i > 0 {
			if o, ok := knownOutcome(table, book, positionOf(history[:i-1])); ok && o == -1 {
				return 1, true // every move of a lost position wins for the opponent
			}
		}
		return 0, false
	}
	// searched reports the first move in a proven without a search.
	searched := func(a Analysis, limit int) int {
		for j := range limit {
			if a.Moves[j].Verdict == VerdictUnknown {
				continue
			}
			_, before := known(j)
			_, after := known(j + 1)
			if !before || !after && !positionOf(history[:j]).IsWinningMove(history[j]) {
				return j
			}
		}
		return -1
	}
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	a, err := Analyze(ctx, g, time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	last := len(a.Moves) - 1
	if j := searched(a, len(a.Moves)); j >= 0 {
		t.Errorf("cancelled: move %d proven, but it needs a search", j+1)
	}
	for i := range table.Full() {
		if a.Moves[i].Verdict == VerdictUnknown {
			t.Errorf("cancelled: move %d not proven, but the outcome table holds every position of up to %d discs", i+1, table.Full())
		}
	}
	if a.Proven == len(a.Moves) {
		t.Errorf("cancelled: every move proven, want some left to a search")
	}
	// Half a second proves the last moves on an idle machine; a busy one
	// (CI beside other work) gets more, doubling: this checks the order
	// of the proofs, not the speed.
	for budget := 500 * time.Millisecond; ; budget *= 2 {
		if a, err = Analyze(t.Context(), g, budget); err != nil {
			t.Fatal(err)
		}
		if a.Moves[last-1].Verdict != VerdictUnknown || budget >= 16*time.Second {
			break
		}
	}
	if a.Moves[last-1].Verdict == VerdictUnknown {
		t.Errorf("the move before the last is not proven in 16 s")
	}
	// From the end: before the last move left unproven, a move is proven
	// only without a search.
	u := last
	for u >= 0 && a.Moves[u].Verdict != VerdictUnknown {
		u--
	}
	if j := searched(a, max(u, 0)); j >= 0 {
		t.Errorf("move %d proven by a search before move %d, which is not proven: the analysis must go from the end", j+1, u+1)
	}
}

func TestAnalyzeOtherBoards(t *testing.T) {
	t.Parallel() // its analysis spends its budget: it waits for the clock
	// 8 columns, 7 rows: red builds three in a row on the bottom with
	// yellow stacking on top; red's 4th move connects.
	cfg := engine.Config{Rows: 7, Cols: 8, Connect: 4}
	history := []int{2, 2, 3, 3, 0, 7, 4}
	g := newGame(t, cfg, history)
	// The opening is never proven, so the analysis spends its whole budget:
	// a short one proves the last two moves on a quiet machine, a longer one
	// on a busy one (the race detector, CI).
	var a Analysis
	for _, budget := range []time.Duration{300 * time.Millisecond, 2 * time.Second} {
		var err error
		if a, err = Analyze(t.Context(), g, budget); err != nil {
			t.Fatal(err)
		}
		if a.Moves[5].Verdict != VerdictUnknown && a.Moves[6].Verdict != VerdictUnknown {
			break
		}
	}
	if a.Exact {
		t.Errorf("Exact on %+v", cfg)
	}
	// Yellow's 7 let red connect with 2 or 5 (both open ends): a proven loss
	// that blocking one end, for instance, would not have proven.
	if m := a.Moves[5]; m.Verdict != IntoLoss && m.Verdict != StillLost {
		t.Errorf("move 6 (column 8): %v, want a proven loss", m.Verdict)
	}
	if m := a.Moves[6]; m.Verdict != KeptWin {
		t.Errorf("move 7 (the connect): %v, want %v", m.Verdict, KeptWin)
	}

	multi, err := engine.New(engine.Config{Rows: 6, Cols: 7, Connect: 4, Players: 3})
	if err != nil {
		t.Fatal(err)
	}
	var e *Error
	if _, err := Analyze(t.Context(), multi, time.Second); !errors.As(err, &e) || e.Reason != ReasonBadSize {
		t.Errorf("3 players: err = %v, want ReasonBadSize", err)
	}
	if _, err := Analyze(t.Context(), nil, time.Second); !errors.As(err, &e) || e.Reason != ReasonNoGame {
		t.Errorf("nil game: err = %v, want ReasonNoGame", err)
	}
}

// BenchmarkAnalyzeGame analyses a whole game of 7 × 6 from the first move
// (two medium players), within the budget the chat allows (1.8 s) and
// within 30 s, and reports how many moves were proven: the latest ones
// take milliseconds, the opening's seconds to minutes each.
func BenchmarkAnalyzeGame(b *testing.B) {
	g := continued(b, "", 7)
	for _, budget := range []time.Duration{1800 * time.Millisecond, 30 * time.Second} {
		b.Run(budget.String(), func(b *testing.B) {
			var a Analysis
			for b.Loop() {
				var err error
				if a, err = Analyze(b.Context(), g, budget); err != nil {
					b.Fatal(err)
				}
			}
			b.ReportMetric(float64(g.Moves()), "moves")
			b.ReportMetric(float64(a.Proven), "proven")
		})
	}
}

func TestAnalysisText(t *testing.T) {
	a := Analysis{Exact: true, Moves: []MoveVerdict{
		{Column: 3, Verdict: VerdictUnknown, Best: -1},
		{Column: 2, Verdict: KeptDraw, Only: true, Best: 2},
		{Column: 0, Verdict: ThrewWin, Best: 4, BestIn: 7},
		{Column: 6, Verdict: StillLost, Best: -1},
	}}
	a.derive()
	b, _ := a.MarshalText()
	var got Analysis
	if err := got.UnmarshalText(b); err != nil {
		t.Fatalf("UnmarshalText(%q): %v", b, err)
	}
	if !reflect.DeepEqual(got, a) {
		t.Errorf("round trip of %q = %+v, want %+v", b, got, a)
	}
	if got.Turning != 2 || got.Proven != 3 {
		t.Errorf("Turning %d, Proven %d; want 2, 3", got.Turning, got.Proven)
	}
	var empty Analysis
	if err := empty.UnmarshalText([]byte("a1;h;")); err != nil || len(empty.Moves) != 0 || empty.Exact {
		t.Errorf("empty analysis: %+v, %v", empty, err)
	}
	// An analysis whose only moves were not all looked at says from where.
	a.OnlyFrom = 2
	b, _ = a.MarshalText()
	var partial Analysis
	if err := partial.UnmarshalText(b); err != nil || !reflect.DeepEqual(partial, a) || !strings.HasPrefix(string(b), "a2;") {
		t.Errorf("round trip of %q = %+v (%v), want %+v", b, partial, err, a)
	}
	a.OnlyFrom = 0
	for _, in := range []string{"", "a2;e;3.1", "a2;e;3.1;0", "a2;e;3.1;2", "a2;e;3.1;x", "a1;e;3.1;1", "a2;x;3.1;1", "a1;x;3.1", "a1;e;3", "a1;e;10.1", "a1;e;3.8", "a1;e;3.1@10", "a1;e;3.1@2:0", "a1;e;-1.1", "a1;e;3.1;"} {
		keep := a
		if err := keep.UnmarshalText([]byte(in)); err == nil || !reflect.DeepEqual(keep, a) {
			t.Errorf("UnmarshalText(%q) = %v, changed %v; want an error and no change", in, err, !reflect.DeepEqual(keep, a))
		}
	}
}

func FuzzAnalysisText(f *testing.F) {
	f.Add("a1;e;3.1!@3,2.3@4:7")
	f.Add("a1;h;")
	f.Add("a2;e;3.1,2.1!;1")
	f.Fuzz(func(t *testing.T, s string) {
		var a Analysis
		if err := a.UnmarshalText([]byte(s)); err != nil {
			return
		}
		b, _ := a.MarshalText()
		var again Analysis
		if err := again.UnmarshalText(b); err != nil || !reflect.DeepEqual(a, again) {
			t.Fatalf("%q decoded, re-encoded as %q, decoded to %+v (%v)", s, b, again, err)
		}
	})
}

// TestOutcomesFromTables checks that the analysis takes the outcomes of
// the early positions from the outcome table and the book, without
// solving: with no time at all, the empty board is a win and its columns
// get their known outcomes (the centre wins, its neighbours draw, the rest
// lose).
func TestOutcomesFromTables(t *testing.T) {
	table, book := embeddedOutcomes(), embeddedBook()
	if table == nil || book == nil {
		t.Fatal("the embedded outcome table or book does not load")
	}
	sv := NewSolver()
	// A deadline already past: any search gives up at its first look at the clock.
	sv.limited, sv.deadline, sv.aborted = true, time.Now().Add(-time.Second), false
	line := []Position{{}}
	if o, ok := lineOutcome(sv, table, book, line, nil, []int{unknown}, 0, true); !ok || o != 1 {
		t.Errorf("the empty board: %d, %v; want a win from the table", o, ok)
	}
	want := [Width]int{-1, -1, 0, 1, 0, -1, -1}
	for c, w := range want {
		for _, target := range []int{0, 1} {
			keeps, ok := keepsOutcome(sv, table, book, Position{}, c, target)
			if !ok || keeps != (w >= target) {
				t.Errorf("column %d keeps %+d: %v, %v; want %v", c+1, target, keeps, ok, w >= target)
			}
		}
	}
	if sv.Nodes() != 0 {
		t.Errorf("the solver searched %d nodes; the tables hold every answer", sv.Nodes())
	}

	// Without the tables the same call has to solve, and runs out of time.
	if _, ok := keepsOutcome(sv, nil, nil, Position{}, 0, 0); ok {
		t.Error("keepsOutcome without tables and without time: ok")
	}
}

// TestOutcomeFromPreviousPosition checks that the analysis bounds a
// position's outcome by the one before it, when a table holds that: after
// a position lost for its mover, every position is won, known without a
// search; after a drawn one, the search (one null window fewer) still
// finds the exact outcome.
func TestOutcomeFromPreviousPosition(t *testing.T) {
	rng := rand.New(rand.NewPCG(29, 2026))
	exact := NewSolver()
	var lost, drawn int
	for tries := 0; tries < 400 && (lost < 3 || drawn < 3); tries++ {
		// A position of 16 to 22 discs by random moves, none connecting.
		var p Position
		for p.moves < 16+rng.IntN(7) {
			c := rng.IntN(Width)
			if p.CanPlay(c) && !p.IsWinningMove(c) {
				p.Play(c)
			}
		}
		if p.CanWinNext() {
			continue
		}
		o, _ := exact.weakSolve(p)
		if o == 1 || o == 0 && drawn >= 3 || o == -1 && lost >= 3 {
			continue
		}
		for c := range Width {
			if !p.CanPlay(c) {
				continue
			}
			q := p
			q.Play(c)
			if q.CanWinNext() {
				continue // won, known without the bound
			}
			// A table that holds the previous position only.
			table := newOutcomes(-1, nil, map[uint64]byte{canonical(p): byte(o + 1)})
			sv := NewSolver()
			line, history, outcome := []Position{p, q}, []int{c}, []int{unknown, unknown}
			got, ok := lineOutcome(sv, table, nil, line, history, outcome, 1, o == 0)
			want, _ := exact.weakSolve(q)
			switch {
			case o == -1 && (!ok || got != 1 || sv.Nodes() != 0):
				t.Errorf("after\n%slost for its mover, column %d: %d, %v in %d nodes; want a win without a search", p, c+1, got, ok, sv.Nodes())
			case o == 0 && (!ok || got != want):
				t.Errorf("after\n%sdrawn, column %d: %d, %v; want %d", p, c+1, got, ok, want)
			case o == 0 && got < 0:
				t.Errorf("after\n%sdrawn, column %d: %d, below the previous position's bound", p, c+1, got)
			}
		}
		if o == -1 {
			lost++
		} else {
			drawn++
		}
	}
	if lost < 3 || drawn < 3 {
		t.Fatalf("found %d lost and %d drawn positions, want 3 of each", lost, drawn)
	}
}
