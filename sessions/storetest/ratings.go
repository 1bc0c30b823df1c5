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
	m := playRatedSeries(t, s, clk)
	m.checkStats(t, s)
	all := m.checkRatings(t, s)
	m.checkHeadToHead(t, s)
	checkSeasons(t, s, all)
}

// carol is the third player of testRatings.
var carol = match.Player{ID: "UCAROL", Name: "Carol"}

// ratingModel is what match.Rate computes, game by game, for the series
// testRatings plays: each player's rating and rating history, and Alice's
// record against Bob (her wins, his wins, draws).
type ratingModel struct {
	want map[string]match.PlayerRating
	hist map[string][]float64
	h2h  [3]int
}

func (m *ratingModel) get(id string) match.PlayerRating {
	if r, ok := m.want[id]; ok {
		return r
	}
	return match.NewRating()
}

func (m *ratingModel) apply(ch match.RatingChange) {
	for j, id := range ch.Players {
		m.want[id] = ch.After[j]
		m.hist[id] = append(m.hist[id], ch.After[j].Rating.Rating)
	}
}

// playRatedSeries plays testRatings' games, checking each record's rating
// change, then one unrated tally, and returns the model of the result.
func playRatedSeries(t *testing.T, s RatingStore, clk *Clock) *ratingModel {
	type game struct {
		w, l match.Player
		draw bool
	}
	games := []game{{Alice, Bob, false}, {Alice, Bob, false}, {Bob, carol, false}, {carol, Alice, true}, {Alice, carol, false}, {Bob, Alice, false}}
	m := &ratingModel{want: map[string]match.PlayerRating{}, hist: map[string][]float64{}}
	for i, g := range games {
		rec := rateGame(t, s, Channel, g.w, g.l, g.draw)
		tally := match.Tally{Winner: g.w, Loser: g.l, Draw: g.draw, Rated: true}
		ch, err := match.Rate(tally, m.get(g.w.ID), m.get(g.l.ID))
		if err != nil {
			t.Fatal(err)
		}
		if rec.Rating == nil || rec.Rating.Players != ch.Players || rec.Rating.After != ch.After || rec.Rating.Before != ch.Before {
			t.Fatalf("game %d: record's rating change %+v, want %+v", i, rec.Rating, ch)
		}
		if stored := mustLoad(t, s, Channel, rec.ID); stored.Rating == nil || stored.Rating.After != ch.After {
			t.Fatalf("game %d: stored record's rating change %+v, want %+v", i, stored.Rating, ch)
		}
		m.apply(ch)
		switch {
		case g.w == Alice && g.l == Bob:
			m.h2h[0]++
		case g.w == Bob && g.l == Alice:
			m.h2h[1]++
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
	ch, _ := match.Rate(match.Tally{Winner: Bob, Loser: Alice, Rated: true}, m.get(Bob.ID), m.get(Alice.ID))
	m.apply(ch)
	m.h2h[1]++
	return m
}

// checkStats compares every player's Stats with the model.
func (m *ratingModel) checkStats(t *testing.T, s RatingStore) {
	for id, r := range m.want {
		st, err := s.Stats(t.Context(), Channel, id)
		if err != nil || st.Rating == nil {
			t.Fatalf("Stats(%s) = %+v, %v", id, st, err)
		}
		if !close2(st.Rating.Rating.Rating, r.Rating.Rating) || !close2(st.Rating.Deviation, r.Deviation) ||
			!close2(st.Rating.Volatility, r.Volatility) || st.Rating.Games != r.Games || st.Rating.Streak != r.Streak {
			t.Errorf("Stats(%s).Rating = %+v, want %+v", id, *st.Rating, r)
		}
		if got, w := fmt.Sprint(st.History), fmt.Sprint(roundAll(m.hist[id])); got != w {
			t.Errorf("Stats(%s).History = %s, want %s", id, got, w)
		}
	}
	if r := m.want[Bob.ID]; r.Streak != 3 {
		t.Errorf("Bob's streak %d after three wins in a row, want 3 (check the series)", r.Streak)
	}
}

// checkRatings checks the ratings table against the model and Stats, and
// returns it, highest first.
func (m *ratingModel) checkRatings(t *testing.T, s RatingStore) []match.Standing {
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
		if w := m.want[st.Player.ID]; !close2(st.Rating.Rating.Rating, w.Rating.Rating) {
			t.Errorf("Ratings: %s at %v, want %v", st.Player.ID, st.Rating.Rating.Rating, w.Rating.Rating)
		}
		lb, _ := s.Stats(t.Context(), Channel, st.Player.ID)
		if st.Wins != lb.Wins || st.Losses != lb.Losses || st.Draws != lb.Draws || st.Player.Name == "" {
			t.Errorf("Ratings row %+v disagrees with Stats %+v", st, lb)
		}
	}
	return all
}

// checkHeadToHead checks two pairs' records against each other.
func (m *ratingModel) checkHeadToHead(t *testing.T, s RatingStore) {
	h, err := s.HeadToHead(t.Context(), Channel, Alice.ID, Bob.ID)
	if err != nil || h.AWins != m.h2h[0] || h.BWins != m.h2h[1] || h.Draws != m.h2h[2] {
		t.Errorf("HeadToHead(Alice, Bob) = %+v, %v; want %v", h, err, m.h2h)
	}
	hc, _ := s.HeadToHead(t.Context(), Channel, carol.ID, Alice.ID)
	if hc.Draws != 1 || hc.AWins != 0 || hc.BWins != 1 {
		t.Errorf("HeadToHead(Carol, Alice) = %+v, want 1 draw and 1 win for Alice", hc)
	}
}

// checkSeasons archives the season whose ratings table is all, and checks
// that everyone starts afresh and that the archives read back.
func checkSeasons(t *testing.T, s RatingStore, all []match.Standing) {
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
