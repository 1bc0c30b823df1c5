package glicko

import (
	"math"
	"strconv"
)

// The constants of the Glicko-2 computation.
const (
	// DefaultTau is the system constant τ used by DefaultSystem. Glickman
	// suggests values between 0.3 and 1.2; smaller values let volatility
	// change less after a surprising result.
	DefaultTau = 0.5
	// Scale is the factor between the Glicko scale (ratings around 1500)
	// and the Glicko-2 scale (ratings around 0) of step 2: μ = (r−1500)/Scale
	// and φ = RD/Scale.
	Scale = 173.7178
	// Tolerance is the convergence tolerance ε of the volatility iteration
	// (step 5).
	Tolerance = 0.000001
)

// maxIterations bounds both loops of step 5. Glickman's iteration converges
// in a handful of steps for any rating a game can produce; the bound only
// stops pathological inputs (see ReasonUnrateable) from looping forever.
const maxIterations = 1000

// System is a Glicko-2 rating system with system constant Tau (τ), which
// constrains how fast volatility changes. The zero value is not usable (τ
// must be positive); use DefaultSystem or set Tau. A System is a plain
// value, safe for concurrent use.
type System struct {
	Tau float64
}

// DefaultSystem returns the system with τ = DefaultTau (0.5).
func DefaultSystem() System {
	return System{Tau: DefaultTau}
}

// Update runs one rating period for player, who played the games in
// results against opponents rated as they were before the period, and
// returns the player's new rating (Glickman's steps 1 to 8). With no
// results, only the deviation grows, as step 6 prescribes for a player who
// did not compete: rating and volatility stay the same.
//
// An invalid τ, rating or score gives an *InputError naming the field and
// the zero Rating; so do inputs too extreme to compute (ReasonUnrateable).
// On success the returned Rating is valid (finite, with positive deviation
// and volatility).
func (s System) Update(player Rating, results []Result) (Rating, error) {
	if err := s.check(); err != nil {
		return Rating{}, err
	}
	if f, v, why := player.check(); why != ReasonNone {
		return Rating{}, &InputError{Field: "player." + f, Value: v, Reason: why}
	}
	for i, res := range results {
		if f, v, why := res.Opponent.check(); why != ReasonNone {
			return Rating{}, &InputError{Field: "results[" + strconv.Itoa(i) + "].opponent." + f, Value: v, Reason: why}
		}
		if why := res.Score.check(); why != ReasonNone {
			return Rating{}, &InputError{Field: "results[" + strconv.Itoa(i) + "].score", Value: float64(res.Score), Reason: why}
		}
	}
	st, ok := s.period(player, results)
	if !ok {
		return Rating{}, &InputError{Field: "results", Value: math.NaN(), Reason: ReasonUnrateable}
	}
	return st.rating, nil
}

// Game rates one game between a and b as its own rating period: scoreA is
// a's score (Win, Draw or Loss; b scores 1−scoreA), and both players are
// updated from their ratings before the game. It returns the new ratings
// of a and b.
//
// An invalid τ, rating or score gives an *InputError whose Field starts
// with "a." or "b." (or is "tau" or "score"), and zero Ratings; so do
// ratings too extreme to compute (ReasonUnrateable, Field "game").
func (s System) Game(a, b Rating, scoreA Score) (newA, newB Rating, err error) {
	if err := s.check(); err != nil {
		return Rating{}, Rating{}, err
	}
	if f, v, why := a.check(); why != ReasonNone {
		return Rating{}, Rating{}, &InputError{Field: "a." + f, Value: v, Reason: why}
	}
	if f, v, why := b.check(); why != ReasonNone {
		return Rating{}, Rating{}, &InputError{Field: "b." + f, Value: v, Reason: why}
	}
	if why := scoreA.check(); why != ReasonNone {
		return Rating{}, Rating{}, &InputError{Field: "score", Value: float64(scoreA), Reason: why}
	}
	ga := [1]Result{{Opponent: b, Score: scoreA}}
	gb := [1]Result{{Opponent: a, Score: 1 - scoreA}}
	sa, okA := s.period(a, ga[:])
	sb, okB := s.period(b, gb[:])
	if !okA || !okB {
		return Rating{}, Rating{}, &InputError{Field: "game", Value: math.NaN(), Reason: ReasonUnrateable}
	}
	return sa.rating, sb.rating, nil
}

// check validates τ.
func (s System) check() error {
	switch {
	case !finite(s.Tau):
		return &InputError{Field: "tau", Value: s.Tau, Reason: ReasonNotFinite}
	case s.Tau <= 0:
		return &InputError{Field: "tau", Value: s.Tau, Reason: ReasonNotPositive}
	}
	return nil
}

// steps holds the quantities of Glickman's steps 3 to 8 for one player and
// rating period, on the Glicko-2 scale except for rating, so that tests can
// compare them with the figures of the paper.
type steps struct {
	v       float64 // step 3: estimated variance of the rating from the games
	delta   float64 // step 4: estimated improvement Δ
	sigma   float64 // step 5: new volatility σ′
	phiStar float64 // step 6: pre-period deviation φ*
	phi     float64 // step 7: new deviation φ′
	mu      float64 // step 7: new rating μ′
	rating  Rating  // step 8: the new rating on the Glicko scale
}

// period computes one rating period for a valid player against valid
// results. It reports false if the computation leaves the range of
// float64 or the volatility iteration does not converge.
func (s System) period(player Rating, results []Result) (steps, bool) {
	// Step 2: to the Glicko-2 scale.
	mu := (player.Rating - DefaultRating) / Scale
	phi := player.Deviation / Scale
	sigma := player.Volatility

	if len(results) == 0 {
		// Step 6 alone: the player did not compete.
		phiStar := math.Sqrt(phi*phi + sigma*sigma)
		st := steps{sigma: sigma, phiStar: phiStar, phi: phiStar, mu: mu,
			rating: Rating{Rating: player.Rating, Deviation: Scale * phiStar, Volatility: sigma}}
		return st, valid(st.rating)
	}

	// Steps 3 and 4: v is the inverse of Σ g(φj)² E (1−E); Δ is v times
	// Σ g(φj)(sj−E), and that sum is also the rating change of step 7.
	var info, sum float64
	for _, res := range results {
		phiJ := res.Opponent.Deviation / Scale
		g := 1 / math.Sqrt(1+3*phiJ*phiJ/(math.Pi*math.Pi))
		// μ−μj, computed from the ratings directly: the 1500 offsets cancel.
		e := 1 / (1 + math.Exp(-g*(player.Rating-res.Opponent.Rating)/Scale))
		info += g * g * e * (1 - e)
		sum += g * (float64(res.Score) - e)
	}
	if !(info > 0) {
		return steps{}, false // every game was a certainty: v would be infinite
	}
	v := 1 / info
	delta := v * sum

	// Step 5: the new volatility.
	sigmaNew, ok := s.volatility(delta, phi, v, sigma)
	if !ok {
		return steps{}, false
	}

	// Step 6: the deviation grows by the new volatility before the period.
	phiStar := math.Sqrt(phi*phi + sigmaNew*sigmaNew)

	// Step 7: the new deviation and rating.
	phiNew := 1 / math.Sqrt(1/(phiStar*phiStar)+1/v)
	change := phiNew * phiNew * sum
	muNew := mu + change

	// Step 8: back to the Glicko scale. r′ = Scale·μ′ + 1500 is computed as
	// r + Scale·(μ′−μ), the same number without the rounding of the
	// round trip through μ, so that a game that changes nothing (a draw
	// between equals) returns the rating bit for bit.
	st := steps{
		v: v, delta: delta, sigma: sigmaNew, phiStar: phiStar, phi: phiNew, mu: muNew,
		rating: Rating{
			Rating:     player.Rating + Scale*change,
			Deviation:  Scale * phiNew,
			Volatility: sigmaNew,
		},
	}
	return st, valid(st.rating)
}

// volatility is step 5: it solves f(x) = 0 for x = ln σ′² with the Illinois
// algorithm and returns σ′. It reports false if f cannot be evaluated in
// float64 or the iteration does not converge.
func (s System) volatility(delta, phi, v, sigma float64) (float64, bool) {
	// Step 5.1.
	a := math.Log(sigma * sigma)
	tau := s.Tau
	phi2, delta2 := phi*phi, delta*delta
	f := func(x float64) float64 {
		ex := math.Exp(x)
		d := phi2 + v + ex
		return ex*(delta2-phi2-v-ex)/(2*d*d) - (x-a)/(tau*tau)
	}

	// Step 5.2: bracket the root between A and B.
	A := a
	var B float64
	if delta2 > phi2+v {
		B = math.Log(delta2 - phi2 - v)
	} else {
		k := 1.0
		for f(a-k*tau) < 0 {
			if k >= maxIterations {
				return 0, false
			}
			k++
		}
		B = a - k*tau
	}

	// Step 5.3.
	fA, fB := f(A), f(B)
	if !finite(fA) || !finite(fB) {
		return 0, false
	}

	// Step 5.4: the Illinois variant of regula falsi. If f(C) = 0 the
	// "≤ 0" branch makes the next step land on A = B and stop.
	for i := 0; math.Abs(B-A) > Tolerance; i++ {
		if i == maxIterations {
			return 0, false
		}
		C := A + (A-B)*fA/(fB-fA)
		fC := f(C)
		if !finite(C) || !finite(fC) {
			return 0, false
		}
		if fC*fB <= 0 {
			A, fA = B, fB
		} else {
			fA /= 2
		}
		B, fB = C, fC
	}

	// Step 5.5.
	return math.Exp(A / 2), true
}

// valid reports whether r is a rating Update accepts.
func valid(r Rating) bool {
	_, _, why := r.check()
	return why == ReasonNone
}
