package storetest

import (
	"context"
	"errors"
	"fmt"
	"math"
	"testing"
	"time"

	"github.com/connect4/connect4/bot/match"
)

// RatingStore is what the rating tests need beyond Store.
type RatingStore interface {
	Store
	Ratings(ctx context.Context, k match.Key, n int) ([]match.Standing, error)
	HeadToHead(ctx context.Context, k match.Key, a, b string) (match.HeadToHead, error)
	NewSeason(ctx context.Context, k match.Key) (match.Season, error)
	Seasons(ctx context.Context, k match.Key) ([]match.Season, error)
}

// rateGame plays a finished game between winner and loser (or a draw) in
// k through the store, as a rated tally.
func rateGame(t *testing.T, s Store, k match.Key, winner, loser match.Player, draw bool) *match.Record {
	t.Helper()
	r := Playing(t, k)
	r.Challenger, r.Opponent, r.RedID = winner, loser, winner.ID
	mustCreate(t, s, r)
	got, err := s.Update(t.Context(), k, r.ID, func(r *match.Record) (match.Tally, error) {
		r.Status = match.StatusFinished
		if draw {
			r.Finish = match.FinishDraw
			r.Rounds = []match.RoundResult{{Finish: match.FinishDraw}}
			return match.Tally{Winner: winner, Loser: loser, Draw: true, Rated: true}, nil
		}
		r.Finish = match.FinishResign
		r.Rounds = []match.RoundResult{{Winner: winner.ID, Finish: match.FinishResign}}
		return match.Tally{Winner: winner, Loser: loser, Rated: true}, nil
	})
	if err != nil {
		t.Fatalf("rated game %s over %s: %v", winner.ID, loser.ID, err)
	}
	return got
}

func close2(a, b float64) bool { return math.Abs(a-b) < 1e-9 }

// testRatings plays a series of rated games and checks that the store's
// ratings, histories, streaks, order and head-to-head records are exactly
// what match.Rate computes game by game; that unrated tallies change no
// rating; and that each written record carries its change.
func testRatings(t *testing.T, s RatingStore, clk *Clock) {
	carol := match.Player{ID: "UCAROL", Name: "Carol"}
	type game struct {
		w, l match.Player
		draw bool
	}
	games := []game{{Alice, Bob, false}, {Alice, Bob, false}, {Bob, carol, false}, {carol, Alice, true}, {Alice, carol, false}, {Bob, Alice, false}}
	want := map[string]match.PlayerRating{}
	hist := map[string][]float64{}
	get := func(id string) match.PlayerRating {
		if r, ok := want[id]; ok {
			return r
		}
		return match.NewRating()
	}
	var h2h [3]int // Alice vs Bob: Alice's wins, Bob's wins, draws
	for i, g := range games {
		rec := rateGame(t, s, Channel, g.w, g.l, g.draw)
		tally := match.Tally{Winner: g.w, Loser: g.l, Draw: g.draw, Rated: true}
		ch, err := match.Rate(tally, get(g.w.ID), get(g.l.ID))
		if err != nil {
			t.Fatal(err)
		}
		if rec.Rating == nil || rec.Rating.Players != ch.Players || rec.Rating.After != ch.After || rec.Rating.Before != ch.Before {
			t.Fatalf("game %d: record's rating change %+v, want %+v", i, rec.Rating, ch)
		}
		if stored := mustLoad(t, s, Channel, rec.ID); stored.Rating == nil || stored.Rating.After != ch.After {
			t.Fatalf("game %d: stored record's rating change %+v, want %+v", i, stored.Rating, ch)
		}
		for j, id := range ch.Players {
			want[id] = ch.After[j]
			hist[id] = append(hist[id], ch.After[j].Rating.Rating)
		}
		switch {
		case g.w == Alice && g.l == Bob:
			h2h[0]++
		case g.w == Bob && g.l == Alice:
			h2h[1]++
		}
		clk.Advance(time.Second)
	}
	// An unrated tally (a game against the AI never reaches the store
	// rated; nor do declined challenges) changes no rating.
	last := mustCreate(t, s, Playing(t, Channel))
	if _, err := s.Update(t.Context(), Channel, last.ID, func(r *match.Record) (match.Tally, error) {
		return finish(r, match.FinishResign, Bob, Alice), nil // finish rates: undo that here
	}); err != nil {
		t.Fatal(err)
	}
	ch, _ := match.Rate(match.Tally{Winner: Bob, Loser: Alice, Rated: true}, get(Bob.ID), get(Alice.ID))
	for j, id := range ch.Players {
		want[id] = ch.After[j]
		hist[id] = append(hist[id], ch.After[j].Rating.Rating)
	}
	h2h[1]++

	for id, r := range want {
		st, err := s.Stats(t.Context(), Channel, id)
		if err != nil || st.Rating == nil {
			t.Fatalf("Stats(%s) = %+v, %v", id, st, err)
		}
		if !close2(st.Rating.Rating.Rating, r.Rating.Rating) || !close2(st.Rating.Deviation, r.Deviation) ||
			!close2(st.Rating.Volatility, r.Volatility) || st.Rating.Games != r.Games || st.Rating.Streak != r.Streak {
			t.Errorf("Stats(%s).Rating = %+v, want %+v", id, *st.Rating, r)
		}
		if got, w := fmt.Sprint(st.History), fmt.Sprint(roundAll(hist[id])); got != w {
			t.Errorf("Stats(%s).History = %s, want %s", id, got, w)
		}
	}
	if r := want[Bob.ID]; r.Streak != 3 {
		t.Errorf("Bob's streak %d after three wins in a row, want 3 (check the series)", r.Streak)
	}
	top, err := s.Ratings(t.Context(), Channel, 2)
	if err != nil || len(top) != 2 {
		t.Fatalf("Ratings(2) = %+v, %v", top, err)
	}
	all, _ := s.Ratings(t.Context(), Channel, 0)
	if len(all) != 3 {
		t.Fatalf("Ratings(0) has %d players, want 3", len(all))
	}
	for i := 1; i < len(all); i++ {
		if all[i-1].Rating.Rating.Rating < all[i].Rating.Rating.Rating {
			t.Errorf("Ratings not highest first: %+v", all)
		}
	}
	for _, st := range all {
		if w := want[st.Player.ID]; !close2(st.Rating.Rating.Rating, w.Rating.Rating) {
			t.Errorf("Ratings: %s at %v, want %v", st.Player.ID, st.Rating.Rating.Rating, w.Rating.Rating)
		}
		lb, _ := s.Stats(t.Context(), Channel, st.Player.ID)
		if st.Wins != lb.Wins || st.Losses != lb.Losses || st.Draws != lb.Draws || st.Player.Name == "" {
			t.Errorf("Ratings row %+v disagrees with Stats %+v", st, lb)
		}
	}
	h, err := s.HeadToHead(t.Context(), Channel, Alice.ID, Bob.ID)
	if err != nil || h.AWins != h2h[0] || h.BWins != h2h[1] || h.Draws != h2h[2] {
		t.Errorf("HeadToHead(Alice, Bob) = %+v, %v; want %v", h, err, h2h)
	}
	hc, _ := s.HeadToHead(t.Context(), Channel, carol.ID, Alice.ID)
	if hc.Draws != 1 || hc.AWins != 0 || hc.BWins != 1 {
		t.Errorf("HeadToHead(Carol, Alice) = %+v, want 1 draw and 1 win for Alice", hc)
	}

	// A season: archived with its standings, then everyone starts afresh.
	se, err := s.NewSeason(t.Context(), Channel)
	if err != nil {
		t.Fatalf("NewSeason: %v", err)
	}
	if se.Number != 1 || len(se.Standings) != 3 || se.Standings[0].Player.ID != all[0].Player.ID || len(se.Podium()) != 3 {
		t.Errorf("archived season %+v, want number 1 with the 3 standings, %s first", se, all[0].Player.ID)
	}
	if st, _ := s.Stats(t.Context(), Channel, Alice.ID); st.Rating != nil || st.Games() != 0 || len(st.History) != 0 {
		t.Errorf("Alice after the new season: %+v, want a fresh start", st)
	}
	if _, err := s.NewSeason(t.Context(), Channel); !errors.Is(err, match.ErrEmptySeason) {
		t.Errorf("NewSeason of an empty season: err = %v, want ErrEmptySeason", err)
	}
	rateGame(t, s, Channel, carol, Bob, false)
	if st, _ := s.Stats(t.Context(), Channel, carol.ID); st.Rating == nil || st.Rating.Games != 1 {
		t.Errorf("Carol's first game of season 2: %+v", st)
	}
	se2, err := s.NewSeason(t.Context(), Channel)
	if err != nil || se2.Number != 2 || len(se2.Standings) != 2 || se2.Standings[0].Player.ID != carol.ID {
		t.Errorf("second season %+v, %v", se2, err)
	}
	seasons, err := s.Seasons(t.Context(), Channel)
	if err != nil || len(seasons) != 2 || seasons[0].Number != 2 || seasons[1].Number != 1 {
		t.Fatalf("Seasons = %+v, %v; want 2 then 1", seasons, err)
	}
	if got := seasons[1].Standings[0]; got.Player != all[0].Player || !close2(got.Rating.Rating.Rating, all[0].Rating.Rating.Rating) {
		t.Errorf("season 1's leader read back as %+v, want %+v", got, all[0])
	}
}

func roundAll(h []float64) []float64 {
	out := make([]float64, len(h))
	for i, r := range h {
		out[i] = math.Round(r)
	}
	return out[max(0, len(out)-match.HistoryLen):]
}
