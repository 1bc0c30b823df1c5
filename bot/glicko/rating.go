package glicko

import "math"

// The starting values and thresholds of the system, on the Glicko scale.
const (
	// DefaultRating is the rating of a player who has never played.
	DefaultRating = 1500.0
	// DefaultDeviation is the rating deviation of a player who has never
	// played.
	DefaultDeviation = 350.0
	// DefaultVolatility is the volatility of a player who has never played.
	DefaultVolatility = 0.06
	// ProvisionalDeviation is the deviation above which a rating is
	// provisional: not yet known well enough to be shown without a mark.
	ProvisionalDeviation = 110.0
)

// Rating is a player's strength on the Glicko scale: Rating is the
// estimate (1500 for a new player), Deviation the rating deviation, the
// uncertainty of that estimate in rating points (350 for a new player), and
// Volatility σ, how erratic the player's results are (0.06 for a new
// player). A valid Rating has all three finite, and Deviation and
// Volatility above zero. Rating is a plain value, safe to copy and to share
// between goroutines.
type Rating struct {
	Rating     float64
	Deviation  float64
	Volatility float64
}

// Default returns the rating of a new player: 1500, deviation 350,
// volatility 0.06.
func Default() Rating {
	return Rating{Rating: DefaultRating, Deviation: DefaultDeviation, Volatility: DefaultVolatility}
}

// Provisional reports whether the rating is still uncertain: its deviation
// is above ProvisionalDeviation (110).
func (r Rating) Provisional() bool {
	return r.Deviation > ProvisionalDeviation
}

// check returns the first invalid field of r ("rating", "deviation" or
// "volatility"), its value and why, or ReasonNone.
func (r Rating) check() (field string, value float64, why Reason) {
	switch {
	case !finite(r.Rating):
		return "rating", r.Rating, ReasonNotFinite
	case !finite(r.Deviation):
		return "deviation", r.Deviation, ReasonNotFinite
	case r.Deviation <= 0:
		return "deviation", r.Deviation, ReasonNotPositive
	case !finite(r.Volatility):
		return "volatility", r.Volatility, ReasonNotFinite
	case r.Volatility <= 0:
		return "volatility", r.Volatility, ReasonNotPositive
	}
	return "", 0, ReasonNone
}

// finite reports whether x is neither NaN nor ±Inf.
func finite(x float64) bool {
	return !math.IsNaN(x) && !math.IsInf(x, 0)
}

// Score is a player's result in one game: Win, Draw, Loss, or any value
// in between (Glicko-2 accepts fractional scores). Values outside 0..1 are
// rejected with ReasonOutOfRange.
type Score float64

// The scores of a game, from the point of view of the rated player.
const (
	Loss Score = 0
	Draw Score = 0.5
	Win  Score = 1
)

// check returns why s is not a valid score, or ReasonNone.
func (s Score) check() Reason {
	switch {
	case !finite(float64(s)):
		return ReasonNotFinite
	case s < 0 || s > 1:
		return ReasonOutOfRange
	}
	return ReasonNone
}

// Result is one game of a rating period: the opponent's rating before the
// period and the rated player's score against them.
type Result struct {
	Opponent Rating
	Score    Score
}
