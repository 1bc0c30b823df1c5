package bot

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"slices"
	"time"

	"github.com/connect4/connect4/bot/clock"
	"github.com/connect4/connect4/bot/lang"
	"github.com/connect4/connect4/bot/match"

	"github.com/connect4/connect4/engine"
	"github.com/connect4/connect4/engine/solver"
)

// challenge opens a challenge to cmd.Opponent, or starts a game against the
// AI when the opponent is this bot itself.
//
// KindOpen opens a challenge to nobody in particular: anyone in the channel
// may accept it, and the first accept wins (the store's compare-and-set
// lets exactly one through, and binds the accepter as it does).
func (s *Service) challenge(ctx context.Context, cmd Command) (Reply, error) {
	opp := cmd.Opponent
	if cmd.Kind == KindOpen {
		opp = match.Player{}
	}
	switch {
	case cmd.Kind == KindOpen:
	case opp.ID == "":
		return Reply{}, userErr(ProblemUsage, lang.Args{"Detail": phrase{"grammar.whom", nil}})
	case opp.ID == cmd.User.ID:
		return Reply{}, userErr(ProblemSelfChallenge)
	case cmd.Self.ID != "" && opp.ID == cmd.Self.ID && len(cmd.invited()) > 0:
		return Reply{}, userErr(ProblemAITwoPlayers)
	case cmd.Self.ID != "" && opp.ID == cmd.Self.ID && cmd.Variant.Control != "":
		_, err := checkControl(cmd.Variant.Control, 0, true)
		return Reply{}, err
	case cmd.Self.ID != "" && opp.ID == cmd.Self.ID:
		return s.startAI(ctx, cmd, solver.LevelNone)
	case cmd.OpponentIsBot:
		return Reply{}, userErr(ProblemBotChallenge, lang.Args{"Player": "<@" + opp.ID + ">"})
	}
	var others []match.Player
	if cmd.Kind == KindChallenge {
		var err error
		if others, err = checkInvited(cmd); err != nil {
			return Reply{}, err
		}
	}
	v := cmd.Variant.withDefaults()
	v.Players = 2 + len(others)
	if err := v.validate(); err != nil {
		return Reply{}, err
	}
	if err := starterForTwo(v, v.Players); err != nil {
		return Reply{}, err
	}
	ctl, err := checkControl(v.Control, len(others), false)
	if err != nil {
		return Reply{}, err
	}
	if err := s.checkKeep(ctl); err != nil {
		return Reply{}, err
	}
	g, err := engine.New(v.config())
	if err != nil {
		return Reply{}, err
	}
	red, accepterRed := firstRed(v, cmd.User, opp), false
	if cmd.Kind == KindOpen {
		// The accepter is not known yet: who starts is chosen now (first
		// me is the rule), and Red set when they accept.
		red, accepterRed = "", accepterFirst(v, nil)
	}
	rec := &match.Record{
		Key: cmd.Key, Status: match.StatusPending,
		Challenger: cmd.User, Opponent: opp, Others: others,
		Game: g, FirstTo: v.FirstTo,
		RedID: red, AccepterFirst: accepterRed,
		Message:   cmd.Message,
		ExpiresAt: s.opt.Now().Add(s.opt.ChallengeTTL),
		Lang:      s.newGameLang(cmd).String(),
		Clock:     clock.Clock{Control: ctl},
	}
	if err := s.store.Create(ctx, rec); err != nil {
		return Reply{}, busy(cmd, err)
	}
	return challengeView(s.channelLang(ctx, cmd, rec), rec, Public, s.opt.ChallengeTTL), nil
}

// busy turns a *match.BusyError into a refusal naming the game the busy
// player is in, and a *match.FullError into one saying the channel is
// full; other errors pass through.
func busy(cmd Command, err error) error {
	var fe *match.FullError
	if errors.As(err, &fe) {
		return userErr(ProblemChannelFull, lang.Args{"Count": fe.Max})
	}
	var be *match.BusyError
	if !errors.As(err, &be) || be.Existing == nil {
		return err
	}
	e := be.Existing
	// Several games share a channel: it is a player who is busy, in one
	// game, so say who and in which.
	p, ok := e.PlayerByID(be.Player)
	if !ok {
		p = e.Challenger
	}
	you := p.ID == cmd.User.ID
	var id string
	args := lang.Args{"Player": mention(p), "Players": people(othersOf(e, p.ID)), "Challenger": mention(e.Challenger)}
	switch {
	case e.Status == match.StatusPending && e.Opponent.ID == "":
		id = "problem.busy.theyOpen"
		if you {
			id = "problem.busy.youOpen"
		}
	case e.Status == match.StatusPending && p.ID == e.Challenger.ID:
		id = "problem.busy.theyChallenged"
		if you {
			id = "problem.busy.youChallenged"
		}
	case e.Status == match.StatusPending:
		id = "problem.busy.theyAnswer"
		if you {
			id = "problem.busy.youAnswer"
		}
	default:
		id = "problem.busy.theyPlay"
		if you {
			id = "problem.busy.youPlay"
		}
	}
	return &UserError{Problem: ProblemBusy, ID: id, Args: args}
}

// aiID is the id the AI plays under where the platform does not say who
// this bot is (no bot token): not a user of the platform, so it is never
// written as a mention.
const aiID = "connect4-ai"

// mention is how the bot names p in a message: <@id> for a user of the
// platform (adapters render it, the terminal spells it out), and the AI's
// name when it has no user of its own.
func mention(p match.Player) string {
	if p.ID == aiID {
		return p.Name
	}
	return "<@" + p.ID + ">"
}

// aiPlayer is the AI's identity in a game: this bot's user where known,
// else "the bot".
func aiPlayer(self match.Player, level solver.Level) match.Player {
	p := match.Player{ID: self.ID, Name: self.Name}
	if p.ID == "" {
		p.ID, p.Name = aiID, "the bot"
	}
	if p.Name == "" {
		p.Name = "Connect Four AI"
	}
	p.Name += " (" + level.String() + ")"
	return p
}

// startAI starts a game of cmd.User (Red) against the AI at level.
func (s *Service) startAI(ctx context.Context, cmd Command, level solver.Level) (Reply, error) {
	if len(cmd.invited()) > 0 {
		return Reply{}, userErr(ProblemAITwoPlayers)
	}
	level = aiMatchLevel(level)
	v := cmd.Variant.withDefaults()
	if err := v.validate(); err != nil {
		return Reply{}, err
	}
	g, err := engine.New(v.config())
	if err != nil {
		return Reply{}, err
	}
	ai := aiPlayer(cmd.Self, level)
	if ai.ID == cmd.User.ID {
		return Reply{}, userErr(ProblemSelfChallenge)
	}
	red := v.First.red(cmd.User, ai, nil)
	rec := &match.Record{
		Key: cmd.Key, Status: match.StatusPlaying,
		Challenger: cmd.User, Opponent: ai, RedID: red.ID,
		Game: g, FirstTo: v.FirstTo, AILevel: level, Message: cmd.Message,
		Lang: s.newGameLang(cmd).String(),
	}
	if err := s.store.Create(ctx, rec); err != nil {
		return Reply{}, busy(cmd, err)
	}
	l := s.channelLang(ctx, cmd, rec)
	s.started(cmd, true)
	if red.ID == ai.ID {
		// The AI moves first, in the same message.
		return s.afterHuman(ctx, cmd, rec, Public, words("game.start.aiFirst", lang.Args{"Player": "<@" + cmd.User.ID + ">", "Level": level.String()}))
	}
	text := say(l, "game.start.ai", lang.Args{"Player": "<@" + cmd.User.ID + ">", "Level": level.String()})
	return gameView(l, rec, Public, text), nil
}

// answer accepts, declines or cancels a pending challenge: the one cmd's
// button was drawn for, or, typed, the caller's own (made or received).
func (s *Service) answer(ctx context.Context, cmd Command) (Reply, error) {
	now := s.opt.Now()
	var expired bool
	id, err := s.target(ctx, cmd)
	if errors.Is(err, match.ErrNoGame) || problemOf(err) == ProblemNotInGame {
		return Reply{}, noChallenge(cmd)
	}
	if err != nil {
		return Reply{}, err
	}
	apply := func(r *match.Record) (match.Tally, error) {
		var err error
		expired, err = s.answerChallenge(r, cmd, now)
		return match.Tally{}, err
	}
	rec, err := s.store.Update(ctx, cmd.Key, id, apply)
	var withdrawn *match.Record
	if own := ownOpen(cmd, err); own != nil && own.ID != id {
		// Two players who each posted an open challenge: accepting the
		// other's withdraws your own (you cannot play both), then accepts.
		if withdrawn, err = s.withdrawOpen(ctx, cmd, own.ID); err == nil {
			rec, err = s.store.Update(ctx, cmd.Key, id, apply)
		}
	}
	if err != nil {
		if errors.Is(err, match.ErrNoGame) {
			return Reply{}, noChallenge(cmd)
		}
		return Reply{}, busy(cmd, err) // an accepter already in another game
	}
	vis := Public
	if cmd.FromButton() {
		vis = Update
	}
	l := s.channelLang(ctx, cmd, rec)
	if expired {
		s.finished(cmd, match.FinishExpired)
		return Reply{Visibility: vis, Problem: ProblemExpired, Lang: l,
			Text: expiredText(rec).in(l)}, nil
	}
	reply, err := s.answered(l, cmd, rec, vis)
	if err != nil {
		return reply, err
	}
	if !cmd.FromButton() && rec.Status == match.StatusFinished {
		// Typed: the challenge's message still shows Accept; it says what
		// happened instead. (GameID tells the terminal, which has no
		// message ref, which buttons are gone.)
		reply.Edits = append(reply.Edits, Edit{Message: rec.Message, Reply: Reply{Visibility: Update, Text: reply.Text, Lang: l, GameID: rec.ID}})
	}
	if withdrawn != nil {
		s.finished(cmd, match.FinishCancelled)
		reply.Text = l.Say("offer.challenge.ownOpenWithdrawn", lang.Args{"Player": mention(cmd.User)}) + "\n" + reply.Text
		reply.Edits = append(reply.Edits, Edit{Message: withdrawn.Message, Reply: Reply{Visibility: Update, Lang: l, GameID: withdrawn.ID,
			Text: l.Say("offer.challenge.withdrawnOpen", lang.Args{"Challenger": mention(withdrawn.Challenger)})}})
	}
	return reply, nil
}

// ownOpen returns the open challenge cmd.User posted, when err is an
// accept's refusal because of it, else nil.
func ownOpen(cmd Command, err error) *match.Record {
	var be *match.BusyError
	if cmd.Kind != KindAccept || !errors.As(err, &be) || be.Existing == nil {
		return nil
	}
	e := be.Existing
	if e.Status != match.StatusPending || e.Opponent.ID != "" || e.Challenger.ID != cmd.User.ID {
		return nil
	}
	return e
}

// withdrawOpen cancels cmd.User's open challenge id, if it is still one
// (pending, nobody bound), and returns it.
func (s *Service) withdrawOpen(ctx context.Context, cmd Command, id string) (*match.Record, error) {
	// Not under the click's nonce: the accept that follows uses it.
	return s.store.Update(match.WithNonce(ctx, ""), cmd.Key, id, func(r *match.Record) (match.Tally, error) {
		if r.Status != match.StatusPending || r.Opponent.ID != "" || r.Challenger.ID != cmd.User.ID {
			return match.Tally{}, &match.BusyError{Existing: r, Player: cmd.User.ID}
		}
		r.Status, r.Finish = match.StatusFinished, match.FinishCancelled
		return match.Tally{}, nil
	})
}

// answerable returns why cmd cannot answer r, or nil when r is a pending
// challenge cmd's button (if any) was drawn for.
func answerable(r *match.Record, cmd Command) error {
	if cmd.FromButton() && r.ID != cmd.GameID {
		return userErr(ProblemStale)
	}
	switch r.Status {
	case match.StatusPlaying:
		if cmd.FromButton() {
			return userErr(ProblemStale)
		}
		return noChallenge(cmd)
	case match.StatusFinished:
		switch {
		case r.Finish == match.FinishExpired:
			return userErr(ProblemExpired)
		case !cmd.FromButton():
			return noChallenge(cmd)
		case r.Finish == match.FinishCancelled:
			// A typed cancel left the buttons of a message it could not
			// edit (a Slack command's response has no ts).
			return &UserError{Problem: ProblemStale, ID: "problem.challengeCancelled"}
		case r.Finish == match.FinishDeclined:
			return &UserError{Problem: ProblemStale, ID: "problem.challengeDeclined"}
		}
		return userErr(ProblemStale)
	}
	return nil
}

// noChallenge is the refusal of cmd, a typed accept, decline or cancel,
// when there is no challenge it could answer: what it was for.
func noChallenge(cmd Command) error {
	if cmd.Kind == KindCancel {
		return &UserError{Problem: ProblemNoChallenge, ID: "problem.noChallengeToCancel"}
	}
	return userErr(ProblemNoChallenge)
}

// answerChallenge applies cmd, an accept, decline or cancel, to r at now;
// expired reports that r had expired, and was closed instead.
func (s *Service) answerChallenge(r *match.Record, cmd Command, now time.Time) (expired bool, err error) {
	if err := answerable(r, cmd); err != nil {
		return false, err
	}
	if !r.ExpiresAt.IsZero() && !now.Before(r.ExpiresAt) {
		r.Status, r.Finish = match.StatusFinished, match.FinishExpired
		return true, nil
	}
	isChallenger, isOpponent := cmd.User.ID == r.Challenger.ID, cmd.User.ID == r.Opponent.ID
	open := r.Opponent.ID == ""
	switch cmd.Kind {
	case KindAccept, KindDecline:
		if isChallenger {
			return false, userErr(ProblemOwnChallenge)
		}
		if r.Multi() {
			return false, s.answerMulti(r, cmd)
		}
		if open && cmd.Kind == KindDecline {
			return false, userErr(ProblemOpenDecline)
		}
		if open {
			r.Opponent = cmd.User // the first to accept takes it
			isOpponent = true
			if r.AccepterFirst {
				r.RedID, r.AccepterFirst = cmd.User.ID, false
			}
		}
		if !isOpponent {
			return false, userErr(ProblemNotForYou, lang.Args{"Player": "<@" + r.Opponent.ID + ">"})
		}
	case KindCancel:
		if !isChallenger {
			return false, userErr(ProblemOnlyChallenger, lang.Args{"Player": "<@" + r.Challenger.ID + ">"})
		}
	}
	if cmd.Message != (match.MessageRef{}) {
		r.Message = cmd.Message
	}
	switch cmd.Kind {
	case KindAccept:
		if r.Opponent.Name == "" || r.Opponent.Name == r.Opponent.ID {
			r.Opponent.Name = cmd.User.Name
		}
		// Red was chosen with the challenge (first me|them|random), else
		// the challenger.
		r.Status, r.RedID, r.ExpiresAt = match.StatusPlaying, cmp.Or(r.RedID, r.Challenger.ID), time.Time{}
	case KindDecline:
		r.Status, r.Finish = match.StatusFinished, match.FinishDeclined
	default:
		r.Status, r.Finish = match.StatusFinished, match.FinishCancelled
	}
	return false, nil
}

// answered is the reply in l to cmd, which answered the challenge rec.
func (s *Service) answered(l lang.Lang, cmd Command, rec *match.Record, vis Visibility) (Reply, error) {
	if rec.Multi() && cmd.Kind != KindCancel {
		return s.answeredMulti(l, cmd, rec, vis)
	}
	switch rec.Finish {
	case match.FinishDeclined:
		s.finished(cmd, rec.Finish)
		return Reply{Visibility: vis, Lang: l, Text: l.Say("offer.challenge.declined",
			lang.Args{"Opponent": "<@" + rec.Opponent.ID + ">", "Challenger": "<@" + rec.Challenger.ID + ">"})}, nil
	case match.FinishCancelled:
		s.finished(cmd, rec.Finish)
		if rec.Opponent.ID == "" {
			return Reply{Visibility: vis, Lang: l, Text: l.Say("offer.challenge.withdrawnOpen", lang.Args{"Challenger": mention(rec.Challenger)})}, nil
		}
		return Reply{Visibility: vis, Lang: l, Text: say(l, "offer.challenge.withdrawn",
			lang.Args{"Challenger": mention(rec.Challenger), "Players": people(othersOf(rec, rec.Challenger.ID))})}, nil
	}
	s.started(cmd, false)
	red, _ := rec.Colors()
	return gameView(l, rec, vis, l.Say("game.start.accepted", lang.Args{"Opponent": mention(rec.Opponent), "Red": mention(red)})), nil
}

// answerMulti records cmd.User's accept or decline of r, a pending
// challenge of 3 or 4 players: an accept is added to r.Accepted, and the
// last one starts the game; a decline calls the challenge off.
func (s *Service) answerMulti(r *match.Record, cmd Command) error {
	seat, ok := r.PlayerByID(cmd.User.ID)
	if !ok {
		return userErr(ProblemNotInvited, lang.Args{"Players": people(othersOf(r, r.Challenger.ID))})
	}
	if slices.Contains(r.Accepted, cmd.User.ID) {
		if cmd.Kind == KindAccept {
			return userErr(ProblemAlreadyAccepted, lang.Args{"Players": people(r.Invited())})
		}
		// Declining after accepting still calls it off: nobody is held to a game they no longer want.
	}
	if !cmd.Message.IsZero() {
		r.Message = cmd.Message
	}
	if cmd.Kind == KindDecline {
		r.Status, r.Finish, r.Accepted = match.StatusFinished, match.FinishDeclined, nil
		return nil
	}
	if seat.Name == "" || seat.Name == seat.ID {
		for i := range r.Others {
			if r.Others[i].ID == cmd.User.ID {
				r.Others[i].Name = cmd.User.Name
			}
		}
		if r.Opponent.ID == cmd.User.ID {
			r.Opponent.Name = cmd.User.Name
		}
	}
	r.Accepted = append(r.Accepted, cmd.User.ID)
	if len(r.Invited()) == 0 {
		r.Status, r.RedID, r.ExpiresAt, r.Accepted = match.StatusPlaying, r.Challenger.ID, time.Time{}, nil
	}
	return nil
}

// answeredMulti is the reply to an accept or decline of a challenge of 3
// or 4 players, now rec.
func (s *Service) answeredMulti(l lang.Lang, cmd Command, rec *match.Record, vis Visibility) (Reply, error) {
	switch {
	case rec.Finish == match.FinishDeclined:
		s.finished(cmd, rec.Finish)
		return Reply{Visibility: vis, Lang: l, Text: say(l, "offer.challenge.declinedMulti", lang.Args{"Player": mention(cmd.User),
			"Challenger": mention(rec.Challenger), "Players": people(othersOf(rec, rec.Challenger.ID))})}, nil
	case rec.Status == match.StatusPending:
		reply := challengeView(l, rec, vis, rec.ExpiresAt.Sub(s.opt.Now()))
		reply.Text = l.Say("offer.challenge.oneAccepted", lang.Args{"Player": mention(cmd.User)}) + "\n" + reply.Text
		reply.Notify = nil // an edit, or a re-post after an accept: the invitation pinged them already
		return reply, nil
	}
	s.started(cmd, false)
	return gameView(l, rec, vis, say(l, "game.start.everyone", lang.Args{"Player": mention(cmd.User),
		"Red": mention(rec.PlayerOf(engine.Red)), "Players": people(inTurnOrder(rec)[1:])})), nil
}

// rematch starts a new game between the players of the finished game cmd's
// button was drawn for, with colors swapped: at once against the AI, else
// as an offer the other player accepts. The new game is a new record.
func (s *Service) rematch(ctx context.Context, cmd Command) (Reply, error) {
	if !cmd.FromButton() {
		// A rematch is of a finished game, which only its message names.
		return Reply{}, userErr(ProblemRematchButton)
	}
	old, err := s.store.Load(ctx, cmd.Key, cmd.GameID)
	if errors.Is(err, match.ErrNoGame) {
		return Reply{}, userErr(ProblemNothingToRematch)
	}
	if err != nil {
		return Reply{}, err
	}
	switch {
	case old.Puzzle != nil:
		return Reply{}, userErr(ProblemPuzzleNoRematch)
	case old.Status != match.StatusFinished:
		return Reply{}, busy(cmd, &match.BusyError{Existing: old, Player: cmd.User.ID})
	case !old.Started():
		return Reply{}, userErr(ProblemNothingToRematch)
	case old.ColorOf(cmd.User.ID) == engine.NoPlayer:
		return Reply{}, userErr(ProblemNotInGame)
	}
	if old.AILevel == solver.LevelNone {
		return s.offer(ctx, cmd, match.OfferRematch)
	}
	return s.startRematch(ctx, cmd, old)
}

// startRematch starts a new game between the players of old, finished,
// with colors swapped.
func (s *Service) startRematch(ctx context.Context, cmd Command, old *match.Record) (Reply, error) {
	g, err := engine.New(old.Config())
	if err != nil {
		return Reply{}, err
	}
	_, lastYellow := old.Colors() // in a game of 3 or 4 the order rotates: yellow starts, red moves last
	rec := &match.Record{
		Key: cmd.Key, Status: match.StatusPlaying,
		Challenger: old.Challenger, Opponent: old.Opponent, Others: old.Others, RedID: lastYellow.ID,
		Game: g, FirstTo: old.FirstTo, AILevel: old.AILevel,
		Rematches: old.Rematches + 1, Message: cmd.Message,
		Lang:  cmp.Or(old.Lang, s.newGameLang(cmd).String()),
		Clock: clock.Clock{Control: old.Clock.Control},
	}
	if err := s.store.Create(ctx, rec); err != nil {
		return Reply{}, busy(cmd, err)
	}
	s.started(cmd, rec.AILevel != solver.LevelNone)
	vis := Public
	if cmd.FromButton() {
		vis = Update
	}
	text := words("game.start.rematch", lang.Args{"Red": mention(lastYellow)})
	if rec.Multi() {
		text = words("game.start.rematchMulti", lang.Args{"Red": mention(lastYellow), "Players": people(inTurnOrder(rec)[1:])})
	}
	return s.afterHuman(ctx, cmd, rec, vis, text)
}

// duration says d in words, for challenge expiry and claim times.
func duration(d time.Duration) phrase {
	if d < 59500*time.Millisecond {
		// Only with short timings (an operator's, or a test's): "in a
		// minute" would not be true.
		return phrase{"timer.seconds", lang.Args{"Count": max(int(d.Round(time.Second).Seconds()), 1)}}
	}
	d = d.Round(time.Minute)
	h, m := int(d.Hours()), int(d.Minutes())%60
	switch {
	case h == 0 && m <= 1:
		return phrase{"timer.aMinute", nil}
	case h == 0:
		return phrase{"timer.minutes", lang.Args{"Count": m}}
	case m == 0:
		return phrase{"timer.hours", lang.Args{"Count": h}}
	}
	return phrase{"timer.hoursMinutes", lang.Args{"Hours": h, "Minutes": fmt.Sprintf("%02d", m)}}
}

func (s *Service) started(cmd Command, ai bool) {
	if f := s.opt.Hooks.GameStarted; f != nil {
		f(cmd.Key.Platform, ai)
	}
}

func (s *Service) finished(cmd Command, f match.Finish) {
	if h := s.opt.Hooks.GameFinished; h != nil {
		h(cmd.Key.Platform, f.String())
	}
}

// expiredText says a challenge lapsed unanswered.
func expiredText(r *match.Record) phrase {
	if r.Multi() {
		return phrase{"offer.challenge.expiredMulti", lang.Args{"Challenger": mention(r.Challenger), "Players": people(r.Invited())}}
	}
	if r.Opponent.ID == "" {
		return phrase{"offer.challenge.expiredOpen", lang.Args{"Challenger": mention(r.Challenger)}}
	}
	return phrase{"offer.challenge.expired", lang.Args{"Challenger": mention(r.Challenger), "Opponent": mention(r.Opponent)}}
}
