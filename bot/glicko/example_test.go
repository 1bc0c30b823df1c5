package glicko_test

import (
	"fmt"

	"github.com/connect4/connect4/bot/glicko"
)

// Two new players play their first game; the winner gains what the loser
// loses, and both are still provisional.
func ExampleSystem_Game() {
	alice, bob := glicko.Default(), glicko.Default()
	alice2, bob2, err := glicko.DefaultSystem().Game(alice, bob, glicko.Win)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("alice %.2f (%+.2f) deviation %.2f provisional %v\n", alice2.Rating, alice2.Rating-alice.Rating, alice2.Deviation, alice2.Provisional())
	fmt.Printf("bob   %.2f (%+.2f) deviation %.2f provisional %v\n", bob2.Rating, bob2.Rating-bob.Rating, bob2.Deviation, bob2.Provisional())
	// Output:
	// alice 1662.31 (+162.31) deviation 290.32 provisional true
	// bob   1337.69 (-162.31) deviation 290.32 provisional true
}

// The worked example of Glickman's paper: a rating period of three games.
// The paper prints 1464.06 and 0.05999: it rounds μ′ to −0.2069 before
// step 8 and truncates σ′ = 0.0599960 to five digits.
func ExampleSystem_Update() {
	player := glicko.Rating{Rating: 1500, Deviation: 200, Volatility: 0.06}
	results := []glicko.Result{
		{Opponent: glicko.Rating{Rating: 1400, Deviation: 30, Volatility: 0.06}, Score: glicko.Win},
		{Opponent: glicko.Rating{Rating: 1550, Deviation: 100, Volatility: 0.06}, Score: glicko.Loss},
		{Opponent: glicko.Rating{Rating: 1700, Deviation: 300, Volatility: 0.06}, Score: glicko.Loss},
	}
	r, err := glicko.DefaultSystem().Update(player, results)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Printf("%.2f %.2f %.5f\n", r.Rating, r.Deviation, r.Volatility)

	idle, _ := glicko.DefaultSystem().Update(player, nil)
	fmt.Printf("no games: %.2f %.2f %.5f\n", idle.Rating, idle.Deviation, idle.Volatility)
	// Output:
	// 1464.05 151.52 0.06000
	// no games: 1500.00 200.27 0.06000
}

// A score outside 0..1 is an *InputError naming the field.
func ExampleInputError() {
	_, err := glicko.DefaultSystem().Update(glicko.Default(), []glicko.Result{{Opponent: glicko.Default(), Score: 2}})
	fmt.Println(err)
	// Output:
	// glicko: results[0].score 2 out of range 0..1
}
