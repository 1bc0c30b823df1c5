package solver

import (
	"context"
	"math/bits"
	"time"
)

// centreFirst is the order in which columns are tried when nothing else tells
// them apart: central columns take part in more lines.
var centreFirst = [Width]int{3, 2, 4, 1, 5, 0, 6}

// checkEvery is the number of nodes between two looks at the clock when a
// search has a deadline; it must be a power of two.
const checkEvery = 1024

// Enhanced transposition cutoffs are tried in positions with etcFrom to
// etcBelow-1 discs. Deeper down the subtrees they save are smaller than the
// cost of the extra table probes; in positions with fewer discs they rarely
// cut (on Test_L1_R1, 4 to 14 discs, trying them from 0 saves 0.3 % of the
// nodes) and their probes miss the caches in the far table.
const (
	etcFrom  = 14
	etcBelow = 26
)

// openLinesFrom is the number of discs from which negamax looks for open lines:
// before it both players always have some.
const openLinesFrom = 20

// hasOpenLine reports whether the player whose opponent holds the discs opp
// still has a line of four on the board with no disc of opp in it.
func hasOpenLine(opp uint64) bool {
	free := boardBits &^ opp
	for _, d := range [...]uint{1, stride, stride - 1, stride + 1} {
		pairs := free & (free >> d)
		if pairs&(pairs>>(2*d)) != 0 {
			return true
		}
	}
	return false
}

// Solver computes exact values of positions on the standard board. It keeps a
// transposition table (about 33 MiB) between calls; Reset clears it in constant time.
// A Solver is not safe for concurrent use; use one per goroutine.
type Solver struct {
	// Two tables: positions with fewer than split discs go to the large far
	// table, the rest to the near one, which is small enough to stay in the CPU
	// caches. Nearly all nodes are deep ones, and a probe that misses the cache
	// costs more than the search of a small subtree; the few shallow nodes root
	// the big subtrees and deserve a slot that is not overwritten soon. Reset
	// sets split to baseSplit; from widenAfter nodes on it is at least
	// wideSplit.
	near, far *table
	split     int
	baseSplit int
	nodes     uint64

	// Stores of known values, looked up in the search of positions with at
	// most knownUpTo discs: the analysis sets them, the AI does not (its
	// book is consulted before the search).
	outcomes  *Outcomes
	book      *Book
	knownUpTo int

	// Stop control for bounded searches; zero values mean no limit.
	limited  bool
	deadline time.Time
	done     <-chan struct{}
	aborted  bool
}

// NewSolver returns a Solver with an empty transposition table: 2^16 entries
// (512 KiB) for positions with 15 discs or more (21 once a search has taken
// 2^20 nodes) and 2^22 entries (32 MiB) for the rest, plus up to 2 MiB to
// align the large one to huge pages.
func NewSolver() *Solver { return newSolver(defaultNearLog, defaultFarLog, defaultSplit) }

func newSolver(nearLog, farLog uint, split int) *Solver {
	return &Solver{near: newTable(nearLog), far: newTable(farLog), split: split, baseSplit: split, knownUpTo: -1}
}

// tableFor returns the table for positions with the given number of discs.
func (s *Solver) tableFor(moves int) *table {
	if moves < s.split {
		return s.far
	}
	return s.near
}

// Reset empties the transposition table and zeroes the node count, so that the
// next Solve starts from scratch. It takes constant time.
func (s *Solver) Reset() {
	s.near.reset()
	s.far.reset()
	s.nodes = 0
	s.split = s.baseSplit
}

// Nodes returns the number of positions searched since the last Reset.
func (s *Solver) Nodes() uint64 { return s.nodes }

// Solve returns the exact value of p for the player to move: 0 for a draw, 22
// minus the number of discs the player to move will have played when they
// connect four if they win with best play, and the negative of the same count for
// the opponent if they lose; for a position already won (which ParsePosition
// rejects, but Play allows), that loss. Solve reuses what the transposition table holds; call Reset
// first to solve from scratch.
func (s *Solver) Solve(p Position) int {
	s.limited, s.aborted = false, false
	v, _ := s.solve(p)
	return v
}

// SolveContext is Solve that gives up when ctx is done, returning ctx's error.
func (s *Solver) SolveContext(ctx context.Context, p Position) (int, error) {
	deadline, _ := ctx.Deadline()
	v, ok := s.solveUntil(p, deadline, ctx.Done())
	if !ok {
		if err := ctx.Err(); err != nil {
			return 0, err
		}
		return 0, context.DeadlineExceeded
	}
	return v, nil
}

// solveUntil is Solve with a deadline and a cancel channel (either may be
// zero). ok is false when the search was cut short; the value is then meaningless.
func (s *Solver) solveUntil(p Position, deadline time.Time, done <-chan struct{}) (value int, ok bool) {
	s.limited, s.deadline, s.done, s.aborted = true, deadline, done, false
	defer func() { s.limited, s.done = false, nil }()
	v, ok := s.solve(p)
	return v, ok
}

func (s *Solver) solve(p Position) (int, bool) {
	return s.solveWithin(p, -(cells-p.moves)/2, (cells+1-p.moves)/2)
}

// weakSolve returns the sign of p's value: 1 win, 0 draw, -1 loss. It is
// several times faster than solve: it only proves which side of 0 the value is.
func (s *Solver) weakSolve(p Position) (int, bool) {
	v, ok := s.solveWithin(p, -1, 1)
	return max(-1, min(1, v)), ok
}

// solveWithin returns p's value if it lies in [lo, hi]; otherwise it returns a
// value beyond the bound it exceeds.
func (s *Solver) solveWithin(p Position, lo, hi int) (int, bool) {
	if p.lastMoverWon() {
		return (p.moves+1)/2 - (cells+2)/2, true
	}
	if p.CanWinNext() {
		return (cells + 1 - p.moves) / 2, true
	}
	// Narrow [lo, hi] with null-window searches. Probing three quarters of
	// the way from zero towards the bound on the side of the middle is
	// cheaper than bisecting: a search far from the value is proved fast, and
	// a large value is reached in few probes. Against probing halfway, it
	// takes 41 % fewer nodes on Test_L1_R1 (values 8 to 18 either way), 14 %
	// fewer on Test_L2_R1, 1 to 2 % fewer on the begin-hard sets, and 6 %
	// more on Test_L3_R1 and 6 to 12 % more on Test_L2_R2 (values mostly
	// within 3 of a draw).
	for lo < hi {
		probe := lo + (hi-lo)/2
		if probe <= 0 && lo*3/4 < probe {
			probe = lo * 3 / 4
		} else if probe >= 0 && hi*3/4 > probe {
			probe = hi * 3 / 4
		}
		r := s.negamax(p, probe, probe+1)
		if s.aborted {
			return 0, false
		}
		if r <= probe {
			hi = r
		} else {
			lo = r
		}
	}
	return lo, true
}

// BestMove returns a column (0-based) that keeps the exact value of p, and that
// value (as Solve gives it). Among equally good columns it prefers the most
// central. col is -1 when the board is full or the game already won.
func (s *Solver) BestMove(p Position) (col, value int) {
	s.limited, s.aborted = false, false
	col, value, _ = s.bestMove(p, false)
	return col, value
}

// bestMove is BestMove for bounded searches: ok is false when the search was
// cut short. With weak, value is only the sign of the value (1 win, 0 draw, -1
// loss) and col a column that keeps it: the game's outcome, not its length.
func (s *Solver) bestMove(p Position, weak bool) (col, value int, ok bool) {
	if p.lastMoverWon() {
		v, _ := s.solve(p)
		return -1, v, true
	}
	if p.moves >= cells {
		return -1, 0, true
	}
	for _, c := range centreFirst {
		if p.CanPlay(c) && p.IsWinningMove(c) {
			return c, (cells + 1 - p.moves) / 2, true
		}
	}
	if weak {
		value, ok = s.weakSolve(p)
	} else {
		value, ok = s.solve(p)
	}
	if !ok {
		return -1, 0, false
	}
	next := p.nonLosingMoves()
	if next == 0 {
		// Every move loses at once; block one threat anyway.
		block := p.possible() & p.opponentWinningCells()
		if block == 0 {
			block = p.possible()
		}
		return bits.TrailingZeros64(block) / stride, value, true
	}
	for _, c := range centreFirst {
		if next&columnBits(c) == 0 {
			continue
		}
		q := p
		q.Play(c)
		// The child's value is at most -value exactly when this move keeps value.
		if r := s.negamax(q, -value, -value+1); s.aborted {
			return -1, 0, false
		} else if r <= -value {
			return c, value, true
		}
	}
	// Unreachable when the search is exact; fall back to the first candidate.
	return bits.TrailingZeros64(next) / stride, value, true
}

// expired reports whether a bounded search must stop.
func (s *Solver) expired() bool {
	if !s.deadline.IsZero() && time.Now().After(s.deadline) {
		return true
	}
	select {
	case <-s.done:
		return true
	default:
		return false
	}
}

// negamax returns the value of p if it lies strictly between alpha and beta, an
// upper bound no greater than alpha if the value is at most alpha, and a lower
// bound no less than beta if the value is at least beta. The player to move must
// not be able to win at once.
func (s *Solver) negamax(p Position, alpha, beta int) int {
	s.nodes++
	if s.nodes == widenAfter {
		s.split = max(s.split, wideSplit)
	}
	if s.limited && s.nodes&(checkEvery-1) == 0 && s.expired() {
		s.aborted = true
	}
	if s.aborted {
		return 0
	}

	// The moves that do not lose at once (nonLosingMoves, keeping the
	// opponent's winning cells for the move ordering). Written out here, not
	// called: a function returning both is over the compiler's inlining
	// budget, and this runs at every node.
	possible := p.possible()
	oppWins := p.opponentWinningCells()
	next := possible &^ (oppWins >> 1)
	if forced := possible & oppWins; forced != 0 {
		if forced&(forced-1) != 0 {
			next = 0 // two threats at once: one of them wins
		} else {
			next &= forced
		}
	}
	if next == 0 {
		return -(cells - p.moves) / 2 // the opponent wins with their next disc
	}
	if p.moves >= cells-2 {
		return 0 // neither can connect in the last two moves
	}

	// We cannot win with the next disc, nor lose with the opponent's next one.
	if lo := -(cells - 2 - p.moves) / 2; alpha < lo {
		alpha = lo
		if alpha >= beta {
			return alpha
		}
	}
	if hi := (cells - 1 - p.moves) / 2; beta > hi {
		beta = hi
		if alpha >= beta {
			return beta
		}
	}

	// A player with no line of four left open (no cell of it taken by the
	// other) cannot win: late in the game that bounds the value by a draw.
	if p.moves >= openLinesFrom {
		if beta > 0 && !hasOpenLine(p.current^p.mask) {
			beta = 0
			if alpha >= beta {
				return beta
			}
		}
		if alpha < 0 && !hasOpenLine(p.current) {
			alpha = 0
			if alpha >= beta {
				return alpha
			}
		}
	}

	// A position the outcome table or the book holds needs no search
	// when what they know decides the window.
	if p.moves <= s.knownUpTo {
		if lo, hi, ok := s.knownBounds(p); ok {
			if lo > alpha {
				alpha = lo
				if alpha >= beta {
					return alpha
				}
			}
			if hi < beta {
				beta = hi
				if alpha >= beta {
					return beta
				}
			}
		}
	}

	// A single move that does not lose at once is played without a look at
	// the table: its value is the child's, which the child's own entry holds,
	// and an entry here would only take a slot from a position with a choice.
	if next&(next-1) == 0 {
		q := p
		q.playBit(next)
		return -s.negamax(q, -beta, -alpha)
	}

	key := p.Key()
	tt := s.tableFor(p.moves)
	childTT := s.tableFor(p.moves + 1)
	ttMove := 0
	if v, lower, m, ok := tt.get(key); ok {
		ttMove = m
		if lower {
			if v > alpha {
				alpha = v
				if alpha >= beta {
					return alpha
				}
			}
		} else if v < beta {
			beta = v
			if alpha >= beta {
				return beta
			}
		}
	}

	// The move stored in the table, which refuted or bettered the window last
	// time, goes first: when it cuts off again, the others need not be ranked.
	best := -1
	if ttMove != 0 {
		if m := next & columnBits(ttMove-1); m != 0 {
			q := p
			q.playBit(m)
			v := -s.negamax(q, -beta, -alpha)
			if s.aborted {
				return 0
			}
			if v >= beta {
				tt.put(key, v, true, ttMove)
				return v
			}
			alpha = max(alpha, v)
			best = ttMove - 1
			next &^= m
		}
	}

	// Order the others by the winning cells the move gives (moveScore),
	// centre first among equals.
	var (
		moves [Width]uint64
		cols  [Width]int8
		ranks [Width]int
		n     int
	)
	for _, c := range centreFirst {
		m := next & columnBits(c)
		if m == 0 {
			continue
		}
		// Enhanced transposition cutoff: a child already known to be bad
		// enough for the opponent refutes the window without a search, and
		// one known to be good enough for them cannot raise alpha and needs
		// none either (1 to 4 % fewer nodes on Pons' sets).
		if p.moves >= etcFrom && p.moves < etcBelow {
			q := p
			q.playBit(m)
			if v, lower, _, ok := childTT.get(q.Key()); ok {
				if !lower && -v >= beta {
					return -v
				}
				if lower && -v <= alpha {
					continue
				}
			}
		}
		rank := p.moveScore(m, oppWins)
		i := n
		for ; i > 0 && ranks[i-1] < rank; i-- {
			moves[i], cols[i], ranks[i] = moves[i-1], cols[i-1], ranks[i-1]
		}
		moves[i], cols[i], ranks[i] = m, int8(c), rank
		n++
	}

	if best < 0 {
		best = int(cols[0])
	}
	for i := range n {
		q := p
		q.playBit(moves[i])
		v := -s.negamax(q, -beta, -alpha)
		if s.aborted {
			return 0
		}
		if v >= beta {
			tt.put(key, v, true, int(cols[i])+1)
			return v
		}
		if v > alpha {
			alpha = v
			best = int(cols[i])
		}
	}
	tt.put(key, alpha, false, best+1)
	return alpha
}

// useKnown makes the searches look up positions with few discs in the
// outcome table and the book (either may be nil).
func (s *Solver) useKnown(outcomes *Outcomes, book *Book) {
	s.outcomes, s.book, s.knownUpTo = outcomes, book, -1
	if outcomes != nil {
		s.knownUpTo = outcomes.deepest
	}
	if book != nil {
		s.knownUpTo = max(s.knownUpTo, book.depth-1)
	}
}

// knownBounds returns bounds on p's value from the book (its exact value)
// or the outcome table (a win is at least 1, a loss at most -1, a draw 0);
// ok is false when neither holds p. The player to move cannot connect at
// once.
func (s *Solver) knownBounds(p Position) (lo, hi int, ok bool) {
	if _, v, ok := s.book.Lookup(p); ok {
		return v, v, true
	}
	o, ok := s.outcomes.lookupKey(p)
	switch {
	case !ok:
		return 0, 0, false
	case o > 0:
		return 1, maxScore + 3, true
	case o < 0:
		return minScore - 3, -1, true
	}
	return 0, 0, true
}
