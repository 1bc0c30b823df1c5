package solver

import (
	"cmp"
	"errors"
	"fmt"
	"testing"
)

// sampleSizes is how many positions of each set TestSolveSets checks, spread
// evenly over the file: enough to cover every depth band, small enough for CI.
// The race detector slows the search twenty- to thirtyfold, so under it the
// sample is smaller and is drawn from the deepest (fastest to solve) positions
// of a spread of 4*nRace.
//
// n is the sample with CONNECT4_TEST_FULL (.ci/run's full step), nQuick
// the one of a plain `go test ./...`, which leaves out the begin-hard
// positions that take seconds each.
var sampleSizes = []struct {
	set              string
	n, nQuick, nRace int
}{
	{"Test_L3_R1", 250, 125, 25},
	{"Test_L2_R1", 250, 125, 25},
	{"Test_L2_R2", 60, 30, 16},
	{"Test_L1_R1", 150, 75, 15},
	{"Test_L1_R2", 12, 6, 4},
	{"Test_L1_R3", 3, 0, 2},
}

func TestSolveSets(t *testing.T) {
	t.Parallel() // pure solving: it shares nothing with the other tests
	s := NewSolver()
	for _, set := range sampleSizes {
		t.Run(set.set, func(t *testing.T) {
			n := set.n
			if !fullSamples && !raceEnabled {
				n = set.nQuick
			}
			if n == 0 {
				t.Skip("positions that take seconds each: CONNECT4_TEST_FULL=1 solves them")
			}
			cases := spread(loadSet(t, set.set), n)
			if raceEnabled {
				cases = deepest(spread(cases, 4*set.nRace), set.nRace)
			}
			for _, c := range cases {
				p, err := ParsePosition(c.moves)
				if err != nil {
					t.Fatalf("line %d: ParsePosition(%q): %v", c.line, c.moves, err)
				}
				s.Reset()
				if got := s.Solve(p); got != c.score {
					t.Errorf("line %d: Solve(%q) = %d, want %d", c.line, c.moves, got, c.score)
				}
			}
		})
	}
}

// TestBestMove checks on a sample of the sets that BestMove's column keeps the
// value: the position after it, solved, has the opposite value (or the move wins).
// The sample is 30 positions a set with CONNECT4_TEST_FULL, 10 otherwise.
func TestBestMove(t *testing.T) {
	t.Parallel() // pure solving: it shares nothing with the other tests
	s := NewSolver()
	for _, name := range []string{"Test_L3_R1", "Test_L2_R1", "Test_L1_R1"} {
		cases := spread(loadSet(t, name), samples(30, 10, 5))
		for _, c := range cases {
			p, _ := ParsePosition(c.moves)
			s.Reset()
			col, v := s.BestMove(p)
			if v != c.score {
				t.Errorf("BestMove(%q) value = %d, want %d", c.moves, v, c.score)
			}
			if !p.CanPlay(col) {
				t.Fatalf("BestMove(%q) = column %d, not playable", c.moves, col)
			}
			if p.IsWinningMove(col) {
				if want := (cells + 1 - p.Moves()) / 2; v != want {
					t.Errorf("BestMove(%q) wins at once with %d, value %d, want %d", c.moves, col, v, want)
				}
				continue
			}
			q := p
			q.Play(col)
			s.Reset()
			if got := -s.Solve(q); got != c.score {
				t.Errorf("BestMove(%q) = column %d, worth %d after it, want %d", c.moves, col+1, got, c.score)
			}

			// The weak variant must keep the sign of the value.
			s.Reset()
			col, sign, ok := s.bestMove(p, true)
			if want := cmp.Compare(c.score, 0); !ok || sign != want {
				t.Errorf("bestMove(%q, weak) = %d, sign %d, %v; want sign %d", c.moves, col, sign, ok, want)
			}
			if p.IsWinningMove(col) || sign < 0 {
				continue
			}
			q = p
			q.Play(col)
			s.Reset()
			if got := -s.Solve(q); cmp.Compare(got, 0) != sign {
				t.Errorf("bestMove(%q, weak) = column %d, worth %d after it, want sign %d", c.moves, col+1, got, sign)
			}
		}
	}
}

func TestSolveSmall(t *testing.T) {
	tests := []struct {
		moves string
		want  int
	}{
		{"44556", -18}, // o to move cannot stop the open three: x wins with its 4th disc
		{"445566", 18}, // x to move connects four with its 4th disc
		{"2252576253462244111563365343671351441", -1},
		{"7422341735647741166133573473242566", 1},
	}
	s := NewSolver()
	for _, tt := range tests {
		p, err := ParsePosition(tt.moves)
		if err != nil {
			t.Fatalf("ParsePosition(%q): %v", tt.moves, err)
		}
		s.Reset()
		if got := s.Solve(p); got != tt.want {
			t.Errorf("Solve(%q) = %d, want %d", tt.moves, got, tt.want)
		}
	}
}

// TestSolveWon checks that a position already won, which only Play can make,
// gets the loss value rather than garbage.
func TestSolveWon(t *testing.T) {
	p, err := ParsePosition("445566")
	if err != nil {
		t.Fatal(err)
	}
	p.Play(6)
	s := NewSolver()
	if got := s.Solve(p); got != -18 {
		t.Errorf("Solve(4455667, already won) = %d, want -18", got)
	}
	if col, v := s.BestMove(p); col != -1 || v != -18 {
		t.Errorf("BestMove(4455667, already won) = %d, %d; want -1, -18", col, v)
	}
}

func TestParsePosition(t *testing.T) {
	tests := []struct {
		in     string
		reason Reason
		move   int
	}{
		{"", ReasonNone, 0},
		{"4", ReasonNone, 0},
		{"1234567", ReasonNone, 0},
		{"444444", ReasonNone, 0},
		{"4444444", ReasonColumnFull, 7},
		{"0", ReasonBadColumn, 1},
		{"18", ReasonBadColumn, 2},
		{"12a", ReasonBadColumn, 3},
		{"1 2", ReasonBadColumn, 2},
		{"1212121", ReasonGameOver, 7},
		{"12121212", ReasonGameOver, 7},
		{"44556", ReasonNone, 0},
		{"4455667", ReasonGameOver, 7},
		{"445563", ReasonNone, 0}, // o blocks one side
		{"1122334", ReasonGameOver, 7},
	}
	for _, tt := range tests {
		p, err := ParsePosition(tt.in)
		var e *Error
		switch {
		case tt.reason == ReasonNone && err != nil:
			t.Errorf("ParsePosition(%q) = %v, want no error", tt.in, err)
		case tt.reason == ReasonNone:
			if p.Moves() != len(tt.in) {
				t.Errorf("ParsePosition(%q).Moves() = %d, want %d", tt.in, p.Moves(), len(tt.in))
			}
		case !errors.As(err, &e):
			t.Errorf("ParsePosition(%q) error = %v, want *Error with reason %v", tt.in, err, tt.reason)
		case e.Reason != tt.reason || e.Move != tt.move:
			t.Errorf("ParsePosition(%q) error = %v (reason %v, move %d), want reason %v at move %d", tt.in, err, e.Reason, e.Move, tt.reason, tt.move)
		}
	}
}

// TestThreatsNaive checks the bitboard threat detection against a plain scan of
// the grid over many seeded random games.
func TestThreatsNaive(t *testing.T) {
	for seed := range uint64(300) {
		var p Position
		var grid [Width][Height]int // 0 empty, 1 first player, 2 second
		heights := [Width]int{}
		x := seed*0x9E3779B97F4A7C15 + 1
		for p.Moves() < cells {
			x ^= x << 13
			x ^= x >> 7
			x ^= x << 17
			col := int(x % Width)
			if !p.CanPlay(col) {
				continue
			}
			player := p.Moves()%2 + 1
			want := naiveWins(&grid, col, heights[col], player)
			if got := p.IsWinningMove(col); got != want {
				t.Fatalf("seed %d: IsWinningMove(%d) = %v, want %v on\n%s", seed, col, got, want, p)
			}
			p.Play(col)
			if got := p.lastMoverWon(); got != want {
				t.Fatalf("seed %d: lastMoverWon after column %d = %v, want %v on\n%s", seed, col, got, want, p)
			}
			if want {
				break
			}
			grid[col][heights[col]] = player
			heights[col]++
		}
	}
}

func naiveWins(g *[Width][Height]int, col, row, player int) bool {
	for _, d := range [][2]int{{1, 0}, {0, 1}, {1, 1}, {1, -1}} {
		n := 1
		for _, sign := range []int{1, -1} {
			c, r := col+sign*d[0], row+sign*d[1]
			for c >= 0 && c < Width && r >= 0 && r < Height && g[c][r] == player {
				n++
				c, r = c+sign*d[0], r+sign*d[1]
			}
		}
		if n >= 4 {
			return true
		}
	}
	return false
}

func FuzzParsePosition(f *testing.F) {
	for _, s := range []string{"", "4", "44556", "1212121", "4444444", "12a", "7422341735647741166133573473242566"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, moves string) {
		p, err := ParsePosition(moves)
		if err != nil {
			var e *Error
			if !errors.As(err, &e) || e.Reason == ReasonNone {
				t.Fatalf("ParsePosition(%q) error %v is not an *Error with a reason", moves, err)
			}
			return
		}
		if p.Moves() != len(moves) {
			t.Fatalf("ParsePosition(%q).Moves() = %d", moves, p.Moves())
		}
		if p.Moves() >= cells-12 {
			s := newSolver(minLogSize, minLogSize, defaultSplit)
			if v := s.Solve(p); v < -(cells-p.Moves())/2 || v > (cells+1-p.Moves())/2 {
				t.Fatalf("Solve(%q) = %d out of range", moves, v)
			}
		}
	})
}

func ExampleSolver_Solve() {
	s := NewSolver()
	for _, moves := range []string{"2252576253462244111563365343671351441", "445566"} {
		p, err := ParsePosition(moves)
		if err != nil {
			fmt.Println(err)
			continue
		}
		s.Reset()
		col, _ := s.BestMove(p)
		fmt.Printf("%s: value %d, best column %d\n", moves, s.Solve(p), col+1)
	}
	_, err := ParsePosition("1212121")
	fmt.Println(err)
	// Output:
	// 2252576253462244111563365343671351441: value -1, best column 6
	// 445566: value 18, best column 3
	// solver: game already won at move 7: column 1 connects four
}
