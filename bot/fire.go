package bot

import (
	"cmp"
	"context"
	"errors"
	"time"

	"github.com/connect4/connect4/bot/lang"
	"github.com/connect4/connect4/bot/match"
)

// ErrNotDue is Fire's answer to an entry claimed before its time by the
// clock of this replica (another replica's clock runs ahead): the worker
// leaves it to be claimed again after its lease.
var ErrNotDue = errors.New("bot: schedule entry not due yet")

// Notice is what a fired timer changes on a platform: an edit of the
// game's message, a new message, or both; the zero Notice changes nothing.
type Notice struct {
	Message match.MessageRef // the game's message
	Edit    *Reply           // replaces Message
	Post    *Reply           // a new message in the channel
}

// IsZero reports whether n changes nothing.
func (n Notice) IsZero() bool { return n.Edit == nil && n.Post == nil }

// Fire carries out the schedule entry d, as a normal versioned update of
// its record, and returns what to show. An entry made stale by a later
// write (the record no longer carries that timer at that time: a move was
// made, the challenge answered) changes nothing and returns the zero
// Notice. An entry whose update landed before (the timer is marked fired,
// and the worker that fired it died before its notice went out) returns
// the notice again without writing. It returns match.ErrNoGame when the
// record is gone.
func (s *Service) Fire(ctx context.Context, d match.Due) (Notice, error) {
	if d.Kind.OfTournament() {
		return s.fireTournament(ctx, d) // a tournament's, not a record's (tournamentclock.go)
	}
	now := s.opt.Now()
	var fired, again bool
	var text speech
	rec, err := s.raw.Update(ctx, d.Key, d.GameID, func(r *match.Record) (match.Tally, error) {
		fired, again, text = false, false, nil
		t, ok := r.Timer(d.Kind)
		if !ok || t.Due.UnixMilli() != d.Due.UnixMilli() {
			return match.Tally{}, match.ErrNoChange // stale
		}
		if t.Fired {
			again = true
			return match.Tally{}, match.ErrNoChange
		}
		if t.Due.After(now) { // claimed by a replica whose clock runs ahead
			return match.Tally{}, ErrNotDue
		}
		var ok2 bool
		var tally match.Tally
		switch {
		case d.Kind == match.TimerFlag:
			tally, text, ok2 = flag(r, now)
		case d.Kind == match.TimerAbandon && tournamentGameID.MatchString(r.ID):
			tally, text, ok2 = forfeitIdle(r, s.opt.IdleAfter) // a tournament game has a result (tournamentclock.go)
		default:
			text, ok2 = s.fire(r, d.Kind, now)
		}
		if !ok2 {
			return match.Tally{}, match.ErrNoChange
		}
		t.Fired = true
		r.SetTimer(t)
		fired = true
		return tally, nil
	})
	if err != nil {
		return Notice{}, err
	}
	if !fired && !again {
		return Notice{}, nil
	}
	var news Reply
	if fired && rec.Status == match.StatusFinished {
		s.finished(Command{Key: d.Key}, rec.Finish)
		news = s.tournamentOver(ctx, rec)
	}
	l := s.timedLang(ctx, rec)
	return withTournamentNews(l, s.notice(l, rec, d.Kind, text), news), nil
}

// fire changes r for a due timer of kind k and returns the words of the
// notice; ok is false when there is nothing to do (what the timer was for
// is already over).
func (s *Service) fire(r *match.Record, k match.TimerKind, now time.Time) (speech, bool) {
	switch k {
	case match.TimerExpire:
		switch {
		case r.Status == match.StatusPending:
			r.Status, r.Finish = match.StatusFinished, match.FinishExpired
			r.Timers = nil
			return speech{{p: expiredText(r)}}, true
		case r.Offer != nil && !now.Before(r.Offer.ExpiresAt):
			id := "timer.offerExpired.rematch"
			if r.Offer.Kind == match.OfferNextRound {
				id = "timer.offerExpired.nextRound"
			}
			from, _ := r.PlayerByID(r.Offer.From)
			r.Offer = nil
			return words(id, lang.Args{"Player": mention(from)}), true
		case r.Takeback != nil:
			from, _ := r.PlayerByID(r.Takeback.From)
			r.Takeback = nil
			return words("timer.takebackExpired", lang.Args{"Player": mention(from)}), true
		}
	case match.TimerRemind:
		if turnOf(r).playing {
			return nil, true
		}
	case match.TimerTimeout:
		if turnOf(r).playing {
			return nil, true
		}
	case match.TimerAbandon:
		if r.Status == match.StatusPlaying {
			r.Status, r.Finish, r.Offer, r.Takeback = match.StatusFinished, match.FinishCancelled, nil, nil
			return words("timer.abandoned", lang.Args{"Time": duration(s.opt.IdleAfter)}), true
		}
	}
	return nil, false
}

// notice is what to show, in l, for r's fired timer of kind k; text is
// what fire said, nothing when the timer fired before (a worker died
// before its notice).
func (s *Service) notice(l lang.Lang, r *match.Record, k match.TimerKind, text speech) Notice {
	n := Notice{Message: r.Message}
	switch k {
	case match.TimerExpire:
		var v Reply
		if r.Status == match.StatusFinished && r.Finish == match.FinishExpired && !r.Started() {
			v = Reply{Visibility: Update, Text: expiredText(r).in(l), People: []match.Player{r.Challenger, r.Opponent}, Lang: l}
		} else {
			v = gameView(l, r, Update, text.in(l))
			if r.Status == match.StatusFinished {
				v.Buttons = columnsOnly(v.Buttons) // the rematch was offered once: no Rematch button
			}
		}
		if len(text) == 0 { // fired before, by a worker that died: say it again
			v.Text = l.Say("timer.expired", nil)
		}
		n.Edit = &v
	case match.TimerRemind:
		mover := r.PlayerOf(r.Game.Turn())
		opps := othersOf(r, mover.ID)
		ns := make(names, len(opps))
		for i, p := range opps {
			ns[i] = cmp.Or(p.Name, p.ID)
		}
		v := Reply{Visibility: Public, Notify: []string{mover.ID}, People: append([]match.Player{mover}, opps...), Lang: l,
			Text: say(l, "timer.remind", lang.Args{"Player": mention(mover), "Opponents": ns, "Variant": variant(r)})}
		n.Post = &v
	case match.TimerTimeout:
		idle := r.PlayerOf(r.Game.Turn())
		waiting, id := other(r, idle.ID), "timer.timeout"
		if r.Multi() { // the one waiting on the idle player is the next to move; a claim takes the idle one out
			waiting, id = r.PlayerOf(nextAfter(r.Game, r.Game.Turn())), "timer.timeoutMulti"
		}
		v := gameView(l, r, Update, say(l, id, lang.Args{"Idle": mention(idle), "Time": duration(s.opt.TurnTimeout), "Waiting": mention(waiting)}))
		v.Buttons = append(v.Buttons, Button{Label: l.Say("button.claim", nil), Style: StyleDanger,
			Value: Action{Kind: KindClaim, GameID: r.ID, Move: r.Game.Moves()}.String()})
		n.Edit = &v
	case match.TimerFlag:
		n.Edit = flagNotice(l, r, text)
	case match.TimerAbandon:
		if len(text) == 0 {
			text = words("timer.abandonedAgain", nil)
		}
		v := gameView(l, r, Update, text.in(l))
		v.Buttons = nil
		n.Edit = &v
	}
	return n
}

// Attach records ref as the message of game gameID in channel k, for the
// edits the bot makes on its own (see Notifier): adapters call it when
// they learn the id of a message they posted for a command, or posted as
// a Notifier. An id that names the channel's tournament rather than a game
// records its table's message (see attachTable). It changes nothing else
// (not the record's timers) and returns match.ErrNoGame when the game is
// gone.
func (s *Service) Attach(ctx context.Context, k match.Key, gameID string, ref match.MessageRef) error {
	if ref.IsZero() {
		return nil
	}
	_, err := s.raw.Update(ctx, k, gameID, func(r *match.Record) (match.Tally, error) {
		if r.Message == ref {
			return match.Tally{}, match.ErrNoChange
		}
		r.Message = ref
		return match.Tally{}, nil
	})
	if errors.Is(err, match.ErrNoGame) && s.attachTable(ctx, k, gameID, ref) {
		return nil
	}
	return err
}
