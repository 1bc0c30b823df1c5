package sessions

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"

	"github.com/redis/go-redis/v9"

	"github.com/connect4/connect4/bot/match"
)

// DefaultPurgeBatch is how many keys a purge deletes in one round trip
// when the caller gives none.
const DefaultPurgeBatch = 500

// Purge deletes the data of the uninstalled installation p names, in
// batches of at most batch keys (one round trip each), calling progress
// after each batch (to extend the job's lease; an error from it stops the
// purge and is returned). For an org-wide install it purges every team
// linked to it. It deletes, per workspace: every channel's games, indexes,
// schedule entries, leaderboards, ratings, seasons, settings and replay
// nonces (the keys under the channel's tag), the channel's hints in the
// schedule's buckets, the App Home's state, and the installation's own keys
// (last, so that a purge cut short still finds the teams it serves).
//
// It is idempotent: a purge that died mid-way is run again from the start
// by the next worker and deletes what is left. A workspace installed again
// after p.At is left alone, and Purge returns nil.
func (i *Installs) Purge(ctx context.Context, p match.Purge, batch int, progress func(ctx context.Context) error) error {
	if err := checkID("purge", p.ID); err != nil {
		return err
	}
	if batch <= 0 {
		batch = DefaultPurgeBatch
	}
	if again, err := i.reinstalled(ctx, p); again || err != nil {
		return err
	}
	var teams []string
	if p.ID[0] == 'E' {
		var err error
		if teams, err = i.s.c.SMembers(ctx, i.teamsKey(p.ID)).Result(); err != nil {
			return i.fail("purge", err)
		}
	} else {
		teams = []string{p.ID}
	}
	for _, t := range teams {
		if !match.ValidInstallID(t) {
			continue
		}
		if err := i.purgeWorkspace(ctx, t, batch, progress); err != nil {
			return err
		}
	}
	if again, err := i.reinstalled(ctx, p); again || err != nil {
		return err
	}
	return i.scanDelete(ctx, globEscape(i.instKey(p.ID))+"*", batch, progress)
}

// reinstalled reports whether p's installation was installed again after
// its uninstall.
func (i *Installs) reinstalled(ctx context.Context, p match.Purge) (bool, error) {
	inst, err := i.Installation(ctx, p.ID)
	switch {
	case errors.Is(err, match.ErrNotInstalled), errors.Is(err, match.ErrCorrupt):
		return false, nil
	case err != nil:
		return false, err
	}
	return inst.Installed.After(p.At), nil
}

// purgeWorkspace deletes team's channel data, its hints and its App Home
// and link keys.
func (i *Installs) purgeWorkspace(ctx context.Context, team string, batch int, progress func(context.Context) error) error {
	prefix := globEscape(i.s.cfg.prefix)
	for _, pattern := range []string{
		prefix + "{slack:" + team + ":*",
		globEscape(i.homeKey(team)) + "*",
	} {
		if err := i.scanDelete(ctx, pattern, batch, progress); err != nil {
			return err
		}
	}
	if err := i.purgeHints(ctx, team, batch, progress); err != nil {
		return err
	}
	if team[0] == 'T' {
		// A team's own installation keys go last, unless it came back.
		if err := i.s.c.Del(ctx, i.orgKey(team)).Err(); err != nil {
			return i.fail("purge", err)
		}
	}
	return nil
}

// purgeHints removes team's channels from the schedule's buckets.
func (i *Installs) purgeHints(ctx context.Context, team string, batch int, progress func(context.Context) error) error {
	pat := "slack:" + team + ":*"
	for n := range ScheduleBuckets {
		z, g := i.s.bucketKeys(n)
		for _, k := range []struct {
			key  string
			scan func(cursor uint64) *redis.ScanCmd
			del  func(members []string) error
		}{
			{z, func(c uint64) *redis.ScanCmd { return i.s.c.ZScan(ctx, z, c, pat, int64(batch)) },
				func(m []string) error { return i.s.c.ZRem(ctx, z, anys(m)...).Err() }},
			{g, func(c uint64) *redis.ScanCmd { return i.s.c.HScan(ctx, g, c, pat, int64(batch)) },
				func(m []string) error { return i.s.c.HDel(ctx, g, m...).Err() }},
		} {
			var cursor uint64
			for {
				vals, next, err := k.scan(cursor).Result()
				if err != nil && !isWrongType(err) {
					return i.fail("purge", err)
				}
				// ZSCAN and HSCAN answer member, value pairs.
				var members []string
				for j := 0; j+1 < len(vals); j += 2 {
					members = append(members, vals[j])
				}
				if len(members) > 0 {
					if err := k.del(members); err != nil {
						return i.fail("purge", err)
					}
					if err := progress(ctx); err != nil {
						return err
					}
				}
				if err != nil || next == 0 {
					break
				}
				cursor = next
			}
		}
	}
	return nil
}

func anys(s []string) []any {
	out := make([]any, len(s))
	for i, v := range s {
		out[i] = v
	}
	return out
}

// scanDelete deletes every key matching pattern, on each master of a
// cluster in turn, in batches of at most batch keys.
func (i *Installs) scanDelete(ctx context.Context, pattern string, batch int, progress func(context.Context) error) error {
	nodes := []redis.UniversalClient{i.s.c}
	if cc, ok := i.s.c.(*redis.ClusterClient); ok {
		nodes = nodes[:0]
		var mu sync.Mutex
		err := cc.ForEachMaster(ctx, func(ctx context.Context, n *redis.Client) error {
			mu.Lock()
			defer mu.Unlock()
			nodes = append(nodes, n)
			return nil
		})
		if err != nil {
			return i.fail("purge", err)
		}
	}
	for _, n := range nodes {
		var cursor uint64
		for {
			keys, next, err := n.Scan(ctx, cursor, pattern, int64(batch)).Result()
			if err != nil {
				return i.fail("purge", err)
			}
			for len(keys) > 0 {
				part := keys[:min(batch, len(keys))]
				keys = keys[len(part):]
				// One key per command: a cluster refuses a multi-key
				// command across slots, even on one node.
				_, err := n.Pipelined(ctx, func(p redis.Pipeliner) error {
					for _, k := range part {
						p.Unlink(ctx, k)
					}
					return nil
				})
				if err != nil {
					return i.fail("purge", err)
				}
				if err := progress(ctx); err != nil {
					return err
				}
			}
			if next == 0 {
				break
			}
			cursor = next
		}
	}
	return nil
}

// globEscape escapes the characters Redis's glob patterns give a meaning.
func globEscape(s string) string {
	var b strings.Builder
	for _, r := range s {
		if strings.ContainsRune(`*?[]\`, r) {
			b.WriteByte('\\')
		}
		b.WriteRune(r)
	}
	return b.String()
}

// purgeWorkspace deletes every channel of platform's workspace from m:
// records, leaderboards, ratings, seasons, settings, schedule entries and
// nonces. It returns how many channels it touched.
func (m *Memory) purgeWorkspace(platform, workspace string) int {
	in := func(k match.Key) bool { return k.Platform == platform && k.Workspace == workspace }
	m.mu.Lock()
	defer m.mu.Unlock()
	chans := map[match.Key]bool{}
	for k := range m.games {
		if in(k) {
			chans[k] = true
			delete(m.games, k)
		}
	}
	for k := range m.boards {
		if in(k) {
			chans[k] = true
			delete(m.boards, k)
		}
	}
	for k := range m.seasons {
		if in(k) {
			chans[k] = true
			delete(m.seasons, k)
		}
	}
	for k := range m.settings {
		if in(k) {
			chans[k] = true
			delete(m.settings, k)
		}
	}
	ws := m.workspaceHash(platform, workspace)
	for k := range m.seen {
		if k.workspace == ws {
			delete(m.seen, k)
		}
	}
	for k := range m.last {
		if in(k.key) {
			delete(m.last, k)
		}
	}
	for k := range m.entries {
		if in(k.key) {
			delete(m.entries, k)
		}
	}
	return len(chans)
}

// errNoData is the error of a memory installations store without a store
// to purge.
var errNoData = fmt.Errorf("sessions: %w: no store to purge", match.ErrInvalid)
