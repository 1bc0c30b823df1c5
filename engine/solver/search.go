package solver

import (
	"cmp"
	"slices"
	"time"

	"github.com/connect4/connect4/engine"
)

// winScore is the value of a win in the heuristic search, less the number of
// discs on the board when it lands, so that sooner wins score higher. It is far
// above any evaluation.
const winScore = 1 << 28

// isProven reports whether a heuristic-search value is a forced win or loss.
func isProven(v int) bool { return v > winScore/2 || v < -winScore/2 }

// searcher is a depth-limited negamax with alpha-beta pruning, a small
// transposition table and a deadline, over a board of any size. It is sound: a
// win or loss it reports within its horizon is real; beyond it the evaluation
// guesses.
type searcher struct {
	b        *board
	order    []int // columns, centre first
	deadline time.Time
	done     <-chan struct{}
	nodes    uint64
	stopped  bool
	tt       []searchEntry
	history  []int // per column: how often it caused a cutoff, for ordering
}

type searchEntry struct {
	key   uint64
	value int32
	depth int8
	kind  int8 // boundExact, boundLower or boundUpper; 0 = empty
	move  int8
}

const (
	boundExact = 1 + iota
	boundLower
	boundUpper
	searchTableSize = 1 << 16
)

func newSearcher(b *board, deadline time.Time, done <-chan struct{}) *searcher {
	s := &searcher{
		b: b, deadline: deadline, done: done,
		tt:      make([]searchEntry, searchTableSize),
		history: make([]int, b.cols),
	}
	// Centre first, then outwards, left before right.
	for c := range b.cols {
		s.order = append(s.order, c)
	}
	slices.SortStableFunc(s.order, func(x, y int) int {
		return cmp.Compare(abs(2*x-(b.cols-1)), abs(2*y-(b.cols-1)))
	})
	return s
}

// expired reports whether the search must stop, looking at the clock only every
// few hundred nodes.
func (s *searcher) expired() bool {
	if s.stopped {
		return true
	}
	if s.nodes&255 != 0 {
		return false
	}
	if !s.deadline.IsZero() && time.Now().After(s.deadline) {
		s.stopped = true
	}
	select {
	case <-s.done:
		s.stopped = true
	default:
	}
	return s.stopped
}

// negamax returns the value of the board for the player to move, searched
// depth plies deep, within [alpha, beta] as alpha-beta bounds go. The player to
// move has not already lost.
func (s *searcher) negamax(depth, alpha, beta int) int {
	s.nodes++
	if s.expired() {
		return 0
	}
	b := s.b
	if b.full() {
		return 0
	}
	me := b.mover()
	for _, c := range s.order {
		if b.canPlay(c) && b.wins(c, me) {
			return winScore - (b.moves + 1)
		}
	}
	if depth <= 0 {
		return b.evaluate()
	}
	// We cannot connect with this disc, so at best with our next one.
	if hi := winScore - (b.moves + 3); beta > hi {
		beta = hi
		if alpha >= beta {
			return beta
		}
	}

	e := &s.tt[b.hash&(searchTableSize-1)]
	ttMove := -1
	if e.kind != 0 && e.key == b.hash {
		ttMove = int(e.move)
		if int(e.depth) >= depth {
			v := int(e.value)
			switch {
			case e.kind == boundExact:
				return v
			case e.kind == boundLower && v >= beta:
				return v
			case e.kind == boundUpper && v <= alpha:
				return v
			}
		}
	}

	// Forced block: if the opponent threatens a cell, only blocking it can
	// avoid losing at once.
	forced := -1
	for _, c := range s.order {
		if b.canPlay(c) && b.wins(c, 1-me) {
			forced = c
			break
		}
	}

	var buf [engine.MaxSize]int
	cols := s.orderMoves(buf[:0], ttMove, forced)

	alphaIn := alpha
	best, bestCol := -winScore-1, cols[0]
	for _, c := range cols {
		b.play(c)
		v := -s.negamax(depth-1, -beta, -alpha)
		b.undo(c)
		if s.stopped {
			return 0
		}
		if v > best {
			best, bestCol = v, c
		}
		if v > alpha {
			alpha = v
		}
		if alpha >= beta {
			s.history[c] += depth * depth
			break
		}
	}

	kind := int8(boundExact)
	switch {
	case best <= alphaIn:
		kind = boundUpper
	case best >= beta:
		kind = boundLower
	}
	*e = searchEntry{key: b.hash, value: int32(best), depth: int8(min(depth, 127)), kind: kind, move: int8(bestCol)}
	return best
}

// orderMoves appends the playable columns to dst: only forced if it is a
// column, otherwise the table's move first, then by cutoff history, centre
// first among equals.
func (s *searcher) orderMoves(dst []int, ttMove, forced int) []int {
	if forced >= 0 {
		return append(dst, forced)
	}
	if ttMove >= 0 && s.b.canPlay(ttMove) {
		dst = append(dst, ttMove)
	}
	start := len(dst)
	for _, c := range s.order {
		if c == ttMove || !s.b.canPlay(c) {
			continue
		}
		i := len(dst)
		dst = append(dst, c)
		for ; i > start && s.history[dst[i-1]] < s.history[c]; i-- {
			dst[i] = dst[i-1]
		}
		dst[i] = c
	}
	return dst
}

// rootScores searches every playable column depth plies deep (the move itself
// counted) with a full window and returns each one's value for the player to
// move, indexed by column; unplayable columns get a value below any other.
// ok is false when the deadline cut the search short.
func (s *searcher) rootScores(depth int) (scores []int, ok bool) {
	b := s.b
	scores = make([]int, b.cols)
	for c := range scores {
		scores[c] = -2 * winScore
	}
	for _, c := range s.order {
		if !b.canPlay(c) {
			continue
		}
		if b.play(c) {
			scores[c] = winScore - b.moves
		} else {
			scores[c] = -s.negamax(depth-1, -winScore, winScore)
		}
		b.undo(c)
		if s.stopped {
			return nil, false
		}
	}
	return scores, true
}

// iterate runs iterative deepening until the deadline, a proven result or the
// end of the game, and returns the best column of the deepest completed
// iteration, with its value and depth; col is -1 if not even depth 1 finished.
func (s *searcher) iterate(maxDepth int) (col, value, depth int) {
	b := s.b
	col = -1
	left := b.rows*b.cols - b.moves
	var buf [engine.MaxSize]int
	for d := 1; d <= min(left, maxDepth); d++ {
		cols := s.orderMoves(buf[:0], col, -1)
		alpha, beta := -winScore-1, winScore+1
		bestCol, best := -1, -winScore-1
		for _, c := range cols {
			var v int
			if b.play(c) {
				v = winScore - b.moves
			} else {
				v = -s.negamax(d-1, -beta, -alpha)
			}
			b.undo(c)
			if s.stopped {
				break
			}
			if v > best {
				best, bestCol = v, c
			}
			alpha = max(alpha, v)
		}
		if s.stopped {
			break
		}
		col, value, depth = bestCol, best, d
		if isProven(best) {
			break
		}
	}
	return col, value, depth
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
