package slack

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"time"

	slackapi "github.com/slack-go/slack"

	"github.com/connect4/connect4/bot"
	"github.com/connect4/connect4/bot/internal/seal"
	"github.com/connect4/connect4/bot/match"
)

// Many workspaces: with OAuth.ClientID set, the adapter serves every
// workspace that installed the app through "Add to Slack" (install.go),
// each with its own bot token, kept sealed in the store (Installs). A
// request or timed event names its workspace; the adapter finds the
// installation once (cached for a bounded time), and every Web API call
// made for that request carries that installation's token: the context
// of the request holds the workspace, and the adapter's Web API clients
// (tenantAPI) take the token from it. A call without a workspace in its
// context fails, so that no call ever goes out with another workspace's
// token. Without OAuth.ClientID nothing here runs, and the single
// SLACK_BOT_TOKEN serves as before.

// Installs is what the adapter needs of the store of installations
// (sessions.Installs on Redis, sessions.MemoryInstalls in memory): see
// those for the semantics. It must be safe for concurrent use.
type Installs interface {
	installations
	homeStore
	purgeStore
}

// installations keeps the workspaces' installations, their renewals and
// the install's single-use states.
type installations interface {
	Installation(ctx context.Context, id string) (*match.Installation, error)
	PutInstallation(ctx context.Context, inst *match.Installation) error
	RenewInstallation(ctx context.Context, next *match.Installation, was int64) error
	ClaimRenewal(ctx context.Context, id string, version int64, lease time.Duration) (bool, error)
	WorkspaceOrg(ctx context.Context, team string) (string, error)
	LinkWorkspace(ctx context.Context, team, org string) error
	UseOnce(ctx context.Context, nonce string, ttl time.Duration) (bool, error)
}

// homeStore keeps the App Home's small state: where each user plays, and
// when their Home tab was last published.
type homeStore interface {
	HomeOpened(ctx context.Context, team, user string, every time.Duration) (bool, error)
	SeenChannel(ctx context.Context, team, user, channel string) error
	RecentChannels(ctx context.Context, team, user string) ([]string, error)
}

// purgeStore removes installations and runs the purge jobs of their data.
type purgeStore interface {
	Uninstall(ctx context.Context, id string, at time.Time, delay time.Duration) error
	ClaimPurge(ctx context.Context, lease time.Duration) (match.Purge, bool, error)
	RenewPurge(ctx context.Context, p *match.Purge, lease time.Duration) error
	FinishPurge(ctx context.Context, p match.Purge) error
	Purge(ctx context.Context, p match.Purge, batch int, progress func(ctx context.Context) error) error
}

// OAuth configures serving many workspaces (Config.OAuth).
type OAuth struct {
	// ClientID (SLACK_CLIENT_ID) and ClientSecret (SLACK_CLIENT_SECRET)
	// are the app's OAuth credentials: with ClientID set the adapter
	// mounts GET /slack/install and GET /slack/oauth/callback and serves
	// every workspace that installed it. It excludes SLACK_BOT_TOKEN and
	// Socket Mode.
	ClientID, ClientSecret string
	// SecretKey (CONNECT4_SECRET_KEY) is one base64 key of 32 bytes, or
	// two separated by a comma during a rotation (new writes use the
	// first, reads try both): tokens are sealed with it (AES-256-GCM) and
	// OAuth states signed.
	SecretKey string
	// Store keeps the installations, the App Home's state and the purge
	// jobs. It is used without ClientID too (the App Home of the single
	// workspace); nil turns the App Home's channel list off.
	Store Installs
}

// Limits of the many-workspace mode.
const (
	// workspaceTTL is how long a looked-up installation is used without
	// reading it again: another replica's uninstall or renewal is seen
	// within it.
	workspaceTTL = time.Minute
	// maxWorkspaces bounds the cache of installations.
	maxWorkspaces = 10000
	// renewBefore is how long before its expiry an access token is
	// renewed (Slack's last 12 hours).
	renewBefore = 30 * time.Minute
	// renewLease is how long one replica holds the right to renew.
	renewLease = 30 * time.Second
	// renewWait is how long a request waits for another replica's
	// renewal of an expired token.
	renewWait = 1500 * time.Millisecond
	// purgeDelay is how long after an uninstall its purge begins: every
	// replica has let go of the installation by then (workspaceTTL), so
	// that none writes after the purge.
	purgeDelay = 2 * workspaceTTL
	// seenEvery is how often a user's use of a channel is written for the
	// App Home.
	seenEvery = 10 * time.Minute
)

// errNoWorkspace is the error of a Web API call made without a workspace
// in its context in the many-workspace mode: a bug, refused rather than
// sent with a token that may be another workspace's.
var errNoWorkspace = fmt.Errorf("%w: slack: no workspace for this call", bot.ErrUndeliverable)

// errRenewing is returned while another replica renews an expired token.
var errRenewing = errors.New("slack: the workspace's token is being renewed")

// workspace is one installation, opened: its client carries its token.
type workspace struct {
	inst    *match.Installation
	client  *slackapi.Client
	self    match.Player
	expires time.Time // when the cache entry ends
}

// tokens are what an installation's Sealed holds.
type tokens struct {
	Access  string `json:"a"`
	Refresh string `json:"r,omitempty"`
}

// workspaces is the adapter's many-workspace state. It is safe for
// concurrent use.
type workspaces struct {
	oauth OAuth
	keys  *seal.Keys
	now   func() time.Time
	// purgeDelay is purgeDelay; tests set 0.
	purgeDelay time.Duration

	mu    sync.Mutex
	cache map[string]*workspace // by team id (and enterprise id)
	seen  map[string]time.Time  // team/user/channel → next write of SeenChannel
}

// checkOAuth returns what is wrong with the many-workspace settings of cfg.
func checkOAuth(cfg Config) []error {
	o := cfg.OAuth
	if o.ClientID == "" {
		if o.ClientSecret != "" {
			return []error{errors.New("slack: SLACK_CLIENT_SECRET is set without SLACK_CLIENT_ID")}
		}
		return nil
	}
	var errs []error
	if o.ClientSecret == "" {
		errs = append(errs, errors.New("slack: SLACK_CLIENT_SECRET is required with SLACK_CLIENT_ID"))
	}
	if msg := CheckSecretKey(o.SecretKey); msg != "" {
		errs = append(errs, errors.New("slack: CONNECT4_SECRET_KEY: "+msg))
	}
	if cfg.SigningSecret == "" {
		errs = append(errs, errors.New("slack: SLACK_SIGNING_SECRET is required with SLACK_CLIENT_ID (the events and commands of every workspace are signed with it)"))
	}
	if cfg.BotToken != "" || cfg.AppToken != "" {
		errs = append(errs, errors.New("slack: SLACK_CLIENT_ID (every workspace, installed with OAuth) excludes SLACK_BOT_TOKEN and SLACK_APP_TOKEN (one workspace): set one or the other"))
	}
	if o.Store == nil {
		errs = append(errs, errors.New("slack: no store for the installations"))
	}
	return errs
}

// CheckSecretKey returns what is wrong with a CONNECT4_SECRET_KEY value,
// "" when it is one or two base64 keys of 32 bytes. The message never
// contains the key.
func CheckSecretKey(s string) string {
	if _, err := seal.Parse(s); err != nil {
		return strings.TrimPrefix(err.Error(), "seal: ") + " (want 32 random bytes in base64, e.g. from `openssl rand -base64 32`; two, comma-separated, during a rotation)"
	}
	return ""
}

// useWorkspaces turns the many-workspace mode on: every Web API client of
// the adapter takes its token from the request's workspace.
func (a *Adapter) useWorkspaces() error {
	keys, err := seal.Parse(a.cfg.OAuth.SecretKey)
	if err != nil {
		return fmt.Errorf("slack: CONNECT4_SECRET_KEY: %w", err)
	}
	a.ws = &workspaces{oauth: a.cfg.OAuth, keys: keys, now: time.Now, purgeDelay: purgeDelay, cache: map[string]*workspace{}, seen: map[string]time.Time{}}
	t := tenantAPI{}
	a.api, a.chat = t, t
	if a.cfg.Pictures {
		a.pics.poster = t
		if a.pics.signer == nil {
			a.pics.files = t
		}
	}
	return nil
}

type workspaceKey struct{}

// withWorkspace returns ctx carrying w: the Web API calls made with it
// carry w's token.
func withWorkspace(ctx context.Context, w *workspace) context.Context {
	return context.WithValue(ctx, workspaceKey{}, w)
}

// workspaceOf returns the workspace ctx carries, or nil.
func workspaceOf(ctx context.Context) *workspace {
	w, _ := ctx.Value(workspaceKey{}).(*workspace)
	return w
}

// carry returns ctx carrying the workspace from, if any: for background
// work started by a request.
func carry(ctx, from context.Context) context.Context {
	if w := workspaceOf(from); w != nil {
		return withWorkspace(ctx, w)
	}
	return ctx
}

// goFrom runs f as background work (a.work) with the workspace of the
// request ctx, and reports whether it started.
func (a *Adapter) goFrom(ctx context.Context, f func(ctx context.Context)) bool {
	return a.work.Go(func(wctx context.Context) { f(carry(wctx, ctx)) })
}

// inWorkspace returns ctx carrying the workspace of channel k (its team,
// or the organisation of enterprise for an org-wide install), and records
// that user plays in k's channel (for the App Home). In the
// single-workspace mode it returns ctx as it is. The error wraps
// match.ErrNotInstalled for a workspace without an installation.
func (a *Adapter) inWorkspace(ctx context.Context, k match.Key, enterprise, user string) (context.Context, error) {
	if user != "" {
		a.seenChannel(ctx, k, user)
	}
	if a.ws == nil {
		return ctx, nil
	}
	w, err := a.workspace(ctx, k.Workspace, enterprise)
	if err != nil {
		return ctx, err
	}
	return withWorkspace(ctx, w), nil
}

// workspace returns the opened installation serving team: the team's
// own, or that of an organisation installed org-wide (enterprise, or the
// one the team was linked to by an earlier request).
func (a *Adapter) workspace(ctx context.Context, team, enterprise string) (*workspace, error) {
	ws := a.ws
	if !match.ValidInstallID(team) {
		return nil, fmt.Errorf("slack: team %.40q: %w", team, match.ErrNotInstalled)
	}
	if w := ws.cached(team); w != nil {
		return w, nil
	}
	store := ws.oauth.Store
	inst, err := store.Installation(ctx, team)
	if errors.Is(err, match.ErrNotInstalled) {
		org := enterprise
		if !match.ValidInstallID(org) {
			if org, err = store.WorkspaceOrg(ctx, team); err != nil {
				return nil, err
			}
		}
		err = match.ErrNotInstalled
		if org != "" {
			inst, err = store.Installation(ctx, org)
			if err == nil && !inst.OrgWide {
				err = match.ErrNotInstalled
			}
			if err == nil && enterprise == org {
				if lerr := store.LinkWorkspace(ctx, team, org); lerr != nil {
					a.log.Warn("slack: linking a workspace to its organisation's install failed", "team", team, "enterprise", org, "err", lerr)
				}
			}
		}
	}
	if err != nil {
		return nil, err
	}
	w, err := a.open(ctx, inst)
	if err != nil {
		return nil, err
	}
	ws.put(team, w)
	return w, nil
}

func (ws *workspaces) cached(team string) *workspace {
	ws.mu.Lock()
	defer ws.mu.Unlock()
	w, ok := ws.cache[team]
	if !ok || !ws.now().Before(w.expires) {
		return nil
	}
	return w
}

func (ws *workspaces) put(team string, w *workspace) {
	ws.mu.Lock()
	defer ws.mu.Unlock()
	if len(ws.cache) >= maxWorkspaces {
		now := ws.now()
		for k, e := range ws.cache {
			if !now.Before(e.expires) || len(ws.cache) >= maxWorkspaces {
				delete(ws.cache, k)
			}
		}
	}
	ws.cache[team] = w
}

// forget drops every cached workspace served by installation id.
func (ws *workspaces) forget(id string) {
	ws.mu.Lock()
	defer ws.mu.Unlock()
	for k, w := range ws.cache {
		if w.inst.ID == id || k == id {
			delete(ws.cache, k)
		}
	}
}

// sealContext binds an installation's sealed tokens to it.
func sealContext(id string) []byte { return []byte("slack installation " + id) }

// sealTokens seals t for installation id.
func (ws *workspaces) sealTokens(id string, t tokens) []byte {
	b, _ := json.Marshal(t) // strings: never fails
	return ws.keys.Seal(b, sealContext(id))
}

// openTokens opens the tokens of inst.
func (ws *workspaces) openTokens(inst *match.Installation) (tokens, error) {
	var t tokens
	b, err := ws.keys.Open(inst.Sealed, sealContext(inst.ID))
	if err != nil {
		return t, fmt.Errorf("slack: installation %s: %w (was CONNECT4_SECRET_KEY changed without keeping the old key?)", inst.ID, err)
	}
	if err := json.Unmarshal(b, &t); err != nil || t.Access == "" {
		return t, fmt.Errorf("slack: installation %s: the sealed tokens do not parse", inst.ID)
	}
	return t, nil
}

// open unseals inst's tokens, renews them when they are about to expire,
// and returns the workspace with a client for its token.
func (a *Adapter) open(ctx context.Context, inst *match.Installation) (*workspace, error) {
	ws := a.ws
	t, err := ws.openTokens(inst)
	if err != nil {
		return nil, err
	}
	now := ws.now()
	if !inst.Expires.IsZero() && t.Refresh != "" && now.After(inst.Expires.Add(-renewBefore)) {
		ninst, nt, err := a.renew(ctx, inst, t)
		switch {
		case err == nil:
			inst, t = ninst, nt
		case errors.Is(err, errRenewing) && now.Before(inst.Expires):
		case now.Before(inst.Expires):
			a.log.Warn("slack: renewing a workspace's token failed; using it until it expires", "installation", inst.ID, "err", err)
		default:
			return nil, err
		}
	}
	expires := now.Add(workspaceTTL)
	if !inst.Expires.IsZero() {
		if e := inst.Expires.Add(-renewBefore); e.Before(expires) {
			expires = e
		}
	}
	return &workspace{inst: inst, client: a.clientFor(t.Access), expires: expires,
		self: match.Player{ID: inst.BotUserID}}, nil
}

// clientFor returns a Web API client for token.
func (a *Adapter) clientFor(token string) *slackapi.Client {
	return slackapi.New(token, slackapi.OptionAPIURL(a.apiURL), slackapi.OptionHTTPClient(a.httpc))
}

// renew renews inst's access token with its refresh token: one replica at
// a time (a lease in the store); the others use the token they have while
// it lasts (errRenewing), or, once it has expired, wait a moment for the
// renewal. It returns the renewed installation and tokens.
func (a *Adapter) renew(ctx context.Context, inst *match.Installation, t tokens) (*match.Installation, tokens, error) {
	ws, store := a.ws, a.ws.oauth.Store
	ok, err := store.ClaimRenewal(ctx, inst.ID, inst.Version, renewLease)
	if err != nil {
		return nil, t, err
	}
	if !ok {
		if ws.now().Before(inst.Expires) {
			return nil, t, errRenewing // another replica renews; this token still serves
		}
		deadline := time.NewTimer(renewWait)
		defer deadline.Stop()
		tick := time.NewTicker(renewWait / 10)
		defer tick.Stop()
		for {
			select {
			case <-ctx.Done():
				return nil, t, ctx.Err()
			case <-deadline.C:
				return nil, t, errRenewing
			case <-tick.C:
			}
			cur, err := store.Installation(ctx, inst.ID)
			if err != nil {
				return nil, t, err
			}
			if cur.Version != inst.Version {
				nt, err := ws.openTokens(cur)
				return cur, nt, err
			}
		}
	}
	resp, err := slackapi.RefreshOAuthV2TokenContext(ctx, a.httpc, ws.oauth.ClientID, ws.oauth.ClientSecret, t.Refresh,
		slackapi.OAuthOptionAPIURL(a.apiURL))
	if err != nil {
		return nil, t, fmt.Errorf("slack: renew the token of %s: %w", inst.ID, quiet(err))
	}
	if resp.AccessToken == "" {
		return nil, t, fmt.Errorf("slack: renew the token of %s: no access token in the answer", inst.ID)
	}
	nt := tokens{Access: resp.AccessToken, Refresh: resp.RefreshToken}
	if nt.Refresh == "" {
		nt.Refresh = t.Refresh
	}
	next := *inst
	next.Sealed = ws.sealTokens(inst.ID, nt)
	next.Expires = time.Time{}
	if resp.ExpiresIn > 0 {
		next.Expires = ws.now().Add(time.Duration(resp.ExpiresIn) * time.Second)
	}
	if err := store.RenewInstallation(ctx, &next, inst.Version); err != nil {
		return nil, t, fmt.Errorf("slack: store the renewed token of %s: %w", inst.ID, err)
	}
	a.log.Info("slack: renewed a workspace's token", "installation", inst.ID)
	return &next, nt, nil
}

// seenChannel records, at most once per seenEvery per replica, that user
// plays in k's channel, for the App Home. Failures are logged.
func (a *Adapter) seenChannel(ctx context.Context, k match.Key, user string) {
	store := a.cfg.OAuth.Store
	if store == nil || !match.ValidInstallID(k.Workspace) {
		return
	}
	if !a.homes.due(&a.homes.seen, k.Workspace+"/"+user+"/"+k.Channel, seenEvery) {
		return
	}
	if err := store.SeenChannel(ctx, k.Workspace, user, k.Channel); err != nil {
		a.log.Warn("slack: recording a channel for the App Home failed", "err", err)
	}
}

// forKey returns ctx carrying the workspace of channel k, for the
// schedule's edits and posts: a workspace without an installation makes
// the notice undeliverable; a store that fails is retried.
func (a *Adapter) forKey(ctx context.Context, k match.Key) (context.Context, error) {
	ctx, err := a.inWorkspace(ctx, k, "", "")
	if errors.Is(err, match.ErrNotInstalled) {
		return ctx, fmt.Errorf("%w: slack: %w", bot.ErrUndeliverable, err)
	}
	return ctx, err
}
