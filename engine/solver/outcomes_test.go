package solver

import (
	"bytes"
	"io"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// naiveLevels returns, for 0 to full discs, the canonical keys of every
// position a table holds, by playing every sequence of moves: the
// reference tableLevels is checked against.
func naiveLevels(full int) []map[uint64]bool {
	levels := make([]map[uint64]bool, full+1)
	for d := range levels {
		levels[d] = map[uint64]bool{}
	}
	var walk func(p Position)
	walk = func(p Position) {
		if p.lastMoverWon() || p.CanWinNext() {
			return
		}
		levels[p.moves][min(p.Key(), mirror(p).Key())] = true
		if p.moves == full {
			return
		}
		for c := range Width {
			if p.CanPlay(c) {
				q := p
				q.Play(c)
				walk(q)
			}
		}
	}
	walk(Position{})
	return levels
}

func TestTableLevels(t *testing.T) {
	got := tableLevels(5)
	want := naiveLevels(5)
	for d := range want {
		if len(got[d]) != len(want[d]) {
			t.Errorf("level %d: %d positions, want %d", d, len(got[d]), len(want[d]))
		}
		if !slices.IsSorted(got[d]) {
			t.Errorf("level %d: keys not sorted", d)
		}
		for _, k := range got[d] {
			if !want[d][k] {
				t.Errorf("level %d: key %x is not a position of the level", d, k)
			}
		}
	}
}

// TestPositionOfKey checks that positionOfKey inverts Key on seeded random
// positions of every length.
func TestPositionOfKey(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 5))
	for range 2000 {
		var p Position
		for n := rng.IntN(cells + 1); p.moves < n; {
			c := rng.IntN(Width)
			if p.CanPlay(c) {
				p.Play(c)
			}
		}
		if got := positionOfKey(p.Key()); got != p {
			t.Fatalf("positionOfKey(%x) =\n%s, want\n%s", p.Key(), got, p)
		}
	}
}

// testOutcomes returns a table of 4 full levels with outcomes drawn at
// random, and extra entries for seeded random positions of 5 to 12 discs,
// with known holding every outcome by canonical key.
func testOutcomes() (o *Outcomes, known map[uint64]byte) {
	rng := rand.New(rand.NewPCG(7, 7))
	levels := tableLevels(4)
	known = map[uint64]byte{}
	for _, l := range levels {
		for _, k := range l {
			known[k] = byte(rng.IntN(3))
		}
	}
	for range 500 {
		var p Position
		for n := 5 + rng.IntN(8); p.moves < n; {
			c := rng.IntN(Width)
			if p.CanPlay(c) && !p.IsWinningMove(c) {
				p.Play(c)
			}
		}
		if !p.CanWinNext() {
			known[canonical(p)] = byte(rng.IntN(3))
		}
	}
	return newOutcomes(4, levels, known), known
}

func TestOutcomesLookup(t *testing.T) {
	o, known := testOutcomes()
	if o.Len() != len(known) {
		t.Errorf("Len = %d, want %d", o.Len(), len(known))
	}
	data, _ := o.MarshalBinary()
	loaded, err := LoadOutcomes(data)
	if err != nil {
		t.Fatalf("LoadOutcomes of MarshalBinary: %v", err)
	}
	for k, code := range known {
		p := positionOfKey(k)
		for _, q := range []Position{p, mirror(p)} {
			if got, ok := loaded.Lookup(q); !ok || got != int(code)-1 {
				t.Fatalf("Lookup of\n%s= %d, %v; want %d", q, got, ok, int(code)-1)
			}
		}
	}
	// Not held: a position of 6 discs the entries lack.
	for _, p := range depthPositions(6, 50) {
		if _, in := known[canonical(p)]; !in {
			if got, ok := loaded.Lookup(p); ok {
				t.Fatalf("Lookup of a position not in the table:\n%s= %d, ok", p, got)
			}
		}
	}
	// Held without a table: a connect at once, and a position already won.
	var none *Outcomes
	if got, ok := none.Lookup(mustPosition(t, "445566")); !ok || got != 1 {
		t.Errorf("a connect at once: %d, %v; want a win", got, ok)
	}
	won := mustPosition(t, "445566")
	won.Play(6)
	if got, ok := none.Lookup(won); !ok || got != -1 {
		t.Errorf("a position already won: %d, %v; want a loss", got, ok)
	}
	if _, ok := none.Lookup(Position{}); ok {
		t.Error("a nil table holds the empty board")
	}
}

// mustWeakSolve returns p's outcome, solved without a deadline.
func mustWeakSolve(sv *Solver, p Position) int {
	sv.limited, sv.aborted = false, false
	v, _ := sv.weakSolve(p)
	return v
}

func mustPosition(t *testing.T, moves string) Position {
	t.Helper()
	p, err := ParsePosition(moves)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func TestLoadOutcomesRefuses(t *testing.T) {
	o, _ := testOutcomes()
	good, _ := o.MarshalBinary()
	corrupt := func(f func(b []byte) []byte) []byte { return f(bytes.Clone(good)) }
	for _, tc := range []struct {
		name string
		data []byte
		want string
	}{
		{"empty", nil, "no header"},
		{"magic", corrupt(func(b []byte) []byte { b[0] = 'X'; return b }), "no header"},
		{"version", corrupt(func(b []byte) []byte { b[5] = 9; return b }), "version"},
		{"full", corrupt(func(b []byte) []byte { b[6] = 9; return b }), "full depth"},
		{"checksum", corrupt(func(b []byte) []byte { b[len(b)-1] ^= 1; return b }), "checksum"},
		{"count", corrupt(func(b []byte) []byte { b[8]++; return b }), "extra entries"},
		{"cut", corrupt(func(b []byte) []byte { return b[:outcomesHeader+3] }), "checksum"},
	} {
		if _, err := LoadOutcomes(tc.data); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: LoadOutcomes = %v, want an error about %q", tc.name, err, tc.want)
		}
	}
}

// TestEmbeddedOutcomes loads the embedded table, checks each full level
// against the next where that is full too, and a sample of the entries
// with 8 discs or more against the solver (the shallower ones take minutes
// each; the levels' check and the build's cover them).
func TestEmbeddedOutcomes(t *testing.T) {
	o, err := EmbeddedOutcomes()
	if err != nil {
		t.Fatal(err)
	}
	known := map[uint64]byte{}
	for d, l := range o.levels {
		for i, k := range l {
			known[k] = unpack3(o.packed[d], i)
		}
	}
	for d := 0; d < o.full; d++ {
		if err := checkLevel(o.levels[d], known); err != nil {
			t.Errorf("level %d: %v", d, err)
		}
	}
	var deep []uint64
	for _, e := range o.extra {
		if positionOfKey(e>>2).moves >= 8 {
			deep = append(deep, e)
		}
	}
	rng := rand.New(rand.NewPCG(11, 11))
	rng.Shuffle(len(deep), func(i, j int) { deep[i], deep[j] = deep[j], deep[i] })
	sv := NewSolver()
	for _, e := range deep[:min(len(deep), samples(10, 3, 1))] {
		p := positionOfKey(e >> 2)
		sv.Reset()
		if got, want := mustWeakSolve(sv, p), int(e&3)-1; got != want {
			t.Errorf("position\n%s: the table says %+d, the solver %+d", p, want, got)
		}
	}
}

// TestBuildOutcomes builds the two levels the opening book holds, and
// checks that the build refuses a progress file that contradicts them.
func TestBuildOutcomes(t *testing.T) {
	t.Parallel() // CPU-bound and shares nothing: runs beside the tests that wait
	var progress, log bytes.Buffer
	saved := 0
	o, err := BuildOutcomes(t.Context(), OutcomesPlan{Full: 1}, &progress, &log, func(*Outcomes) error { saved++; return nil })
	if err != nil {
		t.Fatal(err)
	}
	if saved != 2 || o.Full() != 1 || o.Len() != 5 {
		t.Errorf("saved %d times, Full %d, Len %d; want 2, 1, 5", saved, o.Full(), o.Len())
	}
	for c, want := range []int{1, 1, 0, -1, 0, 1, 1} { // the opponent's outcome after the first move
		p := Position{}
		p.Play(c)
		if got, ok := o.Lookup(p); !ok || got != want {
			t.Errorf("first move in column %d: %d, %v; want %d", c+1, got, ok, want)
		}
	}
	// A progress that says every first move leaves the opponent a win
	// contradicts the book's empty board (a win): the check of level 0
	// fails.
	centre := Position{}
	centre.Play(3)
	bad := bytes.NewBufferString(strconv.FormatUint(canonical(centre)<<2|2, 16) + "\n")
	for c := range Width {
		if c != 3 {
			p := Position{}
			p.Play(c)
			bad.WriteString(strconv.FormatUint(canonical(p)<<2|2, 16) + "\n")
		}
	}
	if _, err := BuildOutcomes(t.Context(), OutcomesPlan{Full: 1}, bad, nil, nil); err == nil {
		t.Error("BuildOutcomes with every first move a win for the opponent: no error")
	}
}

// TestOutcomesParts checks that the parts of a plan share its sample: each
// position goes to exactly one part, and a bad part is refused.
func TestOutcomesParts(t *testing.T) {
	for _, parts := range []int{0, 1, 2, 3, 7} {
		for i := range 50 {
			n := 0
			for k := 1; k <= max(parts, 1); k++ {
				if (OutcomesPlan{Part: k, Parts: parts}).mine(i) {
					n++
				}
			}
			if n != 1 {
				t.Errorf("%d parts: sample position %d is in %d of them, want 1", parts, i, n)
			}
		}
	}
	for _, bad := range []OutcomesPlan{{Part: 0, Parts: 2}, {Part: 3, Parts: 2}, {Part: -1, Parts: 4}} {
		if _, err := BuildOutcomes(t.Context(), bad, &bytes.Buffer{}, nil, nil); err == nil {
			t.Errorf("part %d of %d: no error", bad.Part, bad.Parts)
		}
	}
}

// TestSamplePositions checks the sample games' positions: more discs than
// the full levels and no more than deep, no connect at once, most often
// reached first.
func TestSamplePositions(t *testing.T) {
	t.Parallel() // CPU-bound and shares nothing: runs beside the tests that wait
	plan := OutcomesPlan{Full: 2, Deep: 6, Games: 40, Seed: 3}
	keys := samplePositions(plan)
	if len(keys) == 0 {
		t.Fatal("no sample positions")
	}
	for _, k := range keys {
		p := positionOfKey(k)
		if p.moves <= plan.Full || p.moves > plan.Deep || p.CanWinNext() || canonical(p) != k {
			t.Errorf("sample position\n%s(%d discs) out of the plan", p, p.moves)
		}
	}
	if again := samplePositions(plan); !slices.Equal(again, keys) {
		t.Error("the same plan gave other positions")
	}
	// The first is reached by at least as many games as any other: with
	// 40 games it is one of the 3-disc positions.
	if d := positionOfKey(keys[0]).moves; d != 3 {
		t.Errorf("the most often reached position has %d discs, want 3", d)
	}
}

// TestSolveWithKnown checks that a solver that looks positions up in the
// outcome table and the book finds the exact values of one that does not,
// on seeded random positions of 9 to 12 discs (from the empty board the
// searches meet the book's positions, and the table's).
func TestSolveWithKnown(t *testing.T) {
	t.Parallel() // CPU-bound and shares nothing: runs beside the tests that wait
	plain, known := NewSolver(), NewSolver()
	known.useKnown(embeddedOutcomes(), embeddedBook())
	for d := 9; d <= 12; d++ {
		for _, p := range depthPositions(d, samples(4, 1, 1)) {
			want := plain.Solve(p)
			if got := known.Solve(p); got != want {
				t.Errorf("position\n%s: %d with the tables, %d without", p, got, want)
			}
			known.Reset()
			if got := mustWeakSolve(known, p); got != sign(want) {
				t.Errorf("position\n%s: outcome %d with the tables, %d without", p, got, sign(want))
			}
		}
	}
}

// TestOutcomesPartsShareLevels: two parts of a build share a level's
// unknown positions, each solving its own and stopping at the level, and a
// run on their merged progress files checks the level and ends with the
// table a single process makes. The progress starts as the embedded
// table's levels 0-6 but for two positions of level 6, one of each part's
// share, and holds their children's outcomes from the table too, so that
// the build's search of each ends at them: a search of 6 discs without
// them took 3.5 s of the suite.
func TestOutcomesPartsShareLevels(t *testing.T) {
	t.Parallel() // CPU-bound and shares nothing: runs beside the tests that wait
	emb := embeddedOutcomes()
	const full = 6
	if emb.Full() < full {
		t.Skipf("the embedded table holds %d full levels", emb.Full())
	}
	// The first position of level 6 of each part's share whose children
	// the table holds: its search ends at them.
	drop := map[int]bool{}
	var given []string // their children's outcomes
	for part := range 2 {
		for i := part; i < len(emb.levels[full]); i += 2 {
			if children, ok := childOutcomes(emb, positionOfKey(emb.levels[full][i])); ok {
				drop[i], given = true, append(given, children...)
				break
			}
		}
	}
	if len(drop) != 2 {
		t.Fatal("no position of level 6 with its children in the table, in each part's share")
	}
	var lines []string
	dropped := make([]uint64, 2) // part 1's, part 2's
	for d := 0; d <= full; d++ {
		for i, k := range emb.levels[d] {
			if d == full && drop[i] {
				dropped[i%2] = k
				continue
			}
			lines = append(lines, strconv.FormatUint(k<<2|uint64(unpack3(emb.packed[d], i)), 16))
		}
	}
	lines = append(lines, given...)
	start := strings.Join(lines, "\n") + "\n"
	var merged strings.Builder
	merged.WriteString(start)
	for part := 1; part <= 2; part++ {
		var solved, log bytes.Buffer
		o, err := BuildOutcomes(t.Context(), OutcomesPlan{Full: full, Deep: full, Part: part, Parts: 2},
			progressFile{strings.NewReader(start), &solved}, &log, nil)
		if err != nil {
			t.Fatalf("part %d: %v", part, err)
		}
		added := strings.Fields(solved.String())
		if o.Full() != full-1 || len(added) != 1 || !strings.Contains(log.String(), "other parts'") {
			t.Fatalf("part %d: Full %d, %d positions solved (%v), log %q; want %d, 1 and the other parts named", part, o.Full(), len(added), added, log.String(), full-1)
		}
		e, err := strconv.ParseUint(added[0], 16, 64)
		if err != nil || e>>2 != dropped[part-1] {
			t.Fatalf("part %d solved %s, want position %x", part, added[0], dropped[part-1])
		}
		merged.WriteString(added[0] + "\n")
	}
	var solved bytes.Buffer
	o, err := BuildOutcomes(t.Context(), OutcomesPlan{Full: full, Deep: full}, progressFile{strings.NewReader(merged.String()), &solved}, nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if solved.Len() != 0 || o.Full() != full {
		t.Errorf("the run on the merged progress solved %q and holds %d full levels; want nothing and %d", solved.String(), o.Full(), full)
	}
	for _, k := range dropped {
		i := slices.Index(emb.levels[full], k)
		if got, want := unpack3(o.packed[full], slices.Index(o.levels[full], k)), unpack3(emb.packed[full], i); got != want {
			t.Errorf("position %x: outcome code %d, the embedded table %d", k, got, want)
		}
	}
}

// childOutcomes returns the progress lines of the outcomes o holds of the
// positions a move of p leads to, but those won at once and those where
// the player to move connects at once (the solver knows them itself); ok
// is false when o lacks one.
func childOutcomes(o *Outcomes, p Position) (lines []string, ok bool) {
	for c := range Width {
		if !p.CanPlay(c) || p.IsWinningMove(c) {
			continue
		}
		q := p
		q.Play(c)
		if q.CanWinNext() {
			continue
		}
		v, ok := o.Lookup(q)
		if !ok {
			return nil, false
		}
		lines = append(lines, strconv.FormatUint(canonical(q)<<2|uint64(v+1), 16))
	}
	return lines, true
}

// progressFile is a progress file read from one place and appended to
// another.
type progressFile struct {
	io.Reader
	io.Writer
}
