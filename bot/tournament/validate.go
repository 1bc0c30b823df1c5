package tournament

import (
	"github.com/connect4/connect4/bot/match"
	"github.com/connect4/connect4/bot/pairing"
)

// maxPlanned bounds Planned: a double round robin of MaxPlayers.
var maxPlanned = pairing.RoundRobinRounds(MaxPlayers, true)

// Validate reports the first way t breaks the rules of a tournament, as
// an *Error of ReasonInvalid (or Options.Validate's reasons), or nil. A
// store calls it on every value it reads back, so that a damaged one is
// refused at the boundary rather than met half-way through a round.
func (t *Tournament) Validate() error {
	if err := t.Options.Validate(); err != nil {
		return err
	}
	switch {
	case len(t.ID) > MaxIDLen || !match.ValidGameID(t.ID):
		return invalid("id %.40q", t.ID)
	case t.Key.Validate() != nil:
		return &Error{Reason: ReasonInvalid, Err: t.Key.Validate()}
	case !validPlayer(t.Organiser):
		return invalid("organiser %.40q", t.Organiser.ID)
	case t.Status == NoStatus || t.Status > Cancelled:
		return invalid("status %v", t.Status)
	case len(t.Players) > MaxPlayers:
		return invalid("%d players, more than %d", len(t.Players), MaxPlayers)
	case t.Planned < 0 || t.Planned > maxPlanned || len(t.Rounds) > t.Planned:
		return invalid("%d rounds of %d planned", len(t.Rounds), t.Planned)
	case len(t.Message.Channel) > match.MaxRefLen || len(t.Message.Timestamp) > match.MaxRefLen || len(t.Message.MessageID) > match.MaxRefLen:
		return invalid("message reference part longer than %d bytes", match.MaxRefLen)
	}
	seen := make(map[string]bool, len(t.Players))
	for _, p := range t.Players {
		switch {
		case !validPlayer(p.Player):
			return invalid("player %.40q", p.ID)
		case seen[p.ID]:
			return invalid("player %.40q twice", p.ID)
		case p.Withdrawn && t.Status == Joining:
			return invalid("player %.40q withdrawn before the start", p.ID)
		}
		seen[p.ID] = true
	}
	if t.Status == Joining {
		if t.Planned != 0 || len(t.Rounds) != 0 {
			return invalid("rounds before the start")
		}
		return nil
	}
	if len(t.Rounds) > 0 && len(t.Players) < MinPlayers {
		return invalid("%d players in a started tournament", len(t.Players))
	}
	if t.Status != Cancelled && (t.Planned == 0 || len(t.Rounds) == 0) {
		return invalid("%v with %d of %d rounds", t.Status, len(t.Rounds), t.Planned)
	}
	ids := map[string]bool{}
	for i, r := range t.Rounds {
		if !r.Over() && (i < len(t.Rounds)-1 || t.Status == Finished) {
			return invalid("round %d unfinished", i+1)
		}
		for _, g := range r.Games {
			switch {
			case g.GameID == "":
				if g.Result == pairing.NoResult {
					return invalid("round %d: a game without an id or a result", i+1)
				}
			case !match.ValidGameID(g.GameID) || ids[g.GameID]:
				return invalid("round %d: game id %.70q invalid or twice", i+1, g.GameID)
			}
			ids[g.GameID] = true
		}
	}
	if len(t.Players) >= pairing.MinPlayers {
		if _, err := pairing.Standings(len(t.Players), t.history(), t.ByePoints()); err != nil {
			return &Error{Reason: ReasonInvalid, Err: err}
		}
	}
	return nil
}
