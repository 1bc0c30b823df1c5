package bot

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/connect4/connect4/bot/lang"
	"github.com/connect4/connect4/bot/match"
	"github.com/connect4/connect4/engine/solver"

	"github.com/connect4/connect4/engine"
)

// score is the match score line of rec, or "" for a single game.
func score(r *match.Record) string {
	if r.FirstTo <= 1 {
		return ""
	}
	a, b := r.Score()
	return fmt.Sprintf("first to %d: <@%s> %d – %d <@%s>", r.FirstTo, r.Challenger.ID, a, b, r.Opponent.ID)
}

// variantText describes a non-default variant, or returns "".
func variantText(r *match.Record) string {
	var s string
	if cfg := r.Config(); !isDefaultBoard(cfg) {
		s = " on a board of " + sizeText(cfg)
	}
	if r.FirstTo > 1 {
		s += fmt.Sprintf(", first to %d wins", r.FirstTo)
	}
	return s
}

// challengeView is the reply showing rec's pending challenge.
func challengeView(r *match.Record, vis Visibility, ttl string) Reply {
	act := func(k Kind) string { return Action{Kind: k, GameID: r.ID}.String() }
	if r.Opponent.ID == "" {
		// An open challenge pings nobody.
		return Reply{Visibility: vis, People: []match.Player{r.Challenger},
			Text: fmt.Sprintf("%s is looking for a game of Connect Four%s! Anyone here can accept. The challenge expires in %s.",
				mention(r.Challenger), variantText(r), ttl),
			Buttons: []Button{
				{Label: "Accept", Value: act(KindAccept), Style: StylePrimary},
				{Label: "Cancel", Value: act(KindCancel)},
			}}
	}
	if r.Multi() {
		return multiChallengeView(r, vis, ttl)
	}
	text := fmt.Sprintf("<@%s> challenges <@%s> to Connect Four%s!\n<@%s>, do you accept? The challenge expires in %s.",
		r.Challenger.ID, r.Opponent.ID, variantText(r), r.Opponent.ID, ttl)
	return Reply{Visibility: vis, Text: text, Notify: []string{r.Opponent.ID},
		People: []match.Player{r.Challenger, r.Opponent}, Buttons: []Button{
			{Label: "Accept", Value: act(KindAccept), Style: StylePrimary},
			{Label: "Decline", Value: act(KindDecline), Style: StyleDanger},
			{Label: "Cancel", Value: act(KindCancel)},
		}}
}

// multiChallengeView is challengeView for a challenge of 3 or 4 players:
// who is invited, who has accepted, who the game still waits for.
func multiChallengeView(r *match.Record, vis Visibility, ttl string) Reply {
	act := func(k Kind) string { return Action{Kind: k, GameID: r.ID}.String() }
	invited := othersOf(r, r.Challenger.ID)
	waiting := r.Invited()
	text := fmt.Sprintf("%s challenges %s to a game of Connect Four for %d players%s!\n",
		mention(r.Challenger), mentions(invited), r.NumPlayers(), variantText(r))
	if len(r.Accepted) > 0 {
		in := make([]match.Player, 0, len(r.Accepted))
		for _, id := range r.Accepted {
			p, _ := r.PlayerByID(id)
			in = append(in, p)
		}
		text += fmt.Sprintf("Accepted: %s. ", mentions(in))
	}
	text += fmt.Sprintf("%s, do you accept? The game starts when everyone has; the challenge expires in %s.", mentions(waiting), ttl)
	return Reply{Visibility: vis, Text: text, Notify: ids(waiting),
		People: r.Seats(), Buttons: []Button{
			{Label: "Accept", Value: act(KindAccept), Style: StylePrimary},
			{Label: "Decline", Value: act(KindDecline), Style: StyleDanger},
			{Label: "Cancel", Value: act(KindCancel)},
		}}
}

// gameView is the reply showing rec's current round with text on top, and
// the buttons that fit its state.
func gameView(r *match.Record, vis Visibility, text string) Reply {
	g := r.Game
	red, yellow := r.Colors()
	reply := Reply{Visibility: vis, Text: text, Game: g, GameID: r.ID, Red: red, Yellow: yellow, Score: score(r)}
	if r.Multi() {
		reply.Others = inTurnOrder(r)[2:]
	}
	cfg := g.Config()
	for c := 0; c < cfg.Cols; c++ {
		reply.Buttons = append(reply.Buttons, Button{
			Label:    strconv.Itoa(c + 1),
			Value:    Action{Kind: KindDrop, GameID: r.ID, Move: g.Moves(), Column: c, Human: r.AILevel == solver.LevelNone}.String(),
			Column:   c + 1,
			Disabled: !g.CanPlay(c),
		})
	}
	if r.Rating != nil && g.State().Over() {
		reply.Text = strings.TrimSpace(reply.Text + "\n" + ratingChangeText(lang.English, r.Rating))
	}
	switch {
	case r.Status == match.StatusPlaying && g.State().Over():
		reply.Buttons = append(reply.Buttons, Button{Label: "Next round", Style: StylePrimary,
			Value: Action{Kind: KindNextRound, GameID: r.ID, Move: g.Moves()}.String()})
	case r.Status == match.StatusFinished:
		if g.Moves() > 0 && analyzable(g) {
			reply.Buttons = append(reply.Buttons, Button{Label: "Analysis",
				Value: Action{Kind: KindAnalyze, GameID: r.ID, Move: g.Moves()}.String()})
		}
		if r.Puzzle == nil { // a new puzzle is /connect4 puzzle
			reply.Buttons = append(reply.Buttons, Button{Label: "Rematch", Style: StylePrimary,
				Value: Action{Kind: KindRematch, GameID: r.ID, Move: g.Moves()}.String()})
		}
	}
	return reply
}

// isDefaultBoard reports whether cfg is the standard board, for any number
// of players (a game of 3 or 4 says so in its own words).
func isDefaultBoard(cfg engine.Config) bool {
	cfg.Players = 0
	return cfg == engine.DefaultConfig()
}

// sizeText spells out a board as players say it, columns first: "7
// columns × 6 rows, connect 4".
func sizeText(cfg engine.Config) string {
	return fmt.Sprintf("%d columns × %d rows, connect %d", cfg.Cols, cfg.Rows, cfg.Connect)
}

// moveText announces a disc dropped by p in col (0-based).
func moveText(p match.Player, col int) string {
	return fmt.Sprintf("%s dropped a disc in column %d.", mention(p), col+1)
}
