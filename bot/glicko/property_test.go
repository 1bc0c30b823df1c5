package glicko

import (
	"fmt"
	"math"
	"math/rand/v2"
	"testing"
)

// cases is how many random inputs each property test draws.
const cases = 20000

// domain is a box of realistic inputs for the property tests.
type domain struct {
	rating, ratingSpread float64 // ratings uniform in rating ± ratingSpread
	devMin, devMax       float64
	volMin, volMax       float64
}

// wide covers every rating a chat channel can plausibly produce and more.
var wide = domain{rating: 1500, ratingSpread: 1500, devMin: 20, devMax: 500, volMin: 0.01, volMax: 0.2}

func (d domain) draw(rng *rand.Rand) Rating {
	return Rating{
		Rating:     d.rating + (2*rng.Float64()-1)*d.ratingSpread,
		Deviation:  d.devMin + rng.Float64()*(d.devMax-d.devMin),
		Volatility: d.volMin + rng.Float64()*(d.volMax-d.volMin),
	}
}

func drawSystem(rng *rand.Rand) System {
	return System{Tau: 0.3 + rng.Float64()*0.9} // Glickman's 0.3..1.2
}

func drawScore(rng *rand.Rand) Score {
	switch rng.IntN(4) {
	case 0:
		return Win
	case 1:
		return Draw
	case 2:
		return Loss
	}
	return Score(rng.Float64())
}

// checkValid fails unless r is finite with positive deviation and
// volatility.
func checkValid(t *testing.T, what string, r Rating) {
	t.Helper()
	if !valid(r) {
		t.Fatalf("%s = %+v, want finite with positive deviation and volatility", what, r)
	}
}

// reference is a deliberately naive transcription of the paper, the 1500
// offset applied and removed as in steps 2 and 8, with a grid scan and
// bisection instead of the Illinois algorithm for step 5. It returns every
// root of step 5's f(x) that the scan finds between the paper's bracket
// ends A and B (each to about 1e-12), and the rating that the first root
// gives. When Δ² is large, f need not be monotone and can have three
// roots; then the paper's iteration decides which one is σ′.
func reference(tau float64, r Rating, results []Result) (roots []float64, want Rating) {
	mu, phi, sigma := (r.Rating-1500)/173.7178, r.Deviation/173.7178, r.Volatility
	if len(results) == 0 {
		return nil, Rating{r.Rating, 173.7178 * math.Sqrt(phi*phi+sigma*sigma), sigma}
	}
	g := func(phi float64) float64 { return 1 / math.Sqrt(1+3*phi*phi/(math.Pi*math.Pi)) }
	var vInv, sum float64
	for _, res := range results {
		muJ, phiJ := (res.Opponent.Rating-1500)/173.7178, res.Opponent.Deviation/173.7178
		e := 1 / (1 + math.Exp(-g(phiJ)*(mu-muJ)))
		vInv += g(phiJ) * g(phiJ) * e * (1 - e)
		sum += g(phiJ) * (float64(res.Score) - e)
	}
	v := 1 / vInv
	delta := v * sum
	a := math.Log(sigma * sigma)
	f := func(x float64) float64 {
		return math.Exp(x)*(delta*delta-phi*phi-v-math.Exp(x))/(2*math.Pow(phi*phi+v+math.Exp(x), 2)) - (x-a)/(tau*tau)
	}
	// The bracket of step 5.2, found the same way.
	lo, hi := a, a
	if delta*delta > phi*phi+v {
		hi = math.Log(delta*delta - phi*phi - v)
	} else {
		for k := 1.0; ; k++ {
			if f(a-k*tau) >= 0 {
				lo = a - k*tau
				break
			}
		}
	}
	const cells = 1000
	step := (hi - lo) / cells
	f1 := f(lo)
	for i := range cells {
		x0, x1 := lo+float64(i)*step, lo+float64(i+1)*step
		if i == cells-1 {
			x1 = hi
		}
		f0 := f1
		f1 = f(x1)
		if f0 == 0 {
			roots = append(roots, x0)
			continue
		}
		if (f0 > 0) == (f1 > 0) {
			continue
		}
		for range 100 {
			m := (x0 + x1) / 2
			if (f(m) > 0) == (f0 > 0) {
				x0 = m
			} else {
				x1 = m
			}
		}
		roots = append(roots, x0)
	}
	if len(roots) == 0 {
		return nil, Rating{}
	}
	sigmaNew := math.Exp(roots[0] / 2)
	phiStar := math.Sqrt(phi*phi + sigmaNew*sigmaNew)
	phiNew := 1 / math.Sqrt(1/(phiStar*phiStar)+1/v)
	muNew := mu + phiNew*phiNew*sum
	return roots, Rating{173.7178*muNew + 1500, 173.7178 * phiNew, sigmaNew}
}

// TestUpdateMatchesReference compares Update with the naive reference over
// random rating periods of 0 to 12 games. Where step 5 has a single root
// (every period but a few wild ones) the whole rating must match; where it
// has several, Update's volatility must be one of them.
func TestUpdateMatchesReference(t *testing.T) {
	rng := rand.New(rand.NewPCG(16, 1))
	multi := 0
	for i := range cases / 4 {
		sys := drawSystem(rng)
		r := wide.draw(rng)
		results := make([]Result, rng.IntN(13))
		for j := range results {
			results[j] = Result{Opponent: wide.draw(rng), Score: drawScore(rng)}
		}
		got, err := sys.Update(r, results)
		if err != nil {
			t.Fatalf("case %d: Update(%+v, %+v) error: %v", i, r, results, err)
		}
		checkValid(t, fmt.Sprintf("case %d: Update(%+v, %+v)", i, r, results), got)
		roots, want := reference(sys.Tau, r, results)
		if len(results) > 0 && len(roots) == 0 {
			t.Fatalf("case %d: reference found no root for %+v, %+v", i, r, results)
		}
		if len(roots) > 1 {
			multi++
			x := math.Log(got.Volatility * got.Volatility)
			found := false
			for _, root := range roots {
				found = found || near(x, root, 2e-6)
			}
			if !found {
				t.Fatalf("case %d: tau %v: Update(%+v, %+v) volatility %v: ln σ′² = %v is none of the roots %v", i, sys.Tau, r, results, got.Volatility, x, roots)
			}
			continue
		}
		// The Illinois iteration stops within 1e-6 of ln σ′²: σ′ is then
		// within 5e-7 relative, and rating and deviation, which depend on
		// it, within a ten-thousandth of a point, or for the wildest
		// periods (a 400 beating five 2000s with τ 1.1 ends above 25000)
		// a ten-millionth of the change.
		tol := 1e-4 + 1e-7*math.Abs(want.Rating-r.Rating)
		if !near(got.Rating, want.Rating, tol) || !near(got.Deviation, want.Deviation, tol) || !near(got.Volatility, want.Volatility, 1e-6*want.Volatility) {
			t.Fatalf("case %d: tau %v: Update(%+v, %+v) = %+v, want %+v", i, sys.Tau, r, results, got, want)
		}
	}
	t.Logf("%d of %d periods had several roots in step 5", multi, cases/4)
}

// TestBetterScoreNeverRatesLower checks that in Game a win never lowers a
// rating and a loss never raises it, and more generally that a better score
// never gives a lower rating than a worse one.
func TestBetterScoreNeverRatesLower(t *testing.T) {
	rng := rand.New(rand.NewPCG(16, 2))
	for i := range cases {
		sys := drawSystem(rng)
		a, b := wide.draw(rng), wide.draw(rng)
		var prevA, prevB Rating
		for k, score := range []Score{Loss, 0.25, Draw, 0.75, Win} {
			newA, newB, err := sys.Game(a, b, score)
			if err != nil {
				t.Fatalf("case %d: Game(%+v, %+v, %v) error: %v", i, a, b, score, err)
			}
			checkValid(t, "newA", newA)
			checkValid(t, "newB", newB)
			if k > 0 && (newA.Rating < prevA.Rating || newB.Rating > prevB.Rating) {
				t.Fatalf("case %d: Game(%+v, %+v, %v) = %.6f, %.6f; a worse score gave %.6f, %.6f", i, a, b, score, newA.Rating, newB.Rating, prevA.Rating, prevB.Rating)
			}
			prevA, prevB = newA, newB
		}
		winA, lossB, _ := sys.Game(a, b, Win)
		if winA.Rating < a.Rating || lossB.Rating > b.Rating {
			t.Fatalf("case %d: Game(%+v, %+v, Win) = %.6f, %.6f: the winner lost points or the loser gained", i, a, b, winA.Rating, lossB.Rating)
		}
	}
}

// TestAllWinsNeverRatesLower checks the same for whole rating periods: a
// period of wins only never lowers a rating, one of losses only never
// raises it.
func TestAllWinsNeverRatesLower(t *testing.T) {
	rng := rand.New(rand.NewPCG(16, 3))
	for i := range cases {
		sys := drawSystem(rng)
		r := wide.draw(rng)
		wins := make([]Result, 1+rng.IntN(10))
		losses := make([]Result, len(wins))
		for j := range wins {
			opp := wide.draw(rng)
			wins[j] = Result{Opponent: opp, Score: Win}
			losses[j] = Result{Opponent: opp, Score: Loss}
		}
		up, err1 := sys.Update(r, wins)
		down, err2 := sys.Update(r, losses)
		if err1 != nil || err2 != nil {
			t.Fatalf("case %d: Update errors: %v, %v", i, err1, err2)
		}
		if up.Rating < r.Rating || down.Rating > r.Rating {
			t.Fatalf("case %d: %+v after %d wins %.6f, after %d losses %.6f", i, r, len(wins), up.Rating, len(losses), down.Rating)
		}
	}
}

// TestDrawBetweenEqualsChangesNoRating checks that a draw between two
// players of the same rating (whatever their deviations) leaves both
// ratings exactly as they were.
func TestDrawBetweenEqualsChangesNoRating(t *testing.T) {
	rng := rand.New(rand.NewPCG(16, 4))
	for i := range cases {
		sys := drawSystem(rng)
		a, b := wide.draw(rng), wide.draw(rng)
		b.Rating = a.Rating
		newA, newB, err := sys.Game(a, b, Draw)
		if err != nil {
			t.Fatalf("case %d: Game(%+v, %+v, Draw) error: %v", i, a, b, err)
		}
		if newA.Rating != a.Rating || newB.Rating != b.Rating {
			t.Fatalf("case %d: Game(%+v, %+v, Draw) = %v, %v, want the ratings unchanged", i, a, b, newA.Rating, newB.Rating)
		}
	}
}

// TestDeviationShrinksWithPlay checks that a game lowers the deviation of
// a provisional player (deviation 110 to 350, volatility up to 0.07)
// against an opponent within 400 points with a deviation up to 350, and
// that an empty period raises every deviation.
//
// A game does not always lower the deviation: step 6 first adds the new
// volatility σ′², and the game then removes 1/v, which is small against a
// far-away or very uncertain opponent. A player whose deviation is already
// small (about 60 for volatility 0.06 and one game per period) gains back
// as much as a game tells; TestDeviationFloor shows where it settles.
func TestDeviationShrinksWithPlay(t *testing.T) {
	rng := rand.New(rand.NewPCG(16, 5))
	uncertain := domain{rating: 1500, ratingSpread: 1000, devMin: 110, devMax: 350, volMin: 0.03, volMax: 0.07}
	opponents := domain{rating: 1500, ratingSpread: 1500, devMin: 20, devMax: 350, volMin: 0.01, volMax: 0.2}
	for i := range cases {
		sys := drawSystem(rng)
		r := uncertain.draw(rng)
		opp := opponents.draw(rng)
		opp.Rating = r.Rating + (2*rng.Float64()-1)*400
		score := drawScore(rng)
		got, err := sys.Update(r, []Result{{Opponent: opp, Score: score}})
		if err != nil {
			t.Fatalf("case %d: Update error: %v", i, err)
		}
		if got.Deviation >= r.Deviation {
			t.Fatalf("case %d: tau %v: %+v after a game (score %v) against %+v has deviation %.6f, want below %.6f", i, sys.Tau, r, score, opp, got.Deviation, r.Deviation)
		}
	}
	rng = rand.New(rand.NewPCG(16, 6))
	for i := range cases {
		r := wide.draw(rng)
		got, err := DefaultSystem().Update(r, nil)
		if err != nil {
			t.Fatalf("case %d: Update(%+v, nil) error: %v", i, r, err)
		}
		if got.Deviation <= r.Deviation {
			t.Fatalf("case %d: Update(%+v, nil).Deviation = %.6f, want above %.6f", i, r, got.Deviation, r.Deviation)
		}
	}
}

// TestGameSymmetric checks that when both players have the same deviation
// and volatility, one gains exactly what the other loses and both end with
// the same deviation and volatility. Rounding E against 1−E can end the two
// volatility iterations at different points within their tolerance (1e-6
// on ln σ′², so σ′ within 5e-7 relative each), which moves the ratings and
// deviations by millionths of a point: the tolerances allow that and no
// more.
func TestGameSymmetric(t *testing.T) {
	rng := rand.New(rand.NewPCG(16, 7))
	for i := range cases {
		sys := drawSystem(rng)
		a, b := wide.draw(rng), wide.draw(rng)
		b.Deviation, b.Volatility = a.Deviation, a.Volatility
		score := drawScore(rng)
		newA, newB, err := sys.Game(a, b, score)
		if err != nil {
			t.Fatalf("case %d: Game(%+v, %+v, %v) error: %v", i, a, b, score, err)
		}
		gainA, gainB := newA.Rating-a.Rating, newB.Rating-b.Rating
		if !near(gainA, -gainB, 1e-5) || !near(newA.Deviation, newB.Deviation, 1e-5) || !near(newA.Volatility, newB.Volatility, 2e-6*a.Volatility) {
			t.Fatalf("case %d: Game(%+v, %+v, %v) = %+v, %+v: changes %+.9f and %+.9f not symmetric", i, a, b, score, newA, newB, gainA, gainB)
		}
	}
}

// TestLongSeriesStaysFinite plays long random series in a small pool, each
// game its own rating period as the bot rates them, and checks that every
// rating stays valid and that ratings follow strength: the strongest player
// ends above the weakest.
func TestLongSeriesStaysFinite(t *testing.T) {
	rng := rand.New(rand.NewPCG(16, 8))
	sys := DefaultSystem()
	for series := range 20 {
		// Player p wins against q with probability given by their hidden
		// strengths, 200 points apart from one player to the next.
		pool := make([]Rating, 6)
		for p := range pool {
			pool[p] = Default()
		}
		for game := range 3000 {
			p, q := rng.IntN(len(pool)), rng.IntN(len(pool)-1)
			if q >= p {
				q++
			}
			pWins := 1 / (1 + math.Pow(10, float64(q-p)*200/400))
			score := Loss
			if rng.Float64() < pWins {
				score = Win
			}
			var err error
			if pool[p], pool[q], err = sys.Game(pool[p], pool[q], score); err != nil {
				t.Fatalf("series %d game %d: %v", series, game, err)
			}
			checkValid(t, "pool[p]", pool[p])
			checkValid(t, "pool[q]", pool[q])
		}
		if pool[len(pool)-1].Rating <= pool[0].Rating {
			t.Errorf("series %d: strongest ends at %.1f, weakest at %.1f", series, pool[len(pool)-1].Rating, pool[0].Rating)
		}
	}
}
