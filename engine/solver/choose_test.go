package solver

import (
	"context"
	"errors"
	"math/rand/v2"
	"testing"
	"time"
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

func TestChooseMoveInvalid(t *testing.T) {
	tests := []struct {
		name                string
		rows, cols, connect int
		history             []int
		level               Level
		reason              Reason
	}{
		{"rows too few", 3, 7, 3, nil, Hard, ReasonBadSize},
		{"cols too many", 6, 11, 4, nil, Hard, ReasonBadSize},
		{"connect too short", 6, 7, 2, nil, Hard, ReasonBadSize},
		{"connect too long", 6, 7, 8, nil, Hard, ReasonBadSize},
		{"no level", 6, 7, 4, nil, LevelNone, ReasonBadLevel},
		{"level out of range", 6, 7, 4, nil, Level(9), ReasonBadLevel},
		{"negative column", 6, 7, 4, []int{3, -1}, Easy, ReasonBadColumn},
		{"column off board", 6, 7, 4, []int{7}, Medium, ReasonBadColumn},
		{"full column", 6, 7, 4, []int{0, 0, 0, 0, 0, 0, 0}, Hard, ReasonColumnFull},
		{"game won", 6, 7, 4, []int{0, 1, 0, 1, 0, 1, 0}, Hard, ReasonGameOver},
		{"moves after win", 6, 7, 4, []int{0, 1, 0, 1, 0, 1, 0, 1}, Hard, ReasonGameOver},
		{"board full", 4, 4, 4, []int{0, 1, 0, 1, 2, 3, 2, 3, 1, 0, 1, 0, 3, 2, 3, 2}, Hard, ReasonBoardFull},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			col, err := ChooseMove(t.Context(), tt.rows, tt.cols, tt.connect, tt.history, tt.level, rand.New(rand.NewPCG(1, 2)), 10*time.Millisecond)
			var e *Error
			if !errors.As(err, &e) || e.Reason != tt.reason {
				t.Fatalf("ChooseMove(%d, %d, %d, %v, %v) = %d, %v; want reason %v", tt.rows, tt.cols, tt.connect, tt.history, tt.level, col, err, tt.reason)
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
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b, err := replay(tt.rows, tt.cols, tt.connect, tt.history)
			if err != nil {
				t.Fatal(err)
			}
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
				got, err := ChooseMove(t.Context(), tt.rows, tt.cols, tt.connect, tt.history, Hard, rand.New(rand.NewPCG(1, 2)), budget)
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

// playGame plays first against second from the empty board and returns 1 if the
// first player connects, 2 if the second does, 0 for a draw.
func playGame(t *testing.T, rows, cols, connect int, first, second Level, budget time.Duration, rng *rand.Rand) int {
	t.Helper()
	b := newBoard(rows, cols, connect)
	var history []int
	for !b.full() {
		level := first
		if b.mover() == 1 {
			level = second
		}
		col, err := ChooseMove(t.Context(), rows, cols, connect, history, level, rng, budget)
		if err != nil {
			t.Fatalf("ChooseMove(%v, %v): %v", history, level, err)
		}
		if !b.canPlay(col) {
			t.Fatalf("ChooseMove(%v, %v) = %d, not playable", history, level, col)
		}
		history = append(history, col)
		if b.play(col) {
			return 2 - len(history)%2
		}
	}
	return 0
}

// match plays games alternating who starts and returns a's wins, b's wins and draws.
func match(t *testing.T, rows, cols, connect int, a, b Level, games int, budget time.Duration, seed uint64) (aWins, bWins, draws int) {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, seed+1))
	for g := range games {
		if g%2 == 0 {
			switch playGame(t, rows, cols, connect, a, b, budget, rng) {
			case 1:
				aWins++
			case 2:
				bWins++
			default:
				draws++
			}
		} else {
			switch playGame(t, rows, cols, connect, b, a, budget, rng) {
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
	sizes := []struct{ rows, cols, connect int }{
		{4, 4, 3}, {4, 4, 4}, {5, 4, 4}, {4, 10, 4}, {10, 4, 5}, {7, 8, 4}, {8, 9, 5}, {10, 10, 5}, {10, 10, 10}, {6, 7, 3}, {6, 7, 5},
	}
	for _, sz := range sizes {
		hard, easy, draws := match(t, sz.rows, sz.cols, sz.connect, Hard, Easy, 6, 5*time.Millisecond, uint64(sz.rows*100+sz.cols*10+sz.connect))
		t.Logf("%dx%d connect %d: hard %d, easy %d, draws %d", sz.rows, sz.cols, sz.connect, hard, easy, draws)
		if hard < easy {
			t.Errorf("%dx%d connect %d: hard won %d, easy %d", sz.rows, sz.cols, sz.connect, hard, easy)
		}
		// medium and easy just have to play legal moves to the end
		match(t, sz.rows, sz.cols, sz.connect, Medium, Easy, 2, 5*time.Millisecond, 3)
	}
	hard, easy, _ := match(t, 10, 10, 5, Hard, Easy, 10, 10*time.Millisecond, 5)
	if hard < 9 {
		t.Errorf("10x10 connect 5: hard won %d of 10 against easy (easy %d)", hard, easy)
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
	for _, p := range positions {
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
				col, err := ChooseMove(ctx, p.rows, p.cols, p.connect, p.history, level, rand.New(rand.NewPCG(1, 1)), c.budget)
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
	col, err := ChooseMove(ctx, 6, 7, 4, []int{3, 3}, Hard, nil, time.Second)
	if err != nil || col < 0 || col >= 7 || time.Since(start) > 100*time.Millisecond {
		t.Errorf("ChooseMove with a done context = %d, %v after %v", col, err, time.Since(start))
	}
}

// TestHardPerfect checks that hard plays a move that keeps the exact value on
// positions from the sets that the solver proves quickly.
func TestHardPerfect(t *testing.T) {
	s := NewSolver()
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
			col, err := ChooseMove(t.Context(), Height, Width, 4, history, Hard, nil, 2*time.Second)
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
