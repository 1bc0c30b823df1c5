package sessions_test

import (
	"context"
	"errors"
	"fmt"

	"github.com/connect4/connect4/engine"
	"github.com/connect4/connect4/sessions"
)

// A challenge is created, accepted and played through Update, whose function
// checks the move number the button was drawn for, so a stale or repeated
// click changes nothing.
func Example() {
	ctx := context.Background()
	store := sessions.NewMemory(sessions.Options{})
	k := sessions.Key{Platform: "slack", Workspace: "T1", Channel: "C1"}
	ann, ben := sessions.Player{ID: "U1", Name: "Ann"}, sessions.Player{ID: "U2", Name: "Ben"}

	rec := &sessions.Record{Key: k, Status: sessions.StatusPending, Challenger: ann, Opponent: ben,
		Rows: 6, Cols: 7, Connect: 4, FirstTo: 1}
	if err := store.Create(ctx, rec); err != nil {
		fmt.Println(err)
		return
	}
	err := store.Create(ctx, &sessions.Record{Key: k, Status: sessions.StatusPending,
		Challenger: sessions.Player{ID: "U3", Name: "Cy"}, Rows: 6, Cols: 7, Connect: 4, FirstTo: 1})
	fmt.Println(errors.Is(err, sessions.ErrBusy), err)

	accept := func(r *sessions.Record) (sessions.Tally, error) {
		g, err := engine.New(r.Config())
		if err != nil {
			return sessions.Tally{}, err
		}
		r.Status, r.RedID = sessions.StatusPlaying, ann.ID
		r.Game, err = g.MarshalBinary()
		return sessions.Tally{}, err
	}
	errStale := errors.New("that board is out of date")
	move := func(moveNo, col int) func(r *sessions.Record) (sessions.Tally, error) {
		return func(r *sessions.Record) (sessions.Tally, error) {
			g, err := r.DecodeGame()
			if err != nil {
				return sessions.Tally{}, err
			}
			if g.Moves() != moveNo {
				return sessions.Tally{}, errStale
			}
			if err := g.Play(g.Turn(), col); err != nil {
				return sessions.Tally{}, err
			}
			r.Game, err = g.MarshalBinary()
			return sessions.Tally{}, err
		}
	}
	store.Update(ctx, k, accept)
	store.Update(ctx, k, move(0, 3))
	_, err = store.Update(ctx, k, move(0, 4)) // a second click on the first board
	fmt.Println(err)
	r, _ := store.Load(ctx, k)
	g, _ := r.DecodeGame()
	fmt.Println(r.Status, r.Version, g.History())
	// Output:
	// true sessions: channel slack:T1:C1 is busy: a challenge between Ann (U1) and Ben (U2)
	// that board is out of date
	// playing 3 [3]
}
