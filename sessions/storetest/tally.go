package storetest

import (
	"fmt"
	"reflect"
	"testing"

	"github.com/connect4/connect4/bot/match"
)

func testLeaderboard(t *testing.T, s Store, clk *Clock) {
	if lb, err := s.Leaderboard(t.Context(), Channel, 10); err != nil || len(lb) != 0 {
		t.Errorf("empty Leaderboard = %+v, %v", lb, err)
	}
	p := func(n int) match.Player {
		return match.Player{ID: fmt.Sprintf("U%d", n), Name: fmt.Sprintf("P%d", n)}
	}
	d := match.Player{ID: "UD", Name: "Dummy"}
	win := func(w, l match.Player) match.Tally { return match.Tally{Winner: w, Loser: l} }
	draw := func(a, b match.Player) match.Tally { return match.Tally{Winner: a, Loser: b, Draw: true} }
	p1old := match.Player{ID: "U1", Name: "Old name"}
	tallies := []match.Tally{
		win(p(6), d), win(d, p(6)), // U6 1-1: ties U5 on everything but the id
		win(p1old, d), win(p(1), d), win(d, p(1)), win(p(1), d), // U1 3-1, renamed
		win(p(2), d), win(p(2), d), draw(d, p(2)), // U2 2-0-1
		win(p(3), d), win(p(3), d), // U3 2-0-0: fewer games than U2
		win(p(4), d), win(p(4), d), win(d, p(4)), // U4 2-1
		win(p(5), d), win(d, p(5)), // U5 1-1
	}
	g := mustCreate(t, s, Playing(t, Channel))
	for _, tl := range tallies {
		if _, err := s.Update(t.Context(), Channel, g.ID, func(r *match.Record) (match.Tally, error) {
			r.Rematches++
			return tl, nil
		}); err != nil {
			t.Fatalf("Update with tally %+v: %v", tl, err)
		}
	}
	want := []match.Standing{
		{Player: d, Wins: 4, Losses: 11, Draws: 1},
		{Player: p(1), Wins: 3, Losses: 1},
		{Player: p(2), Wins: 2, Draws: 1},
		{Player: p(3), Wins: 2},
		{Player: p(4), Wins: 2, Losses: 1},
		{Player: p(5), Wins: 1, Losses: 1},
		{Player: p(6), Wins: 1, Losses: 1},
	}
	for _, n := range []int{0, 3, 7, 100} {
		got, err := s.Leaderboard(t.Context(), Channel, n)
		w := want
		if n > 0 && n < len(w) {
			w = w[:n]
		}
		if err != nil || !reflect.DeepEqual(got, w) {
			t.Errorf("Leaderboard(%d) = %+v, %v\nwant %+v", n, got, err, w)
		}
	}
	if st, err := s.Stats(t.Context(), Channel, "U2"); err != nil || !reflect.DeepEqual(st, want[2]) {
		t.Errorf("Stats(U2) = %+v, %v; want %+v", st, err, want[2])
	}
	if st, err := s.Stats(t.Context(), Channel, "UNOBODY"); err != nil || !reflect.DeepEqual(st, match.Standing{Player: match.Player{ID: "UNOBODY"}}) {
		t.Errorf("Stats(UNOBODY) = %+v, %v; want a zero standing with the id", st, err)
	}
	if got := want[1].WinRate(); got != 0.75 {
		t.Errorf("WinRate of 3-1 = %v, want 0.75", got)
	}
	other := Channel
	other.Channel = "C2"
	if lb, err := s.Leaderboard(t.Context(), other, 0); err != nil || len(lb) != 0 {
		t.Errorf("another channel's Leaderboard = %+v, %v; want empty", lb, err)
	}
}

func testTallyOnceAcrossRetries(t *testing.T, s Store, clk *Clock) {
	g := mustCreate(t, s, Playing(t, Channel))
	calls := 0
	got, err := s.Update(t.Context(), Channel, g.ID, func(r *match.Record) (match.Tally, error) {
		calls++
		if calls == 1 { // force one conflict
			if _, err := s.Update(t.Context(), Channel, g.ID, func(r *match.Record) (match.Tally, error) {
				r.Rematches++
				return match.Tally{}, nil
			}); err != nil {
				t.Errorf("nested Update: %v", err)
			}
		}
		return finish(r, match.FinishTimeout, Bob, Alice), nil
	})
	if err != nil || calls != 2 {
		t.Fatalf("Update = %v after %d calls; want nil after 2", err, calls)
	}
	if got.Rematches != 1 || len(got.Rounds) != 1 {
		t.Errorf("record after a retried finish: Rematches %d Rounds %v; want 1 and one round", got.Rematches, got.Rounds)
	}
	lb, err := s.Leaderboard(t.Context(), Channel, 0)
	want := []match.Standing{{Player: Bob, Wins: 1}, {Player: Alice, Losses: 1}}
	if err != nil || !reflect.DeepEqual(lb, want) {
		t.Errorf("Leaderboard = %+v, %v; want %+v", lb, err, want)
	}
}
