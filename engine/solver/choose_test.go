package solver

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/connect4/connect4/engine"
)

func TestParseLevel(t *testing.T) {
	tests := []struct {
		in   string
		want Level
		ok   bool
	}{
		{"easy", Easy, true},
		{"Medium", Medium, true},
		{"HARD", Hard, true},
		{"", LevelNone, false},
		{"expert", LevelNone, false},
		{" easy", LevelNone, false},
	}
	for _, tt := range tests {
		got, err := ParseLevel(tt.in)
		if got != tt.want || (err == nil) != tt.ok {
			t.Errorf("ParseLevel(%q) = %v, %v; want %v, ok %v", tt.in, got, err, tt.want, tt.ok)
		}
		var e *Error
		if err != nil && (!errors.As(err, &e) || e.Reason != ReasonBadLevel) {
			t.Errorf("ParseLevel(%q) error = %v, want reason %v", tt.in, err, ReasonBadLevel)
		}
		if tt.ok && got.String() != map[Level]string{Easy: "easy", Medium: "medium", Hard: "hard"}[got] {
			t.Errorf("%v.String() = %q", got, got.String())
		}
	}
	if s := LevelNone.String(); s != "none" {
		t.Errorf("LevelNone.String() = %q, want none", s)
	}
}

// newGame returns the engine's game of size cfg after history (0-based
// columns), failing the test if the engine rejects a move.
func newGame(tb testing.TB, cfg engine.Config, history []int) *engine.Game {
	tb.Helper()
	g, err := engine.New(cfg)
	if err != nil {
		tb.Fatalf("engine.New(%+v): %v", cfg, err)
	}
	for i, col := range history {
		if err := g.Play(g.Turn(), col); err != nil {
			tb.Fatalf("move %d of %v: %v", i+1, history, err)
		}
	}
	return g
}

// cfgOf returns the engine's config for rows x cols, connect in a line.
func cfgOf(rows, cols, connect int) engine.Config {
	return engine.Config{Rows: rows, Cols: cols, Connect: connect}
}

func TestChooseMoveInvalid(t *testing.T) {
	std := engine.DefaultConfig()
	resigned := newGame(t, std, []int{3, 3})
	if err := resigned.Resign(engine.Red); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name   string
		game   *engine.Game
		level  Level
		reason Reason // ReasonNone: want an *engine.ConfigError
	}{
		{"no level", newGame(t, std, nil), LevelNone, ReasonBadLevel},
		{"level out of range", newGame(t, std, nil), Level(9), ReasonBadLevel},
		{"negative level", newGame(t, std, nil), Level(-1), ReasonBadLevel},
		{"nil game", nil, Easy, ReasonNoGame},
		{"zero game", &engine.Game{}, Hard, ReasonNone},
		{"game won", newGame(t, std, []int{0, 1, 0, 1, 0, 1, 0}), Hard, ReasonGameOver},
		{"game resigned", resigned, Medium, ReasonGameOver},
		{"board full", newGame(t, cfgOf(4, 4, 4), []int{0, 1, 0, 1, 2, 3, 2, 3, 1, 0, 1, 0, 3, 2, 3, 2}), Hard, ReasonBoardFull},
	}
	var ai AI
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			col, err := ai.ChooseMove(t.Context(), tt.game, tt.level, rand.New(rand.NewPCG(1, 2)), 10*time.Millisecond)
			if tt.reason == ReasonNone {
				var ce *engine.ConfigError
				if !errors.As(err, &ce) || col != -1 {
					t.Fatalf("ChooseMove(%s, %v) = %d, %v; want -1, an *engine.ConfigError", tt.name, tt.level, col, err)
				}
				return
			}
			var e *Error
			if !errors.As(err, &e) || e.Reason != tt.reason || col != -1 {
				t.Fatalf("ChooseMove(%s, %v) = %d, %v; want -1, reason %v", tt.name, tt.level, col, err, tt.reason)
			}
		})
	}
}

// TestReplayInvalid checks the board's own checks of a size and a history,
// which ChooseMove keeps behind the engine's.
func TestReplayInvalid(t *testing.T) {
	tests := []struct {
		name                string
		rows, cols, connect int
		history             []int
		field               string // the *engine.ConfigError's Field, or "" for an *Error
		reason              Reason
	}{
		{"rows too few", 3, 7, 3, nil, "rows", ReasonNone},
		{"cols too many", 6, 11, 4, nil, "cols", ReasonNone},
		{"connect too short", 6, 7, 2, nil, "connect", ReasonNone},
		{"connect too long", 6, 7, 8, nil, "connect", ReasonNone},
		{"negative column", 6, 7, 4, []int{3, -1}, "", ReasonBadColumn},
		{"column off board", 6, 7, 4, []int{7}, "", ReasonBadColumn},
		{"full column", 6, 7, 4, []int{0, 0, 0, 0, 0, 0, 0}, "", ReasonColumnFull},
		{"game won", 6, 7, 4, []int{0, 1, 0, 1, 0, 1, 0}, "", ReasonGameOver},
		{"moves after win", 6, 7, 4, []int{0, 1, 0, 1, 0, 1, 0, 1}, "", ReasonGameOver},
		{"board full", 4, 4, 4, []int{0, 1, 0, 1, 2, 3, 2, 3, 1, 0, 1, 0, 3, 2, 3, 2}, "", ReasonBoardFull},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b, err := replay(cfgOf(tt.rows, tt.cols, tt.connect), tt.history)
			if tt.field != "" {
				var ce *engine.ConfigError
				if !errors.As(err, &ce) || ce.Field != tt.field || b != nil {
					t.Fatalf("replay(%dx%d/%d) = %v, %v; want an *engine.ConfigError on %s", tt.rows, tt.cols, tt.connect, b, err, tt.field)
				}
				return
			}
			var e *Error
			if !errors.As(err, &e) || e.Reason != tt.reason || b != nil {
				t.Fatalf("replay(%dx%d/%d, %v) = %v, %v; want reason %v", tt.rows, tt.cols, tt.connect, tt.history, b, err, tt.reason)
			}
		})
	}
}

// TestHardImmediate checks that hard always takes a win and always blocks a
// loss, on several sizes, even with almost no time.
func TestHardImmediate(t *testing.T) {
	tests := []struct {
		name                string
		rows, cols, connect int
		history             []int
		want                int
	}{
		{"win row", 6, 7, 4, []int{1, 1, 2, 2, 3, 3}, 4},           // x has 1,2,3: 0 or 4 both win
		{"block row", 6, 7, 4, []int{1, 1, 2, 2, 3}, 4},            // x threatens 0 and 4: o blocks one
		{"win column", 6, 7, 4, []int{6, 5, 6, 5, 6, 0}, 6},        // x stacks three in 6
		{"block column", 6, 7, 4, []int{6, 5, 6, 5, 6}, 6},         // o blocks the stack
		{"win over block", 6, 7, 4, []int{0, 6, 0, 6, 1, 6, 0}, 6}, // o wins in 6 rather than block 0
		{"diagonal", 6, 7, 4, []int{0, 1, 1, 2, 2, 3, 2, 3, 3, 6}, 3},
		{"4x4 connect 3", 4, 4, 3, []int{0, 0, 1}, 2},
		{"10x10 connect 5", 10, 10, 5, []int{0, 0, 1, 1, 2, 2, 3, 3}, 4},
		{"10x10 block", 10, 10, 5, []int{9, 0, 9, 0, 9, 0, 9}, 9},
	}
	ai := NewAI()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg := cfgOf(tt.rows, tt.cols, tt.connect)
			b, err := replay(cfg, tt.history)
			if err != nil {
				t.Fatal(err)
			}
			g := newGame(t, cfg, tt.history)
			me := b.mover()
			wins, threats := b.winningCols(me), b.winningCols(1-me)
			ok := func(c int) bool {
				if len(wins) > 0 {
					return contains(wins, c)
				}
				return contains(threats, c)
			}
			if len(wins) == 0 && len(threats) == 0 {
				t.Fatalf("bad test: %v has no win or threat", tt.history)
			}
			if !ok(tt.want) {
				t.Fatalf("bad test: want %d is not a win or block in %v", tt.want, tt.history)
			}
			for _, budget := range []time.Duration{time.Millisecond, 50 * time.Millisecond} {
				got, err := ai.ChooseMove(t.Context(), g, Hard, rand.New(rand.NewPCG(1, 2)), budget)
				if err != nil || !ok(got) {
					t.Errorf("ChooseMove(%v, hard, %v) = %d, %v; want a column in wins %v or else threats %v", tt.history, budget, got, err, wins, threats)
				}
			}
		})
	}
}

func contains(s []int, x int) bool {
	for _, v := range s {
		if v == x {
			return true
		}
	}
	return false
}

// playGame has ai play first against second from the empty board of size cfg,
// with the engine as referee, and returns 1 if the first player connects, 2 if
// the second does, 0 for a draw.
func playGame(t *testing.T, ai *AI, cfg engine.Config, first, second Level, budget time.Duration, rng *rand.Rand) int {
	t.Helper()
	g := newGame(t, cfg, nil)
	for !g.State().Over() {
		level := first
		if g.Turn() == engine.Yellow {
			level = second
		}
		col, err := ai.ChooseMove(t.Context(), g, level, rng, budget)
		if err != nil {
			t.Fatalf("ChooseMove(%v, %v): %v", g.History(), level, err)
		}
		if err := g.Play(g.Turn(), col); err != nil {
			t.Fatalf("ChooseMove(%v, %v) = %d: %v", g.History(), level, col, err)
		}
	}
	switch g.Winner() {
	case engine.Red:
		return 1
	case engine.Yellow:
		return 2
	}
	return 0
}

// match plays games on one AI, alternating who starts, and returns a's wins,
// b's wins and draws.
func match(t *testing.T, rows, cols, connect int, a, b Level, games int, budget time.Duration, seed uint64) (aWins, bWins, draws int) {
	t.Helper()
	ai, cfg := NewAI(), cfgOf(rows, cols, connect)
	rng := rand.New(rand.NewPCG(seed, seed+1))
	for g := range games {
		if g%2 == 0 {
			switch playGame(t, ai, cfg, a, b, budget, rng) {
			case 1:
				aWins++
			case 2:
				bWins++
			default:
				draws++
			}
		} else {
			switch playGame(t, ai, cfg, b, a, budget, rng) {
			case 1:
				bWins++
			case 2:
				aWins++
			default:
				draws++
			}
		}
	}
	return aWins, bWins, draws
}

// TestHardBeatsEasy plays 100 seeded games on the standard board, hard moving
// first in 50 and second in the other 50, with a short budget that leaves most
// early moves to the heuristic search.
func TestHardBeatsEasy(t *testing.T) {
	budget := 10 * time.Millisecond
	if raceEnabled {
		budget = 30 * time.Millisecond
	}
	hard, easy, draws := match(t, Height, Width, 4, Hard, Easy, 100, budget, 7)
	t.Logf("standard board, hard %v: hard %d, easy %d, draws %d", budget, hard, easy, draws)
	if hard < 95 {
		t.Errorf("hard won %d of 100 games against easy (easy %d, draws %d), want at least 95", hard, easy, draws)
	}
}

func TestMediumBeatsEasy(t *testing.T) {
	medium, easy, draws := match(t, Height, Width, 4, Medium, Easy, 100, 50*time.Millisecond, 11)
	t.Logf("medium %d, easy %d, draws %d", medium, easy, draws)
	if medium <= easy {
		t.Errorf("medium won %d games against easy's %d (draws %d), want more", medium, easy, draws)
	}
}

func TestHardBeatsMedium(t *testing.T) {
	hard, medium, draws := match(t, Height, Width, 4, Hard, Medium, 20, 20*time.Millisecond, 13)
	t.Logf("hard %d, medium %d, draws %d", hard, medium, draws)
	if hard <= medium {
		t.Errorf("hard won %d games against medium's %d (draws %d), want more", hard, medium, draws)
	}
}

// TestOtherSizes plays whole games on boards other than the standard one: every
// move must be legal, and hard must beat easy on the whole.
func TestOtherSizes(t *testing.T) {
	t.Parallel() // every move spends its budget: CPU the package's pure tests do not need at once
	sizes := []struct{ rows, cols, connect int }{
		{4, 4, 3}, {4, 4, 4}, {5, 4, 4}, {4, 10, 4}, {10, 4, 5}, {7, 8, 4}, {8, 9, 5}, {10, 10, 5}, {10, 10, 10}, {6, 7, 3}, {6, 7, 5},
	}
	// Full size (CONNECT4_TEST_FULL, .ci/run's own step): 6 games of hard
	// and 2 of medium a size, and 10 on 10 x 10; half of that otherwise.
	hardGames, mediumGames, bigGames := samples(6, 3, 3), samples(2, 1, 1), samples(10, 4, 4)
	for _, sz := range sizes {
		hard, easy, draws := match(t, sz.rows, sz.cols, sz.connect, Hard, Easy, hardGames, 5*time.Millisecond, uint64(sz.rows*100+sz.cols*10+sz.connect))
		t.Logf("%dx%d connect %d: hard %d, easy %d, draws %d", sz.rows, sz.cols, sz.connect, hard, easy, draws)
		if hard < easy {
			t.Errorf("%dx%d connect %d: hard won %d, easy %d", sz.rows, sz.cols, sz.connect, hard, easy)
		}
		// medium and easy just have to play legal moves to the end
		match(t, sz.rows, sz.cols, sz.connect, Medium, Easy, mediumGames, 5*time.Millisecond, 3)
	}
	hard, easy, _ := match(t, 10, 10, 5, Hard, Easy, bigGames, 10*time.Millisecond, 5)
	if hard < bigGames-1 {
		t.Errorf("10x10 connect 5: hard won %d of %d against easy (easy %d)", hard, bigGames, easy)
	}
}

// TestBudget checks that every level returns within its budget, and within a
// context deadline shorter than the budget, with generous slack for a loaded
// machine.
func TestBudget(t *testing.T) {
	positions := []struct {
		rows, cols, connect int
		history             []int
	}{
		{6, 7, 4, nil},
		{6, 7, 4, []int{3}},
		{6, 7, 4, []int{3, 3, 2, 4}},
		{10, 10, 5, nil},
		{10, 10, 5, []int{4, 5, 4, 5}},
		{8, 9, 4, []int{0}},
	}
	var ai AI
	for _, p := range positions {
		g := newGame(t, cfgOf(p.rows, p.cols, p.connect), p.history)
		for _, level := range []Level{Easy, Medium, Hard} {
			for _, c := range []struct{ budget, ctxTimeout time.Duration }{
				{50 * time.Millisecond, 0},
				{time.Second, 40 * time.Millisecond},
				{0, 60 * time.Millisecond}, // default budget, cut by the context
			} {
				ctx := t.Context()
				limit := c.budget
				if c.ctxTimeout > 0 {
					var cancel context.CancelFunc
					ctx, cancel = context.WithTimeout(ctx, c.ctxTimeout)
					defer cancel()
					limit = c.ctxTimeout
				}
				start := time.Now()
				col, err := ai.ChooseMove(ctx, g, level, rand.New(rand.NewPCG(1, 1)), c.budget)
				took := time.Since(start)
				if err != nil || col < 0 || col >= p.cols {
					t.Errorf("ChooseMove(%dx%d/%d, %v, %v) = %d, %v", p.rows, p.cols, p.connect, p.history, level, col, err)
				}
				if slack := 3*limit + 100*time.Millisecond; took > slack {
					t.Errorf("ChooseMove(%dx%d/%d, %v, %v, budget %v, ctx %v) took %v, want under %v", p.rows, p.cols, p.connect, p.history, level, c.budget, c.ctxTimeout, took, slack)
				}
			}
		}
	}
	// A context already done still gets a legal move, at once.
	ctx, cancel := context.WithCancel(t.Context())
	cancel()
	start := time.Now()
	col, err := ai.ChooseMove(ctx, newGame(t, engine.DefaultConfig(), []int{3, 3}), Hard, nil, time.Second)
	if err != nil || col < 0 || col >= 7 || time.Since(start) > 100*time.Millisecond {
		t.Errorf("ChooseMove with a done context = %d, %v after %v", col, err, time.Since(start))
	}
}

// TestHardPerfect checks that hard plays a move that keeps the exact value on
// positions from the sets that the solver proves quickly.
func TestHardPerfect(t *testing.T) {
	s, ai := NewSolver(), NewAI()
	for _, set := range []string{"Test_L3_R1", "Test_L2_R1"} {
		cases := spread(loadSet(t, set), 20)
		if raceEnabled {
			cases = spread(cases, 5)
		}
		for _, c := range cases {
			p, _ := ParsePosition(c.moves)
			history := make([]int, len(c.moves))
			for i := range c.moves {
				history[i] = int(c.moves[i] - '1')
			}
			col, err := ai.ChooseMove(t.Context(), newGame(t, engine.DefaultConfig(), history), Hard, nil, 2*time.Second)
			if err != nil {
				t.Fatalf("ChooseMove(%s): %v", c.moves, err)
			}
			if p.IsWinningMove(col) {
				continue
			}
			q := p
			q.Play(col)
			s.Reset()
			if got := -s.Solve(q); got != c.score {
				t.Errorf("hard at %s played column %d, worth %d, want %d", c.moves, col+1, got, c.score)
			}
		}
	}
}

// TestAIOwnsSolvers checks that an AI keeps its own solvers: it gets back
// one it returned, another AI never does, the two table sizes have pools of
// their own, and a nil AI keeps nothing.
func TestAIOwnsSolvers(t *testing.T) {
	a, b := NewAI(), NewAI()
	reused := 0
	for range 40 {
		sv := a.getSolver(18)
		a.putSolver(18, sv)
		if got := b.getSolver(18); got == sv {
			t.Fatal("AI b got a solver that AI a returned")
		} else {
			b.putSolver(18, got)
		}
		if got := a.getSolver(20); got == sv || got.far.logSize != 20 {
			t.Fatalf("getSolver(20) = a solver with a 2^%d far table (the 2^18 one: %v), want a 2^20 one", got.far.logSize, got == sv)
		} else {
			a.putSolver(20, got)
		}
		got := a.getSolver(18)
		if got == sv {
			reused++
		}
		if got.far.logSize != 18 {
			t.Fatalf("getSolver(18) = a solver with a 2^%d far table", got.far.logSize)
		}
		a.putSolver(18, got)
	}
	// sync.Pool may drop what it is given (a quarter of Puts under the race
	// detector), so reuse is only required most of the time.
	if reused < 10 {
		t.Errorf("AI a gave back its own solver %d times in 40, want most", reused)
	}

	var none *AI
	sv := none.getSolver(18)
	none.putSolver(18, sv)
	if got := none.getSolver(18); got == sv || got.far.logSize != 18 {
		t.Errorf("nil AI gave back a kept solver (%v) or a 2^%d far table", got == sv, got.far.logSize)
	}
}

// TestChooseMoveKeepsSolver checks that a hard move on the standard board
// leaves its solver in the AI that made it, and only there.
func TestChooseMoveKeepsSolver(t *testing.T) {
	g := newGame(t, engine.DefaultConfig(), []int{3, 3, 2, 4})
	a, b := NewAI(), NewAI()
	kept := false
	// The pool may drop a Put (often under the race detector): try a few times.
	for range 20 {
		if _, err := a.ChooseMove(t.Context(), g, Hard, nil, 20*time.Millisecond); err != nil {
			t.Fatal(err)
		}
		if sv, ok := a.small.Get().(*Solver); ok {
			kept = true
			if sv.limited || sv.done != nil || sv.aborted || !sv.deadline.IsZero() {
				t.Errorf("kept solver still has the move's limits: limited %v, done %v, aborted %v, deadline %v", sv.limited, sv.done != nil, sv.aborted, sv.deadline)
			}
			break
		}
	}
	if !kept {
		t.Error("20 hard moves with a 20ms budget left no 2^18 solver in the AI")
	}
	if b.small.Get() != nil || b.large.Get() != nil || a.large.Get() != nil {
		t.Error("a hard move with a 20ms budget left a solver in another AI or in the 2^20 pool")
	}
}

// TestAIConcurrent plays moves at every level from several goroutines on one
// AI, on its zero value and on a nil AI: every move must be legal. Run it with
// -race.
func TestAIConcurrent(t *testing.T) {
	positions := []*engine.Game{
		newGame(t, engine.DefaultConfig(), nil),
		newGame(t, engine.DefaultConfig(), []int{3, 3, 2, 4}),
		newGame(t, engine.DefaultConfig(), []int{3, 2, 3, 2, 4, 4, 1}),
		newGame(t, cfgOf(7, 8, 4), []int{4, 4}),
	}
	var zero AI
	for _, tc := range []struct {
		name string
		ai   *AI
	}{{"NewAI", NewAI()}, {"zero value", &zero}, {"nil", nil}} {
		t.Run(tc.name, func(t *testing.T) {
			const workers = 4
			errs := make(chan error, workers)
			for w := range workers {
				go func() {
					rng := rand.New(rand.NewPCG(uint64(w), 9))
					for i := range 6 {
						g := positions[(w+i)%len(positions)]
						level := []Level{Easy, Medium, Hard}[i%3]
						col, err := tc.ai.ChooseMove(t.Context(), g, level, rng, 15*time.Millisecond)
						if err == nil && !g.CanPlay(col) {
							err = fmt.Errorf("ChooseMove(%v, %v) = %d, not playable", g.History(), level, col)
						}
						if err != nil {
							errs <- err
							return
						}
					}
					errs <- nil
				}()
			}
			for range workers {
				if err := <-errs; err != nil {
					t.Error(err)
				}
			}
		})
	}
	// ChooseMove only reads the games it was given.
	if h := positions[1].History(); len(h) != 4 || positions[1].Moves() != 4 {
		t.Errorf("a game changed under ChooseMove: history %v", h)
	}
}
