package tournament

import (
	"strconv"
	"time"

	"github.com/connect4/connect4/bot/pairing"
)

// Round returns the number of the current round, from 1, or 0 before the
// first.
func (t *Tournament) Round() int { return len(t.Rounds) }

// Deadline returns when the current round's time limit passes, and false
// when there is none: no limit, not running, or the round is over.
func (t *Tournament) Deadline() (time.Time, bool) {
	if t.Status != Running || t.Options.RoundLimit == 0 || len(t.Rounds) == 0 || t.Rounds[len(t.Rounds)-1].Over() {
		return time.Time{}, false
	}
	return t.Rounds[len(t.Rounds)-1].Started.Add(t.Options.RoundLimit), true
}

// GameID returns the id of the record of board board (from 1) of round
// round (from 1): derived, so that every replica that creates the round's
// games names them alike, and creating one twice is refused as a
// duplicate rather than made twice.
func (t *Tournament) GameID(round, board int) string {
	return t.ID + "-" + strconv.Itoa(round) + "-" + strconv.Itoa(board)
}

// Advance moves a running tournament on once its current round is over:
// it pairs the next round, started at now, and reports true; or, after
// the last round (or when fewer than two players remain), it finishes the
// tournament and reports false. A game against a withdrawn player is won
// by forfeit at once (it gets a result and no GameID); one between two
// withdrawn players is not played. It returns an *Error: ReasonNotStarted,
// ReasonOver, ReasonRoundUnfinished; ReasonInvalid when the rounds so far
// cannot be paired from (a damaged value).
func (t *Tournament) Advance(now time.Time) (bool, error) {
	switch {
	case t.Status == Joining:
		return false, refuse(ReasonNotStarted)
	case t.Status != Running:
		return false, refuse(ReasonOver)
	case len(t.Rounds) > 0 && !t.Rounds[len(t.Rounds)-1].Over():
		return false, refuse(ReasonRoundUnfinished)
	}
	var out []int
	for i, p := range t.Players {
		if p.Withdrawn {
			out = append(out, i)
		}
	}
	if len(t.Rounds) >= t.Planned || len(t.Players)-len(out) < 2 {
		t.Status, t.Ended = Finished, now
		return false, nil
	}
	var rd pairing.Round
	n := len(t.Players)
	if t.Options.Format == Swiss {
		var err error
		if rd, err = pairing.Swiss(n, t.history(), out); err != nil {
			return false, &Error{Reason: ReasonInvalid, Err: err}
		}
	} else {
		all, err := pairing.RoundRobin(n, t.Options.Double)
		if err != nil || len(all) <= len(t.Rounds) {
			return false, invalid("round robin of %d players has no round %d", n, len(t.Rounds)+1)
		}
		rd = all[len(t.Rounds)]
	}
	number := len(t.Rounds) + 1
	r := Round{Bye: rd.Bye, Started: now}
	for _, p := range rd.Pairs {
		g := Game{White: p.White, Black: p.Black}
		w, b := t.Players[p.White].Withdrawn, t.Players[p.Black].Withdrawn
		switch {
		case w && b:
			continue
		case w:
			g.Result = pairing.BlackWins
		case b:
			g.Result = pairing.WhiteWins
		default:
			g.GameID = t.GameID(number, len(r.Games)+1)
		}
		r.Games = append(r.Games, g)
	}
	if r.Bye != pairing.NoBye && t.Players[r.Bye].Withdrawn {
		r.Bye = pairing.NoBye
	}
	t.Rounds = append(t.Rounds, r)
	return true, nil
}

// Record records the result of the current round's game id. It returns an
// *Error: ReasonNotStarted, ReasonOver, ReasonNoGame, ReasonResultKnown,
// ReasonInvalid for pairing.NoResult or an unknown result.
func (t *Tournament) Record(id string, res pairing.Result) error {
	switch {
	case t.Status == Joining:
		return refuse(ReasonNotStarted)
	case t.Status != Running:
		return refuse(ReasonOver)
	case res == pairing.NoResult || !res.Valid():
		return invalid("result %v", res)
	}
	cur := &t.Rounds[len(t.Rounds)-1]
	for i := range cur.Games {
		g := &cur.Games[i]
		if g.GameID != id || id == "" {
			continue
		}
		if g.Result != pairing.NoResult {
			return refuse(ReasonResultKnown)
		}
		g.Result = res
		return nil
	}
	return refuse(ReasonNoGame)
}

// history returns the rounds as the pairing rules see them.
func (t *Tournament) history() []pairing.Round {
	h := make([]pairing.Round, len(t.Rounds))
	for i, r := range t.Rounds {
		h[i] = pairing.Round{Bye: r.Bye, Pairs: make([]pairing.Pair, len(r.Games))}
		for j, g := range r.Games {
			h[i].Pairs[j] = pairing.Pair{White: g.White, Black: g.Black, Result: g.Result}
		}
	}
	return h
}

// ByePoints returns what a bye scores: a point in a Swiss, nothing in a
// round robin (where every player sits out alike).
func (t *Tournament) ByePoints() pairing.Points {
	if t.Options.Format == Swiss {
		return pairing.SwissByePoints
	}
	return 0
}

// Standings returns the table, first place first: score, then Buchholz,
// then Sonneborn-Berger (see pairing.Standings); Standing.Player indexes
// Players. Games without a result count nothing yet. It returns nil
// before the start, and an *Error (ReasonInvalid) for a damaged value.
func (t *Tournament) Standings() ([]pairing.Standing, error) {
	if len(t.Players) < pairing.MinPlayers || t.Status == Joining {
		return nil, nil
	}
	st, err := pairing.Standings(len(t.Players), t.history(), t.ByePoints())
	if err != nil {
		return nil, &Error{Reason: ReasonInvalid, Err: err}
	}
	return st, nil
}

// RecordWinner records the result of the current round's game id from
// its winner's player id, "" for a draw: what a finished game's record
// says. It returns Record's errors, and ReasonNotPlayer when winner is
// neither player of the game.
func (t *Tournament) RecordWinner(id, winner string) error {
	g, ok := t.game(id)
	if !ok {
		return t.Record(id, pairing.Draw) // Record says why: not started, over, no such game
	}
	res := pairing.Draw
	switch winner {
	case "":
	case t.Players[g.White].ID:
		res = pairing.WhiteWins
	case t.Players[g.Black].ID:
		res = pairing.BlackWins
	default:
		return refuse(ReasonNotPlayer)
	}
	return t.Record(id, res)
}

// game returns the current round's game id.
func (t *Tournament) game(id string) (Game, bool) {
	if t.Status != Running || len(t.Rounds) == 0 || id == "" {
		return Game{}, false
	}
	for _, g := range t.Rounds[len(t.Rounds)-1].Games {
		if g.GameID == id {
			return g, true
		}
	}
	return Game{}, false
}

// Playing returns the current round's game of the player with id that
// has no result yet (to end it when they withdraw), and false when they
// have none.
func (t *Tournament) Playing(id string) (Game, bool) {
	i := t.Index(id)
	if i < 0 || t.Status != Running || len(t.Rounds) == 0 {
		return Game{}, false
	}
	for _, g := range t.Rounds[len(t.Rounds)-1].Games {
		if (g.White == i || g.Black == i) && g.Result == pairing.NoResult {
			return g, true
		}
	}
	return Game{}, false
}
