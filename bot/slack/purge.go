package slack

import (
	"context"
	"time"
)

// Purging the data of uninstalled workspaces: jobs in the store's queue
// (Installs.Uninstall), each taken by one replica under a lease, run in
// bounded batches that extend the lease, and removed when done. A replica
// that dies mid-way leaves its job to the next one after the lease; the
// purge is idempotent, so it simply runs again.
const (
	// DefaultPurgePoll is how often RunPurges looks for a job.
	DefaultPurgePoll = 5 * time.Second
	purgeLease       = time.Minute
	purgeBatch       = 500
)

// RunPurges runs the purge jobs of uninstalled workspaces until ctx is
// done, looking for one every poll (0: DefaultPurgePoll). It returns nil
// when ctx is done; without the many-workspace mode it returns at once.
func (a *Adapter) RunPurges(ctx context.Context, poll time.Duration) error {
	if a.ws == nil {
		return nil
	}
	if poll <= 0 {
		poll = DefaultPurgePoll
	}
	t := time.NewTicker(poll)
	defer t.Stop()
	for {
		for a.purgeOne(ctx) {
		}
		select {
		case <-ctx.Done():
			return nil
		case <-t.C:
		}
	}
}

// purgeOne claims one due job and runs it; it reports whether there was
// one (so that the caller looks for the next at once).
func (a *Adapter) purgeOne(ctx context.Context) bool {
	store := a.ws.oauth.Store
	p, ok, err := store.ClaimPurge(ctx, purgeLease)
	if err != nil {
		if ctx.Err() == nil {
			a.log.Warn("slack: purge: claiming a job failed", "err", err)
		}
		return false
	}
	if !ok {
		return false
	}
	start := time.Now()
	batches := 0
	err = store.Purge(ctx, p, purgeBatch, func(ctx context.Context) error {
		batches++
		return store.RenewPurge(ctx, &p, purgeLease)
	})
	if err == nil {
		err = store.FinishPurge(ctx, p)
	}
	if err != nil {
		if ctx.Err() == nil {
			a.log.Warn("slack: purge stopped; it runs again after its lease", "installation", p.ID, "err", err)
		}
		return false
	}
	a.ws.forget(p.ID)
	a.log.Info("slack: purged an uninstalled workspace's data", "installation", p.ID, "batches", batches, "took", time.Since(start).Round(time.Millisecond))
	return true
}
