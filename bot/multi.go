package bot

import (
	"slices"

	"github.com/connect4/connect4/bot/lang"
	"github.com/connect4/connect4/bot/match"
	"github.com/connect4/connect4/engine"
)

// Games of 3 or 4 players: the challenger invites up to three others, who
// each accept (the game starts when all have) or decline (which calls it
// off). The players move in the order named, Red first; a player who
// resigns or is claimed against leaves: their discs stay, their turns are
// skipped, and the last one left wins. Such a game is a single game, never
// against the AI, and never rated, though the leaderboard counts its win
// and its losses.

// othersOf returns the players of r other than id, in seat order.
func othersOf(r *match.Record, id string) []match.Player {
	var ps []match.Player
	for _, p := range r.Seats() {
		if p.ID != id && p.ID != "" {
			ps = append(ps, p)
		}
	}
	return ps
}

// ids returns the ids of ps.
func ids(ps []match.Player) []string {
	out := make([]string, len(ps))
	for i, p := range ps {
		out[i] = p.ID
	}
	return out
}

// inTurnOrder returns the players of r's current round by colour, Red
// first.
func inTurnOrder(r *match.Record) []match.Player {
	ps := make([]match.Player, r.NumPlayers())
	for i := range ps {
		ps[i] = r.PlayerOf(engine.Player(i + 1))
	}
	return ps
}

// checkInvited checks the players a challenge of cmd invites beside the
// opponent: named once each, people, and not the caller or this bot. It
// returns them in order.
func checkInvited(cmd Command) ([]match.Player, error) {
	seen := []string{cmd.User.ID, cmd.Opponent.ID}
	var ps []match.Player
	for i, p := range cmd.Others {
		switch {
		case p == (match.Player{}):
			continue
		case p.ID == "":
			return nil, userErr(ProblemUsage, lang.Args{"Detail": phrase{"grammar.whom", nil}})
		case p.ID == cmd.User.ID:
			return nil, userErr(ProblemSelfChallenge)
		case cmd.Self.ID != "" && p.ID == cmd.Self.ID:
			return nil, userErr(ProblemAITwoPlayers)
		case cmd.OtherIsBot[i]:
			return nil, userErr(ProblemBotChallenge, lang.Args{"Player": "<@" + p.ID + ">"})
		case slices.Contains(seen, p.ID):
			return nil, userErr(ProblemNamedTwice, lang.Args{"Player": "<@" + p.ID + ">"})
		}
		seen = append(seen, p.ID)
		ps = append(ps, p)
	}
	return ps, nil
}

// nextAfter returns the player who moves after idle in g, skipping those
// who have left: the one who may claim against idle.
func nextAfter(g *engine.Game, idle engine.Player) engine.Player {
	c := g.Clone()
	if c.Resign(idle) != nil {
		return engine.NoPlayer
	}
	if t := c.Turn(); t != engine.NoPlayer {
		return t
	}
	return c.Winner()
}
