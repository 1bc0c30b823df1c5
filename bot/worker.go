package bot

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"math/rand/v2"
	"sync"
	"time"

	"github.com/connect4/connect4/bot/match"
)

// Schedule is what the worker needs of a store's schedule (see package
// sessions): entries claimed with a lease, and removed once handled.
type Schedule interface {
	// Claim leases up to max due entries to the caller for lease. An
	// entry not Done by the end of its lease is claimed again.
	Claim(ctx context.Context, max int, lease time.Duration) ([]match.Due, error)
	// Done removes a claimed entry, if the lease is still the caller's;
	// a store may instead put it off to the time its record now carries
	// for the timer (sessions.Redis's lazy timers).
	Done(ctx context.Context, d match.Due) error
	// Renew extends the lease of a claimed entry to lease from now, if it
	// is still the caller's; otherwise it returns an error matching
	// match.ErrLeaseLost and changes nothing.
	Renew(ctx context.Context, d match.Due, lease time.Duration) error
}

// Notifier changes a platform's messages without a click: the bot's own
// edits and posts, made with the bot's token. Adapters implement it.
type Notifier interface {
	// Edit replaces the message ref with r.
	Edit(ctx context.Context, k match.Key, ref match.MessageRef, r Reply) error
	// Post sends r as a new message in k's channel; ref is the game's
	// message, for platforms that reply in its thread.
	Post(ctx context.Context, k match.Key, ref match.MessageRef, r Reply) error
}

// ErrUndeliverable marks a Notifier error that no retry can mend (no token,
// the message or channel is gone, the bot was removed): the worker drops
// the notice at once.
var ErrUndeliverable = errors.New("bot: notice cannot be delivered")

// RateLimitError is a Notifier error for a platform's rate limit (HTTP
// 429): the worker waits After before it tries again.
type RateLimitError struct {
	After time.Duration
	Err   error
}

func (e *RateLimitError) Error() string {
	return fmt.Sprintf("rate limited, retry after %v: %v", e.After, e.Err)
}

func (e *RateLimitError) Unwrap() error { return e.Err }

// WorkerOptions configure RunSchedule. Zero fields take the defaults.
type WorkerOptions struct {
	Poll     time.Duration // how often to look for due entries (default 500 ms)
	Lease    time.Duration // how long a claimed entry is this worker's (default 2 min), renewed before each retry's wait
	Batch    int           // entries claimed at once (default 32)
	Parallel int           // entries handled at once (default 8)
	Attempts int           // deliveries of a notice before it is dropped (default 5)
	Backoff  time.Duration // the wait before the first retry, doubled each time (default 1 s)
	MaxWait  time.Duration // the longest wait between attempts, a platform's retry-after included (default 30 s)
	Hooks    WorkerHooks

	// sleep waits d or until ctx ends (default: a timer); the tests wait
	// on a fake clock.
	sleep func(ctx context.Context, d time.Duration) error
}

// WorkerHooks observe the worker, for metrics; nil funcs are skipped. They
// get the entry's kind ("expire", "remind", "timeout", "abandon") and must
// be safe for concurrent use.
type WorkerHooks struct {
	Due     func(kind string) // an entry was claimed
	Handled func(kind string) // an entry was carried out (or found stale) and removed
	Failed  func(kind string) // an entry's update or notice failed for good; it was dropped
	Retried func(kind string) // a notice is tried again
}

func call(f func(string), kind match.TimerKind) {
	if f != nil {
		f(kind.String())
	}
}

// RunSchedule runs the schedule's worker until ctx is done: every Poll it
// claims the due entries, fires each (Fire) and delivers the notice with
// the Notifier of the entry's platform, retrying a failed delivery with
// backoff a bounded number of times, then removes the entry. Any number of
// workers, in any number of processes, may share one schedule: each entry
// is claimed by one of them at a time, and a worker that retries renews its
// lease, so each notice is delivered once (a post that timed out is not
// posted again: it may have gone out). When ctx is done it stops claiming,
// cancels the deliveries in flight (their entries are claimed again after
// their lease) and returns once they have stopped.
func (s *Service) RunSchedule(ctx context.Context, sched Schedule, notifiers map[string]Notifier, opt WorkerOptions) {
	opt = opt.withDefaults()
	slots := make(chan struct{}, opt.Parallel)
	var wg sync.WaitGroup
	defer wg.Wait()
	tick := time.NewTicker(opt.Poll)
	defer tick.Stop()
	claims := outage{log: s.log, what: "schedule claim", now: s.opt.Now}
	for {
		if free := opt.Parallel - len(slots); free > 0 {
			due, err := sched.Claim(ctx, min(opt.Batch, free), opt.Lease)
			switch {
			case err == nil:
				claims.ok()
			case ctx.Err() == nil:
				claims.fail(err)
			}
			for _, d := range due {
				call(opt.Hooks.Due, d.Kind)
				slots <- struct{}{}
				wg.Add(1)
				go func() {
					defer wg.Done()
					defer func() { <-slots }()
					s.handleDue(ctx, sched, notifiers, opt, d)
				}()
			}
		}
		select {
		case <-ctx.Done():
			return
		case <-tick.C:
		}
	}
}

func (o WorkerOptions) withDefaults() WorkerOptions {
	o.Poll = orDefault(o.Poll, 500*time.Millisecond)
	o.Lease = orDefault(o.Lease, 2*time.Minute)
	o.Batch = orDefault(o.Batch, 32)
	o.Parallel = orDefault(o.Parallel, 8)
	o.Attempts = orDefault(o.Attempts, 5)
	o.Backoff = orDefault(o.Backoff, time.Second)
	o.MaxWait = orDefault(o.MaxWait, 30*time.Second)
	if o.sleep == nil {
		o.sleep = sleep
	}
	return o
}

func orDefault[T int | time.Duration](v, def T) T {
	if v <= 0 {
		return def
	}
	return v
}

// handleDue fires d, delivers its notice and removes it.
func (s *Service) handleDue(ctx context.Context, sched Schedule, notifiers map[string]Notifier, opt WorkerOptions, d match.Due) {
	log := s.log.With("timer", d.Kind.String(), "channel", d.Key.String(), "game", d.GameID)
	if s.parked(ctx, sched, notifiers, d, log) {
		return // the next interaction settles it (see Settle)
	}
	n, err := s.Fire(ctx, d)
	switch {
	case ctx.Err() != nil:
		return // shutting down: the entry is claimed again after its lease
	case errors.Is(err, match.ErrNoGame):
		n = Notice{} // the record is gone: nothing left to show
	case errors.Is(err, ErrNotDue):
		log.Warn("schedule entry claimed before its time: clocks disagree; it is tried again after its lease")
		call(opt.Hooks.Retried, d.Kind)
		return
	case errors.Is(err, match.ErrUnavailable) || errors.Is(err, match.ErrConflict):
		log.Warn("scheduled update failed: it is tried again after its lease", "err", err)
		call(opt.Hooks.Retried, d.Kind)
		return
	case err != nil:
		log.Error("scheduled update failed: entry dropped", "err", err)
		call(opt.Hooks.Failed, d.Kind)
		s.done(ctx, sched, d, log)
		return
	}
	if !n.IsZero() {
		if err := s.deliver(ctx, sched, notifiers[d.Key.Platform], n, d, opt, log); err != nil {
			if ctx.Err() != nil {
				return
			}
			if errors.Is(err, errNotRenewed) {
				// Nothing of it went out but what is safe to send again
				// (edits); the entry is another worker's now, or is claimed
				// again after the lease.
				log.Warn("scheduled notice put off: its lease could not be renewed", "err", err)
				call(opt.Hooks.Retried, d.Kind)
				return
			}
			log.Error("scheduled notice dropped", "err", err)
			call(opt.Hooks.Failed, d.Kind)
			s.done(ctx, sched, d, log)
			return
		}
	}
	call(opt.Hooks.Handled, d.Kind)
	s.done(ctx, sched, d, log)
}

func (s *Service) done(ctx context.Context, sched Schedule, d match.Due, log *slog.Logger) {
	if err := sched.Done(context.WithoutCancel(ctx), d); err != nil {
		log.Warn("schedule entry not removed: it is claimed again after its lease", "err", err)
	}
}

// errNotRenewed stops a delivery whose lease could not be renewed before a
// retry: another worker may hold the entry by then.
var errNotRenewed = errors.New("bot: schedule lease not renewed")

// deliver sends n with nf, retrying a failure up to opt.Attempts times.
// Before each wait it renews the entry's lease to cover the wait and a
// whole lease after it, so that no other worker claims the entry while this
// one still delivers it; it returns an error matching errNotRenewed when
// the store refuses. An edit is sent again after a failure of any kind (it
// replaces the message: twice is once); a post that timed out is not, since
// the platform may have made it.
func (s *Service) deliver(ctx context.Context, sched Schedule, nf Notifier, n Notice, d match.Due, opt WorkerOptions, log *slog.Logger) error {
	if nf == nil {
		return fmt.Errorf("%w: no notifier for platform %q", ErrUndeliverable, d.Key.Platform)
	}
	send := func() error {
		var errs []error
		if n.Edit != nil && !n.Message.IsZero() {
			if err := nf.Edit(ctx, d.Key, n.Message, *n.Edit); err != nil {
				errs = append(errs, fmt.Errorf("edit: %w", err))
			} else {
				n.Edit = nil // done: a retry only sends what failed
			}
		}
		if n.Post != nil {
			err := nf.Post(ctx, d.Key, n.Message, *n.Post)
			switch {
			case err == nil:
				if n.Post.Aside() { // a tournament's table and next games, after its news
					ApplyEdits(ctx, nf, d.Key, *n.Post, log)
				}
				n.Post = nil
			case mayHaveSent(ctx, err):
				log.Warn("scheduled post timed out: it may have been posted, so it is not posted again", "err", err)
				n.Post = nil
			default:
				errs = append(errs, fmt.Errorf("post: %w", err))
			}
		}
		return errors.Join(errs...)
	}
	wait := opt.Backoff
	for attempt := 1; ; attempt++ {
		err := send()
		if err == nil || errors.Is(err, ErrUndeliverable) || attempt >= opt.Attempts {
			return err
		}
		pause := wait/2 + rand.N(wait/2+1) // jittered, so replicas do not retry in step
		var rl *RateLimitError
		if errors.As(err, &rl) {
			pause = max(pause, rl.After)
		}
		pause = min(pause, opt.MaxWait)
		wait = min(2*wait, opt.MaxWait)
		if rerr := sched.Renew(ctx, d, pause+opt.Lease); rerr != nil {
			return fmt.Errorf("%w: %w (after: %w)", errNotRenewed, rerr, err)
		}
		log.Warn("scheduled notice failed: trying again", "attempt", attempt, "wait", pause, "err", err)
		call(opt.Hooks.Retried, d.Kind)
		if err := opt.sleep(ctx, pause); err != nil {
			return err
		}
	}
}

// mayHaveSent reports whether err, from a platform call made with ctx,
// leaves it unknown whether the platform carried the call out: the call
// timed out (the client's deadline, not ctx's end, which is a shutdown).
func mayHaveSent(ctx context.Context, err error) bool {
	if ctx.Err() != nil {
		return false
	}
	var timeout interface{ Timeout() bool }
	return errors.Is(err, context.DeadlineExceeded) || (errors.As(err, &timeout) && timeout.Timeout())
}

// sleep waits d, or until ctx ends and returns its error.
func sleep(ctx context.Context, d time.Duration) error {
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-ctx.Done():
		return ctx.Err()
	case <-t.C:
		return nil
	}
}

// ApplyEdits makes r's Edits, then its Posts, in channel k through nf,
// best effort: the reply itself stands, so a failure is logged (at Debug
// when nf cannot change messages at all, as without a token) and not
// retried. An edit marked Repost whose message is unknown or gone is
// posted anew instead.
func ApplyEdits(ctx context.Context, nf Notifier, k match.Key, r Reply, log *slog.Logger) {
	for _, e := range r.Edits {
		var err error
		if !e.Message.IsZero() {
			err = nf.Edit(ctx, k, e.Message, e.Reply)
		}
		if e.Repost && (e.Message.IsZero() || errors.Is(err, ErrUndeliverable)) {
			err = nf.Post(ctx, k, match.MessageRef{}, e.Reply)
		}
		switch {
		case errors.Is(err, ErrUndeliverable):
			log.Debug("message not edited", "channel", k.String(), "err", err)
		case err != nil:
			log.Warn("message not edited: its buttons stay until clicked, which then says what happened", "channel", k.String(), "err", err)
		}
	}
	for _, p := range r.Posts {
		if err := nf.Post(ctx, k, match.MessageRef{}, p); errors.Is(err, ErrUndeliverable) {
			log.Debug("message not posted", "channel", k.String(), "err", err)
		} else if err != nil {
			log.Warn("message not posted", "channel", k.String(), "err", err)
		}
	}
}
