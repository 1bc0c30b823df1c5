package bot

import (
	"context"
	"slices"
	"time"

	"github.com/connect4/connect4/bot/match"
	"github.com/connect4/connect4/engine"
	"github.com/connect4/connect4/engine/solver"
)

// timedStore is the Service's Store with the records' timers kept: every
// Create and every Update the use cases make sets the timers the new
// record carries (see plan), so that the store schedules them in the same
// atomic step as the record. The writes of the timers' own handlers (see
// Fire) and Attach go to the raw store, beside it: they set the timers
// themselves, or leave them alone.
type timedStore struct {
	Store
	s *Service
}

// Create sets rec's timers and creates it.
func (t timedStore) Create(ctx context.Context, rec *match.Record) error {
	now := t.s.opt.Now()
	if err := tick(nil, rec, now); err != nil {
		return err
	}
	t.s.plan(nil, rec, now)
	return t.Store.Create(ctx, rec)
}

// Update runs fn and then sets the timers of the record it returns.
func (t timedStore) Update(ctx context.Context, k match.Key, gameID string, fn func(r *match.Record) (match.Tally, error)) (*match.Record, error) {
	var ended bool
	rec, err := t.Store.Update(ctx, k, gameID, func(r *match.Record) (match.Tally, error) {
		var prev before
		prev.take(r)
		wasOver := r.Status == match.StatusFinished
		tally, err := fn(r)
		if err == nil {
			now := t.s.opt.Now()
			lapseDraw(&prev, r)
			if err = tick(&prev, r, now); err == nil {
				t.s.plan(&prev, r, now)
			}
		}
		ended = err == nil && !wasOver && r.Status == match.StatusFinished
		return tally, err
	})
	if err == nil && ended {
		addNews(ctx, t.s.tournamentOver(ctx, rec)) // the one place every ended game passes, but a flag's (Fire)
	}
	return rec, err
}

// before is what plan needs of a record before a write.
type before struct {
	turn     turn
	takeback *match.Takeback
	// The timers: the first n in room when they fit (a before lives on
	// its caller's stack, where a copy of them in a slice of their own
	// was an allocation on every move), else in more.
	room [2]match.Timer
	n    int
	more []match.Timer
}

// timers returns the record's timers before the write.
func (b *before) timers() []match.Timer {
	if b.more != nil {
		return b.more
	}
	return b.room[:b.n]
}

// turn identifies whose move it is in which round: a reminder and a
// timeout belong to one turn.
type turn struct {
	playing       bool
	rounds, moves int
	red           string
	mover         engine.Player // in a game of 3 or 4, a player who leaves passes the turn without a move
}

func turnOf(r *match.Record) turn {
	return turn{playing: r.Status == match.StatusPlaying && !r.Game.State().Over(), rounds: len(r.Rounds), moves: r.Game.Moves(), red: r.RedID,
		mover: r.Game.Turn()}
}

// take sets b to r's state before a write: its timers copied (into
// b.room when they fit), its takeback request.
func (b *before) take(r *match.Record) {
	*b = before{turn: turnOf(r)}
	if len(r.Timers) <= len(b.room) {
		b.n = copy(b.room[:], r.Timers)
	} else {
		b.more = slices.Clone(r.Timers)
	}
	if r.Takeback != nil {
		tb := *r.Takeback
		b.takeback = &tb
	}
}

func timerOf(ts []match.Timer, k match.TimerKind) (match.Timer, bool) {
	for _, t := range ts {
		if t.Kind == k {
			return t, true
		}
	}
	return match.Timer{}, false
}

// plan sets r's timers after a write at now from prev (nil for a new
// record):
//
//   - expire: a pending challenge at its ExpiresAt, a pending offer at its
//     ExpiresAt, a takeback request ChallengeTTL after it was made;
//   - remind (RemindAfter > 0) and timeout: in a game between two people,
//     RemindAfter and TurnTimeout after the move that began the turn; the
//     turn's timers (fired or not) carry over writes within the turn;
//   - abandon (IdleAfter > 0): a game being played, IdleAfter after its
//     last write.
func (s *Service) plan(prev *before, r *match.Record, now time.Time) {
	var ts []match.Timer
	if prev != nil {
		// r is the copy a write is made of, its timers its own and
		// already copied into prev: they are written over in place,
		// without an allocation while they fit.
		ts = r.Timers[:0]
	}
	var expire time.Time
	soonest := func(t time.Time) {
		if !t.IsZero() && (expire.IsZero() || t.Before(expire)) {
			expire = t
		}
	}
	if r.Status == match.StatusPending {
		soonest(r.ExpiresAt)
	}
	if r.Offer != nil {
		soonest(r.Offer.ExpiresAt)
	}
	if tb := r.Takeback; tb != nil {
		due := now.Add(s.opt.ChallengeTTL)
		if prev != nil && prev.takeback != nil && *prev.takeback == *tb {
			if t, ok := timerOf(prev.timers(), match.TimerExpire); ok {
				due = t.Due
			}
		}
		soonest(due)
	}
	if !expire.IsZero() {
		ts = append(ts, match.Timer{Kind: match.TimerExpire, Due: expire})
	}
	if t, ok := flagTimer(r); ok {
		ts = append(ts, t) // a time control replaces the reminder and the claim
	} else if cur := turnOf(r); cur.playing && r.AILevel == solver.LevelNone {
		if prev != nil && prev.turn == cur {
			for _, k := range [...]match.TimerKind{match.TimerRemind, match.TimerTimeout} {
				if t, ok := timerOf(prev.timers(), k); ok {
					ts = append(ts, t)
				}
			}
		}
		if _, ok := timerOf(ts, match.TimerTimeout); !ok {
			if s.opt.RemindAfter > 0 && s.opt.RemindAfter < s.opt.TurnTimeout {
				ts = append(ts, match.Timer{Kind: match.TimerRemind, Due: now.Add(s.opt.RemindAfter)})
			}
			ts = append(ts, match.Timer{Kind: match.TimerTimeout, Due: now.Add(s.opt.TurnTimeout)})
		}
	}
	if r.Status == match.StatusPlaying && s.opt.IdleAfter > 0 {
		ts = append(ts, match.Timer{Kind: match.TimerAbandon, Due: now.Add(s.opt.IdleAfter)})
	}
	if len(ts) == 0 {
		ts = nil // none, as a new record or a store's copy holds none
	}
	r.Timers = ts
}

// IdleBefore returns the Options.IdleAfter for a store whose idle records
// expire after ttl: a little before (a tenth of ttl, at most 10 minutes),
// so that the worker closes the game and edits its message first.
func IdleBefore(ttl time.Duration) time.Duration {
	return ttl - min(ttl/10, 10*time.Minute)
}

// claimableAt returns when the player waiting in r may claim the game.
func (s *Service) claimableAt(r *match.Record) time.Time {
	if t, ok := r.Timer(match.TimerTimeout); ok {
		return t.Due
	}
	return r.Updated.Add(s.opt.TurnTimeout)
}
