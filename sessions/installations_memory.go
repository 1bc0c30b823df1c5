package sessions

import (
	"cmp"
	"context"
	"fmt"
	"slices"
	"sync"
	"time"

	"github.com/connect4/connect4/bot/match"
)

// MemoryInstalls is Installs in memory, beside a Memory store whose data
// its purges delete: the same semantics, for a single process (nothing
// survives a restart, so neither does a purge job, nor the data it
// would delete). It is safe for concurrent use; make one with
// NewMemoryInstalls.
type MemoryInstalls struct {
	data *Memory
	now  func() time.Time

	mu     sync.Mutex
	insts  map[string]*match.Installation
	leases map[string]time.Time // renewal leases, until
	orgs   map[string]string    // team → enterprise
	teams  map[string][]string  // enterprise → teams
	once   map[string]time.Time // used nonces, until
	home   map[string]time.Time // team/user → next publish allowed
	recent map[string]map[string]time.Time
	jobs   map[string]*memJob
}

type memJob struct {
	at, due time.Time
}

// NewMemoryInstalls returns empty installations beside data, on data's
// clock.
func NewMemoryInstalls(data *Memory) *MemoryInstalls {
	return &MemoryInstalls{data: data, now: data.cfg.now, insts: map[string]*match.Installation{}, leases: map[string]time.Time{},
		orgs: map[string]string{}, teams: map[string][]string{}, once: map[string]time.Time{}, home: map[string]time.Time{},
		recent: map[string]map[string]time.Time{}, jobs: map[string]*memJob{}}
}

func cloneInstall(inst *match.Installation) *match.Installation {
	c := *inst
	c.Sealed = slices.Clone(inst.Sealed)
	c.Expires, c.Installed = normTime(c.Expires), normTime(c.Installed)
	return &c
}

// Installation implements Installs.Installation.
func (m *MemoryInstalls) Installation(ctx context.Context, id string) (*match.Installation, error) {
	if err := checkID("installation", id); err != nil {
		return nil, err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	inst, ok := m.insts[id]
	if !ok {
		return nil, match.ErrNotInstalled
	}
	return cloneInstall(inst), nil
}

// PutInstallation implements Installs.PutInstallation.
func (m *MemoryInstalls) PutInstallation(ctx context.Context, inst *match.Installation) error {
	if err := inst.Validate(); err != nil {
		return fmt.Errorf("sessions: put installation: %w", err)
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	v := int64(1)
	if old, ok := m.insts[inst.ID]; ok {
		v = old.Version + 1
	}
	inst.Version = v
	m.insts[inst.ID] = cloneInstall(inst)
	delete(m.leases, inst.ID)
	return nil
}

// RenewInstallation implements Installs.RenewInstallation.
func (m *MemoryInstalls) RenewInstallation(ctx context.Context, next *match.Installation, was int64) error {
	if err := next.Validate(); err != nil {
		return fmt.Errorf("sessions: renew installation: %w", err)
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	old, ok := m.insts[next.ID]
	switch {
	case !ok:
		return match.ErrNotInstalled
	case old.Version != was:
		return match.ErrConflict
	}
	next.Version = was + 1
	m.insts[next.ID] = cloneInstall(next)
	delete(m.leases, next.ID)
	return nil
}

// ClaimRenewal implements Installs.ClaimRenewal.
func (m *MemoryInstalls) ClaimRenewal(ctx context.Context, id string, version int64, lease time.Duration) (bool, error) {
	if err := checkID("claim renewal", id); err != nil {
		return false, err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if inst, ok := m.insts[id]; !ok || inst.Version != version {
		return false, nil
	}
	now := m.now()
	if until, ok := m.leases[id]; ok && now.Before(until) {
		return false, nil
	}
	m.leases[id] = now.Add(lease)
	return true, nil
}

// WorkspaceOrg implements Installs.WorkspaceOrg.
func (m *MemoryInstalls) WorkspaceOrg(ctx context.Context, team string) (string, error) {
	if err := checkID("workspace org", team); err != nil {
		return "", err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	return m.orgs[team], nil
}

// LinkWorkspace implements Installs.LinkWorkspace.
func (m *MemoryInstalls) LinkWorkspace(ctx context.Context, team, org string) error {
	if err := checkID("link workspace", team); err != nil {
		return err
	}
	if err := checkID("link workspace", org); err != nil {
		return err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	if !slices.Contains(m.teams[org], team) {
		m.teams[org] = append(m.teams[org], team)
	}
	m.orgs[team] = org
	return nil
}

// UseOnce implements Installs.UseOnce.
func (m *MemoryInstalls) UseOnce(ctx context.Context, nonce string, ttl time.Duration) (bool, error) {
	if nonce == "" || len(nonce) > 128 || ttl <= 0 {
		return false, fmt.Errorf("sessions: use once: %w: bad nonce or ttl", match.ErrInvalid)
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	now := m.now()
	for n, until := range m.once { // a sample, as Memory sweeps
		if !now.Before(until) {
			delete(m.once, n)
		}
		break
	}
	if until, ok := m.once[nonce]; ok && now.Before(until) {
		return false, nil
	}
	m.once[nonce] = now.Add(ttl)
	return true, nil
}

// HomeOpened implements Installs.HomeOpened.
func (m *MemoryInstalls) HomeOpened(ctx context.Context, team, user string, every time.Duration) (bool, error) {
	if err := checkID("home opened", team); err != nil || !validUser(user) {
		return false, fmt.Errorf("sessions: home opened: %w: team or user", match.ErrInvalid)
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	now, k := m.now(), team+"/"+user
	if until, ok := m.home[k]; ok && now.Before(until) {
		return false, nil
	}
	m.home[k] = now.Add(every)
	return true, nil
}

// SeenChannel implements Installs.SeenChannel.
func (m *MemoryInstalls) SeenChannel(ctx context.Context, team, user, channel string) error {
	if err := checkID("seen channel", team); err != nil {
		return err
	}
	if !validUser(user) || !validUser(channel) {
		return fmt.Errorf("sessions: seen channel: %w: user or channel", match.ErrInvalid)
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	k := team + "/" + user
	if m.recent[k] == nil {
		m.recent[k] = map[string]time.Time{}
	}
	m.recent[k][channel] = m.now()
	for len(m.recent[k]) > MaxRecentChannels {
		oldest := ""
		for c, t := range m.recent[k] {
			if oldest == "" || t.Before(m.recent[k][oldest]) {
				oldest = c
			}
		}
		delete(m.recent[k], oldest)
	}
	return nil
}

// RecentChannels implements Installs.RecentChannels.
func (m *MemoryInstalls) RecentChannels(ctx context.Context, team, user string) ([]string, error) {
	if err := checkID("recent channels", team); err != nil {
		return nil, err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	seen := m.recent[team+"/"+user]
	out := make([]string, 0, len(seen))
	for c := range seen {
		out = append(out, c)
	}
	slices.SortFunc(out, func(a, b string) int { return cmp.Or(seen[b].Compare(seen[a]), cmp.Compare(a, b)) })
	return out, nil
}

// Uninstall implements Installs.Uninstall.
func (m *MemoryInstalls) Uninstall(ctx context.Context, id string, at time.Time, delay time.Duration) error {
	if err := checkID("uninstall", id); err != nil {
		return err
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	j, ok := m.jobs[id]
	if !ok {
		j = &memJob{due: normTime(at).Truncate(time.Millisecond).Add(delay)}
		m.jobs[id] = j
	}
	j.at = normTime(at).Truncate(time.Millisecond)
	delete(m.insts, id)
	return nil
}

// ClaimPurge implements Installs.ClaimPurge.
func (m *MemoryInstalls) ClaimPurge(ctx context.Context, lease time.Duration) (match.Purge, bool, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	now := m.now().Truncate(time.Millisecond)
	for id, j := range m.jobs {
		if !j.due.After(now) {
			j.due = now.Add(lease)
			return match.Purge{ID: id, At: j.at, Due: j.due}, true, nil
		}
	}
	return match.Purge{}, false, nil
}

// RenewPurge implements Installs.RenewPurge.
func (m *MemoryInstalls) RenewPurge(ctx context.Context, p *match.Purge, lease time.Duration) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	j, ok := m.jobs[p.ID]
	if !ok || !j.due.Equal(p.Due) {
		return ErrLeaseLost
	}
	j.due = m.now().Truncate(time.Millisecond).Add(lease)
	p.Due = j.due
	return nil
}

// FinishPurge implements Installs.FinishPurge.
func (m *MemoryInstalls) FinishPurge(ctx context.Context, p match.Purge) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	j, ok := m.jobs[p.ID]
	if !ok || !j.due.Equal(p.Due) {
		return ErrLeaseLost
	}
	delete(m.jobs, p.ID)
	return nil
}

// Purge implements Installs.Purge: the whole purge is one step in memory.
func (m *MemoryInstalls) Purge(ctx context.Context, p match.Purge, batch int, progress func(ctx context.Context) error) error {
	if err := checkID("purge", p.ID); err != nil {
		return err
	}
	if m.data == nil {
		return errNoData
	}
	m.mu.Lock()
	if inst, ok := m.insts[p.ID]; ok && inst.Installed.After(p.At) {
		m.mu.Unlock()
		return nil
	}
	teams := []string{p.ID}
	if p.ID[0] == 'E' {
		teams = slices.Clone(m.teams[p.ID])
	}
	m.mu.Unlock()
	for _, t := range teams {
		m.data.purgeWorkspace("slack", t)
		m.mu.Lock()
		for k := range m.home {
			if len(k) > len(t) && k[:len(t)+1] == t+"/" {
				delete(m.home, k)
			}
		}
		for k := range m.recent {
			if len(k) > len(t) && k[:len(t)+1] == t+"/" {
				delete(m.recent, k)
			}
		}
		delete(m.orgs, t)
		m.mu.Unlock()
		if err := progress(ctx); err != nil {
			return err
		}
	}
	m.mu.Lock()
	defer m.mu.Unlock()
	delete(m.insts, p.ID)
	delete(m.leases, p.ID)
	delete(m.teams, p.ID)
	return nil
}
