package tournament

import (
	"time"

	"github.com/connect4/connect4/bot/match"
	"github.com/connect4/connect4/bot/pairing"
)

// MaxHistory is how many finished tournaments a channel keeps, newest
// first: the channel's record, not an archive.
const MaxHistory = 20

// Summary is what a channel keeps of a finished tournament: its final
// table, first place first.
type Summary struct {
	ID      string
	Format  Format
	Double  bool
	Rounds  int // the rounds played
	Ended   time.Time
	Places  []Place
	Started time.Time
}

// Place is one line of a final table.
type Place struct {
	Player          match.Player
	Rank            int
	Score           pairing.Points // in half points
	Buchholz        float64
	SonnebornBerger float64
	Withdrawn       bool
}

// Winners returns the players who share first place: one, unless the
// tiebreaks could not part them.
func (s Summary) Winners() []match.Player {
	var w []match.Player
	for _, p := range s.Places {
		if p.Rank == 1 {
			w = append(w, p.Player)
		}
	}
	return w
}

// Summary returns the final table of t, which must be Finished: its places
// in the order of Standings. It returns an *Error: ReasonNotStarted or
// ReasonOver (cancelled) when t has not finished, ReasonInvalid for a
// damaged value.
func (t *Tournament) Summary() (Summary, error) {
	switch t.Status {
	case Finished:
	case Joining, Running:
		return Summary{}, refuse(ReasonNotStarted)
	default:
		return Summary{}, refuse(ReasonOver)
	}
	st, err := t.Standings()
	if err != nil {
		return Summary{}, err
	}
	s := Summary{ID: t.ID, Format: t.Options.Format, Double: t.Options.Double, Rounds: len(t.Rounds), Started: t.Started, Ended: t.Ended}
	for _, x := range st {
		p := t.Players[x.Player]
		s.Places = append(s.Places, Place{Player: p.Player, Rank: x.Rank, Score: x.Score, Buchholz: x.Buchholz,
			SonnebornBerger: x.SonnebornBerger, Withdrawn: p.Withdrawn})
	}
	return s, nil
}
