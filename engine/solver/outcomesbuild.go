package solver

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"slices"
	"time"

	"github.com/connect4/connect4/engine"
)

// OutcomesPlan says what BuildOutcomes solves: every position with at most
// Full discs, then, in the order of how often they are reached, the
// positions with Full+1 to Deep discs of Games games between the AI levels.
type OutcomesPlan struct {
	Full  int    // every position up to this many discs (0-8)
	Deep  int    // the sample games' positions up to this many discs
	Games int    // sample games: easy and medium against each other and themselves
	Seed  uint64 // the seed of the sample games
	// Part and Parts share the work between Parts processes (0 or 1:
	// one): this one solves the positions whose index in their level's
	// order, and in the sample's, is Part-1 modulo Parts, each process
	// with a progress file of its own, merged afterwards (the lines of
	// each are entries, in any order). A part stops after the first level
	// it does not know whole once its share is solved (the check of a
	// level needs the next one whole): a run on the merged progress files
	// then checks the levels and goes on.
	Part, Parts int
}

// BuildOutcomes builds the outcome table of plan, solving each position
// (win, draw or loss only) with one solver, whose table is kept from
// position to position: level by level from the empty board, so that the
// search of a position finds the table filled by its parent's. Its searches
// look up the opening book and the positions solved so far; the positions
// the book holds take their outcome from its exact value. Each solved
// position is appended to progress at once (its entry in hexadecimal, a
// line), and a new run solves only what progress lacks. Every position of a
// level is checked against its children on the next level once that is
// complete: its outcome must be the best of theirs.
//
// After each level, after every 200 sample positions and when ctx is done
// among the sample positions, save (when not nil) gets the table as far as
// it goes: the complete levels in full and the rest as extra entries. log
// gets a line per level and per 200 sample positions. It returns the
// table, or ctx's error, a progress read or write error, a check's failure
// or save's error.
func BuildOutcomes(ctx context.Context, plan OutcomesPlan, progress BookProgress, log io.Writer, save func(*Outcomes) error) (*Outcomes, error) {
	if plan.Full < 0 || plan.Full > outcomesMaxFull || plan.Deep > cells {
		return nil, fmt.Errorf("solver: outcome table of %d full levels, want 0-%d", plan.Full, outcomesMaxFull)
	}
	if plan.Parts > 1 && (plan.Part < 1 || plan.Part > plan.Parts) {
		return nil, fmt.Errorf("solver: part %d of %d, want 1-%d", plan.Part, plan.Parts, plan.Parts)
	}
	known := map[uint64]byte{}
	err := readProgress(progress, "outcome", func(e uint64) bool {
		known[e>>2] = byte(e & 3)
		return e&3 <= 2
	})
	if err != nil {
		return nil, err
	}
	b := &outcomeBuild{
		sv:       newSolver(defaultNearLog, 24, defaultSplit),
		done:     ctx.Done(),
		progress: progress,
		known:    known,
		log:      log,
	}
	levels := tableLevels(plan.Full)
	complete := -1
	// The solver looks up, inside its searches, the book and what the
	// build has solved, refreshed every 20 positions.
	b.refresh = func() { b.sv.useKnown(newOutcomes(complete, levels, known), embeddedBook()) }
	b.refresh()
	snapshot := func() error {
		if save == nil || complete < 0 {
			return nil
		}
		return save(newOutcomes(complete, levels, known))
	}
	for d, level := range levels {
		start, solved := time.Now(), 0
		for i, k := range level {
			if !plan.mine(i) {
				b.fromBook(k) // the others' share, where the book has it
				continue
			}
			n, err := b.solve(ctx, k)
			if err != nil {
				return nil, err
			}
			solved += n
		}
		if missing := b.unknown(level); missing > 0 {
			// Only a part leaves some: the others' share.
			b.logf("level %d: this part's share of %d positions solved (%d now) in %v; %d are the other parts': merge the progress files and run again\n",
				d, len(level), solved, time.Since(start).Round(time.Millisecond), missing)
			return newOutcomes(complete, levels, known), snapshot()
		}
		if d > 0 {
			if err := checkLevel(levels[d-1], known); err != nil {
				return nil, err
			}
		}
		complete = d
		b.logf("level %d: %d positions (%d solved now) in %v\n", d, len(level), solved, time.Since(start).Round(time.Millisecond))
		if err := snapshot(); err != nil {
			return nil, err
		}
	}
	sample := samplePositions(plan)
	start, solved := time.Now(), 0
	ours := 0 // sample positions of this part so far
	for i, k := range sample {
		if !plan.mine(i) {
			continue
		}
		n, err := b.solve(ctx, k)
		if err != nil {
			// Cut short: the table as far as it goes is still worth having.
			b.logf("sample: stopped after %d of %d positions (%d solved now) in %v\n", i, len(sample), solved, time.Since(start).Round(time.Millisecond))
			return nil, errors.Join(err, snapshot())
		}
		solved += n
		// This part's last position is among the sample's last Parts.
		if ours++; ours%200 == 0 || i >= len(sample)-max(plan.Parts, 1) {
			b.logf("sample: %d of %d positions (%d solved now) in %v\n", i+1, len(sample), solved, time.Since(start).Round(time.Millisecond))
			if err := snapshot(); err != nil {
				return nil, err
			}
		}
	}
	return newOutcomes(complete, levels, known), nil
}

// mine reports whether the position at index i of a level, or of the
// sample, is this part's.
func (plan OutcomesPlan) mine(i int) bool { return plan.Parts <= 1 || i%plan.Parts == plan.Part-1 }

// outcomeBuild is the state of BuildOutcomes.
type outcomeBuild struct {
	sv       *Solver
	done     <-chan struct{}
	progress io.Writer
	known    map[uint64]byte
	log      io.Writer
	refresh  func() // gives the solver what is known so far
	fresh    int    // positions solved since the last refresh
}

func (b *outcomeBuild) logf(format string, args ...any) {
	if b.log != nil {
		fmt.Fprintf(b.log, format, args...)
	}
}

// unknown returns how many positions of level are not known.
func (b *outcomeBuild) unknown(level []uint64) int {
	n := 0
	for _, k := range level {
		if _, ok := b.known[k]; !ok {
			n++
		}
	}
	return n
}

// fromBook makes the position of canonical key k known when the opening
// book holds it, as solve does; it reports whether k is known.
func (b *outcomeBuild) fromBook(k uint64) bool {
	if _, ok := b.known[k]; ok {
		return true
	}
	if _, v, ok := embeddedBook().Lookup(positionOfKey(k)); ok {
		// The opening book's exact value, verified when it was built.
		b.known[k] = byte(max(-1, min(1, v)) + 1)
		return true
	}
	return false
}

// solve solves the position of canonical key k unless known, and appends it
// to the progress; it returns 1 if it solved it, 0 if it was known.
func (b *outcomeBuild) solve(ctx context.Context, k uint64) (int, error) {
	if b.fromBook(k) {
		return 0, nil
	}
	p := positionOfKey(k)
	b.sv.limited, b.sv.deadline, b.sv.done, b.sv.aborted = true, time.Time{}, b.done, false
	v, ok := b.sv.weakSolve(p)
	if !ok {
		return 0, ctx.Err()
	}
	b.known[k] = byte(v + 1)
	if b.fresh++; b.fresh == 20 {
		b.refresh()
		b.fresh = 0
	}
	if _, err := fmt.Fprintf(b.progress, "%x\n", k<<2|uint64(v+1)); err != nil {
		return 0, fmt.Errorf("solver: write outcome progress: %w", err)
	}
	return 1, nil
}

// checkLevel checks that each position of level (canonical keys) has the
// best outcome of its moves, as known holds them for the next level.
func checkLevel(level []uint64, known map[uint64]byte) error {
	for _, k := range level {
		p := positionOfKey(k)
		best := -1
		for c := range Width {
			if !p.CanPlay(c) {
				continue
			}
			if p.IsWinningMove(c) {
				best = 1
				break
			}
			q := p
			q.Play(c)
			o := 1 // the opponent connects at once
			if !q.CanWinNext() {
				code, ok := known[canonical(q)]
				if !ok {
					return fmt.Errorf("solver: outcome table: %s lacks a child", p)
				}
				o = int(code) - 1
			}
			best = max(best, -o)
		}
		if got := int(known[k]) - 1; got != best {
			return fmt.Errorf("solver: outcome table: position\n%shas outcome %d, its best move %d", p, got, best)
		}
	}
	return nil
}

// samplePositions returns the canonical keys of the positions with plan.Full+1
// to plan.Deep discs that plan.Games games reach (easy against medium, as
// either colour, medium against medium and easy against easy, a quarter
// each), most often reached first, then fewer discs first. Positions where
// the player to move connects at once are left out: they need no table.
func samplePositions(plan OutcomesPlan) []uint64 {
	rng := rand.New(rand.NewPCG(plan.Seed, 0x0c4))
	count := map[uint64]int{}
	pairs := [4][2]Level{{Easy, Medium}, {Medium, Easy}, {Medium, Medium}, {Easy, Easy}}
	for g := range plan.Games {
		pair := pairs[g%len(pairs)]
		var p Position
		var history []int
		for p.moves < plan.Deep {
			b, _ := replay(engine.DefaultConfig(), history)
			var col int
			if pair[p.moves%2] == Easy {
				col = chooseEasy(b, rng)
			} else {
				col = chooseMedium(b, rng, time.Time{}, nil)
			}
			if p.IsWinningMove(col) {
				break
			}
			p.Play(col)
			history = append(history, col)
			if p.moves > plan.Full && !p.CanWinNext() {
				count[canonical(p)]++
			}
		}
	}
	keys := make([]uint64, 0, len(count))
	for k := range count {
		keys = append(keys, k)
	}
	slices.SortFunc(keys, func(a, b uint64) int {
		return cmp.Or(cmp.Compare(count[b], count[a]), cmp.Compare(positionOfKey(a).moves, positionOfKey(b).moves), cmp.Compare(a, b))
	})
	return keys
}
