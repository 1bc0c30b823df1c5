package solver

import (
	"bufio"
	"cmp"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// testsetDir is where the shared benchmark sets live, relative to this package.
var testsetDir = filepath.Join("..", "..", "..", "shared", "data", "connect4-testsets")

type testCase struct {
	line  int
	moves string
	score int
}

// loadSet reads one of Pons' benchmark sets. It skips the test when the folder
// is absent (a user's own clone) and fails when CI=true, where it must be there.
func loadSet(tb testing.TB, name string) []testCase {
	tb.Helper()
	path := filepath.Join(testsetDir, name)
	f, err := os.Open(path)
	if err != nil {
		if os.Getenv("CI") == "true" {
			tb.Fatalf("test set %s missing in CI: %v", path, err)
		}
		tb.Skipf("test set %s not found (%v); the shared data folder is absent in this checkout", path, err)
	}
	defer f.Close()
	var cases []testCase
	sc := bufio.NewScanner(f)
	for n := 1; sc.Scan(); n++ {
		moves, score, ok := strings.Cut(strings.TrimSpace(sc.Text()), " ")
		if !ok {
			tb.Fatalf("%s:%d: no score in %q", path, n, sc.Text())
		}
		v, err := strconv.Atoi(score)
		if err != nil {
			tb.Fatalf("%s:%d: bad score: %v", path, n, err)
		}
		cases = append(cases, testCase{line: n, moves: moves, score: v})
	}
	if err := sc.Err(); err != nil {
		tb.Fatalf("read %s: %v", path, err)
	}
	return cases
}

// spread returns n cases evenly spread over cases (all of them when n is larger).
func spread(cases []testCase, n int) []testCase {
	if n >= len(cases) {
		return cases
	}
	out := make([]testCase, 0, n)
	for i := range n {
		out = append(out, cases[i*len(cases)/n])
	}
	return out
}

// deepest returns the n cases with the most moves played, in file order.
func deepest(cases []testCase, n int) []testCase {
	if n >= len(cases) {
		return cases
	}
	byDepth := slices.Clone(cases)
	slices.SortStableFunc(byDepth, func(a, b testCase) int { return cmp.Compare(len(b.moves), len(a.moves)) })
	byDepth = byDepth[:n]
	slices.SortFunc(byDepth, func(a, b testCase) int { return cmp.Compare(a.line, b.line) })
	return byDepth
}
