package bot

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

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
	now := s.opt.Now()
	var fired, again bool
	var text string
	rec, err := s.raw.Update(ctx, d.Key, d.GameID, func(r *match.Record) (match.Tally, error) {
		fired, again, text = false, false, ""
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
		if text, ok2 = s.fire(r, d.Kind, now); !ok2 {
			return match.Tally{}, match.ErrNoChange
		}
		t.Fired = true
		r.SetTimer(t)
		fired = true
		return match.Tally{}, nil
	})
	if err != nil {
		return Notice{}, err
	}
	if !fired && !again {
		return Notice{}, nil
	}
	if fired && rec.Status == match.StatusFinished {
		s.finished(Command{Key: d.Key}, rec.Finish)
	}
	return s.notice(rec, d.Kind, text), nil
}

// fire changes r for a due timer of kind k and returns the words of the
// notice; ok is false when there is nothing to do (what the timer was for
// is already over).
func (s *Service) fire(r *match.Record, k match.TimerKind, now time.Time) (string, bool) {
	switch k {
	case match.TimerExpire:
		switch {
		case r.Status == match.StatusPending:
			r.Status, r.Finish = match.StatusFinished, match.FinishExpired
			r.Timers = nil
			return expiredText(r), true
		case r.Offer != nil && !now.Before(r.Offer.ExpiresAt):
			what := "rematch"
			if r.Offer.Kind == match.OfferNextRound {
				what = "next round"
			}
			from, _ := r.PlayerByID(r.Offer.From)
			r.Offer = nil
			return fmt.Sprintf("%s's %s offer expired.", mention(from), what), true
		case r.Takeback != nil:
			from, _ := r.PlayerByID(r.Takeback.From)
			r.Takeback = nil
			return fmt.Sprintf("%s's takeback request expired.", mention(from)), true
		}
	case match.TimerRemind:
		if turnOf(r).playing {
			return "", true
		}
	case match.TimerTimeout:
		if turnOf(r).playing {
			return "", true
		}
	case match.TimerAbandon:
		if r.Status == match.StatusPlaying {
			r.Status, r.Finish, r.Offer, r.Takeback = match.StatusFinished, match.FinishCancelled, nil, nil
			return fmt.Sprintf("This game was abandoned: nobody played for %s.", duration(s.opt.IdleAfter)), true
		}
	}
	return "", false
}

// notice is what to show for r's fired timer of kind k; text is what fire
// said, "" when the timer fired before (a worker died before its notice).
func (s *Service) notice(r *match.Record, k match.TimerKind, text string) Notice {
	n := Notice{Message: r.Message}
	switch k {
	case match.TimerExpire:
		var v Reply
		if r.Status == match.StatusFinished && r.Finish == match.FinishExpired && !r.Started() {
			v = Reply{Visibility: Update, Text: expiredText(r), People: []match.Player{r.Challenger, r.Opponent}}
		} else {
			v = gameView(r, Update, text)
			if r.Status == match.StatusFinished {
				v.Buttons = columnsOnly(v.Buttons) // the rematch was offered once: no Rematch button
			}
		}
		if text == "" { // fired before, by a worker that died: say it again
			v.Text = "This expired."
		}
		n.Edit = &v
	case match.TimerRemind:
		mover := r.PlayerOf(r.Game.Turn())
		opps := othersOf(r, mover.ID)
		names := make([]string, len(opps))
		for i, p := range opps {
			names[i] = cmp.Or(p.Name, p.ID)
		}
		v := Reply{Visibility: Public, Notify: []string{mover.ID}, People: append([]match.Player{mover}, opps...),
			Text: fmt.Sprintf("%s, it's your move in your Connect Four game against %s%s.", mention(mover), strings.Join(names, " and "), variantText(r))}
		n.Post = &v
	case match.TimerTimeout:
		idle := r.PlayerOf(r.Game.Turn())
		waiting := other(r, idle.ID)
		if r.Multi() { // the one waiting on the idle player is the next to move
			waiting = r.PlayerOf(nextAfter(r.Game, r.Game.Turn()))
		}
		v := gameView(r, Update, fmt.Sprintf("%s has not moved for %s: %s may claim the game.", mention(idle), duration(s.opt.TurnTimeout), mention(waiting)))
		v.Buttons = append(v.Buttons, Button{Label: "Claim", Style: StyleDanger,
			Value: Action{Kind: KindClaim, GameID: r.ID, Move: r.Game.Moves()}.String()})
		n.Edit = &v
	case match.TimerAbandon:
		if text == "" {
			text = "This game was abandoned."
		}
		v := gameView(r, Update, text)
		v.Buttons = nil
		n.Edit = &v
	}
	return n
}

// Attach records ref as the message of game gameID in channel k, for the
// edits the bot makes on its own (see Notifier): adapters call it when
// they learn the id of a message they posted for a command. It changes
// nothing else (not the record's timers) and returns match.ErrNoGame when
// the game is gone.
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
	return err
}
