package bot

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"slices"
	"time"

	"github.com/connect4/connect4/bot/match"
)

// Channels the bot cannot reach on its own: a Discord DM or group DM where
// the app was installed by a user is one (no bot in the channel; the app
// can only answer interactions there). Their timers are still planned and
// scheduled like any other, but the worker never carries them out: it
// parks their schedule entries, and the next interaction on the game
// settles them (Settle) and shows what they did.

// Reacher is implemented by a Notifier that cannot post or edit in every
// channel of its platform.
type Reacher interface {
	// Reaches reports whether the notifier can change k's messages on
	// its own. It must be safe for concurrent use.
	Reaches(k match.Key) bool
}

// parkLease is how long the worker leaves a parked entry alone before it
// looks at it again: a write that settles a timer cannot remove an entry
// leased to the worker, so the worker removes it at its next look, once
// the record no longer carries that timer.
const parkLease = time.Hour

// parked reports whether d is for a channel its platform's notifier cannot
// reach. The worker then never carries it out: while d's record still
// carries the timer it holds the entry's lease for parkLease, leaving the
// timer to the next interaction (Settle); once the record no longer
// carries it (settled, or the game gone) it removes the entry.
func (s *Service) parked(ctx context.Context, sched Schedule, notifiers map[string]Notifier, d match.Due, log *slog.Logger) bool {
	r, ok := notifiers[d.Key.Platform].(Reacher)
	if !ok || r.Reaches(d.Key) || d.Kind.OfTournament() {
		// A tournament's own entry is carried out even where its notice
		// cannot go: no record carries it for Settle to find, and the
		// start or the adjudication must happen; the next command shows it.
		return false
	}
	rec, err := s.raw.Load(ctx, d.Key, d.GameID)
	switch {
	case errors.Is(err, match.ErrNoGame):
	case err != nil:
		log.Warn("parked schedule entry not checked: it is claimed again after its lease", "err", err)
		return true
	default:
		if t, ok := rec.Timer(d.Kind); ok && !t.Fired && t.Due.UnixMilli() == d.Due.UnixMilli() {
			if err := sched.Renew(ctx, d, parkLease); err != nil && ctx.Err() == nil {
				log.Debug("parked schedule entry not renewed: it is claimed again after its lease", "err", err)
			}
			return true
		}
	}
	s.done(ctx, sched, d, log) // settled, or the game is gone
	return true
}

// maxSettle bounds the games one interaction settles.
const maxSettle = 8

// Settle carries out the timers of channel k that are due and not yet
// fired, as Fire does for the worker, and returns their notices, oldest
// timer first, for the adapter to show with its reply. It settles game
// gameID, or every active game of k (at most 8) when gameID is "". Adapters
// call it before running a command in a channel their notifier does not
// reach (see Reacher). A game that is gone settles nothing. It returns the
// store's error, with the notices settled before it.
func (s *Service) Settle(ctx context.Context, k match.Key, gameID string) ([]Notice, error) {
	var recs []*match.Record
	if gameID != "" {
		rec, err := s.raw.Load(ctx, k, gameID)
		if errors.Is(err, match.ErrNoGame) {
			return nil, nil
		}
		if err != nil {
			return nil, fmt.Errorf("settle %s: %w", gameID, err)
		}
		recs = append(recs, rec)
	} else {
		active, err := s.raw.Active(ctx, k)
		if err != nil {
			return nil, fmt.Errorf("settle %s: %w", k, err)
		}
		recs = active[:min(len(active), maxSettle)]
	}
	now := s.opt.Now()
	var out []Notice
	for _, rec := range recs {
		due := slices.Clone(rec.Timers)
		slices.SortFunc(due, func(a, b match.Timer) int { return a.Due.Compare(b.Due) })
		for _, t := range due {
			if t.Fired || t.Due.After(now) {
				continue
			}
			n, err := s.Fire(ctx, match.Due{Key: k, GameID: rec.ID, Kind: t.Kind, Due: t.Due})
			switch {
			case errors.Is(err, match.ErrNoGame):
				continue
			case err != nil:
				return out, fmt.Errorf("settle %s %v: %w", rec.ID, t.Kind, err)
			}
			if !n.IsZero() {
				out = append(out, n)
			}
		}
	}
	return out, nil
}
