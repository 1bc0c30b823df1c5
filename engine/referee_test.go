package engine

// referee is a deliberately naive Connect-N referee for tests: a plain grid
// and a full-board scan after every move, a list of who has left and a
// one-step-at-a-time walk round the table for the turn, sharing no code with
// the engine.
type referee struct {
	rows, cols, connect int
	players             int
	grid                [][]Player // grid[row][col], row 0 at the bottom
	moves               int
	winner              Player
	draw                bool
	resigned            bool   // the game ended because one player was left
	gone                []bool // gone[p]: player p has left
	turn                Player // NoPlayer once the game is over
}

func newReferee(c Config) *referee {
	r := &referee{rows: c.Rows, cols: c.Cols, connect: c.Connect, players: c.Players, turn: Red}
	if r.players == 0 {
		r.players = 2
	}
	r.gone = make([]bool, r.players+1)
	r.grid = make([][]Player, c.Rows)
	for i := range r.grid {
		r.grid[i] = make([]Player, c.Cols)
	}
	return r
}

func (r *referee) over() bool { return r.winner != NoPlayer || r.draw }

// after returns the first player after p, round the table, who has not left.
func (r *referee) after(p Player) Player {
	q := p
	for range r.players {
		q++
		if int(q) > r.players {
			q = Red
		}
		if !r.gone[q] {
			return q
		}
	}
	return NoPlayer
}

// drop puts a disc of p in col and rescans the whole board.
func (r *referee) drop(p Player, col int) {
	for row := 0; row < r.rows; row++ {
		if r.grid[row][col] == NoPlayer {
			r.grid[row][col] = p
			break
		}
	}
	r.moves++
	r.winner = r.scan()
	r.draw = r.winner == NoPlayer && r.moves == r.rows*r.cols
	r.turn = r.after(p)
	if r.over() {
		r.turn = NoPlayer
	}
}

// leave takes p out of the game.
func (r *referee) leave(p Player) {
	r.gone[p] = true
	active := r.active()
	if len(active) == 1 {
		r.winner, r.resigned, r.turn = active[0], true, NoPlayer
		return
	}
	if r.turn == p {
		r.turn = r.after(p)
	}
}

// active returns the players who have not left, in order.
func (r *referee) active() []Player {
	var ps []Player
	for p := 1; p <= r.players; p++ {
		if !r.gone[p] {
			ps = append(ps, Player(p))
		}
	}
	return ps
}

// state returns the state the engine should report.
func (r *referee) state() State {
	switch {
	case r.resigned:
		return Resigned
	case r.winner != NoPlayer:
		return Won
	case r.draw:
		return Draw
	}
	return InProgress
}

// playReason returns why Play(p, col) must be rejected, or ReasonNone.
func (r *referee) playReason(p Player, col int) Reason {
	switch {
	case r.over():
		return ReasonGameOver
	case p < 1 || int(p) > r.players:
		return ReasonNoSuchPlayer
	case r.gone[p]:
		return ReasonLeft
	case p != r.turn:
		return ReasonNotYourTurn
	case col < 0 || col >= r.cols:
		return ReasonOutOfRange
	case r.grid[r.rows-1][col] != NoPlayer:
		return ReasonColumnFull
	}
	return ReasonNone
}

// resignReason returns why Resign(p) must be rejected, or ReasonNone.
func (r *referee) resignReason(p Player) Reason {
	switch {
	case r.over():
		return ReasonGameOver
	case p < 1 || int(p) > r.players:
		return ReasonNoSuchPlayer
	case r.gone[p]:
		return ReasonLeft
	}
	return ReasonNone
}

// scan returns the player with a line of connect anywhere on the board.
func (r *referee) scan() Player {
	for row := 0; row < r.rows; row++ {
		for col := 0; col < r.cols; col++ {
			p := r.grid[row][col]
			if p == NoPlayer {
				continue
			}
			for _, d := range [][2]int{{0, 1}, {1, 0}, {1, 1}, {1, -1}} {
				n := 0
				for rr, cc := row, col; rr >= 0 && rr < r.rows && cc >= 0 && cc < r.cols && r.grid[rr][cc] == p; rr, cc = rr+d[0], cc+d[1] {
					n++
				}
				if n >= r.connect {
					return p
				}
			}
		}
	}
	return NoPlayer
}

func (r *referee) legal() []int {
	if r.over() {
		return nil
	}
	var cols []int
	for c := 0; c < r.cols; c++ {
		if r.grid[r.rows-1][c] == NoPlayer {
			cols = append(cols, c)
		}
	}
	return cols
}
