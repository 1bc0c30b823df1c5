package solver

import (
	"strings"
	"testing"
)

// checkPuzzle fails unless pz's mover wins in exactly pz.WinIn of their
// own moves, by an exact Solve from a cleared table, and its solution is a
// line of best play that connects then.
func checkPuzzle(t *testing.T, s *Solver, pz Puzzle) {
	t.Helper()
	var p Position
	for _, c := range pz.Moves {
		p.Play(c)
	}
	s.Reset()
	v := s.Solve(p)
	if v <= 0 || winIn(p.Moves(), v) != pz.WinIn {
		t.Errorf("puzzle %s: value %d (win in %d), claims a win in %d", colsToDigits(pz.Moves), v, winIn(p.Moves(), max(v, 1)), pz.WinIn)
	}
	if len(pz.Solution) != 2*pz.WinIn-1 || !solves(p, pz.Solution) {
		t.Errorf("puzzle %s: solution %s does not connect at the mover's move %d", colsToDigits(pz.Moves), colsToDigits(pz.Solution), pz.WinIn)
	}
}

// TestGeneratePuzzles generates 100 puzzles over the three levels and
// checks that each has a forced win of its stated length and none shorter.
func TestGeneratePuzzles(t *testing.T) {
	t.Parallel() // CPU-bound and shares nothing: runs beside the tests that wait
	if testing.Short() {
		t.Skip("generating 100 puzzles plays and solves for about 40 s")
	}
	s := NewSolver()
	n, total := 0, samples(100, 12, 12) // the race detector makes the solver ten times slower
	for _, level := range []Level{Easy, Medium, Hard} {
		lo, hi := PuzzleRange(level)
		want := total / 3
		if level == Hard {
			want = total - 2*(total/3)
		}
		got := GeneratePuzzles(t.Context(), want, lo, hi, uint64(level)+100)
		if len(got) != want {
			t.Fatalf("%v: %d puzzles, want %d", level, len(got), want)
		}
		seen := map[uint64]bool{}
		for _, pz := range got {
			if pz.WinIn < lo || pz.WinIn > hi {
				t.Errorf("%v puzzle wins in %d, outside %d-%d", level, pz.WinIn, lo, hi)
			}
			p, err := ParsePosition(colsToDigits(pz.Moves))
			if err != nil {
				t.Fatalf("puzzle %v: %v", pz.Moves, err)
			}
			if seen[canonical(p)] {
				t.Errorf("puzzle %s twice (or its mirror)", colsToDigits(pz.Moves))
			}
			seen[canonical(p)] = true
			checkPuzzle(t, s, pz)
			n++
		}
	}
	if n != total {
		t.Errorf("%d puzzles checked, want %d", n, total)
	}
}

// TestEmbeddedPuzzles solves every puzzle of the embedded set.
func TestEmbeddedPuzzles(t *testing.T) {
	s := NewSolver()
	for _, level := range []Level{Easy, Medium, Hard} {
		set, err := Puzzles(level)
		if err != nil {
			t.Fatal(err)
		}
		if len(set) < 50 {
			t.Errorf("%v: %d puzzles embedded, want at least 50", level, len(set))
		}
		for _, pz := range set {
			checkPuzzle(t, s, pz)
		}
	}
}

func TestReadPuzzlesRejects(t *testing.T) {
	for _, in := range []string{
		"4444 3",              // no solution
		"44x4 3 444",          // bad position
		"4444 2 444",          // win length out of range
		"1212121 3 12345",     // a position already won
		"112233 3 44444",      // solution too long for the win
		"112233 3 7",          // too short
		"112233 3 76543",      // does not connect
		"445566 3 7777777777", // a full column
	} {
		if _, err := ReadPuzzles(strings.NewReader(in)); err == nil {
			t.Errorf("ReadPuzzles(%q) = nil error", in)
		}
	}
}

func TestPuzzleStatus(t *testing.T) {
	set, err := Puzzles(Easy)
	if err != nil || len(set) == 0 {
		t.Fatalf("no easy puzzles: %v", err)
	}
	pz := set[0]
	start := len(pz.Moves)
	line := append(append([]int(nil), pz.Moves...), pz.Solution...)
	// Along the solution the puzzle goes on, and the last move solves it.
	for i := start + 1; i < len(line); i++ {
		if solved, failed := PuzzleStatus(start, pz.WinIn, line[:i]); solved || failed {
			t.Fatalf("after %d solution moves: solved %v, failed %v", i-start, solved, failed)
		}
	}
	if solved, failed := PuzzleStatus(start, pz.WinIn, line); !solved || failed {
		t.Errorf("after the whole solution: solved %v, failed %v", solved, failed)
	}
	// With one move fewer allowed, the same first move fails.
	if _, failed := PuzzleStatus(start, pz.WinIn-1, line[:start+1]); !failed {
		t.Errorf("a win in %d allowed %d: not failed", pz.WinIn, pz.WinIn-1)
	}
	// A first move that keeps no win within the moves allowed fails.
	var p Position
	for _, c := range pz.Moves {
		p.Play(c)
	}
	ref := NewSolver()
	for c := range Width {
		if !p.CanPlay(c) {
			continue
		}
		q := p
		q.Play(c)
		keeps := p.IsWinningMove(c)
		if !keeps {
			v := -ref.Solve(q)
			keeps = v > 0 && winIn(p.Moves(), v) <= pz.WinIn
		}
		_, failed := PuzzleStatus(start, pz.WinIn, append(append([]int(nil), pz.Moves...), c))
		if failed == keeps {
			t.Errorf("first move %d: failed %v, but it keeps the win in time: %v", c+1, failed, keeps)
		}
	}
}
