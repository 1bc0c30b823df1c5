package engine

// The supported board sizes and line lengths.
const (
	MinSize    = 4  // fewest rows or columns
	MaxSize    = 10 // most rows or columns
	MinConnect = 3  // shortest winning line
)

// Config is the size of a board and the length of a winning line.
type Config struct {
	Rows, Cols int
	Connect    int
}

// DefaultConfig returns the classic game: 6 rows, 7 columns, connect 4.
func DefaultConfig() Config { return Config{Rows: 6, Cols: 7, Connect: 4} }

// Validate returns a *ConfigError naming the first bad value, or nil: rows
// and cols from 4 to 10, connect from 3 to the larger of the two.
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
	return nil
}

// Cells returns the number of cells on the board.
func (c Config) Cells() int { return c.Rows * c.Cols }
