package storetest

import (
	"errors"
	"slices"
	"testing"

	"github.com/connect4/connect4/bot/match"
	"github.com/connect4/connect4/engine"
)

// Carol and Dave are the third and fourth players of the suite's games of
// 3 and 4.
var (
	Carol = match.Player{ID: "UCAROL", Name: "Carol"}
	Dave  = match.Player{ID: "UDAVE", Name: "Dave"}
)

// Multi returns a pending challenge from Alice to Bob and the others in
// k, on the standard board.
func Multi(k match.Key, others ...match.Player) *match.Record {
	r := Challenge(k)
	r.Others = others
	r.Game = newGame(engine.Config{Rows: 6, Cols: 7, Connect: 4, Players: 2 + len(others)})
	return r
}

// testMultiPlayers: a challenge of 4 binds all four players; accepts are
// recorded one by one; a game of 3 or 4 tallies a win for the winner and a
// loss (or a draw) for each of the others, in one step, unrated.
func testMultiPlayers(t *testing.T, s Store, clk *Clock) {
	ctx := t.Context()
	r := createFour(t, s)
	_, err := s.Update(ctx, Channel, r.ID, func(r *match.Record) (match.Tally, error) {
		r.Status, r.RedID, r.Accepted = match.StatusPlaying, Alice.ID, nil
		for _, c := range []int{0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3, 0} { // Red, Alice, wins in column 1
			if err := r.Game.Play(r.Game.Turn(), c); err != nil {
				return match.Tally{}, err
			}
		}
		r.Status, r.Finish = match.StatusFinished, match.FinishWin
		r.Rounds = []match.RoundResult{{Winner: Alice.ID, Finish: match.FinishWin}}
		return match.Tally{Winner: Alice, Loser: Bob, Others: []match.Player{Carol, Dave}}, nil
	})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string][3]int{Alice.ID: {1, 0, 0}, Bob.ID: {0, 1, 0}, Carol.ID: {0, 1, 0}, Dave.ID: {0, 1, 0}}
	check := func() {
		t.Helper()
		for id, w := range want {
			st, err := s.Stats(ctx, Channel, id)
			if err != nil || [3]int{st.Wins, st.Losses, st.Draws} != w || st.Player.Name == "" {
				t.Errorf("Stats(%s) = %+v, %v; want wins-losses-draws %v with a name", id, st, err, w)
			}
		}
	}
	check()
	// The players are free again; a draw of three counts for each.
	r3 := Multi(Channel, Carol)
	r3.Status, r3.RedID = match.StatusPlaying, Bob.ID
	if err := s.Create(ctx, r3); err != nil {
		t.Fatalf("Create after the game of 4 ended: %v", err)
	}
	if _, err := s.Update(ctx, Channel, r3.ID, func(r *match.Record) (match.Tally, error) {
		r.Status, r.Finish = match.StatusFinished, match.FinishDraw
		r.Rounds = []match.RoundResult{{Finish: match.FinishDraw}}
		return match.Tally{Winner: Bob, Loser: Carol, Others: []match.Player{Alice}, Draw: true}, nil
	}); err != nil {
		t.Fatal(err)
	}
	want[Alice.ID], want[Bob.ID], want[Carol.ID] = [3]int{1, 0, 1}, [3]int{0, 1, 1}, [3]int{0, 1, 1}
	check()
	// A tally of more than two may not be rated, nor name a player twice.
	r4 := Multi(Channel, Carol)
	r4.Status, r4.RedID = match.StatusPlaying, Alice.ID
	if err := s.Create(ctx, r4); err != nil {
		t.Fatal(err)
	}
	for _, bad := range []match.Tally{
		{Winner: Alice, Loser: Bob, Others: []match.Player{Carol}, Rated: true},
		{Winner: Alice, Loser: Bob, Others: []match.Player{Bob}},
	} {
		if _, err := s.Update(ctx, Channel, r4.ID, func(r *match.Record) (match.Tally, error) {
			r.Status, r.Finish = match.StatusFinished, match.FinishResign
			r.Rounds = []match.RoundResult{{Winner: Alice.ID, Finish: match.FinishResign}}
			return bad, nil
		}); !errors.Is(err, match.ErrInvalid) {
			t.Errorf("Update with tally %+v: err = %v, want match.ErrInvalid", bad, err)
		}
	}
	check()
}

// createFour creates a challenge of four (Alice, Bob, Carol and Dave),
// checks that it binds all four, and records Bob's and Dave's accepts.
func createFour(t *testing.T, s Store) *match.Record {
	ctx := t.Context()
	r := Multi(Channel, Carol, Dave)
	if err := s.Create(ctx, r); err != nil {
		t.Fatal(err)
	}
	got, err := s.Load(ctx, Channel, r.ID)
	if err != nil || !slices.Equal(got.Others, []match.Player{Carol, Dave}) || got.NumPlayers() != 4 {
		t.Fatalf("Load = %+v, %v; want the others kept", got, err)
	}
	// Dave, the fourth player, is bound like the opponent.
	other := Challenge(Channel)
	other.Challenger, other.Opponent = match.Player{ID: "UEVE", Name: "Eve"}, Dave
	var busy *match.BusyError
	if err := s.Create(ctx, other); !errors.As(err, &busy) || busy.Existing.ID != r.ID || busy.Player != Dave.ID {
		t.Fatalf("Create with Dave busy: err = %v, want a *BusyError naming Dave and game %s", err, r.ID)
	}
	if pg, err := s.PlayerGame(ctx, Channel, Carol.ID); err != nil || pg.ID != r.ID {
		t.Fatalf("PlayerGame(Carol) = %v, %v; want game %s", pg, err, r.ID)
	}
	for i, id := range []string{Bob.ID, Dave.ID} {
		got, err := s.Update(ctx, Channel, r.ID, func(r *match.Record) (match.Tally, error) {
			r.Accepted = append(r.Accepted, id)
			return match.Tally{}, nil
		})
		if err != nil || len(got.Accepted) != i+1 {
			t.Fatalf("accept %d: %v, %v", i, got, err)
		}
	}
	return r
}
