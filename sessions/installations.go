package sessions

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/connect4/connect4/bot/match"
)

// Installs keeps the Slack app's installations (one per workspace, or per
// Enterprise Grid organisation for an org-wide install), the single-use
// OAuth states, the App Home's small per-user state, and the purge jobs
// that delete a workspace's data after an uninstall, on Redis. It is made
// from the Redis store (NewRedisInstalls) so that a purge knows the
// store's keys. It is safe for concurrent use.
//
// Keys (every script touches the keys of one hash tag):
//
//	<prefix>{slack:inst:<id>}          hash v → version, d → the installation's JSON (its tokens sealed by the adapter)
//	<prefix>{slack:inst:<id>}:renew    the renewal lease: one replica renews the tokens at a time
//	<prefix>{slack:inst:<team>}:org    the enterprise id whose org-wide install serves the team
//	<prefix>{slack:inst:<ent>}:teams   set of the teams linked to the org-wide install
//	<prefix>{slack:home:<team>}:open:<user>  the App Home's last publish (expires)
//	<prefix>{slack:home:<team>}:ch:<user>    sorted set channel → last use, ms: where the user plays
//	<prefix>{slack:oauth}:<nonce>      an OAuth state already used (expires with the state)
//	<prefix>{slack:purge}              sorted set id → when a worker may take the job, ms
//	<prefix>{slack:purge}:at           hash id → when it was uninstalled, ms
//
// Nothing of a token is in any of them in clear: the installation holds
// only what the adapter sealed.
type Installs struct {
	s *Redis
}

// NewRedisInstalls returns the installations kept beside store s, under
// its prefix.
func NewRedisInstalls(s *Redis) *Installs { return &Installs{s: s} }

func (i *Installs) key(parts ...string) string {
	k := i.s.cfg.prefix
	for _, p := range parts {
		k += p
	}
	return k
}

func (i *Installs) instKey(id string) string  { return i.key("{slack:inst:", id, "}") }
func (i *Installs) renewKey(id string) string { return i.instKey(id) + ":renew" }
func (i *Installs) orgKey(team string) string { return i.instKey(team) + ":org" }
func (i *Installs) teamsKey(e string) string  { return i.instKey(e) + ":teams" }
func (i *Installs) homeKey(team string) string {
	return i.key("{slack:home:", team, "}")
}
func (i *Installs) purgeKeys() (queue, at string) {
	q := i.key("{slack:purge}")
	return q, q + ":at"
}

// storedInstall is the stored form of an installation.
type storedInstall struct {
	ID         string    `json:"id"`
	Team       string    `json:"team,omitempty"`
	Enterprise string    `json:"ent,omitempty"`
	OrgWide    bool      `json:"org,omitempty"`
	Name       string    `json:"name,omitempty"`
	BotUserID  string    `json:"bot,omitempty"`
	URL        string    `json:"url,omitempty"`
	Sealed     []byte    `json:"sealed"`
	Expires    time.Time `json:"exp,omitzero"`
	Installed  time.Time `json:"at"`
}

func encodeInstall(inst *match.Installation) (string, error) {
	if err := inst.Validate(); err != nil {
		return "", err
	}
	b, err := json.Marshal(storedInstall{ID: inst.ID, Team: inst.Team, Enterprise: inst.Enterprise, OrgWide: inst.OrgWide,
		Name: inst.Name, BotUserID: inst.BotUserID, URL: inst.URL, Sealed: inst.Sealed,
		Expires: normTime(inst.Expires), Installed: normTime(inst.Installed)})
	return string(b), err
}

func decodeInstall(id, data string, version int64) (*match.Installation, error) {
	var st storedInstall
	if err := json.Unmarshal([]byte(data), &st); err != nil {
		return nil, fmt.Errorf("%w: installation %s: %w", match.ErrCorrupt, id, err)
	}
	inst := &match.Installation{ID: st.ID, Team: st.Team, Enterprise: st.Enterprise, OrgWide: st.OrgWide, Name: st.Name,
		BotUserID: st.BotUserID, URL: st.URL, Sealed: st.Sealed, Expires: st.Expires, Installed: st.Installed, Version: version}
	if inst.ID != id {
		return nil, fmt.Errorf("%w: installation %s holds %.70q", match.ErrCorrupt, id, inst.ID)
	}
	if err := inst.Validate(); err != nil {
		return nil, fmt.Errorf("%w: installation %s: %w", match.ErrCorrupt, id, err)
	}
	return inst, nil
}

func (i *Installs) fail(op string, err error) error {
	err = storeError(op, match.Key{}, err)
	if !errors.Is(err, context.Canceled) {
		i.s.cfg.failed(op, err)
	}
	return err
}

func checkID(op, id string) error {
	if !match.ValidInstallID(id) {
		return fmt.Errorf("sessions: %s: %w: %.70q is not a team or enterprise id", op, match.ErrInvalid, id)
	}
	return nil
}

// Installation returns the installation stored under id (a team or
// enterprise id), or match.ErrNotInstalled.
func (i *Installs) Installation(ctx context.Context, id string) (*match.Installation, error) {
	if err := checkID("installation", id); err != nil {
		return nil, err
	}
	vals, err := i.s.c.HMGet(ctx, i.instKey(id), "v", "d").Result()
	if err != nil {
		if isWrongType(err) {
			return nil, i.fail("installation", fmt.Errorf("%w: installation %s: wrong type", match.ErrCorrupt, id))
		}
		return nil, i.fail("installation", err)
	}
	v, _ := vals[0].(string)
	d, _ := vals[1].(string)
	if v == "" && d == "" {
		return nil, match.ErrNotInstalled
	}
	n, err := strconv.ParseInt(v, 10, 64)
	if err != nil || n < 1 {
		return nil, i.fail("installation", fmt.Errorf("%w: installation %s: version %.20q", match.ErrCorrupt, id, v))
	}
	inst, err := decodeInstall(id, d, n)
	if err != nil {
		return nil, i.fail("installation", err)
	}
	return inst, nil
}

// putScript stores an installation anew (an install or a reinstall) and
// drops any renewal lease. KEYS: installation, lease. ARGV: JSON.
var putScript = redis.NewScript(`
local t = redis.call('TYPE', KEYS[1]).ok
if t ~= 'none' and t ~= 'hash' then return -1 end
local v = tonumber(redis.call('HGET', KEYS[1], 'v') or '0') or 0
redis.call('HSET', KEYS[1], 'v', v + 1, 'd', ARGV[1])
redis.call('DEL', KEYS[2])
return v + 1`)

// PutInstallation stores inst under inst.ID, replacing what was there (a
// reinstall), and sets inst.Version. An invalid installation returns an
// error matching match.ErrInvalid and writes nothing.
func (i *Installs) PutInstallation(ctx context.Context, inst *match.Installation) error {
	data, err := encodeInstall(inst)
	if err != nil {
		return fmt.Errorf("sessions: put installation: %w", err)
	}
	v, err := putScript.Run(ctx, i.s.c, []string{i.instKey(inst.ID), i.renewKey(inst.ID)}, data).Int64()
	switch {
	case err != nil:
		return i.fail("put installation", err)
	case v < 0:
		return i.fail("put installation", fmt.Errorf("%w: installation %s: wrong type", match.ErrCorrupt, inst.ID))
	}
	inst.Version = v
	return nil
}

// renewInstallScript replaces an installation only if it is still at the
// version the renewal read, and ends the renewal lease. KEYS:
// installation, lease. ARGV: version read, JSON. Returns the new
// version, 0 on a mismatch, -1 when there is no installation.
var renewInstallScript = redis.NewScript(`
local t = redis.call('TYPE', KEYS[1]).ok
if t == 'none' then return -1 end
if t ~= 'hash' then return -2 end
local v = redis.call('HGET', KEYS[1], 'v')
if v ~= ARGV[1] then return 0 end
redis.call('HSET', KEYS[1], 'v', tonumber(v) + 1, 'd', ARGV[2])
redis.call('DEL', KEYS[2])
return tonumber(v) + 1`)

// RenewInstallation stores next (renewed tokens) only if the stored
// installation is still at version was, and ends the renewal lease; it
// sets next.Version. It returns match.ErrConflict when another write came
// first and match.ErrNotInstalled when the installation is gone.
func (i *Installs) RenewInstallation(ctx context.Context, next *match.Installation, was int64) error {
	data, err := encodeInstall(next)
	if err != nil {
		return fmt.Errorf("sessions: renew installation: %w", err)
	}
	v, err := renewInstallScript.Run(ctx, i.s.c, []string{i.instKey(next.ID), i.renewKey(next.ID)}, strconv.FormatInt(was, 10), data).Int64()
	switch {
	case err != nil:
		return i.fail("renew installation", err)
	case v == -1:
		return match.ErrNotInstalled
	case v == 0:
		return match.ErrConflict
	case v < 0:
		return i.fail("renew installation", fmt.Errorf("%w: installation %s: wrong type", match.ErrCorrupt, next.ID))
	}
	next.Version = v
	return nil
}

// claimRenewalScript takes the renewal lease if the installation is
// still at the version the caller read and nobody holds the lease.
// KEYS: installation, lease. ARGV: version, lease ms.
var claimRenewalScript = redis.NewScript(`
local t = redis.call('TYPE', KEYS[1]).ok
if t ~= 'hash' then return 0 end
if redis.call('HGET', KEYS[1], 'v') ~= ARGV[1] then return 0 end
if redis.call('SET', KEYS[2], '1', 'NX', 'PX', ARGV[2]) then return 1 end
return 0`)

// ClaimRenewal takes the lease to renew id's tokens for lease, and
// reports whether it got it: only while the installation is at version
// (the one the caller read: a caller that read it before another's
// renewal is refused) and nobody else holds the lease, so that across
// replicas one renews each version. RenewInstallation (or the lease's
// end) releases it.
func (i *Installs) ClaimRenewal(ctx context.Context, id string, version int64, lease time.Duration) (bool, error) {
	if err := checkID("claim renewal", id); err != nil {
		return false, err
	}
	n, err := claimRenewalScript.Run(ctx, i.s.c, []string{i.instKey(id), i.renewKey(id)}, strconv.FormatInt(version, 10), lease.Milliseconds()).Int()
	if err != nil {
		return false, i.fail("claim renewal", err)
	}
	return n == 1, nil
}

// WorkspaceOrg returns the enterprise id whose org-wide install serves
// team, "" when none is linked.
func (i *Installs) WorkspaceOrg(ctx context.Context, team string) (string, error) {
	if err := checkID("workspace org", team); err != nil {
		return "", err
	}
	e, err := i.s.c.Get(ctx, i.orgKey(team)).Result()
	if errors.Is(err, redis.Nil) {
		return "", nil
	}
	if err != nil {
		return "", i.fail("workspace org", err)
	}
	if !match.ValidInstallID(e) {
		return "", i.fail("workspace org", fmt.Errorf("%w: workspace %s links to %.70q", match.ErrCorrupt, team, e))
	}
	return e, nil
}

// LinkWorkspace records that org's org-wide install serves team: the
// organisation's list first, so that a purge of org finds every team
// linked, then the team's link.
func (i *Installs) LinkWorkspace(ctx context.Context, team, org string) error {
	if err := errors.Join(checkID("link workspace", team), checkID("link workspace", org)); err != nil {
		return err
	}
	if err := i.s.c.SAdd(ctx, i.teamsKey(org), team).Err(); err != nil {
		return i.fail("link workspace", err)
	}
	if err := i.s.c.Set(ctx, i.orgKey(team), org, 0).Err(); err != nil {
		return i.fail("link workspace", err)
	}
	return nil
}

// UseOnce records nonce (an OAuth state's) as used for ttl, and reports
// whether this was its first use: atomic, so that of two replicas given
// the same state only one accepts it.
func (i *Installs) UseOnce(ctx context.Context, nonce string, ttl time.Duration) (bool, error) {
	if nonce == "" || len(nonce) > 128 || ttl <= 0 {
		return false, fmt.Errorf("sessions: use once: %w: bad nonce or ttl", match.ErrInvalid)
	}
	ok, err := i.s.c.SetNX(ctx, i.key("{slack:oauth}:", nonce), "1", ttl).Result()
	if err != nil {
		return false, i.fail("use once", err)
	}
	return ok, nil
}

// HomeOpened reports whether user's App Home in team may be published
// now: true at most once per every, across replicas.
func (i *Installs) HomeOpened(ctx context.Context, team, user string, every time.Duration) (bool, error) {
	if err := checkID("home opened", team); err != nil || !validUser(user) {
		return false, errors.Join(err, fmt.Errorf("sessions: home opened: %w: user %.40q", match.ErrInvalid, user))
	}
	ok, err := i.s.c.SetNX(ctx, i.homeKey(team)+":open:"+user, "1", every).Result()
	if err != nil {
		return false, i.fail("home opened", err)
	}
	return ok, nil
}

// Where a user plays: the most recent channels, kept for the App Home.
const (
	// MaxRecentChannels is how many channels per user are kept.
	MaxRecentChannels = 10
	recentTTL         = 400 * 24 * time.Hour
)

func validUser(u string) bool { return u != "" && len(u) <= maxInstallPart && plainID(u) }

const maxInstallPart = 64

func plainID(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; (c < 'A' || c > 'Z') && (c < 'a' || c > 'z') && (c < '0' || c > '9') && c != '_' && c != '-' {
			return false
		}
	}
	return true
}

// recentScript records a channel as used now and keeps the newest ones.
// KEYS: the user's channels. ARGV: channel, now ms, max, ttl ms.
var recentScript = redis.NewScript(`
local t = redis.call('TYPE', KEYS[1]).ok
if t ~= 'none' and t ~= 'zset' then return -1 end
redis.call('ZADD', KEYS[1], ARGV[2], ARGV[1])
redis.call('ZREMRANGEBYRANK', KEYS[1], 0, -tonumber(ARGV[3]) - 1)
redis.call('PEXPIRE', KEYS[1], ARGV[4])
return 1`)

// SeenChannel records that user played in channel of team now.
func (i *Installs) SeenChannel(ctx context.Context, team, user, channel string) error {
	if err := checkID("seen channel", team); err != nil {
		return err
	}
	if !validUser(user) || !validUser(channel) {
		return fmt.Errorf("sessions: seen channel: %w: user or channel", match.ErrInvalid)
	}
	n, err := recentScript.Run(ctx, i.s.c, []string{i.homeKey(team) + ":ch:" + user}, channel,
		i.s.cfg.now().UnixMilli(), MaxRecentChannels, recentTTL.Milliseconds()).Int()
	if err != nil {
		return i.fail("seen channel", err)
	}
	if n != 1 {
		return i.fail("seen channel", fmt.Errorf("%w: channels of %s: wrong type", match.ErrCorrupt, user))
	}
	return nil
}

// RecentChannels returns the channels of team where user played lately,
// newest first (at most MaxRecentChannels).
func (i *Installs) RecentChannels(ctx context.Context, team, user string) ([]string, error) {
	if err := checkID("recent channels", team); err != nil {
		return nil, err
	}
	if !validUser(user) {
		return nil, fmt.Errorf("sessions: recent channels: %w: user", match.ErrInvalid)
	}
	chs, err := i.s.c.ZRevRange(ctx, i.homeKey(team)+":ch:"+user, 0, MaxRecentChannels-1).Result()
	if err != nil {
		return nil, i.fail("recent channels", err)
	}
	out := chs[:0]
	for _, c := range chs {
		if validUser(c) {
			out = append(out, c)
		}
	}
	return out, nil
}

// uninstallScript queues the purge of an installation: due at the given
// time unless already queued (a repeated event, or a job under way keeps
// its lease), and remembers the latest uninstall time. KEYS: queue,
// times. ARGV: id, uninstall ms, due ms.
var uninstallScript = redis.NewScript(`
redis.call('ZADD', KEYS[1], 'NX', ARGV[3], ARGV[1])
redis.call('HSET', KEYS[2], ARGV[1], ARGV[2])
return 1`)

// Uninstall removes the installation id, uninstalled at at, and queues
// the purge of all its data (see Purge) as a job that survives restarts,
// due after delay (so that replicas which still have the installation in
// memory have let go of it): queued first, so that a crash after it
// still purges. Repeating it (Slack sends app_uninstalled and
// tokens_revoked, and retries) changes nothing more.
func (i *Installs) Uninstall(ctx context.Context, id string, at time.Time, delay time.Duration) error {
	if err := checkID("uninstall", id); err != nil {
		return err
	}
	q, times := i.purgeKeys()
	at = normTime(at)
	if err := uninstallScript.Run(ctx, i.s.c, []string{q, times}, id, at.UnixMilli(), at.Add(delay).UnixMilli()).Err(); err != nil {
		return i.fail("uninstall", err)
	}
	if err := i.s.c.Del(ctx, i.instKey(id)).Err(); err != nil {
		return i.fail("uninstall", err)
	}
	return nil
}

// claimPurgeScript takes the first job due and leases it. KEYS: queue,
// times. ARGV: now ms, lease end ms. Returns {id, at, lease end} or {}.
var claimPurgeScript = redis.NewScript(`
local due = redis.call('ZRANGEBYSCORE', KEYS[1], '-inf', ARGV[1], 'LIMIT', 0, 1)
if #due == 0 then return {} end
redis.call('ZADD', KEYS[1], ARGV[2], due[1])
return {due[1], redis.call('HGET', KEYS[2], due[1]) or '0', ARGV[2]}`)

// ClaimPurge takes the first purge job due, leased for lease: no other
// worker takes it until the lease ends (a worker that dies leaves it to
// the next one). ok is false when no job is due.
func (i *Installs) ClaimPurge(ctx context.Context, lease time.Duration) (match.Purge, bool, error) {
	q, times := i.purgeKeys()
	now := i.s.cfg.now()
	res, err := claimPurgeScript.Run(ctx, i.s.c, []string{q, times}, now.UnixMilli(), now.Add(lease).UnixMilli()).StringSlice()
	if err != nil || len(res) == 0 {
		if err != nil {
			err = i.fail("claim purge", err)
		}
		return match.Purge{}, false, err
	}
	at, _ := strconv.ParseInt(res[1], 10, 64)
	due, _ := strconv.ParseInt(res[2], 10, 64)
	if !match.ValidInstallID(res[0]) {
		// Not one of ours: drop it rather than claim it for ever.
		i.s.c.ZRem(ctx, q, res[0])
		return match.Purge{}, false, i.fail("claim purge", fmt.Errorf("%w: purge job %.70q", match.ErrCorrupt, res[0]))
	}
	return match.Purge{ID: res[0], At: time.UnixMilli(at).UTC(), Due: time.UnixMilli(due).UTC()}, true, nil
}

// leaseScript extends or ends a job's lease if it is still the worker's.
// KEYS: queue, times. ARGV: id, lease end ms held, new lease end ms ("" to
// finish). Returns 1, or 0 when the lease was lost.
var leaseScript = redis.NewScript(`
local s = redis.call('ZSCORE', KEYS[1], ARGV[1])
if not s or tonumber(s) ~= tonumber(ARGV[2]) then return 0 end
if ARGV[3] == '' then
  redis.call('ZREM', KEYS[1], ARGV[1])
  redis.call('HDEL', KEYS[2], ARGV[1])
else
  redis.call('ZADD', KEYS[1], ARGV[3], ARGV[1])
end
return 1`)

// ErrLeaseLost is returned by RenewPurge and FinishPurge when the job's
// lease ended and another worker may have it.
var ErrLeaseLost = errors.New("sessions: the purge job's lease was lost")

// RenewPurge extends p's lease by lease from now and updates p.Due.
func (i *Installs) RenewPurge(ctx context.Context, p *match.Purge, lease time.Duration) error {
	due := i.s.cfg.now().Add(lease)
	if err := i.lease(ctx, "renew purge", p, strconv.FormatInt(due.UnixMilli(), 10)); err != nil {
		return err
	}
	p.Due = time.UnixMilli(due.UnixMilli()).UTC()
	return nil
}

// FinishPurge removes the job p, done.
func (i *Installs) FinishPurge(ctx context.Context, p match.Purge) error {
	return i.lease(ctx, "finish purge", &p, "")
}

func (i *Installs) lease(ctx context.Context, op string, p *match.Purge, next string) error {
	q, times := i.purgeKeys()
	n, err := leaseScript.Run(ctx, i.s.c, []string{q, times}, p.ID, p.Due.UnixMilli(), next).Int()
	if err != nil {
		return i.fail(op, err)
	}
	if n != 1 {
		return ErrLeaseLost
	}
	return nil
}
