package glicko

import "strconv"

// Reason says why an input was rejected. The zero value ReasonNone is never
// the reason of a returned error.
type Reason uint8

// The reasons an input can be rejected. New reasons are only ever appended.
const (
	ReasonNone Reason = iota
	// ReasonNotFinite: the value is NaN or ±Inf.
	ReasonNotFinite
	// ReasonNotPositive: a deviation, volatility or τ is zero or negative.
	ReasonNotPositive
	// ReasonOutOfRange: a score is outside 0..1.
	ReasonOutOfRange
	// ReasonUnrateable: every input is valid on its own, but together they
	// are so extreme (ratings hundreds of thousands of points apart,
	// astronomically large deviations or volatilities, a τ near the limits
	// of float64) that the update would leave the range of float64 or the
	// volatility iteration would not converge. Nothing is updated.
	ReasonUnrateable
)

// String returns the reason in a few lower-case words.
func (r Reason) String() string {
	switch r {
	case ReasonNotFinite:
		return "not finite"
	case ReasonNotPositive:
		return "not positive"
	case ReasonOutOfRange:
		return "out of range"
	case ReasonUnrateable:
		return "too extreme to rate"
	}
	return "no reason"
}

// InputError is the error returned by Update and Game for an input they
// cannot rate. Read it with errors.As and switch on Reason; never match its
// text.
//
// Field names the rejected value: "tau"; "player.rating",
// "player.deviation" or "player.volatility" for the rated player of Update;
// "results[i].opponent.rating" (and .deviation, .volatility) or
// "results[i].score" for its i-th result; "a.rating", "b.volatility" and so
// on, or "score", for Game. For ReasonUnrateable, Field is "results" (Update)
// or "game" (Game) and Value is NaN.
type InputError struct {
	Field  string
	Value  float64
	Reason Reason
}

func (e *InputError) Error() string {
	if e.Reason == ReasonUnrateable {
		return "glicko: " + e.Field + " too extreme to rate"
	}
	v := strconv.FormatFloat(e.Value, 'g', -1, 64)
	switch e.Reason {
	case ReasonNotFinite:
		return "glicko: " + e.Field + " " + v + " not finite"
	case ReasonNotPositive:
		return "glicko: " + e.Field + " " + v + " not positive"
	case ReasonOutOfRange:
		return "glicko: " + e.Field + " " + v + " out of range 0..1"
	}
	return "glicko: " + e.Field + " " + v + " rejected"
}
