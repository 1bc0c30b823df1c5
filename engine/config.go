package engine

import "strconv"

// The supported board sizes, line lengths and numbers of players.
const (
	MinSize    = 4  // fewest rows or columns
	MaxSize    = 10 // most rows or columns
	MinConnect = 3  // shortest winning line
	MinPlayers = 2  // fewest players
	MaxPlayers = 4  // most players

	// MinColsMulti is the fewest columns of a board for 3 or 4 players.
	MinColsMulti = 7
)

// Config is the size of a board, the length of a winning line and the number
// of players. Players 0 means two players, so every Config written before
// there were more than two stays valid and means what it meant.
type Config struct {
	Rows, Cols int
	Connect    int
	Players    int // 2, 3 or 4; 0 means 2
}

// DefaultConfig returns the classic game: 6 rows, 7 columns, connect 4, two
// players.
func DefaultConfig() Config { return Config{Rows: 6, Cols: 7, Connect: 4} }

// Validate returns a *ConfigError naming the first bad value, or nil: rows
// and cols from 4 to 10, connect from 3 to the larger of the two, players 0
// or 2 to 4. A board for 3 or 4 players also needs at least 7 columns and at
// least players × (connect + 2) cells, so that every player has room to
// build a line.
func (c Config) Validate() error {
	if c.Rows < MinSize || c.Rows > MaxSize {
		return &ConfigError{Field: "rows", Value: c.Rows, Min: MinSize, Max: MaxSize}
	}
	if c.Cols < MinSize || c.Cols > MaxSize {
		return &ConfigError{Field: "cols", Value: c.Cols, Min: MinSize, Max: MaxSize}
	}
	if hi := max(c.Rows, c.Cols); c.Connect < MinConnect || c.Connect > hi {
		return &ConfigError{Field: "connect", Value: c.Connect, Min: MinConnect, Max: hi}
	}
	if c.Players != 0 && (c.Players < MinPlayers || c.Players > MaxPlayers) {
		return &ConfigError{Field: "players", Value: c.Players, Min: MinPlayers, Max: MaxPlayers}
	}
	n := c.NumPlayers()
	if n == 2 {
		return nil
	}
	ps := strconv.Itoa(n) + " players"
	if c.Cols < MinColsMulti {
		return &ConfigError{Field: "cols", Value: c.Cols, Min: MinColsMulti, Max: MaxSize,
			Rule: ps + " need at least " + strconv.Itoa(MinColsMulti) + " columns"}
	}
	if need := n * (c.Connect + 2); c.Cells() < need {
		return &ConfigError{Field: "cells", Value: c.Cells(), Min: need, Max: MaxSize * MaxSize,
			Rule: ps + " with connect " + strconv.Itoa(c.Connect) + " need at least " +
				strconv.Itoa(n) + "×(" + strconv.Itoa(c.Connect) + "+2) = " + strconv.Itoa(need) + " cells"}
	}
	return nil
}

// Cells returns the number of cells on the board.
func (c Config) Cells() int { return c.Rows * c.Cols }

// NumPlayers returns the number of players: Players, or 2 when Players is 0.
// It does not validate c.
func (c Config) NumPlayers() int {
	if c.Players == 0 {
		return 2
	}
	return c.Players
}
