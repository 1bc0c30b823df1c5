package solver_test

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/connect4/connect4/engine"
	"github.com/connect4/connect4/engine/solver"
)

// The computer player takes a win it sees; asked for a move in a game that is
// over, it says why it cannot play.
func ExampleAI_ChooseMove() {
	g, err := engine.New(engine.DefaultConfig())
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, col := range []int{1, 1, 2, 2, 3, 3} { // Red has three in the bottom row
		if err := g.Play(g.Turn(), col); err != nil {
			fmt.Println(err)
			return
		}
	}
	ai := solver.NewAI() // one per program: it keeps hard's tables between moves
	col, err := ai.ChooseMove(context.Background(), g, solver.Hard, nil, 100*time.Millisecond)
	fmt.Println("hard plays column", col, err)

	if err := g.Play(g.Turn(), col); err != nil {
		fmt.Println(err)
		return
	}
	_, err = ai.ChooseMove(context.Background(), g, solver.Hard, nil, 100*time.Millisecond)
	var e *solver.Error
	fmt.Println(errors.As(err, &e) && e.Reason == solver.ReasonGameOver, err)
	// Output:
	// hard plays column 4 <nil>
	// true solver: game already won at move 7: red connects 4
}
