package engine

// bits is a 128-bit set: room for the largest board, 10 columns of 10 rows
// plus a guard row each (110 bits).
type bits struct{ lo, hi uint64 }

func (b bits) has(i int) bool {
	if i < 64 {
		return b.lo>>uint(i)&1 != 0
	}
	return b.hi>>uint(i-64)&1 != 0
}

func (b *bits) set(i int) {
	if i < 64 {
		b.lo |= 1 << uint(i)
	} else {
		b.hi |= 1 << uint(i-64)
	}
}

// shr returns b shifted right by s bits, 0 < s < 128.
func (b bits) shr(s uint) bits {
	if s >= 64 {
		return bits{lo: b.hi >> (s - 64)}
	}
	return bits{lo: b.lo>>s | b.hi<<(64-s), hi: b.hi >> s}
}

func (b bits) and(c bits) bits { return bits{b.lo & c.lo, b.hi & c.hi} }

func (b bits) zero() bool { return b.lo|b.hi == 0 }

// hasLine reports whether b holds n or more set bits in a row at stride d:
// after each step, bit p stands for a run of `run` bits starting at p, and
// runs are doubled by overlapping, so n=4 takes two shifts.
func hasLine(b bits, d uint, n int) bool {
	for run := 1; run < n; {
		s := min(run, n-run)
		b = b.and(b.shr(uint(s) * d))
		if b.zero() {
			return false
		}
		run += s
	}
	return !b.zero()
}

// hasLine64 is hasLine for boards that fit in one word (the standard board).
func hasLine64(b uint64, d uint, n int) bool {
	for run := 1; run < n; {
		s := min(run, n-run)
		b &= b >> (uint(s) * d)
		if b == 0 {
			return false
		}
		run += s
	}
	return b != 0
}

// Board is a read-only snapshot of a game's discs, for the renderer and the
// AI. It is a value: later moves in the game do not change it, and nothing
// done to it changes the game. Safe for concurrent use.
type Board struct {
	discs      [MaxPlayers]bits // Red, Yellow, Green, Blue
	heights    [MaxSize]uint8
	rows, cols uint8
}

// Rows returns the number of rows.
func (b Board) Rows() int { return int(b.rows) }

// Cols returns the number of columns.
func (b Board) Cols() int { return int(b.cols) }

// At returns the disc at row, col (row 0 at the bottom), or NoPlayer for an
// empty cell or a position off the board.
func (b Board) At(row, col int) Player {
	if row < 0 || row >= int(b.rows) || col < 0 || col >= int(b.cols) {
		return NoPlayer
	}
	i := col*(int(b.rows)+1) + row
	for k := range b.discs {
		if b.discs[k].has(i) {
			return Player(k + 1)
		}
	}
	return NoPlayer
}

// Height returns the number of discs in col, or 0 for a column off the
// board.
func (b Board) Height(col int) int {
	if col < 0 || col >= int(b.cols) {
		return 0
	}
	return int(b.heights[col])
}
