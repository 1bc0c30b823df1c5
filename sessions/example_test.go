package sessions_test

import (
	"context"
	"errors"
	"fmt"

	"github.com/connect4/connect4/bot/match"

	"github.com/connect4/connect4/engine"
	"github.com/connect4/connect4/sessions"
)

// classicBoard returns an empty board of the standard size.
func classicBoard() *engine.Game {
	g, _ := engine.New(engine.DefaultConfig())
	return g
}

// A challenge is created, accepted and played through Update, whose function
// checks the move number the button was drawn for, so a stale or repeated
// click changes nothing.
func Example() {
	ctx := context.Background()
	store, err := sessions.NewMemory(sessions.Options{})
	if err != nil {
		fmt.Println(err)
		return
	}
	k := match.Key{Platform: "slack", Workspace: "T1", Channel: "C1"}
	ann, ben := match.Player{ID: "U1", Name: "Ann"}, match.Player{ID: "U2", Name: "Ben"}

	rec := &match.Record{Key: k, Status: match.StatusPending, Challenger: ann, Opponent: ben,
		Game: classicBoard(), FirstTo: 1}
	if err := store.Create(ctx, rec); err != nil {
		fmt.Println(err)
		return
	}
	err = store.Create(ctx, &match.Record{Key: k, Status: match.StatusPending,
		Challenger: match.Player{ID: "U3", Name: "Cy"}, Opponent: ben, Game: classicBoard(), FirstTo: 1})
	fmt.Println(errors.Is(err, match.ErrBusy), err)

	accept := func(r *match.Record) (match.Tally, error) {
		r.Status, r.RedID = match.StatusPlaying, ann.ID
		return match.Tally{}, nil
	}
	errStale := errors.New("that board is out of date")
	move := func(moveNo, col int) func(r *match.Record) (match.Tally, error) {
		return func(r *match.Record) (match.Tally, error) {
			if r.Game.Moves() != moveNo {
				return match.Tally{}, errStale
			}
			return match.Tally{}, r.Game.Play(r.Game.Turn(), col)
		}
	}
	store.Update(ctx, k, rec.ID, accept)
	store.Update(ctx, k, rec.ID, move(0, 3))
	_, err = store.Update(ctx, k, rec.ID, move(0, 4)) // a second click on the first board
	fmt.Println(err)
	r, _ := store.Load(ctx, k, rec.ID)
	fmt.Println(r.Status, r.Version, r.Game.History())
	// Output:
	// true match: Ben (U2) is busy in channel slack:T1:C1: a challenge between Ann (U1) and Ben (U2)
	// that board is out of date
	// playing 3 [3]
}
