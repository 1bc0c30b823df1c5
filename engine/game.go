package engine

// Game is one game of Connect Four (or Connect-N): the board, whose turn it
// is, the moves played and the outcome. Make one with New or Decode; the zero
// value is not usable. A Game is not safe for concurrent use; Clone it to
// hand a copy to another goroutine.
type Game struct {
	cfg     Config
	stride  uint // rows+1: the bit distance between neighbouring columns
	narrow  bool // the board fits in one 64-bit word
	board   Board
	history [MaxSize * MaxSize]uint8
	moves   int
	state   State
	winner  Player
}

// New returns an empty game of the given size, Red to move. It returns a
// *ConfigError naming the bad value when cfg is out of range.
func New(cfg Config) (*Game, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	g := &Game{
		cfg:    cfg,
		stride: uint(cfg.Rows + 1),
		narrow: cfg.Cols*(cfg.Rows+1) <= 64,
		state:  InProgress,
	}
	g.board.rows, g.board.cols = cfg.Rows, cfg.Cols
	return g, nil
}

// Config returns the board size and line length of the game.
func (g *Game) Config() Config { return g.cfg }

// State returns where the game stands.
func (g *Game) State() State { return g.state }

// Winner returns the winner of a won or resigned game, and NoPlayer otherwise.
func (g *Game) Winner() Player { return g.winner }

// Moves returns the number of discs dropped so far.
func (g *Game) Moves() int { return g.moves }

// Turn returns the player to move, or NoPlayer when the game is over.
func (g *Game) Turn() Player {
	if g.state.Over() {
		return NoPlayer
	}
	return g.toMove()
}

func (g *Game) toMove() Player {
	if g.moves%2 == 0 {
		return Red
	}
	return Yellow
}

// History returns the columns played, in order, as a new slice.
func (g *Game) History() []int {
	h := make([]int, g.moves)
	for i := range h {
		h[i] = int(g.history[i])
	}
	return h
}

// LastMove returns the cell of the last disc dropped, and false before the
// first move.
func (g *Game) LastMove() (Cell, bool) {
	if g.moves == 0 {
		return Cell{}, false
	}
	col := int(g.history[g.moves-1])
	return Cell{Row: int(g.board.heights[col]) - 1, Col: col}, true
}

// Board returns a read-only snapshot of the board.
func (g *Game) Board() Board { return g.board }

// Clone returns an independent copy of g.
func (g *Game) Clone() *Game {
	c := *g
	return &c
}

// CanPlay reports whether the player to move may drop a disc in col.
func (g *Game) CanPlay(col int) bool {
	return g.state == InProgress && col >= 0 && col < g.cfg.Cols && int(g.board.heights[col]) < g.cfg.Rows
}

// LegalColumns returns the columns the player to move may drop into, left to
// right; none once the game is over.
func (g *Game) LegalColumns() []int {
	if g.state != InProgress {
		return nil
	}
	cols := make([]int, 0, g.cfg.Cols)
	for c := 0; c < g.cfg.Cols; c++ {
		if int(g.board.heights[c]) < g.cfg.Rows {
			cols = append(cols, c)
		}
	}
	return cols
}

// Play drops a disc of player p into col (0-based). The disc falls to the
// lowest empty cell; then a line of Connect or more through it wins, else a
// full board is a draw, else the turn passes. A rejected move returns a
// *MoveError and changes nothing.
func (g *Game) Play(p Player, col int) error {
	switch {
	case g.state != InProgress:
		return &MoveError{Reason: ReasonGameOver, Player: p, Column: col}
	case !p.Valid():
		return &MoveError{Reason: ReasonNoSuchPlayer, Player: p, Column: col}
	case p != g.toMove():
		return &MoveError{Reason: ReasonNotYourTurn, Player: p, Column: col}
	case col < 0 || col >= g.cfg.Cols:
		return &MoveError{Reason: ReasonOutOfRange, Player: p, Column: col}
	case int(g.board.heights[col]) >= g.cfg.Rows:
		return &MoveError{Reason: ReasonColumnFull, Player: p, Column: col}
	}
	side := &g.board.discs[p-1]
	if i := col*int(g.stride) + int(g.board.heights[col]); g.narrow {
		side.lo |= 1 << uint(i)
	} else {
		side.set(i)
	}
	g.board.heights[col]++
	g.history[g.moves] = uint8(col)
	g.moves++
	switch {
	case g.wins(*side):
		g.state, g.winner = Won, p
	case g.moves == g.cfg.Rows*g.cfg.Cols:
		g.state = Draw
	}
	return nil
}

// wins reports whether b holds a line of Connect. Only the mover's discs are
// checked, and before this move they held no line, so any line found runs
// through the disc just dropped.
func (g *Game) wins(b bits) bool {
	n, h := g.cfg.Connect, g.stride
	if g.narrow {
		w := b.lo
		if n == 4 { // the classic game, unrolled
			return line4(w, 1) || line4(w, h) || line4(w, h+1) || line4(w, h-1)
		}
		return hasLine64(w, 1, n) || hasLine64(w, h, n) || hasLine64(w, h+1, n) || hasLine64(w, h-1, n)
	}
	return hasLine(b, 1, n) || hasLine(b, h, n) || hasLine(b, h+1, n) || hasLine(b, h-1, n)
}

// Resign ends the game with p's resignation: the other player wins. It
// returns a *MoveError (Column -1) when the game is already over or p is not
// a player, and then changes nothing.
func (g *Game) Resign(p Player) error {
	switch {
	case g.state != InProgress:
		return &MoveError{Reason: ReasonGameOver, Player: p, Column: -1}
	case !p.Valid():
		return &MoveError{Reason: ReasonNoSuchPlayer, Player: p, Column: -1}
	}
	g.state, g.winner = Resigned, p.Other()
	return nil
}

// directions are the four line axes as (row, col) steps.
var directions = [4]Cell{{0, 1}, {1, 0}, {1, 1}, {1, -1}}

// WinningCells returns the cells of every line of Connect or more through
// the winning disc, bottom to top and left to right within each line, for
// highlighting. It returns nil unless the game was won on the board.
func (g *Game) WinningCells() []Cell {
	last, ok := g.LastMove()
	if g.state != Won || !ok {
		return nil
	}
	var cells []Cell
	for _, d := range directions {
		lo, hi := 0, 0
		for g.board.At(last.Row-(lo+1)*d.Row, last.Col-(lo+1)*d.Col) == g.winner {
			lo++
		}
		for g.board.At(last.Row+(hi+1)*d.Row, last.Col+(hi+1)*d.Col) == g.winner {
			hi++
		}
		if lo+hi+1 < g.cfg.Connect {
			continue
		}
		for k := -lo; k <= hi; k++ {
			c := Cell{Row: last.Row + k*d.Row, Col: last.Col + k*d.Col}
			if k != 0 || !contains(cells, c) {
				cells = append(cells, c)
			}
		}
	}
	return cells
}

func contains(cells []Cell, c Cell) bool {
	for _, x := range cells {
		if x == c {
			return true
		}
	}
	return false
}

// line4 reports whether w holds four set bits in a row at stride d.
func line4(w uint64, d uint) bool {
	m := w & (w >> d)
	return m&(m>>(2*d)) != 0
}
