package bot

import (
	"fmt"
	"strconv"

	"github.com/connect4/connect4/engine"
	"github.com/connect4/connect4/sessions"
)

// colors returns the Red and Yellow players of rec's current round.
func colors(r *sessions.Record) (red, yellow sessions.Player) {
	if r.RedID == r.Opponent.ID {
		return r.Opponent, r.Challenger
	}
	return r.Challenger, r.Opponent
}

// colorOf returns the color userID plays in rec, or NoPlayer for someone
// not in the game.
func colorOf(r *sessions.Record, userID string) engine.Player {
	red, yellow := colors(r)
	switch userID {
	case red.ID:
		return engine.Red
	case yellow.ID:
		return engine.Yellow
	}
	return engine.NoPlayer
}

// playerOf returns the player of color c in rec.
func playerOf(r *sessions.Record, c engine.Player) sessions.Player {
	red, yellow := colors(r)
	if c == engine.Yellow {
		return yellow
	}
	return red
}

// wins returns how many rounds of rec userID has won.
func wins(r *sessions.Record, userID string) int {
	n := 0
	for _, rr := range r.Rounds {
		if rr.Winner == userID {
			n++
		}
	}
	return n
}

// score is the match score line of rec, or "" for a single game.
func score(r *sessions.Record) string {
	if r.FirstTo <= 1 {
		return ""
	}
	a, b := r.Challenger, r.Opponent
	return fmt.Sprintf("first to %d: <@%s> %d – %d <@%s>", r.FirstTo, a.ID, wins(r, a.ID), wins(r, b.ID), b.ID)
}

// variantText describes a non-default variant, or returns "".
func variantText(r *sessions.Record) string {
	var s string
	if cfg := r.Config(); cfg != engine.DefaultConfig() {
		s = fmt.Sprintf(" on a %d×%d board, connect %d", cfg.Rows, cfg.Cols, cfg.Connect)
	}
	if r.FirstTo > 1 {
		s += fmt.Sprintf(", first to %d wins", r.FirstTo)
	}
	return s
}

func encode(g *engine.Game) []byte {
	b, _ := g.MarshalBinary() // never fails
	return b
}

// challengeView is the reply showing rec's pending challenge.
func challengeView(r *sessions.Record, vis Visibility, ttl string) Reply {
	text := fmt.Sprintf("<@%s> challenges <@%s> to Connect Four%s!\n<@%s>, do you accept? The challenge expires in %s.",
		r.Challenger.ID, r.Opponent.ID, variantText(r), r.Opponent.ID, ttl)
	act := func(k Kind) string { return Action{Kind: k, GameID: r.ID}.String() }
	return Reply{Visibility: vis, Text: text, Buttons: []Button{
		{Label: "Accept", Value: act(KindAccept), Style: StylePrimary},
		{Label: "Decline", Value: act(KindDecline), Style: StyleDanger},
		{Label: "Cancel", Value: act(KindCancel)},
	}}
}

// gameView is the reply showing rec's current round g with text on top,
// and the buttons that fit its state.
func gameView(r *sessions.Record, g *engine.Game, vis Visibility, text string) Reply {
	red, yellow := colors(r)
	reply := Reply{Visibility: vis, Text: text, Game: g, Red: red, Yellow: yellow, Score: score(r)}
	cfg := g.Config()
	for c := 0; c < cfg.Cols; c++ {
		reply.Buttons = append(reply.Buttons, Button{
			Label:    strconv.Itoa(c + 1),
			Value:    Action{Kind: KindDrop, GameID: r.ID, Move: g.Moves(), Column: c}.String(),
			Column:   c + 1,
			Disabled: !g.CanPlay(c),
		})
	}
	switch {
	case r.Status == sessions.StatusPlaying && g.State().Over():
		reply.Buttons = append(reply.Buttons, Button{Label: "Next round", Style: StylePrimary,
			Value: Action{Kind: KindNextRound, GameID: r.ID, Move: g.Moves()}.String()})
	case r.Status == sessions.StatusFinished:
		reply.Buttons = append(reply.Buttons, Button{Label: "Rematch", Style: StylePrimary,
			Value: Action{Kind: KindRematch, GameID: r.ID, Move: g.Moves()}.String()})
	}
	return reply
}

// moveText announces a disc dropped by p in col (0-based).
func moveText(p sessions.Player, col int) string {
	return fmt.Sprintf("<@%s> dropped a disc in column %d.", p.ID, col+1)
}
