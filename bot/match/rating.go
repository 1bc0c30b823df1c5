package match

import (
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/connect4/connect4/bot/glicko"
)

// HistoryLen is how many of a player's latest ratings a store keeps, for the
// sparkline of /connect4 stats.
const HistoryLen = 20

// PlayerRating is a player's Glicko-2 rating in a channel this season, with
// what the bot shows beside it.
type PlayerRating struct {
	glicko.Rating
	Games  int // rated games played this season
	Streak int // consecutive wins (> 0) or losses (< 0) up to the last rated game; 0 after a draw
}

// NewRating returns the rating of a player before their first rated game:
// 1500, deviation 350, volatility 0.06.
func NewRating() PlayerRating { return PlayerRating{Rating: glicko.Default()} }

// RatingChange is what one rated game did to its two players' ratings.
// Players are the winner and the loser (for a draw, the two players in the
// tally's order).
type RatingChange struct {
	Players       [2]string
	Before, After [2]PlayerRating
}

// Of returns the before and after ratings of player id, and false for
// someone not in the game.
func (c *RatingChange) Of(id string) (before, after PlayerRating, ok bool) {
	for i, p := range c.Players {
		if p == id && id != "" {
			return c.Before[i], c.After[i], true
		}
	}
	return PlayerRating{}, PlayerRating{}, false
}

// Rate rates the game that t records as its own rating period (Glickman's
// Glicko-2 with τ = 0.5), from the players' ratings before it: a win for
// t.Winner (a resignation or a claim included) or, with t.Draw, a draw. It
// returns an error for ratings the system refuses (a damaged stored value).
func Rate(t Tally, winner, loser PlayerRating) (RatingChange, error) {
	score := glicko.Win
	if t.Draw {
		score = glicko.Draw
	}
	w, l, err := glicko.DefaultSystem().Game(winner.Rating, loser.Rating, score)
	if err != nil {
		return RatingChange{}, fmt.Errorf("match: rate %s against %s: %w", t.Winner.ID, t.Loser.ID, err)
	}
	ch := RatingChange{Players: [2]string{t.Winner.ID, t.Loser.ID}, Before: [2]PlayerRating{winner, loser}}
	ch.After[0] = PlayerRating{Rating: w, Games: winner.Games + 1, Streak: streak(winner.Streak, !t.Draw, true)}
	ch.After[1] = PlayerRating{Rating: l, Games: loser.Games + 1, Streak: streak(loser.Streak, !t.Draw, false)}
	return ch, nil
}

// streak returns the streak after a game: decisive says whether someone
// won, won whether this player did.
func streak(cur int, decisive, won bool) int {
	switch {
	case !decisive:
		return 0
	case won && cur > 0:
		return cur + 1
	case won:
		return 1
	case cur < 0:
		return cur - 1
	}
	return -1
}

// ratingJSON is the stored form of a PlayerRating, shared by the stores so
// that compare-and-set can compare the stored strings.
type ratingJSON struct {
	R float64 `json:"r"`
	D float64 `json:"d"`
	V float64 `json:"v"`
	G int     `json:"g"`
	S int     `json:"s"`
}

// EncodeRating returns the stored form of r.
func EncodeRating(r PlayerRating) string {
	b, _ := json.Marshal(ratingJSON{R: r.Rating.Rating, D: r.Deviation, V: r.Volatility, G: r.Games, S: r.Streak}) // plain numbers: never fails
	return string(b)
}

// DecodeRating parses a stored rating; anything that is not one (not JSON,
// non-finite or out-of-range numbers) is an error.
func DecodeRating(s string) (PlayerRating, error) {
	var j ratingJSON
	if len(s) > 512 {
		return PlayerRating{}, errors.New("rating longer than 512 bytes")
	}
	if err := json.Unmarshal([]byte(s), &j); err != nil {
		return PlayerRating{}, fmt.Errorf("rating: %w", err)
	}
	r := PlayerRating{Rating: glicko.Rating{Rating: j.R, Deviation: j.D, Volatility: j.V}, Games: j.G, Streak: j.S}
	switch {
	case !finite(j.R) || j.R < -1e6 || j.R > 1e6:
		return PlayerRating{}, fmt.Errorf("rating %v out of range", j.R)
	case !finite(j.D) || j.D <= 0 || j.D > 1e4, !finite(j.V) || j.V <= 0 || j.V > 10:
		return PlayerRating{}, fmt.Errorf("deviation %v or volatility %v out of range", j.D, j.V)
	case j.G < 0 || j.S < -j.G || j.S > j.G:
		return PlayerRating{}, fmt.Errorf("games %d, streak %d", j.G, j.S)
	}
	return r, nil
}

func finite(x float64) bool { return !math.IsNaN(x) && !math.IsInf(x, 0) }

// EncodeHistory returns the stored form of a rating history: the ratings,
// oldest first, rounded to whole points, comma-separated, the last
// HistoryLen only.
func EncodeHistory(h []float64) string {
	if len(h) > HistoryLen {
		h = h[len(h)-HistoryLen:]
	}
	parts := make([]string, len(h))
	for i, r := range h {
		parts[i] = strconv.FormatFloat(math.Round(r), 'f', 0, 64)
	}
	return strings.Join(parts, ",")
}

// DecodeHistory parses a stored rating history ("" is none).
func DecodeHistory(s string) ([]float64, error) {
	if s == "" {
		return nil, nil
	}
	parts := strings.Split(s, ",")
	if len(parts) > HistoryLen {
		return nil, fmt.Errorf("history of %d ratings, more than %d", len(parts), HistoryLen)
	}
	h := make([]float64, len(parts))
	for i, p := range parts {
		f, err := strconv.ParseFloat(p, 64)
		if err != nil || !finite(f) {
			return nil, fmt.Errorf("history entry %.20q", p)
		}
		h[i] = f
	}
	return h, nil
}

// HeadToHead is the record of two players against each other in a channel
// this season.
type HeadToHead struct {
	A, B         string // the two players' ids, as asked
	AWins, BWins int
	Draws        int
}

// Games returns the number of games between the two.
func (h HeadToHead) Games() int { return h.AWins + h.BWins + h.Draws }

// Season is an archived season of a channel: its standings when it ended.
type Season struct {
	Number    int
	Ended     time.Time
	Standings []Standing // by rating, rated players only
}

// Podium returns the first three of the season's standings.
func (s Season) Podium() []Standing { return s.Standings[:min(3, len(s.Standings))] }

// ErrEmptySeason means a new season was asked for while the current one has
// no games to archive.
var ErrEmptySeason = errors.New("match: the season has no games yet")
