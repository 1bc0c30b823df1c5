package pairing_test

import (
	"fmt"

	"github.com/connect4/connect4/bot/pairing"
)

// A Swiss of five players: the first round pairs the top half against the
// bottom half and gives the bye to the lowest seed. The second pairs by
// score (0 and 4 lead with a point, 1 and 3 follow with half) but 1 and 3
// have met, so 0 meets 1 and 4 meets 3; the bye goes to the lowest-ranked
// player without one, 2.
func ExampleSwiss() {
	r1, _ := pairing.Swiss(5, nil, nil)
	fmt.Println("round 1:", r1.Pairs, "bye", r1.Bye)
	r1.Pairs[0].Result = pairing.WhiteWins // 0 beats 2
	r1.Pairs[1].Result = pairing.Draw      // 3 and 1 draw
	r2, _ := pairing.Swiss(5, []pairing.Round{r1}, nil)
	fmt.Println("round 2:", r2.Pairs, "bye", r2.Bye)
	st, _ := pairing.Standings(5, []pairing.Round{r1, r2}, pairing.SwissByePoints)
	fmt.Println("leader:", st[0].Player, "with", st[0].Score.Float())
	// Output:
	// round 1: [{0 2 none} {3 1 none}] bye 4
	// round 2: [{1 0 none} {4 3 none}] bye 2
	// leader: 0 with 1
}
