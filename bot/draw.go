package bot

import (
	"context"

	"github.com/connect4/connect4/bot/lang"
	"github.com/connect4/connect4/bot/match"
	"github.com/connect4/connect4/engine"
	"github.com/connect4/connect4/engine/solver"
)

// Draw offers. A player of a game between two people (a single game, not
// a match) offers a draw with /connect4 draw or the game message's Offer
// draw button, and the game message then shows Accept draw and Decline
// draw; the other accepts (typing draw, or
// the button) or declines; the offerer may withdraw it with Decline. The offer lapses
// when the other player moves instead (lapseDraw, on every write). An
// accepted draw ends the game as a draw, rated, like a draw on the board.

// draw carries out KindDraw (offer, or accept the other's offer),
// KindDrawAccept and KindDrawDecline.
func (s *Service) draw(ctx context.Context, cmd Command) (Reply, error) {
	var text string
	var agreed bool
	rec, err := s.updatePlayable(ctx, &cmd, func(r *match.Record, _ engine.Player) (match.Tally, error) {
		agreed = false
		if err := drawable(r); err != nil {
			return match.Tally{}, err
		}
		opp := other(r, cmd.User.ID)
		switch {
		case cmd.Kind == KindDraw && r.DrawOffer == "":
			r.DrawOffer = cmd.User.ID
			text = "draw.offered"
			return match.Tally{}, nil
		case r.DrawOffer == "":
			return match.Tally{}, &UserError{Problem: ProblemNoOffer, ID: "draw.problem.none"}
		case r.DrawOffer == cmd.User.ID && cmd.Kind == KindDrawDecline:
			r.DrawOffer, text = "", "draw.withdrawn"
			return match.Tally{}, nil
		case r.DrawOffer == cmd.User.ID:
			return match.Tally{}, &UserError{Problem: ProblemOwnOffer, ID: "draw.problem.own", Args: lang.Args{"Player": mention(opp)}}
		case cmd.Kind == KindDrawDecline:
			r.DrawOffer, text = "", "draw.declined"
			return match.Tally{}, nil
		}
		agreed, text = true, "draw.agreed"
		return agreeDraw(r), nil
	})
	if err != nil {
		return Reply{}, noGame(cmd, err)
	}
	if agreed {
		s.finished(cmd, rec.Finish)
	}
	l := s.channelLang(ctx, cmd, rec)
	vis := Public
	if cmd.FromButton() {
		vis = Update
	}
	v := gameView(l, rec, vis, say(l, text, lang.Args{"Player": mention(cmd.User), "Opponent": mention(other(rec, cmd.User.ID))}))
	if text == "draw.offered" {
		v.Notify = []string{other(rec, cmd.User.ID).ID}
	}
	return v, nil
}

// drawable refuses a draw offer in a game that has none: of 3 or 4
// players, against the AI, or a match of several games.
func drawable(r *match.Record) error {
	switch {
	case r.Multi():
		return &UserError{Problem: ProblemBadVariant, ID: "draw.problem.twoPlayers"}
	case r.AILevel != solver.LevelNone:
		return &UserError{Problem: ProblemBadVariant, ID: "draw.problem.ai"}
	case r.FirstTo > 1:
		return &UserError{Problem: ProblemBadVariant, ID: "draw.problem.match"}
	}
	return nil
}

// agreeDraw ends r's game as a draw both players agreed to, and returns
// its tally: rated, like a draw on the board.
func agreeDraw(r *match.Record) match.Tally {
	red, yellow := r.Colors()
	r.Rounds = append(r.Rounds, match.RoundResult{Finish: match.FinishDraw})
	r.Status, r.Finish = match.StatusFinished, match.FinishDraw
	r.DrawOffer, r.Offer, r.Takeback = "", nil, nil
	return match.Tally{Winner: red, Loser: yellow, Draw: true, Rated: true}
}

// lapseDraw withdraws r's draw offer when the write moved for the other
// player, or ended the game some other way.
func lapseDraw(prev *before, r *match.Record) {
	switch {
	case r.DrawOffer == "":
	case r.Status != match.StatusPlaying || r.Game.State().Over():
		r.DrawOffer = ""
	case prev.turn.red == r.RedID && r.Game.Moves() > prev.turn.moves && r.PlayerOf(prev.turn.mover).ID != r.DrawOffer:
		r.DrawOffer = ""
	}
}

// drawButtons adds to reply, the view of r, the draw buttons that fit:
// Offer draw on every game of two people in progress (what /connect4 draw
// does), Accept and Decline instead while an offer waits; and, for a game
// that ended off the board (an agreed draw, a flag), no turn and no column
// to click.
func drawButtons(l lang.Lang, r *match.Record, reply *Reply) {
	g := r.Game
	if r.Status == match.StatusFinished && !g.State().Over() {
		reply.Ended = true
		for i := range reply.Buttons {
			reply.Buttons[i].Disabled = true
		}
		return
	}
	if r.Status != match.StatusPlaying || g.State().Over() || drawable(r) != nil {
		return
	}
	act := func(k Kind) string { return Action{Kind: k, GameID: r.ID, Move: g.Moves()}.String() }
	if r.DrawOffer == "" {
		reply.Buttons = append(reply.Buttons, Button{Label: l.Say("button.draw.offer", nil), Value: act(KindDraw)})
		return
	}
	reply.Buttons = append(reply.Buttons,
		Button{Label: l.Say("button.draw.accept", nil), Value: act(KindDrawAccept), Style: StylePrimary},
		Button{Label: l.Say("button.draw.decline", nil), Value: act(KindDrawDecline)})
}
