package solver

import (
	"fmt"

	"github.com/connect4/connect4/engine"
)

// board is a position on a board of any allowed size, for the heuristic search.
// It knows every line of connect cells on the board and keeps, for each line,
// how many discs of each player it holds; from those counts come both the win
// test and the evaluation, updated in place as discs are played and taken back.
type board struct {
	rows, cols, connect int

	owner   []int8 // per cell (col*rows+row): 0 empty, 1 first player, 2 second
	heights []int
	moves   int

	lineCells [][]int32  // the cells of each line
	cellLines [][]int32  // the lines through each cell
	count     [][2]int16 // per line, discs of the first and second player
	weight    []int      // value of a line holding n discs of one player only
	eval      int        // sum of line values, from the first player's side

	zobrist []uint64 // per cell and player
	hash    uint64
}

// newBoard returns an empty board; cfg must have passed cfg.Validate.
func newBoard(cfg engine.Config) *board {
	rows, cols, connect := cfg.Rows, cfg.Cols, cfg.Connect
	b := &board{
		rows: rows, cols: cols, connect: connect,
		owner:     make([]int8, rows*cols),
		heights:   make([]int, cols),
		cellLines: make([][]int32, rows*cols),
		zobrist:   make([]uint64, 2*rows*cols),
	}
	for _, d := range [][2]int{{1, 0}, {0, 1}, {1, 1}, {1, -1}} {
		for c := range cols {
			for r := range rows {
				endC, endR := c+(connect-1)*d[0], r+(connect-1)*d[1]
				if endC >= cols || endR < 0 || endR >= rows {
					continue
				}
				line := make([]int32, connect)
				id := int32(len(b.lineCells))
				for i := range connect {
					cell := int32((c+i*d[0])*rows + r + i*d[1])
					line[i] = cell
					b.cellLines[cell] = append(b.cellLines[cell], id)
				}
				b.lineCells = append(b.lineCells, line)
			}
		}
	}
	b.count = make([][2]int16, len(b.lineCells))
	// A line with more discs of one side counts several times more; a line
	// one short of connecting is a threat.
	b.weight = make([]int, connect+1)
	for n := 1; n <= connect; n++ {
		b.weight[n] = 1 << (2 * (n - 1))
	}
	// Zobrist keys from a fixed splitmix64 sequence: deterministic, no global state.
	x := uint64(0x2545F4914F6CDD1D)
	for i := range b.zobrist {
		x += 0x9E3779B97F4A7C15
		z := x
		z = (z ^ z>>30) * 0xBF58476D1CE4E5B9
		z = (z ^ z>>27) * 0x94D049BB133111EB
		b.zobrist[i] = z ^ z>>31
	}
	return b
}

// canPlay reports whether col is on the board and has room.
func (b *board) canPlay(col int) bool {
	return col >= 0 && col < b.cols && b.heights[col] < b.rows
}

// full reports whether no disc can be played.
func (b *board) full() bool { return b.moves == b.rows*b.cols }

// mover returns 0 when the first player is to move, 1 otherwise.
func (b *board) mover() int { return b.moves & 1 }

func (b *board) lineValue(c [2]int16) int {
	switch {
	case c[0] > 0 && c[1] > 0:
		return 0
	case c[1] == 0:
		return b.weight[c[0]]
	default:
		return -b.weight[c[1]]
	}
}

// play drops a disc of the player to move into col (which must be playable) and
// reports whether it connects.
func (b *board) play(col int) (won bool) {
	p := b.mover()
	cell := col*b.rows + b.heights[col]
	b.owner[cell] = int8(p + 1)
	b.heights[col]++
	b.moves++
	b.hash ^= b.zobrist[2*cell+p]
	for _, l := range b.cellLines[cell] {
		c := &b.count[l]
		before := b.lineValue(*c)
		c[p]++
		if int(c[p]) == b.connect {
			won = true
		}
		b.eval += b.lineValue(*c) - before
	}
	return won
}

// undo takes back the top disc of col, which must be the last one played.
func (b *board) undo(col int) {
	b.heights[col]--
	b.moves--
	p := b.mover()
	cell := col*b.rows + b.heights[col]
	b.owner[cell] = 0
	b.hash ^= b.zobrist[2*cell+p]
	for _, l := range b.cellLines[cell] {
		c := &b.count[l]
		before := b.lineValue(*c)
		c[p]--
		b.eval += b.lineValue(*c) - before
	}
}

// wins reports whether player (0 or 1) would connect by dropping a disc into
// col, which must be playable.
func (b *board) wins(col, player int) bool {
	cell := col*b.rows + b.heights[col]
	for _, l := range b.cellLines[cell] {
		c := b.count[l]
		if int(c[player]) == b.connect-1 && c[1-player] == 0 {
			return true
		}
	}
	return false
}

// winningCols returns the playable columns where player would connect at once.
func (b *board) winningCols(player int) []int {
	var cols []int
	for c := range b.cols {
		if b.canPlay(c) && b.wins(c, player) {
			cols = append(cols, c)
		}
	}
	return cols
}

// legalCols returns the playable columns.
func (b *board) legalCols() []int {
	var cols []int
	for c := range b.cols {
		if b.canPlay(c) {
			cols = append(cols, c)
		}
	}
	return cols
}

// evaluate returns the heuristic value for the player to move.
func (b *board) evaluate() int {
	if b.mover() == 0 {
		return b.eval
	}
	return -b.eval
}

// replay returns the board of size cfg after history (0-based columns from
// the empty board). It returns cfg.Validate's *engine.ConfigError for a bad
// size, and an *Error for a column off the board, a full column, a move after
// a connect, and a history that leaves the board full. ChooseMove replays the
// history of an *engine.Game, which the engine has already checked; the checks
// stay so that a board is never built from moves it cannot hold.
func replay(cfg engine.Config, history []int) (*board, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	cols, connect := cfg.Cols, cfg.Connect
	b := newBoard(cfg)
	for i, col := range history {
		switch {
		case col < 0 || col >= cols:
			return nil, &Error{Reason: ReasonBadColumn, Move: i + 1, Detail: fmt.Sprintf("column %d of %d (0-based)", col, cols)}
		case !b.canPlay(col):
			return nil, &Error{Reason: ReasonColumnFull, Move: i + 1, Detail: fmt.Sprintf("column %d (0-based)", col)}
		}
		if b.play(col) {
			if i != len(history)-1 {
				return nil, &Error{Reason: ReasonGameOver, Move: i + 2, Detail: "moves after a connect"}
			}
			return nil, &Error{Reason: ReasonGameOver, Move: i + 1, Detail: fmt.Sprintf("column %d (0-based) connects %d", col, connect)}
		}
	}
	if b.full() {
		return nil, &Error{Reason: ReasonBoardFull, Detail: fmt.Sprintf("after %d moves", len(history))}
	}
	return b, nil
}
