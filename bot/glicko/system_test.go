package glicko

import (
	"errors"
	"math"
	"testing"
)

// paperPlayer and paperResults are the worked example of Glickman's
// "Example of the Glicko-2 system": a 1500/200/0.06 player beats a
// 1400/30 player and loses to a 1550/100 and a 1700/300 player (the
// opponents' volatilities do not enter the computation).
var (
	paperPlayer  = Rating{Rating: 1500, Deviation: 200, Volatility: 0.06}
	paperResults = []Result{
		{Opponent: Rating{Rating: 1400, Deviation: 30, Volatility: 0.06}, Score: Win},
		{Opponent: Rating{Rating: 1550, Deviation: 100, Volatility: 0.06}, Score: Loss},
		{Opponent: Rating{Rating: 1700, Deviation: 300, Volatility: 0.06}, Score: Loss},
	}
)

// near reports whether got is within tol of want.
func near(got, want, tol float64) bool {
	return math.Abs(got-want) <= tol
}

// TestPaperExampleSteps checks every intermediate the paper prints. The
// paper computes with g and E rounded to four digits, so its v and Δ are
// off in the fourth digit: they are checked to 0.001, and the volatility,
// which it truncates to 0.05999, to 0.00001. The full-precision values come
// from a separate reference computation (plain float64 in another language,
// with bisection instead of the Illinois algorithm for step 5).
func TestPaperExampleSteps(t *testing.T) {
	st, ok := DefaultSystem().period(paperPlayer, paperResults)
	if !ok {
		t.Fatal("period(paper example) failed")
	}
	for _, c := range []struct {
		name           string
		got            float64
		paper, precise float64
		tol            float64 // against the paper
	}{
		{"step 3 v", st.v, 1.7785, 1.7789770897239976, 0.001},
		{"step 4 Δ", st.delta, -0.4834, -0.4839332609836549, 0.001},
		{"step 5 σ′", st.sigma, 0.05999, 0.059995984400677826, 0.00001},
		{"step 6 φ*", st.phiStar, 1.152862, 1.152854689586079, 0.00001},
		{"step 7 φ′", st.phi, 0.8722, 0.8721991881333078, 0.00005},
		{"step 7 μ′", st.mu, -0.2069, -0.20694096667647613, 0.00005},
	} {
		if !near(c.got, c.paper, c.tol) {
			t.Errorf("%s = %.7f, want the paper's %v ± %v", c.name, c.got, c.paper, c.tol)
		}
		// The Illinois iteration stops within 1e-6 of ln σ′², so σ′ and
		// what follows from it are only that precise.
		if !near(c.got, c.precise, 1e-7) {
			t.Errorf("%s = %.10f, want %.10f ± 1e-7 (full precision)", c.name, c.got, c.precise)
		}
	}
}

// TestPaperExample checks the final figures of the paper: r′ = 1464.06,
// RD′ = 151.52, σ′ = 0.05999. The paper obtains r′ from μ′ rounded to
// −0.2069; in full precision r′ is 1464.0507, which is still within 0.01 of
// the paper's figure, so both are asserted.
func TestPaperExample(t *testing.T) {
	got, err := DefaultSystem().Update(paperPlayer, paperResults)
	if err != nil {
		t.Fatalf("Update(paper example) error: %v", err)
	}
	if !near(got.Rating, 1464.06, 0.01) || !near(got.Deviation, 151.52, 0.005) || !near(got.Volatility, 0.05999, 0.00001) {
		t.Errorf("Update(paper example) = %.4f/%.4f/%.6f, want 1464.06/151.52/0.05999", got.Rating, got.Deviation, got.Volatility)
	}
	// The full-precision values (μ′ not rounded before step 8).
	if !near(got.Rating, 1464.0507, 0.00005) || !near(got.Deviation, 151.5165, 0.00005) {
		t.Errorf("Update(paper example) = %.5f/%.5f, want 1464.0507/151.5165 in full precision", got.Rating, got.Deviation)
	}
}

// TestPaperExampleOrder checks that a rating period does not depend on the
// order of its games.
func TestPaperExampleOrder(t *testing.T) {
	rev := []Result{paperResults[2], paperResults[0], paperResults[1]}
	a, errA := DefaultSystem().Update(paperPlayer, paperResults)
	b, errB := DefaultSystem().Update(paperPlayer, rev)
	if errA != nil || errB != nil {
		t.Fatalf("Update errors: %v, %v", errA, errB)
	}
	if !near(a.Rating, b.Rating, 1e-9) || !near(a.Deviation, b.Deviation, 1e-9) || !near(a.Volatility, b.Volatility, 1e-12) {
		t.Errorf("Update depends on order: %+v vs %+v", a, b)
	}
}

// TestEmptyPeriod checks step 6 alone: φ′ = √(φ² + σ²), rating and
// volatility unchanged.
func TestEmptyPeriod(t *testing.T) {
	for _, r := range []Rating{paperPlayer, Default(), {Rating: 2100, Deviation: 50, Volatility: 0.09}} {
		got, err := DefaultSystem().Update(r, nil)
		if err != nil {
			t.Fatalf("Update(%+v, nil) error: %v", r, err)
		}
		phi := r.Deviation / Scale
		want := Scale * math.Sqrt(phi*phi+r.Volatility*r.Volatility)
		if got.Rating != r.Rating || got.Volatility != r.Volatility || !near(got.Deviation, want, 1e-9) {
			t.Errorf("Update(%+v, nil) = %+v, want deviation %.6f and the rest unchanged", r, got, want)
		}
	}
	// The paper's player: √((200/173.7178)² + 0.06²)·173.7178 = 200.27142.
	got, _ := DefaultSystem().Update(paperPlayer, []Result{})
	if !near(got.Deviation, 200.27142, 0.000005) {
		t.Errorf("Update(paper player, no games).Deviation = %.6f, want 200.27142", got.Deviation)
	}
}

// TestGameIsTwoPeriods checks that Game rates each player as Update would
// for a one-game period against the other's pre-game rating.
func TestGameIsTwoPeriods(t *testing.T) {
	sys := DefaultSystem()
	a := Rating{Rating: 1620, Deviation: 80, Volatility: 0.058}
	b := Rating{Rating: 1480, Deviation: 210, Volatility: 0.061}
	for _, score := range []Score{Win, Draw, Loss} {
		gotA, gotB, err := sys.Game(a, b, score)
		if err != nil {
			t.Fatalf("Game(%v) error: %v", score, err)
		}
		wantA, _ := sys.Update(a, []Result{{Opponent: b, Score: score}})
		wantB, _ := sys.Update(b, []Result{{Opponent: a, Score: 1 - score}})
		if gotA != wantA || gotB != wantB {
			t.Errorf("Game(%v) = %+v, %+v, want %+v, %+v", score, gotA, gotB, wantA, wantB)
		}
	}
}

// TestFirstGame pins the figures of two new players' first game, the case
// the bot meets most: the winner gains what the loser loses.
func TestFirstGame(t *testing.T) {
	a, b, err := DefaultSystem().Game(Default(), Default(), Win)
	if err != nil {
		t.Fatalf("Game(default, default, Win) error: %v", err)
	}
	// v = 1/(g(φ)²/4) with φ = 350/173.7178; the change is φ′²·g/2·Scale.
	if !near(a.Rating, 1662.31, 0.01) || !near(b.Rating, 1337.69, 0.01) || !near(a.Deviation, 290.32, 0.01) || a.Deviation != b.Deviation {
		t.Errorf("Game(default, default, Win) = %+v, %+v, want 1662.31 and 1337.69, both deviation 290.32", a, b)
	}
	if !a.Provisional() || !b.Provisional() {
		t.Errorf("after one game Provisional() = %v, %v, want true, true", a.Provisional(), b.Provisional())
	}
}

// TestDeviationFloor checks the behaviour of per-game rating periods: a new
// player alternating wins and losses against a 1500/60 opponent is no
// longer provisional after 10 games, and the deviation then settles at the
// level where a game's information balances the volatility added by step
// 6 (60.27), instead of falling towards zero.
func TestDeviationFloor(t *testing.T) {
	sys := DefaultSystem()
	r := Default()
	opp := Rating{Rating: 1500, Deviation: 60, Volatility: 0.06}
	established := 0
	for i := 1; i <= 300; i++ {
		score := Win
		if i%2 == 0 {
			score = Loss
		}
		var err error
		if r, err = sys.Update(r, []Result{{Opponent: opp, Score: score}}); err != nil {
			t.Fatalf("game %d: %v", i, err)
		}
		if established == 0 && !r.Provisional() {
			established = i
		}
	}
	if established != 10 {
		t.Errorf("deviation fell to %v or below after %d games, want 10", ProvisionalDeviation, established)
	}
	if !near(r.Deviation, 60.27, 0.01) {
		t.Errorf("deviation after 300 alternating games = %.4f, want it settled at 60.27", r.Deviation)
	}
}

// TestUpsetWithSeveralRoots pins a period where step 5's f has three roots
// (near ln σ′² = −5.63, 4.41 and 17.53): a 400/350 player beats a 2400/50
// one. The paper's iteration, started from A = ln σ² = −5.63, lands on the
// first, so the volatility barely moves; a solver that found another root
// would give σ′ = 9.1 or more. The game says so little (the expected score
// is almost 0 and the opponent is certain) that the deviation grows.
func TestUpsetWithSeveralRoots(t *testing.T) {
	got, err := DefaultSystem().Update(Rating{400, 350, 0.06}, []Result{{Opponent: Rating{2400, 50, 0.06}, Score: Win}})
	if err != nil {
		t.Fatalf("Update error: %v", err)
	}
	if !near(got.Volatility, 0.0600132, 0.0000001) || !near(got.Rating, 1097.03, 0.01) || !near(got.Deviation, 350.15, 0.01) {
		t.Errorf("400/350 beats 2400/50: %+v, want 1097.03/350.15/0.0600132", got)
	}
}

func TestProvisional(t *testing.T) {
	for _, c := range []struct {
		dev  float64
		want bool
	}{{350, true}, {110.0001, true}, {110, false}, {60, false}} {
		if got := (Rating{Rating: 1500, Deviation: c.dev, Volatility: 0.06}).Provisional(); got != c.want {
			t.Errorf("Rating{Deviation: %v}.Provisional() = %v, want %v", c.dev, got, c.want)
		}
	}
	if !Default().Provisional() {
		t.Error("Default().Provisional() = false, want true")
	}
}

func TestDefault(t *testing.T) {
	if got, want := Default(), (Rating{Rating: 1500, Deviation: 350, Volatility: 0.06}); got != want {
		t.Errorf("Default() = %+v, want %+v", got, want)
	}
	if got := DefaultSystem().Tau; got != 0.5 {
		t.Errorf("DefaultSystem().Tau = %v, want 0.5", got)
	}
}

func TestUpdateErrors(t *testing.T) {
	nan, inf := math.NaN(), math.Inf(1)
	ok := Default()
	for _, c := range []struct {
		name    string
		sys     System
		player  Rating
		results []Result
		field   string
		why     Reason
	}{
		{"zero tau", System{}, ok, nil, "tau", ReasonNotPositive},
		{"negative tau", System{Tau: -0.5}, ok, nil, "tau", ReasonNotPositive},
		{"NaN tau", System{Tau: nan}, ok, nil, "tau", ReasonNotFinite},
		{"Inf tau", System{Tau: inf}, ok, nil, "tau", ReasonNotFinite},
		{"NaN rating", DefaultSystem(), Rating{nan, 350, 0.06}, nil, "player.rating", ReasonNotFinite},
		{"-Inf rating", DefaultSystem(), Rating{math.Inf(-1), 350, 0.06}, nil, "player.rating", ReasonNotFinite},
		{"zero deviation", DefaultSystem(), Rating{1500, 0, 0.06}, nil, "player.deviation", ReasonNotPositive},
		{"negative deviation", DefaultSystem(), Rating{1500, -1, 0.06}, nil, "player.deviation", ReasonNotPositive},
		{"Inf deviation", DefaultSystem(), Rating{1500, inf, 0.06}, nil, "player.deviation", ReasonNotFinite},
		{"zero volatility", DefaultSystem(), Rating{1500, 350, 0}, nil, "player.volatility", ReasonNotPositive},
		{"NaN volatility", DefaultSystem(), Rating{1500, 350, nan}, nil, "player.volatility", ReasonNotFinite},
		{"score above 1", DefaultSystem(), ok, []Result{{ok, Win}, {ok, 1.5}}, "results[1].score", ReasonOutOfRange},
		{"negative score", DefaultSystem(), ok, []Result{{ok, -0.1}}, "results[0].score", ReasonOutOfRange},
		{"NaN score", DefaultSystem(), ok, []Result{{ok, Score(nan)}}, "results[0].score", ReasonNotFinite},
		{"opponent deviation", DefaultSystem(), ok, []Result{{ok, Win}, {ok, Draw}, {Rating{1500, -350, 0.06}, Loss}}, "results[2].opponent.deviation", ReasonNotPositive},
		{"opponent rating", DefaultSystem(), ok, []Result{{Rating{inf, 350, 0.06}, Loss}}, "results[0].opponent.rating", ReasonNotFinite},
		{"opponent volatility", DefaultSystem(), ok, []Result{{Rating{1500, 350, -0.06}, Loss}}, "results[0].opponent.volatility", ReasonNotPositive},
		{"ratings far apart", DefaultSystem(), ok, []Result{{Rating{1e300, 350, 0.06}, Loss}}, "results", ReasonUnrateable},
		{"huge deviation", DefaultSystem(), Rating{1500, 1e300, 0.06}, nil, "results", ReasonUnrateable},
		{"huge volatility", DefaultSystem(), Rating{1500, 350, 1e200}, []Result{{ok, Win}}, "results", ReasonUnrateable},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, err := c.sys.Update(c.player, c.results)
			var ie *InputError
			if !errors.As(err, &ie) {
				t.Fatalf("Update(%+v, %+v) error = %v, want *InputError", c.player, c.results, err)
			}
			if ie.Field != c.field || ie.Reason != c.why {
				t.Errorf("Update(%+v, %+v) error = %q (field %q, reason %v), want field %q, reason %v", c.player, c.results, err, ie.Field, ie.Reason, c.field, c.why)
			}
			if got != (Rating{}) {
				t.Errorf("Update with error returned %+v, want the zero Rating", got)
			}
		})
	}
}

func TestGameErrors(t *testing.T) {
	ok := Default()
	for _, c := range []struct {
		name  string
		sys   System
		a, b  Rating
		score Score
		field string
		why   Reason
	}{
		{"tau", System{Tau: 0}, ok, ok, Win, "tau", ReasonNotPositive},
		{"a deviation", DefaultSystem(), Rating{1500, 0, 0.06}, ok, Win, "a.deviation", ReasonNotPositive},
		{"b volatility", DefaultSystem(), ok, Rating{1500, 350, math.NaN()}, Win, "b.volatility", ReasonNotFinite},
		{"b rating", DefaultSystem(), ok, Rating{math.Inf(1), 350, 0.06}, Win, "b.rating", ReasonNotFinite},
		{"score 2", DefaultSystem(), ok, ok, 2, "score", ReasonOutOfRange},
		{"score Inf", DefaultSystem(), ok, ok, Score(math.Inf(-1)), "score", ReasonNotFinite},
		{"far apart", DefaultSystem(), Rating{-1e300, 350, 0.06}, Rating{1e300, 350, 0.06}, Draw, "game", ReasonUnrateable},
	} {
		t.Run(c.name, func(t *testing.T) {
			a, b, err := c.sys.Game(c.a, c.b, c.score)
			var ie *InputError
			if !errors.As(err, &ie) {
				t.Fatalf("Game(%+v, %+v, %v) error = %v, want *InputError", c.a, c.b, c.score, err)
			}
			if ie.Field != c.field || ie.Reason != c.why {
				t.Errorf("Game(%+v, %+v, %v) error = %q (field %q, reason %v), want field %q, reason %v", c.a, c.b, c.score, err, ie.Field, ie.Reason, c.field, c.why)
			}
			if a != (Rating{}) || b != (Rating{}) {
				t.Errorf("Game with error returned %+v, %+v, want zero Ratings", a, b)
			}
		})
	}
}

func TestErrorText(t *testing.T) {
	for _, c := range []struct {
		err  *InputError
		want string
	}{
		{&InputError{Field: "results[1].score", Value: 1.5, Reason: ReasonOutOfRange}, "glicko: results[1].score 1.5 out of range 0..1"},
		{&InputError{Field: "tau", Value: 0, Reason: ReasonNotPositive}, "glicko: tau 0 not positive"},
		{&InputError{Field: "a.rating", Value: math.NaN(), Reason: ReasonNotFinite}, "glicko: a.rating NaN not finite"},
		{&InputError{Field: "game", Value: math.NaN(), Reason: ReasonUnrateable}, "glicko: game too extreme to rate"},
	} {
		if got := c.err.Error(); got != c.want {
			t.Errorf("(%+v).Error() = %q, want %q", *c.err, got, c.want)
		}
	}
	for r, want := range map[Reason]string{ReasonNone: "no reason", ReasonNotFinite: "not finite", ReasonNotPositive: "not positive", ReasonOutOfRange: "out of range", ReasonUnrateable: "too extreme to rate"} {
		if got := r.String(); got != want {
			t.Errorf("Reason(%d).String() = %q, want %q", r, got, want)
		}
	}
}
