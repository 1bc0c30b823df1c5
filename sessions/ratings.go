package sessions

import (
	"fmt"

	"github.com/connect4/connect4/bot/match"
)

// ratingPlan is a rated game's change, with the stored values it was
// computed from, so that the write can check nothing moved in between.
type ratingPlan struct {
	change              match.RatingChange
	oldRatings          [2]string // as stored ("" for none), winner then loser
	oldHistories        [2]string
	newRatings          [2]string
	newHistories        [2]string
	headToHead          string // the count to increment
	winnerVal, loserVal float64
}

// planRating rates the game t records from the players' stored ratings and
// histories (winner then loser; "" for none). A stored value that cannot
// be read is a *match.CorruptError for k.
func planRating(k match.Key, t match.Tally, ratings, histories [2]string) (*ratingPlan, error) {
	p := &ratingPlan{oldRatings: ratings, oldHistories: histories, headToHead: headToHeadField(t)}
	var before [2]match.PlayerRating
	var hist [2][]float64
	for i := range 2 {
		before[i] = match.NewRating()
		if ratings[i] != "" {
			r, err := match.DecodeRating(ratings[i])
			if err != nil {
				return nil, &match.CorruptError{Key: k, Err: fmt.Errorf("rating of %q: %w", []string{t.Winner.ID, t.Loser.ID}[i], err)}
			}
			before[i] = r
		}
		h, err := match.DecodeHistory(histories[i])
		if err != nil {
			return nil, &match.CorruptError{Key: k, Err: fmt.Errorf("rating history of %q: %w", []string{t.Winner.ID, t.Loser.ID}[i], err)}
		}
		hist[i] = h
	}
	ch, err := match.Rate(t, before[0], before[1])
	if err != nil {
		return nil, &match.CorruptError{Key: k, Err: err}
	}
	p.change = ch
	for i := range 2 {
		p.newRatings[i] = match.EncodeRating(ch.After[i])
		p.newHistories[i] = match.EncodeHistory(append(hist[i], ch.After[i].Rating.Rating))
	}
	p.winnerVal, p.loserVal = ch.After[0].Rating.Rating, ch.After[1].Rating.Rating
	return p, nil
}

// args are the end of casScript's tally section for a rated game (see tallyArgs).
func (p *ratingPlan) args() []any {
	return []any{"1", p.oldRatings[0], p.oldRatings[1], p.newRatings[0], p.newRatings[1],
		p.winnerVal, p.loserVal, p.oldHistories[0], p.oldHistories[1], p.newHistories[0], p.newHistories[1], p.headToHead}
}

// headToHeadField is the head-to-head count a tally increments: "a>b" for
// a win of a over b, "a=b" (ids in order) for a draw.
func headToHeadField(t match.Tally) string {
	if t.Draw {
		a, b := min(t.Winner.ID, t.Loser.ID), max(t.Winner.ID, t.Loser.ID)
		return a + "=" + b
	}
	return t.Winner.ID + ">" + t.Loser.ID
}

// headToHeadFields are the three counts between a and b: a's wins, b's
// wins, draws.
func headToHeadFields(a, b string) [3]string {
	return [3]string{a + ">" + b, b + ">" + a, min(a, b) + "=" + max(a, b)}
}
