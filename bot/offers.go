package bot

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/connect4/connect4/bot/lang"
	"github.com/connect4/connect4/bot/match"
	"github.com/connect4/connect4/engine"
	"github.com/connect4/connect4/engine/solver"
)

// No game starts without both players' consent: a rematch or the next
// round of a match is an offer that the other player accepts or declines
// with a button on the game message, and that the one who offered may
// withdraw. An offer lapses like a challenge (Options.ChallengeTTL).
// Against the AI both stay immediate.

// offer records cmd.User's offer of kind on the record cmd's button was
// drawn for (typed: the caller's active game), or, when the other player has already
// offered the same, takes it as agreement and starts the game.
func (s *Service) offer(ctx context.Context, cmd Command, kind match.OfferKind) (Reply, error) {
	now := s.opt.Now()
	agreed := false
	id, err := s.target(ctx, cmd)
	if err != nil {
		return Reply{}, noGame(cmd, err)
	}
	rec, err := s.store.Update(ctx, cmd.Key, id, func(r *match.Record) (match.Tally, error) {
		agreed = false
		if err := offerable(r, cmd, kind); err != nil {
			return match.Tally{}, err
		}
		if o := r.Offer; o != nil && o.Kind == kind && now.Before(o.ExpiresAt) {
			if r.Multi() && (o.From == cmd.User.ID || slices.Contains(o.Agreed, cmd.User.ID)) {
				return match.Tally{}, userErr(ProblemAlreadyAgreed, lang.Args{"Players": people(toAgree(r))})
			}
			if o.From == cmd.User.ID {
				return match.Tally{}, userErr(ProblemOfferPending, lang.Args{"Player": "<@" + other(r, cmd.User.ID).ID + ">"})
			}
			if r.Multi() && len(toAgree(r)) > 1 {
				r.Offer.Agreed = append(r.Offer.Agreed, cmd.User.ID) // one more yes: the others still to answer
				return match.Tally{}, nil
			}
			agreed = true // everyone wants it: no need to ask again
			if kind == match.OfferRematch {
				r.Offer = nil // taken: a second click finds no offer
				return match.Tally{}, nil
			}
			return match.Tally{}, match.ErrNoChange
		}
		r.Offer = &match.Offer{Kind: kind, From: cmd.User.ID, ExpiresAt: now.Add(s.opt.ChallengeTTL)}
		return match.Tally{}, nil
	})
	if err != nil {
		return Reply{}, noGame(cmd, err)
	}
	if agreed {
		return s.startOffered(ctx, cmd, rec, kind)
	}
	return offerView(s.channelLang(ctx, cmd, rec), rec, s.opt.ChallengeTTL), nil
}

// offerable checks that cmd's user may offer kind on r.
func offerable(r *match.Record, cmd Command, kind match.OfferKind) error {
	if cmd.FromButton() && r.ID != cmd.GameID {
		return userErr(ProblemStale)
	}
	if r.ColorOf(cmd.User.ID) == engine.NoPlayer {
		return userErr(ProblemNotInGame)
	}
	switch kind {
	case match.OfferRematch:
		if r.Status != match.StatusFinished || !r.Started() {
			return userErr(ProblemNothingToRematch)
		}
	case match.OfferNextRound:
		if r.Status != match.StatusPlaying {
			return userErr(ProblemGameOver)
		}
		if !r.Game.State().Over() || (cmd.FromButton() && r.Game.Moves() != cmd.Move) {
			return userErr(ProblemStale) // the next round has already begun
		}
	}
	return nil
}

// toAgree returns the players of r who have not agreed to its offer yet.
func toAgree(r *match.Record) []match.Player {
	var ps []match.Player
	for _, p := range r.Seats() {
		if p.ID != r.Offer.From && !slices.Contains(r.Offer.Agreed, p.ID) {
			ps = append(ps, p)
		}
	}
	return ps
}

// other returns the player of r who is not id.
func other(r *match.Record, id string) match.Player {
	if id == r.Challenger.ID {
		return r.Opponent
	}
	return r.Challenger
}

// answerOffer accepts, declines or withdraws the offer on the record cmd's
// button was drawn for.
func (s *Service) answerOffer(ctx context.Context, cmd Command) (Reply, error) {
	now := s.opt.Now()
	var offer match.Offer
	var lapsed, partial bool
	if cmd.GameID == "" {
		return Reply{}, userErr(ProblemNoOffer)
	}
	rec, err := s.store.Update(ctx, cmd.Key, cmd.GameID, func(r *match.Record) (match.Tally, error) {
		if r.ID != cmd.GameID || r.Offer == nil {
			return match.Tally{}, userErr(ProblemNoOffer)
		}
		o := *r.Offer
		offer, lapsed, partial = o, false, false
		if r.ColorOf(cmd.User.ID) == engine.NoPlayer {
			return match.Tally{}, userErr(ProblemNotInGame)
		}
		switch cmd.Kind {
		case KindOfferWithdraw:
			if o.From != cmd.User.ID {
				return match.Tally{}, userErr(ProblemOnlyOfferer, lang.Args{"Player": "<@" + o.From + ">"})
			}
		default:
			if o.From == cmd.User.ID {
				return match.Tally{}, userErr(ProblemOwnOffer)
			}
		}
		if cmd.Kind == KindOfferAccept {
			if !now.Before(o.ExpiresAt) {
				r.Offer, lapsed = nil, true // clear it, and say so
				return match.Tally{}, nil
			}
			if r.Multi() && slices.Contains(o.Agreed, cmd.User.ID) {
				return match.Tally{}, userErr(ProblemAlreadyAgreed, lang.Args{"Players": people(toAgree(r))})
			}
			if r.Multi() && len(toAgree(r)) > 1 {
				r.Offer.Agreed, partial = append(r.Offer.Agreed, cmd.User.ID), true
				return match.Tally{}, nil
			}
			if o.Kind == match.OfferRematch {
				// The rematch is a new record, created below: take the
				// offer in this write so that a second click finds none.
				r.Offer = nil
				return match.Tally{}, nil
			}
			return match.Tally{}, match.ErrNoChange // the next round starts below
		}
		r.Offer = nil
		if cmd.Kind == KindOfferDecline && o.Kind == match.OfferNextRound {
			// Declining the next round ends the match as it stands; every
			// round played is already on the leaderboard.
			r.Status, r.Finish = match.StatusFinished, match.FinishDeclined
		}
		return match.Tally{}, nil
	})
	if err != nil {
		return Reply{}, noGame(cmd, err)
	}
	from, _ := rec.PlayerByID(offer.From)
	to := other(rec, offer.From)
	if cmd.Kind == KindOfferAccept && lapsed {
		if offer.Kind == match.OfferNextRound { // its button stays on the board
			return Reply{}, &UserError{Problem: ProblemOfferExpired, ID: "problem.offerExpiredNextRound"}
		}
		return Reply{}, userErr(ProblemOfferExpired) // the board loses its Rematch button when the offer lapses
	}
	if cmd.Kind == KindOfferAccept && !partial {
		return s.startOffered(ctx, cmd, rec, offer.Kind)
	}
	l := s.channelLang(ctx, cmd, rec)
	switch {
	case partial:
		reply := offerView(l, rec, rec.Offer.ExpiresAt.Sub(now))
		reply.Text = l.Say("offer.in", lang.Args{"Player": mention(cmd.User)}) + "\n" + reply.Text
		return reply, nil
	case cmd.Kind == KindOfferWithdraw && offer.Kind == match.OfferNextRound:
		return gameView(l, rec, Update, l.Say("offer.withdrawn.nextRound", lang.Args{"Player": mention(from)})), nil
	case cmd.Kind == KindOfferWithdraw:
		return gameView(l, rec, Update, l.Say("offer.withdrawn.rematch", lang.Args{"Player": mention(from)})), nil
	case offer.Kind == match.OfferNextRound:
		a, b := rec.Score()
		return gameView(l, rec, Update, l.Say("offer.declined.nextRound", lang.Args{"Player": mention(to),
			"Challenger": mention(rec.Challenger), "ChallengerWins": a, "OpponentWins": b, "Opponent": mention(rec.Opponent)})), nil
	}
	if rec.Multi() {
		to = cmd.User
	}
	return gameView(l, rec, Update, l.Say("offer.declined.rematch", lang.Args{"Player": mention(to)})), nil
}

// startOffered starts the game an accepted offer of kind on rec proposed:
// the next round in rec, or a rematch as a new record (the offer already
// taken off rec).
func (s *Service) startOffered(ctx context.Context, cmd Command, rec *match.Record, kind match.OfferKind) (Reply, error) {
	// The request's nonce went with the write that took the offer up; the
	// game it starts is the same request, not a replay of it.
	ctx = match.WithNonce(ctx, "")
	if kind == match.OfferNextRound {
		return s.startNextRound(ctx, cmd, rec.ID, rec.Game.Moves())
	}
	return s.startRematch(ctx, cmd, rec)
}

// takeback asks the opponent to take back cmd.User's last move; against
// the AI it takes back the player's move and the AI's reply at once.
func (s *Service) takeback(ctx context.Context, cmd Command) (Reply, error) {
	var ai bool
	rec, err := s.updatePlayable(ctx, &cmd, func(r *match.Record, me engine.Player) (match.Tally, error) {
		g := r.Game
		ai = r.AILevel != solver.LevelNone
		if r.Multi() {
			return match.Tally{}, userErr(ProblemTakebackTwoPlayers)
		}
		if r.Puzzle != nil {
			return match.Tally{}, userErr(ProblemPuzzleNoTakeback)
		}
		if ai {
			// The AI has answered: take back its reply and the move before.
			if g.Turn() != me || g.Moves() < 2 {
				return match.Tally{}, userErr(ProblemNothingToTakeBack, lang.Args{"Player": "<@" + r.Opponent.ID + ">"})
			}
			u, err := undo(g, 2)
			if err != nil {
				return match.Tally{}, err
			}
			r.Game = u
			return match.Tally{}, nil
		}
		if g.Turn() == me || g.Moves() == 0 {
			return match.Tally{}, userErr(ProblemNothingToTakeBack, lang.Args{"Player": "<@" + other(r, cmd.User.ID).ID + ">"})
		}
		if r.Takeback != nil {
			return match.Tally{}, userErr(ProblemTakebackPending)
		}
		r.Takeback = &match.Takeback{From: cmd.User.ID, Move: g.Moves()}
		return match.Tally{}, nil
	})
	if err != nil {
		return Reply{}, noGame(cmd, err)
	}
	l := s.channelLang(ctx, cmd, rec)
	if ai {
		return gameView(l, rec, Public, l.Say("offer.takeback.ai", lang.Args{"Player": mention(cmd.User)})), nil
	}
	h := rec.Game.History()
	opp := other(rec, cmd.User.ID)
	act := func(k Kind) string { return Action{Kind: k, GameID: rec.ID, Move: rec.Game.Moves()}.String() }
	return Reply{Visibility: Public, Lang: l, Text: l.Say("offer.takeback.asked", lang.Args{"Player": mention(cmd.User),
		"Column": h[len(h)-1] + 1, "Opponent": mention(opp)}), Notify: []string{opp.ID},
		People: []match.Player{cmd.User, opp}, Buttons: []Button{
			{Label: l.Say("button.allowTakeback", nil), Value: act(KindTakebackAccept), Style: StylePrimary},
			{Label: l.Say("button.refuse", nil), Value: act(KindTakebackDecline), Style: StyleDanger},
		}}, nil
}

// answerTakeback grants or refuses the takeback request cmd's button was
// drawn for.
func (s *Service) answerTakeback(ctx context.Context, cmd Command) (Reply, error) {
	var asker string
	if cmd.GameID == "" {
		return Reply{}, userErr(ProblemTakebackLapsed)
	}
	rec, err := s.store.Update(ctx, cmd.Key, cmd.GameID, func(r *match.Record) (match.Tally, error) {
		tb := r.Takeback
		if r.ID != cmd.GameID || tb == nil || tb.Move != cmd.Move || r.Status != match.StatusPlaying {
			return match.Tally{}, userErr(ProblemTakebackLapsed)
		}
		asker = tb.From
		if cmd.User.ID == tb.From {
			return match.Tally{}, userErr(ProblemOwnTakeback)
		}
		if r.ColorOf(cmd.User.ID) == engine.NoPlayer {
			return match.Tally{}, userErr(ProblemNotInGame)
		}
		r.Takeback = nil
		if cmd.Kind == KindTakebackAccept {
			g, err := undo(r.Game, 1)
			if err != nil {
				return match.Tally{}, err
			}
			r.Game = g
		}
		return match.Tally{}, nil
	})
	if err != nil {
		return Reply{}, noGame(cmd, err)
	}
	p, _ := rec.PlayerByID(asker)
	l := s.channelLang(ctx, cmd, rec)
	if cmd.Kind == KindTakebackDecline {
		return Reply{Visibility: Update, Lang: l, Text: l.Say("offer.takeback.refused", lang.Args{"Player": mention(cmd.User), "Asker": mention(p)})}, nil
	}
	return gameView(l, rec, Update, l.Say("offer.takeback.allowed", lang.Args{"Player": mention(cmd.User), "Asker": mention(p)})), nil
}

// undo returns g without its last n moves, replayed from the empty board
// (the engine keeps no undo: a game is its moves).
func undo(g *engine.Game, n int) (*engine.Game, error) {
	h := g.History()
	if n > len(h) || len(g.Leaves()) > 0 {
		return nil, errors.New("bot: nothing to take back")
	}
	u, err := engine.New(g.Config())
	if err != nil {
		return nil, err
	}
	for _, c := range h[:len(h)-n] {
		if err := u.Play(u.Turn(), c); err != nil {
			return nil, fmt.Errorf("bot: replay for a takeback: %w", err)
		}
	}
	return u, nil
}

// offerView is the game message in l with a pending offer, which expires
// in ttl: the board as it ended, the offer, and the buttons to answer it.
func offerView(l lang.Lang, r *match.Record, ttl time.Duration) Reply {
	if r.Multi() {
		return multiOfferView(l, r, ttl)
	}
	o := r.Offer
	from, _ := r.PlayerByID(o.From)
	to := other(r, o.From)
	args := lang.Args{"Player": mention(from), "Opponent": mention(to), "Time": duration(ttl)}
	id := "offer.rematch"
	if o.Kind == match.OfferNextRound {
		id, args["Round"] = "offer.nextRound", len(r.Rounds)+1
	}
	reply := gameView(l, r, Update, say(l, id, args))
	act := func(k Kind) string { return Action{Kind: k, GameID: r.ID, Move: r.Game.Moves()}.String() }
	reply.Buttons = append(columnsOnly(reply.Buttons),
		Button{Label: l.Say("button.accept", nil), Value: act(KindOfferAccept), Style: StylePrimary},
		Button{Label: l.Say("button.decline", nil), Value: act(KindOfferDecline), Style: StyleDanger},
		Button{Label: l.Say("button.withdraw", nil), Value: act(KindOfferWithdraw)})
	return reply
}

// multiOfferView is offerView for a rematch of 3 or 4 players, which
// starts when everyone has agreed.
func multiOfferView(l lang.Lang, r *match.Record, ttl time.Duration) Reply {
	o := r.Offer
	from, _ := r.PlayerByID(o.From)
	next := r.PlayerOf(engine.Yellow) // the rematch rotates who starts
	text := words("offer.rematchMulti", lang.Args{"Player": mention(from), "Red": mention(next)})
	if len(o.Agreed) > 0 {
		in := make([]match.Player, len(o.Agreed))
		for i, id := range o.Agreed {
			in[i], _ = r.PlayerByID(id)
		}
		text = text.then(words("offer.agreed", lang.Args{"Players": people(in)}))
	}
	text = text.then(words("offer.waiting", lang.Args{"Players": people(toAgree(r)), "Time": duration(ttl)}))
	reply := gameView(l, r, Update, text.in(l))
	act := func(k Kind) string { return Action{Kind: k, GameID: r.ID, Move: r.Game.Moves()}.String() }
	reply.Buttons = append(columnsOnly(reply.Buttons),
		Button{Label: l.Say("button.accept", nil), Value: act(KindOfferAccept), Style: StylePrimary},
		Button{Label: l.Say("button.decline", nil), Value: act(KindOfferDecline), Style: StyleDanger},
		Button{Label: l.Say("button.withdraw", nil), Value: act(KindOfferWithdraw)})
	return reply
}

// columnsOnly returns the column buttons of bs.
func columnsOnly(bs []Button) []Button {
	out := bs[:0:0]
	for _, b := range bs {
		if b.Column > 0 {
			out = append(out, b)
		}
	}
	return out
}
