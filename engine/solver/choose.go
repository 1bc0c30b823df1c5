package solver

import (
	"context"
	"fmt"
	"math/rand/v2"
	"sync"
	"time"

	"github.com/connect4/connect4/engine"
)

// DefaultBudget is the time AI.ChooseMove allows itself when given no budget.
const DefaultBudget = time.Second

const (
	easyTakeChance = 0.5  // how often easy takes a win, and how often it blocks a loss
	mediumDepth    = 4    // plies medium looks ahead
	mediumMistake  = 0.15 // how often medium plays a random column instead
	exactShare     = 0.5  // share of hard's budget the exact solver may use on the standard board
	weakShare      = 0.8  // share by which the win/draw/loss solver must be done
)

// AI is the computer player: it chooses a move at the easy, medium or hard
// level. It keeps hard's solvers between moves, in one pool per far-table size
// (2^18 and 2^20 entries): a table is megabytes to allocate and fault in, while
// Reset empties it in constant time, so an AI that plays many games reuses a
// few tables instead of allocating ~10 MiB a move. The pools are sync.Pools, so
// the collector may drop idle solvers.
//
// The zero value is ready to use, and so is NewAI's. An AI is safe for
// concurrent use and must not be copied after its first move. Two AIs share no
// solvers. A nil *AI plays too, but keeps nothing between moves: each hard move
// on the standard board allocates its own tables.
type AI struct {
	small, large sync.Pool // *Solver with a far table of 2^18 and 2^20 entries
}

// NewAI returns an AI with no solvers yet; it is the same as new(AI).
func NewAI() *AI { return new(AI) }

// ChooseMove returns the 0-based column the computer plays next at the given
// level in g, which it only reads. rng supplies the level's randomness; nil
// means a freshly seeded generator.
//
// It searches for at most budget (DefaultBudget when budget <= 0) and stops
// earlier when ctx is done, returning the best move found so far; it never
// returns ctx's error. It returns an *Error for an unknown level
// (ReasonBadLevel), a nil g (ReasonNoGame), a game already won or resigned
// (ReasonGameOver) or drawn (ReasonBoardFull), and g.Config().Validate's
// *engine.ConfigError, unwrapped, for a g whose size the engine does not
// allow (only the zero engine.Game, since engine.New and engine.Decode check
// the size).
//
// ChooseMove is safe for concurrent use, provided each goroutine passes its
// own rng (a *rand.Rand is not safe for concurrent use) and no goroutine
// changes g meanwhile. Hard on the standard board holds up to 14 MiB of
// tables for the duration of the call, which a's pools keep afterwards.
func (a *AI) ChooseMove(ctx context.Context, g *engine.Game, level Level, rng *rand.Rand, budget time.Duration) (int, error) {
	start := time.Now()
	if level < Easy || level > Hard {
		return -1, &Error{Reason: ReasonBadLevel, Detail: fmt.Sprintf("level %d", int(level))}
	}
	if g == nil {
		return -1, &Error{Reason: ReasonNoGame}
	}
	cfg := g.Config()
	if err := cfg.Validate(); err != nil {
		return -1, err
	}
	switch g.State() {
	case engine.Won:
		return -1, &Error{Reason: ReasonGameOver, Move: g.Moves(), Detail: g.Winner().String() + " connects " + fmt.Sprint(cfg.Connect)}
	case engine.Resigned:
		return -1, &Error{Reason: ReasonGameOver, Detail: "resigned"}
	case engine.Draw:
		return -1, &Error{Reason: ReasonBoardFull, Detail: fmt.Sprintf("after %d moves", g.Moves())}
	}
	history := g.History()
	b, err := replay(cfg, history)
	if err != nil {
		return -1, err
	}
	if rng == nil {
		rng = rand.New(rand.NewPCG(rand.Uint64(), rand.Uint64()))
	}
	if budget <= 0 {
		budget = DefaultBudget
	}
	// Stop searching a tenth early (at most 100ms): the clock is read only
	// every thousand or so nodes, and a loaded machine may not run us at once.
	deadline := start.Add(budget - min(budget/10, 100*time.Millisecond))
	if d, ok := ctx.Deadline(); ok {
		if left := d.Sub(start); d.Before(deadline) {
			deadline = start.Add(left - min(left/10, 100*time.Millisecond))
		}
	}
	switch level {
	case Easy:
		return chooseEasy(b, rng), nil
	case Medium:
		return chooseMedium(b, rng, deadline, ctx.Done()), nil
	default:
		return a.chooseHard(b, history, start, deadline, ctx.Done()), nil
	}
}

// chooseEasy plays at random, except that half the time it takes a win, and
// half the time it blocks the opponent's.
func chooseEasy(b *board, rng *rand.Rand) int {
	me := b.mover()
	if wins := b.winningCols(me); len(wins) > 0 && rng.Float64() < easyTakeChance {
		return wins[rng.IntN(len(wins))]
	}
	if threats := b.winningCols(1 - me); len(threats) > 0 && rng.Float64() < easyTakeChance {
		return threats[rng.IntN(len(threats))]
	}
	legal := b.legalCols()
	return legal[rng.IntN(len(legal))]
}

// chooseMedium always takes a win, now and then plays at random, and otherwise
// plays one of the best columns of a shallow search.
func chooseMedium(b *board, rng *rand.Rand, deadline time.Time, done <-chan struct{}) int {
	me := b.mover()
	if wins := b.winningCols(me); len(wins) > 0 {
		return wins[rng.IntN(len(wins))]
	}
	legal := b.legalCols()
	if rng.Float64() < mediumMistake {
		return legal[rng.IntN(len(legal))]
	}
	s := newSearcher(b, deadline, done)
	scores, ok := s.rootScores(mediumDepth)
	if !ok {
		if threats := b.winningCols(1 - me); len(threats) > 0 {
			return threats[0]
		}
		return legal[rng.IntN(len(legal))]
	}
	var best []int
	for _, c := range legal {
		switch {
		case len(best) == 0 || scores[c] > scores[best[0]]:
			best = append(best[:0], c)
		case scores[c] == scores[best[0]]:
			best = append(best, c)
		}
	}
	return best[rng.IntN(len(best))]
}

// chooseHard takes a win, blocks a loss, then on the standard board plays
// the opening book's move where it has one, else asks the exact solver for a best move within its share of the time, then for a move
// that keeps the game's outcome; otherwise (or when the solvers run out of time,
// or prove the game lost) it plays the best move of an iterative-deepening
// search that runs until the deadline.
func (a *AI) chooseHard(b *board, history []int, start, deadline time.Time, done <-chan struct{}) int {
	s := newSearcher(b, deadline, done)
	me := b.mover()
	for _, c := range s.order {
		if b.canPlay(c) && b.wins(c, me) {
			return c
		}
	}
	for _, c := range s.order {
		if b.canPlay(c) && b.wins(c, 1-me) {
			return c // with two threats, the game is lost whatever we block
		}
	}

	standard := b.rows == Height && b.cols == Width && b.connect == 4
	var p Position
	if standard {
		for _, c := range history {
			p.Play(c)
		}
		// In the opening, where the solver takes longest, the book knows,
		// in microseconds, whatever the time left.
		if col, _, ok := embeddedBook().Lookup(p); ok && p.CanPlay(col) {
			return col
		}
	}
	if standard && !stopped(deadline, done) {
		share := func(f float64) time.Time { return start.Add(time.Duration(float64(deadline.Sub(start)) * f)) }
		// The far table grows with the time there is to fill it.
		farLog := uint(18)
		if deadline.Sub(start) > 300*time.Millisecond {
			farLog = 20
		}
		sv := a.getSolver(farLog)
		defer a.putSolver(farLog, sv)
		sv.limited, sv.done = true, done
		// First the exact value, which also finds the quickest win; failing
		// that, the outcome only, which is several times cheaper and still
		// perfect play. The second search reuses the first one's table.
		sv.deadline = share(exactShare)
		if col, _, ok := sv.bestMove(p, false); ok && col >= 0 {
			return col
		}
		sv.deadline, sv.aborted = share(weakShare), false
		// A proven loss is left to the heuristic search, whose move makes the
		// opponent work harder than the first move that loses anyway.
		if col, sign, ok := sv.bestMove(p, true); ok && col >= 0 && sign >= 0 {
			return col
		}
	}

	if col, _, _ := s.iterate(b.rows * b.cols); col >= 0 {
		return col
	}
	// Not even one ply finished: any column that does not hand the opponent a
	// win right above it, centre first.
	for _, c := range s.order {
		if !b.canPlay(c) {
			continue
		}
		b.play(c)
		gives := b.canPlay(c) && b.wins(c, 1-me)
		b.undo(c)
		if !gives {
			return c
		}
	}
	return b.legalCols()[0]
}

// stopped reports whether a search bounded by deadline and done must not
// start at all.
func stopped(deadline time.Time, done <-chan struct{}) bool {
	select {
	case <-done:
		return true
	default:
	}
	return !time.Now().Before(deadline)
}

// pool returns a's pool of solvers with a far table of 2^farLog entries
// (18 or 20).
func (a *AI) pool(farLog uint) *sync.Pool {
	if farLog == 20 {
		return &a.large
	}
	return &a.small
}

// getSolver returns an empty solver with a far table of 2^farLog entries: one
// of a's, or a new one when a has none idle or is nil.
func (a *AI) getSolver(farLog uint) *Solver {
	if a != nil {
		if sv, ok := a.pool(farLog).Get().(*Solver); ok {
			sv.Reset()
			return sv
		}
	}
	return newSolver(defaultNearLog, farLog, defaultSplit)
}

// putSolver gives sv, which getSolver(farLog) returned, back to a (or to the
// collector when a is nil).
func (a *AI) putSolver(farLog uint, sv *Solver) {
	if a == nil {
		return
	}
	sv.limited, sv.deadline, sv.done, sv.aborted = false, time.Time{}, nil, false
	a.pool(farLog).Put(sv)
}
