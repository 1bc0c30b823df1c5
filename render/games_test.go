package render

// Move lists of the games the image tests and benchmarks draw, columns from 0.
var (
	// midgame is 18 moves into a 7 × 6 game, nobody winning yet.
	midgame = []int{3, 3, 4, 2, 2, 5, 1, 4, 4, 0, 5, 5, 5, 2, 5, 6, 3, 3}
	// diagonal is a 7 × 6 game that red wins with its 23rd move, on the
	// diagonal from column 4 row 1 to column 7 row 4.
	diagonal = []int{3, 4, 3, 3, 6, 2, 4, 6, 5, 3, 3, 6, 3, 5, 6, 4, 4, 2, 1, 6, 1, 6, 5}
	// drawn fills a 7 × 6 board in 42 moves with no line of four.
	drawn = []int{0, 1, 5, 5, 0, 4, 4, 1, 4, 6, 0, 6, 1, 3, 5, 5, 6, 0, 5, 1, 4, 3, 2, 4, 4, 3, 3, 3, 0, 0, 5, 3, 2, 6, 2, 2, 1, 2, 6, 2, 1, 6}
)
