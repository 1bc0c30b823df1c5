package storetest

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/connect4/connect4/bot/match"

	"github.com/connect4/connect4/engine"
	"github.com/connect4/connect4/sessions"
)

// play returns an Update function that plays col for the player with id, on
// the condition that the game has exactly moveNo moves (the move number the
// button was drawn for), finishing the record and tallying on a win or draw.
func play(id string, moveNo, col int) func(r *match.Record) (match.Tally, error) {
	return func(r *match.Record) (match.Tally, error) {
		if r.Status != match.StatusPlaying {
			return match.Tally{}, errOver
		}
		g := r.Game
		if g.Moves() != moveNo {
			return match.Tally{}, errStale
		}
		me := engine.Yellow
		if id == r.RedID {
			me = engine.Red
		}
		if err := g.Play(me, col); err != nil {
			return match.Tally{}, err
		}
		p, _ := r.PlayerByID(id)
		other := r.Opponent
		if id == r.Opponent.ID {
			other = r.Challenger
		}
		switch g.State() {
		case engine.Won:
			return finish(r, match.FinishWin, p, other), nil
		case engine.Draw:
			r.Status, r.Finish = match.StatusFinished, match.FinishDraw
			r.Rounds = append(r.Rounds, match.RoundResult{Finish: match.FinishDraw})
			return match.Tally{Winner: p, Loser: other, Draw: true}, nil
		}
		return match.Tally{}, nil
	}
}

var (
	errStale = errors.New("stale click")
	errOver  = errors.New("game over")
)

func testUpdate(t *testing.T, s Store, clk *Clock) {
	created := mustCreate(t, s, Playing(t, Channel))
	clk.Advance(time.Second)
	calls := 0
	got, err := s.Update(t.Context(), Channel, created.ID, func(r *match.Record) (match.Tally, error) {
		calls++
		sameRecord(t, "fn's record", r, created)
		// Changes to the identity are ignored.
		r.Key.Channel, r.ID, r.Version, r.Created = "C9", "other", 99, time.Time{}
		return play(Alice.ID, 0, 3)(r)
	})
	if err != nil {
		t.Fatalf("Update: %v", err)
	}
	if calls != 1 {
		t.Errorf("fn called %d times, want 1", calls)
	}
	if got.Version != 2 || got.ID != created.ID || got.Key != Channel || !got.Created.Equal(created.Created) {
		t.Errorf("after Update: Version %d ID %q Key %v Created %v; want 2, %q, %v, %v",
			got.Version, got.ID, got.Key, got.Created, created.ID, Channel, created.Created)
	}
	if !got.Updated.Equal(clk.Now()) {
		t.Errorf("Updated = %v, want %v", got.Updated, clk.Now())
	}
	sameRecord(t, "Load after Update", mustLoad(t, s, Channel, created.ID), got)
	got, err = s.Update(t.Context(), Channel, created.ID, play(Bob.ID, 1, 3))
	if err != nil {
		t.Fatalf("second Update: %v", err)
	}
	g := got.Game
	if got.Version != 3 || !slices.Equal(g.History(), []int{3, 3}) {
		t.Errorf("after two moves: Version %d History %v, want 3, [3 3]", got.Version, g.History())
	}
}

func testUpdateFnError(t *testing.T, s Store, clk *Clock) {
	created := mustCreate(t, s, Playing(t, Channel))
	_, err := s.Update(t.Context(), Channel, created.ID, func(r *match.Record) (match.Tally, error) {
		r.Rematches = 5 // must not be written
		return finish(r, match.FinishWin, Alice, Bob), fmt.Errorf("wrapped: %w", errStale)
	})
	if !errors.Is(err, errStale) {
		t.Fatalf("Update with a failing fn: err = %v, want errStale", err)
	}
	_, err = s.Update(t.Context(), Channel, created.ID, play(Bob.ID, 0, 3)) // not Bob's turn
	var me *engine.MoveError
	if !errors.As(err, &me) {
		t.Fatalf("Update with a wrong-turn move: err = %v, want an *engine.MoveError", err)
	}
	sameRecord(t, "Load after failed updates", mustLoad(t, s, Channel, created.ID), created)
	if lb, err := s.Leaderboard(t.Context(), Channel, 0); err != nil || len(lb) != 0 {
		t.Errorf("Leaderboard after a failed update = %v, %v; want empty", lb, err)
	}
}

func testUpdateNoChange(t *testing.T, s Store, clk *Clock) {
	created := mustCreate(t, s, Playing(t, Channel))
	clk.Advance(time.Second)
	got, err := s.Update(t.Context(), Channel, created.ID, func(r *match.Record) (match.Tally, error) {
		r.Rematches = 5
		return match.Tally{Winner: Alice, Loser: Bob}, fmt.Errorf("nothing to do: %w", match.ErrNoChange)
	})
	if err != nil {
		t.Fatalf("Update returning ErrNoChange: err = %v, want nil", err)
	}
	sameRecord(t, "Update's record on ErrNoChange", got, created)
	sameRecord(t, "Load after ErrNoChange", mustLoad(t, s, Channel, created.ID), created)
	if st, _ := s.Stats(t.Context(), Channel, Alice.ID); st.Games() != 0 {
		t.Errorf("ErrNoChange applied its tally: %+v", st)
	}
}

func testUpdateMissing(t *testing.T, s Store, clk *Clock) {
	called := false
	_, err := s.Update(t.Context(), Channel, "nosuchgame", func(r *match.Record) (match.Tally, error) {
		called = true
		return match.Tally{}, nil
	})
	if !errors.Is(err, match.ErrNoGame) || called {
		t.Errorf("Update of an empty channel: err = %v, fn called %v; want ErrNoGame, false", err, called)
	}
}

func testUpdateInvalid(t *testing.T, s Store, clk *Clock) {
	created := mustCreate(t, s, Playing(t, Channel))
	for _, tc := range []struct {
		name string
		fn   func(r *match.Record) (match.Tally, error)
	}{
		{"unknown status", func(r *match.Record) (match.Tally, error) { r.Status = 42; return match.Tally{}, nil }},
		{"finished without finish", func(r *match.Record) (match.Tally, error) {
			r.Status = match.StatusFinished
			return match.Tally{}, nil
		}},
		{"no game", func(r *match.Record) (match.Tally, error) { r.Game = nil; return match.Tally{}, nil }},
		{"back to pending with moves", func(r *match.Record) (match.Tally, error) {
			r.Status = match.StatusPending
			return match.Tally{}, r.Game.Play(engine.Red, 3)
		}},
		{"round won by a stranger", func(r *match.Record) (match.Tally, error) {
			r.Rounds = []match.RoundResult{{Winner: "UCAROL", Finish: match.FinishWin}}
			return match.Tally{}, nil
		}},
		{"self tally", func(r *match.Record) (match.Tally, error) {
			return match.Tally{Winner: Alice, Loser: Alice}, nil
		}},
		{"tally without loser", func(r *match.Record) (match.Tally, error) {
			return match.Tally{Winner: Alice}, nil
		}},
	} {
		if _, err := s.Update(t.Context(), Channel, created.ID, tc.fn); !errors.Is(err, match.ErrInvalid) {
			t.Errorf("Update(%s): err = %v, want ErrInvalid", tc.name, err)
		}
	}
	sameRecord(t, "Load after invalid updates", mustLoad(t, s, Channel, created.ID), created)
	if lb, _ := s.Leaderboard(t.Context(), Channel, 0); len(lb) != 0 {
		t.Errorf("Leaderboard after invalid updates = %+v, want empty", lb)
	}
}

func testUpdateConflict(t *testing.T, s Store, clk *Clock) {
	g := mustCreate(t, s, Playing(t, Channel))
	calls := 0
	_, err := s.Update(t.Context(), Channel, g.ID, func(r *match.Record) (match.Tally, error) {
		calls++
		// Someone else writes between our read and our write, every time.
		if _, err := s.Update(t.Context(), Channel, g.ID, func(r *match.Record) (match.Tally, error) {
			r.Rematches++
			return match.Tally{}, nil
		}); err != nil {
			t.Errorf("nested Update: %v", err)
		}
		return finish(r, match.FinishWin, Alice, Bob), nil
	})
	if !errors.Is(err, match.ErrConflict) {
		t.Fatalf("Update that always conflicts: err = %v, want ErrConflict", err)
	}
	if want := sessions.DefaultMaxRetries + 1; calls != want {
		t.Errorf("fn called %d times, want %d", calls, want)
	}
	got := mustLoad(t, s, Channel, g.ID)
	if got.Status != match.StatusPlaying || got.Rematches != calls || got.Version != int64(1+calls) {
		t.Errorf("after conflicts: Status %v Rematches %d Version %d; want playing, %d, %d", got.Status, got.Rematches, got.Version, calls, 1+calls)
	}
	if st, _ := s.Stats(t.Context(), Channel, Alice.ID); st.Games() != 0 {
		t.Errorf("a conflicting update was tallied: %+v", st)
	}
}

func testDeadline(t *testing.T, s Store, clk *Clock) {
	g := mustCreate(t, s, Playing(t, Channel))
	check := func(what string, err error) {
		t.Helper()
		if !errors.Is(err, context.DeadlineExceeded) || !errors.Is(err, match.ErrUnavailable) {
			t.Errorf("%s past the deadline: err = %v, want DeadlineExceeded and ErrUnavailable", what, err)
		}
	}
	ctx, cancel := context.WithDeadline(t.Context(), time.Now().Add(-time.Second))
	defer cancel()
	_, err := s.Load(ctx, Channel, g.ID)
	check("Load", err)
	_, err = s.Update(ctx, Channel, g.ID, play(Alice.ID, 0, 0))
	check("Update", err)
	k := Channel
	k.Channel = "C2"
	check("Create", s.Create(ctx, Challenge(k)))

	// A deadline that hits while Update is retrying.
	ctx, cancel = context.WithTimeout(t.Context(), 20*time.Millisecond)
	defer cancel()
	start := time.Now()
	_, err = s.Update(ctx, Channel, g.ID, func(r *match.Record) (match.Tally, error) {
		s.Update(t.Context(), Channel, g.ID, func(r *match.Record) (match.Tally, error) {
			r.Rematches++
			return match.Tally{}, nil
		})
		time.Sleep(2 * time.Millisecond)
		return match.Tally{}, nil
	})
	if !errors.Is(err, match.ErrConflict) { // retries may run out first on a slow machine
		check("Update while retrying", err)
	}
	if d := time.Since(start); d > time.Second {
		t.Errorf("Update with a 20ms deadline took %v", d)
	}
	if recs, err := s.Active(t.Context(), k); err != nil || len(recs) != 0 {
		t.Errorf("Load of the channel a late Create was for: err = %v, want ErrNoGame", err)
	}
}

func testDelete(t *testing.T, s Store, clk *Clock) {
	g := mustCreate(t, s, Playing(t, Channel, 0, 0, 1, 1, 2, 2))
	if _, err := s.Update(t.Context(), Channel, g.ID, play(Alice.ID, 6, 3)); err != nil {
		t.Fatalf("winning move: %v", err)
	}
	if err := s.Delete(t.Context(), Channel, g.ID); err != nil {
		t.Fatalf("Delete: %v", err)
	}
	if _, err := s.Load(t.Context(), Channel, g.ID); !errors.Is(err, match.ErrNoGame) {
		t.Errorf("Load after Delete: err = %v, want ErrNoGame", err)
	}
	if err := s.Delete(t.Context(), Channel, g.ID); err != nil {
		t.Errorf("Delete of nothing: %v", err)
	}
	if st, err := s.Stats(t.Context(), Channel, Alice.ID); err != nil || st.Wins != 1 {
		t.Errorf("Stats after Delete = %+v, %v; want the leaderboard kept (1 win)", st, err)
	}
	mustCreate(t, s, Challenge(Channel))
}
