package engine

// Game is one game of Connect Four (or Connect-N) for 2, 3 or 4 players: the
// board, whose turn it is, the moves played, who has left and the outcome.
// Make one with New or Decode; the zero value is not usable. A Game is not
// safe for concurrent use; Clone it to hand a copy to another goroutine.
type Game struct {
	connect uint8  // the line length; rows and cols live in board
	cells   uint8  // rows × cols
	stride  uint8  // rows+1: the bit distance between neighbouring columns
	narrow  bool   // the board fits in one 64-bit word
	players uint8  // 2, 3 or 4
	turn    Player // the player to move; NoPlayer once the game is over
	left    uint8  // bit p is set once player p has left the game
	nleaves uint8
	// next[p] is the player who moves after p, skipping those who left;
	// eight entries so that indexing by p&7 needs no bounds check.
	next    [8]Player
	leaves  [MaxPlayers - 1]leave // in order; the last may end the game
	board   Board
	history [MaxSize * MaxSize]uint8
	state   State
	winner  Player
	moves   int
}

// leave is one resignation: who, after how many moves.
type leave struct {
	moves  uint8
	player Player
}

// Leave is one player leaving the game by resigning: Player left after
// Moves discs had been dropped.
type Leave struct {
	Player Player
	Moves  int
}

// New returns an empty game of the given size and number of players, Red to
// move. It returns a *ConfigError naming the bad value when cfg is out of
// range (see Config.Validate).
func New(cfg Config) (*Game, error) {
	if err := cfg.Validate(); err != nil {
		return nil, err
	}
	g := &Game{
		connect: uint8(cfg.Connect),
		cells:   uint8(cfg.Cells()),
		stride:  uint8(cfg.Rows + 1),
		narrow:  cfg.Cols*(cfg.Rows+1) <= 64,
		players: uint8(cfg.NumPlayers()),
		turn:    Red,
		state:   InProgress,
	}
	g.relink()
	g.board.rows, g.board.cols = uint8(cfg.Rows), uint8(cfg.Cols)
	return g, nil
}

// relink sets next from players and left: after each player (including one
// who left) comes the next player in turn order who has not left.
func (g *Game) relink() {
	if g.left == 0 && g.players == 2 {
		g.next[Red], g.next[Yellow] = Yellow, Red
		return
	}
	n := Player(g.players)
	for p := Red; p <= n; p++ {
		q := p
		for {
			q = q%n + 1
			if g.left&(1<<q) == 0 || q == p {
				break
			}
		}
		g.next[p] = q
	}
}

// Config returns the board size, line length and number of players of the
// game. Players is 0 for a two-player game, however it was made, so that a
// two-player game's Config equals DefaultConfig and every Config literal
// written for two players.
func (g *Game) Config() Config {
	c := Config{Rows: int(g.board.rows), Cols: int(g.board.cols), Connect: int(g.connect)}
	if g.players != 2 {
		c.Players = int(g.players)
	}
	return c
}

// State returns where the game stands.
func (g *Game) State() State { return g.state }

// Winner returns the winner of a won or resigned game, and NoPlayer otherwise.
func (g *Game) Winner() Player { return g.winner }

// Moves returns the number of discs dropped so far.
func (g *Game) Moves() int { return g.moves }

// Turn returns the player to move, or NoPlayer when the game is over. Players
// who have left are skipped.
func (g *Game) Turn() Player { return g.turn }

// toMove returns the player to move (NoPlayer once the game is over).
func (g *Game) toMove() Player { return g.turn }

// Players returns the players of the game in turn order: Red and Yellow, then
// Green and Blue when there are 3 or 4. It includes those who left.
func (g *Game) Players() []Player {
	ps := make([]Player, g.players)
	for i := range ps {
		ps[i] = Player(i + 1)
	}
	return ps
}

// Active returns the players who have not left the game, in turn order. After
// a resignation in a two-player game, or once all but one left a larger game,
// it holds only the winner.
func (g *Game) Active() []Player {
	ps := make([]Player, 0, g.players)
	for p := Red; p <= Player(g.players); p++ {
		if g.left&(1<<p) == 0 {
			ps = append(ps, p)
		}
	}
	return ps
}

// Left reports whether p has left the game by resigning. It is false for a
// player who is not in the game.
func (g *Game) Left(p Player) bool {
	return p >= Red && p <= Player(g.players) && g.left&(1<<p) != 0
}

// Leaves returns the resignations of the game in the order they happened, as
// a new slice: with the columns of History, enough to replay the game.
func (g *Game) Leaves() []Leave {
	ls := make([]Leave, g.nleaves)
	for i := range ls {
		ls[i] = Leave{Player: g.leaves[i].player, Moves: int(g.leaves[i].moves)}
	}
	return ls
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
	return g.state == InProgress && col >= 0 && col < int(g.board.cols) && g.board.heights[col] < g.board.rows
}

// LegalColumns returns the columns the player to move may drop into, left to
// right; none once the game is over.
func (g *Game) LegalColumns() []int {
	if g.state != InProgress {
		return nil
	}
	cols := make([]int, 0, g.board.cols)
	for c := 0; c < int(g.board.cols); c++ {
		if g.board.heights[c] < g.board.rows {
			cols = append(cols, c)
		}
	}
	return cols
}

// Play drops a disc of player p into col (0-based). The disc falls to the
// lowest empty cell; then a line of Connect or more through it wins, else a
// full board is a draw, else the turn passes to the next player who has not
// left. A rejected move returns a *MoveError and changes nothing; its
// reasons, checked in this order: ReasonGameOver, ReasonNoSuchPlayer (p is
// not in this game), ReasonLeft (p has left), ReasonNotYourTurn,
// ReasonOutOfRange, ReasonColumnFull.
func (g *Game) Play(p Player, col int) error {
	switch {
	case g.state != InProgress:
		return &MoveError{Reason: ReasonGameOver, Player: p, Column: col}
	case p != g.turn:
		return &MoveError{Reason: g.notToMove(p), Player: p, Column: col}
	case col < 0 || col >= int(g.board.cols):
		return &MoveError{Reason: ReasonOutOfRange, Player: p, Column: col}
	case g.board.heights[col] >= g.board.rows:
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
		g.state, g.winner, g.turn = Won, p, NoPlayer
	case g.moves == int(g.cells):
		g.state, g.turn = Draw, NoPlayer
	default:
		g.turn = g.next[p&7]
	}
	return nil
}

// notToMove returns why p, who is not the player to move of a game in
// progress, may not move.
func (g *Game) notToMove(p Player) Reason {
	switch {
	case p == NoPlayer || p > Player(g.players):
		return ReasonNoSuchPlayer
	case g.left&(1<<p) != 0:
		return ReasonLeft
	}
	return ReasonNotYourTurn
}

// wins reports whether b holds a line of Connect. Only the mover's discs are
// checked, and before this move they held no line, so any line found runs
// through the disc just dropped.
func (g *Game) wins(b bits) bool {
	n, h := int(g.connect), uint(g.stride)
	if g.narrow {
		w := b.lo
		if n == 4 { // the classic game, unrolled
			return line4(w, 1) || line4(w, h) || line4(w, h+1) || line4(w, h-1)
		}
		return hasLine64(w, 1, n) || hasLine64(w, h, n) || hasLine64(w, h+1, n) || hasLine64(w, h-1, n)
	}
	return hasLine(b, 1, n) || hasLine(b, h, n) || hasLine(b, h+1, n) || hasLine(b, h-1, n)
}

// Resign makes p leave the game, on their turn or not. In a two-player game
// that ends it: the other player wins (state Resigned). In a game of 3 or 4
// players p's discs stay on the board, p's turns are skipped from now on
// (the turn passes at once if it was p's), and the game ends only when one
// player is left, who wins (state Resigned). It returns a *MoveError
// (Column -1) and changes nothing when the game is over (ReasonGameOver), p
// is not in the game (ReasonNoSuchPlayer) or p has already left
// (ReasonLeft).
func (g *Game) Resign(p Player) error {
	switch {
	case g.state != InProgress:
		return &MoveError{Reason: ReasonGameOver, Player: p, Column: -1}
	case p == NoPlayer || p > Player(g.players):
		return &MoveError{Reason: ReasonNoSuchPlayer, Player: p, Column: -1}
	case g.left&(1<<p) != 0:
		return &MoveError{Reason: ReasonLeft, Player: p, Column: -1}
	}
	g.left |= 1 << p
	g.leaves[g.nleaves] = leave{moves: uint8(g.moves), player: p}
	g.nleaves++
	g.relink()
	if int(g.nleaves) == int(g.players)-1 {
		g.state, g.winner, g.turn = Resigned, g.next[p], NoPlayer
		return nil
	}
	if g.turn == p {
		g.turn = g.next[p]
	}
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
		if lo+hi+1 < int(g.connect) {
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
