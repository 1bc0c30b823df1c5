package glicko

import (
	"errors"
	"testing"
)

// FuzzGame checks that Game, for any float64 inputs at all, either returns
// two valid ratings or an *InputError with a reason, never panics and
// never loops forever.
func FuzzGame(f *testing.F) {
	f.Add(0.5, 1500.0, 350.0, 0.06, 1500.0, 350.0, 0.06, 1.0)
	f.Add(0.5, 1500.0, 200.0, 0.06, 1400.0, 30.0, 0.06, 0.0)
	f.Add(1.2, 400.0, 30.0, 0.01, 2900.0, 500.0, 0.2, 1.0)
	f.Add(1e-200, 1500.0, 350.0, 0.06, 1500.0, 350.0, 0.06, 0.5)
	f.Add(1e200, -1e300, 1e-300, 1e100, 1e300, 1e300, 1e-300, 1.0)
	f.Fuzz(func(t *testing.T, tau, ar, ad, av, br, bd, bv, score float64) {
		sys := System{Tau: tau}
		a, b := Rating{ar, ad, av}, Rating{br, bd, bv}
		newA, newB, err := sys.Game(a, b, Score(score))
		if err != nil {
			var ie *InputError
			if !errors.As(err, &ie) || ie.Reason == ReasonNone {
				t.Fatalf("Game(%+v, %+v, %v) with tau %v: error %v, want *InputError with a reason", a, b, score, tau, err)
			}
			return
		}
		if !valid(newA) || !valid(newB) {
			t.Fatalf("Game(%+v, %+v, %v) with tau %v = %+v, %+v: not valid ratings", a, b, score, tau, newA, newB)
		}
	})
}
