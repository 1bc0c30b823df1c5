package engine

// referee is a deliberately naive Connect-N referee for tests: a plain grid
// and a full-board scan after every move, sharing no code with the engine.
type referee struct {
	rows, cols, connect int
	grid                [][]Player // grid[row][col], row 0 at the bottom
	moves               int
	winner              Player
	draw                bool
}

func newReferee(c Config) *referee {
	r := &referee{rows: c.Rows, cols: c.Cols, connect: c.Connect}
	r.grid = make([][]Player, c.Rows)
	for i := range r.grid {
		r.grid[i] = make([]Player, c.Cols)
	}
	return r
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
	if r.winner != NoPlayer || r.draw {
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
