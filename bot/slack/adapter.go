package slack

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"runtime"
	"strings"
	"sync"
	"time"

	"github.com/connect4/connect4/bot/match"

	slackapi "github.com/slack-go/slack"

	"github.com/connect4/connect4/bot"
	"github.com/connect4/connect4/bot/internal/bg"
	"github.com/connect4/connect4/bot/internal/boardurl"
	"github.com/connect4/connect4/bot/internal/bodies"
	"github.com/connect4/connect4/bot/internal/gallery"
	"github.com/connect4/connect4/bot/internal/inbound"
	"github.com/connect4/connect4/bot/internal/link"
	"github.com/connect4/connect4/render"
)

// Platform is the match.Key platform of Slack channels.
const Platform = "slack"

// DefaultTimeout bounds running the command of one click in the
// background, so that its answer (the reply, or the store's "try again"
// sentence) reaches the response_url within Slack's 3 seconds even when the
// store hangs.
const DefaultTimeout = 2500 * time.Millisecond

// MaxBody is the largest request body accepted, in bytes; larger ones get
// 413. Slack's payloads are a few KiB.
const MaxBody = bodies.Max

// DefaultMaxBodies is how many request bodies are read at once by default.
const DefaultMaxBodies = bodies.DefaultSlots

// Deadlines inside Slack's 3-second acknowledgement window.
const (
	// commandBudget bounds a slash command, Web API look-ups included, so the
	// answer leaves before Slack gives up at 3 s.
	commandBudget = 2500 * time.Millisecond
	// lookupBudget bounds one Web API look-up (auth.test, users.info).
	lookupBudget = time.Second
	// selfRetry is how long to wait before asking auth.test again after it
	// failed.
	selfRetry = time.Minute
	// postBudget bounds one response_url post, in a context of its own so
	// that a command that used up its time can still say so.
	postBudget = 2 * time.Second
	// clientTimeout is the timeout of the default HTTP client; every call
	// also has a shorter context deadline.
	clientTimeout = 10 * time.Second
)

// Config configures an Adapter. Only the cmd package reads the environment;
// the errors of New name the variable each field comes from.
type Config struct {
	// SigningSecret (SLACK_SIGNING_SECRET) verifies HTTP requests; without it
	// Register mounts nothing.
	SigningSecret string
	// BotToken (SLACK_BOT_TOKEN, xoxb-…) is used for auth.test (this bot's
	// own user) and users.info (is a challenged user a bot?). Optional for
	// HTTP, required for Socket Mode.
	BotToken string
	// AppToken (SLACK_APP_TOKEN, xapp-…) enables RunSocketMode.
	AppToken string
	// APIURL (SLACK_API_URL) is the Web API base URL; "" means Slack's.
	APIURL string
	// HTTPClient makes every outgoing call (Web API, response_url); nil
	// means a client of the adapter's own, with a 10 s timeout.
	HTTPClient *http.Client
	// Timeout bounds running the command of one click in the background
	// (the response_url post then gets 2 s of its own); 0 means
	// DefaultTimeout.
	Timeout time.Duration
	// MaxBodies is how many request bodies are read at once; beyond it a
	// request is answered 503 with Retry-After: 1 before its body is read.
	// At most half of them may be large (over 32 KiB declared, or of
	// unknown length), so that stalled large uploads cannot crowd out real
	// interactions, which are a few KiB. The last eighth of them goes only
	// to remote addresses holding fewer than an eighth, and a body must
	// arrive within a second plus one per 16 KiB declared (else 408), so
	// that slow senders cannot hold the slots signed requests need.
	// 0 means DefaultMaxBodies.
	MaxBodies int
	// Observe, when set, is called once per request with the command kind
	// (bot.Kind.String(), or "unknown"), the outcome ("ok", "refused",
	// "error", "unauthorized", "bad_request", "too_large") and the time from
	// arrival to the last reply. It must be safe for concurrent use.
	Observe func(kind, outcome string, elapsed time.Duration)
	// PostReplies, with a BotToken, posts a slash command's public reply
	// with chat.postMessage (scope chat:write) instead of in the response,
	// so that its ts is known and the bot can edit it on time (an expired
	// challenge); where the post fails (the bot is not in the channel) the
	// reply goes in the response as without it.
	PostReplies bool
	// ReconnectMax is the longest wait between two Socket Mode connection
	// attempts (the waits start at 500 ms and double, with full jitter); 0
	// means one minute.
	ReconnectMax time.Duration
	// Pictures shows boards as pictures (an image block) in channels that
	// have not chosen emoji, uploaded with the bot token (scope
	// files:write) unless PublicURL is set, and posts the replay GIF in
	// the game's thread when a game ends. cmd/connect4 serve turns it on.
	Pictures bool
	// PublicURL (CONNECT4_PUBLIC_URL) is the public http(s) base URL of
	// this server: with Pictures, boards are pictures the bot serves itself
	// at GET /boards/<token>.png, signed with a key derived from the
	// signing secret (or, without one, the bot token) so that every
	// replica accepts them, and expiring after ImageTTL.
	PublicURL string
	// ImageTTL is how long a signed picture URL is served; 0 means
	// DefaultImageTTL.
	ImageTTL time.Duration
	// Painter draws the pictures; nil means one of the adapter's own.
	// cmd/connect4 serve gives both adapters the same one, so that the
	// canvases and bands it keeps are drawn once, within one budget.
	Painter *render.Painter
	// OAuth, with its ClientID, serves every workspace that installs the
	// app with OAuth instead of the one of BotToken (see workspaces.go).
	OAuth OAuth
	// Previews, with a SigningSecret and a BotToken, answers Slack's
	// link_shared events for links to the web pages (POST /slack/events)
	// with chat.unfurl; nil turns unfurls off.
	Previews bot.PagePreviewer
}

// webAPI is the part of the Slack Web API client the adapter calls.
type webAPI interface {
	AuthTestContext(ctx context.Context) (*slackapi.AuthTestResponse, error)
	GetUserInfoContext(ctx context.Context, user string, options ...slackapi.GetUserInfoOption) (*slackapi.User, error)
}

var _ webAPI = (*slackapi.Client)(nil)

// Adapter serves Slack requests for a bot.Service. It is safe for
// concurrent use. Button clicks are answered at once and finished in the
// background; Close waits for that work at shutdown.
type Adapter struct {
	svc   *bot.Service
	cfg   Config
	log   *slog.Logger // with platform=slack
	httpc *http.Client
	// ownHTTP is set when httpc is the adapter's own (Config.HTTPClient
	// nil): Close closes its idle connections.
	ownHTTP bool
	api     webAPI  // nil without a bot token
	chat    chatAPI // nil without a bot token
	apiURL  string
	timeout time.Duration
	work    *bg.Work
	bodies  *bodies.Slots
	rec     inbound.Recorder
	socket  *link.Tracker // the Socket Mode connection, for Connection
	keeper  *link.Keeper  // reconnects Socket Mode

	pics      pictures
	bots      *botCache     // users.info answers about bots
	locales   *locales      // users.info answers about locales
	names     *channelNames // who typed /connect4 in each channel, for suggestions
	selfMu    sync.Mutex
	self      match.Player
	home      string        // the workspace the bot token belongs to, from auth.test; see homeKey
	selfRetry time.Time     // no auth.test before this time after a failure
	selfCall  chan struct{} // non-nil while auth.test runs; closed when it is done

	ws    *workspaces // the many-workspace mode (OAuth); nil with one BotToken
	homes homeState   // the App Home's per-replica state
}

// New returns an Adapter for svc. It checks cfg and returns every problem
// at once (errors.Join), each naming its environment variable; it makes no
// network calls. log nil means slog.Default().
func New(svc *bot.Service, cfg Config, log *slog.Logger) (*Adapter, error) {
	apiURL, publicURL, err := checkConfig(svc, cfg)
	if err != nil {
		return nil, err
	}
	if log == nil {
		log = slog.Default()
	}
	cfg.MaxBodies = cmp.Or(cfg.MaxBodies, DefaultMaxBodies)
	log = log.With("platform", Platform)
	socket := link.NewTracker()
	a := &Adapter{svc: svc, cfg: cfg, log: log, httpc: cfg.HTTPClient, apiURL: apiURL,
		timeout: cmp.Or(cfg.Timeout, DefaultTimeout), work: bg.New(), bodies: bodies.NewSlots(cfg.MaxBodies),
		rec:    inbound.Recorder{Log: log, Observe: cfg.Observe, Message: "slack request"},
		socket: socket, bots: newBotCache(), locales: newLocales(), names: newChannelNames(),
		keeper: &link.Keeper{Tracker: socket, Backoff: link.Backoff{Max: cfg.ReconnectMax}, Log: log,
			Name: "slack socket mode", Token: "slack: SLACK_APP_TOKEN", Refusal: refusal}}
	if a.httpc == nil {
		// A transport of its own, not http.DefaultTransport: anything in
		// the process may close that one's idle connections (httptest's
		// servers do when they close), and a POST that had just taken
		// one fails with "CloseIdleConnections called", never retried.
		a.httpc = &http.Client{Timeout: clientTimeout, Transport: http.DefaultTransport}
		if t, ok := http.DefaultTransport.(*http.Transport); ok { // replaced by the program: use it
			a.httpc.Transport = t.Clone()
		}
		a.ownHTTP = true
	}
	var c *slackapi.Client
	if cfg.BotToken != "" {
		c = a.client()
		a.api, a.chat = c, c
	}
	a.pics.init(cfg, c, publicURL)
	if cfg.OAuth.ClientID != "" {
		if err := a.useWorkspaces(); err != nil {
			return nil, err
		}
	}
	return a, nil
}

// checkConfig returns the Web API base URL and the public base URL of cfg,
// or every problem with cfg at once.
func checkConfig(svc *bot.Service, cfg Config) (apiURL, publicURL string, err error) {
	var errs []error
	if svc == nil {
		errs = append(errs, errors.New("slack: no bot service"))
	}
	errs = append(errs, checkTokens(cfg)...)
	errs = append(errs, checkOAuth(cfg)...)
	apiURL = slackapi.APIURL
	if cfg.APIURL != "" {
		u, err := apiBase(cfg.APIURL)
		if err != nil {
			errs = append(errs, fmt.Errorf("slack: SLACK_API_URL %q: %w", cfg.APIURL, err))
		}
		apiURL = u
	}
	errs = append(errs, inbound.CheckLimits(Platform, cfg.Timeout, cfg.MaxBodies, cfg.ReconnectMax)...)
	publicURL, err = publicBase(cfg)
	if err != nil {
		errs = append(errs, err)
	}
	return apiURL, publicURL, errors.Join(errs...)
}

// checkTokens returns what is wrong with cfg's secret and tokens.
func checkTokens(cfg Config) []error {
	var errs []error
	if cfg.SigningSecret == "" && cfg.AppToken == "" {
		errs = append(errs, errors.New("slack: set SLACK_SIGNING_SECRET (HTTP) or SLACK_APP_TOKEN and SLACK_BOT_TOKEN (Socket Mode)"))
	}
	if cfg.AppToken != "" {
		if !strings.HasPrefix(cfg.AppToken, "xapp-") {
			errs = append(errs, errors.New("slack: SLACK_APP_TOKEN must be an app-level token starting with xapp-"))
		}
		if cfg.BotToken == "" {
			errs = append(errs, errors.New("slack: SLACK_BOT_TOKEN is required with SLACK_APP_TOKEN for Socket Mode"))
		}
	}
	if cfg.BotToken != "" && !strings.HasPrefix(cfg.BotToken, "xoxb-") && !strings.HasPrefix(cfg.BotToken, "xoxe.xoxb-") {
		errs = append(errs, errors.New("slack: SLACK_BOT_TOKEN must be a bot token starting with xoxb-"))
	}
	return errs
}

// init sets p from cfg: uploads and posts with the bot's Web API client c
// (nil: none), or boards served by this server at publicURL when it is
// set.
func (p *pictures) init(cfg Config, c *slackapi.Client, publicURL string) {
	p.now, p.ttl = time.Now, cfg.ImageTTL
	p.gallery = gallery.New(galleryBytes, runtime.GOMAXPROCS(0), galleryQueue)
	p.painter = cfg.Painter
	if p.painter == nil {
		p.painter = render.NewPainter(0)
	}
	if p.ttl <= 0 {
		p.ttl = DefaultImageTTL
	}
	if cfg.Pictures && c != nil {
		p.poster = c
		if publicURL == "" {
			p.files = c
		}
	}
	if cfg.Pictures && publicURL != "" {
		secret := cmp.Or(cfg.SigningSecret, cfg.BotToken)
		p.signer, p.publicURL = boardurl.NewSigner(secret), publicURL
	}
}

// apiBase checks a Web API base URL and returns it with a trailing slash,
// which slack-go needs to join method names.
func apiBase(s string) (string, error) {
	u, err := url.Parse(s)
	switch {
	case err != nil:
		return "", err
	case u.Scheme != "http" && u.Scheme != "https":
		return "", errors.New("want an http or https URL")
	case u.Host == "":
		return "", errors.New("no host")
	case u.RawQuery != "" || u.Fragment != "":
		return "", errors.New("no query or fragment allowed")
	}
	if !strings.HasSuffix(u.Path, "/") {
		u.Path += "/"
	}
	return u.String(), nil
}

// client returns a Web API client for the bot token (and the app token,
// for Socket Mode).
func (a *Adapter) client() *slackapi.Client {
	opts := []slackapi.Option{slackapi.OptionAPIURL(a.apiURL), slackapi.OptionHTTPClient(a.httpc)}
	if a.cfg.AppToken != "" {
		opts = append(opts, slackapi.OptionAppLevelToken(a.cfg.AppToken))
	}
	return slackapi.New(a.cfg.BotToken, opts...)
}

// homeKey returns k keyed by the workspace the bot is installed in, when
// auth.test has told it (see selfPlayer), instead of the team the payload
// names, which is the clicking user's. A channel shared between
// organisations through Slack Connect has one channel id for all of them
// ("Beware of changing IDs on channels when a share is initiated": the
// share gives it the id every side uses), while each side's users arrive
// with their own team_id; and one bot token is one installation, which
// sees every channel it serves from its own workspace ("Slash commands are
// not shared", "You may have multiple bot copies":
// https://api.slack.com/apis/channels-between-orgs). So the installation's
// team and the channel name one channel for everyone in it, and in a
// channel that is not shared they are the payload's team and channel, the
// key games had before: nothing in play moves. An org-wide Enterprise
// Grid install (auth.test answers an E… id) and a bot without a token keep
// the payload's team.
func (a *Adapter) homeKey(k match.Key) match.Key {
	a.selfMu.Lock()
	defer a.selfMu.Unlock()
	if a.home != "" {
		k.Workspace = a.home
	}
	return k
}

// selfPlayer returns this bot's own user, asking auth.test the first time
// (and again at most once a minute after a failure). Without a bot token,
// or while auth.test fails, it returns the zero Player: challenges of the
// bot then cannot start an AI game, and nothing else changes. No lock is
// held during the call: one lookup runs in the background and every caller
// waits for it at most until its own ctx is done.
func (a *Adapter) selfPlayer(ctx context.Context) match.Player {
	if w := workspaceOf(ctx); w != nil {
		return w.self
	}
	if a.api == nil {
		return match.Player{}
	}
	a.selfMu.Lock()
	if a.self.ID != "" || time.Now().Before(a.selfRetry) {
		defer a.selfMu.Unlock()
		return a.self
	}
	if a.selfCall == nil {
		call := make(chan struct{})
		if !a.work.Go(func(ctx context.Context) { a.lookupSelf(ctx, call) }) {
			a.selfMu.Unlock()
			return match.Player{} // shutting down
		}
		a.selfCall = call
	}
	call := a.selfCall
	a.selfMu.Unlock()
	select {
	case <-call:
	case <-ctx.Done():
	}
	a.selfMu.Lock()
	defer a.selfMu.Unlock()
	return a.self
}

// lookupSelf asks auth.test for this bot's user, records the answer (or
// when to ask again) and closes call.
func (a *Adapter) lookupSelf(ctx context.Context, call chan struct{}) {
	ctx, cancel := context.WithTimeout(ctx, lookupBudget)
	defer cancel()
	resp, err := a.api.AuthTestContext(ctx)
	if err == nil && resp.UserID == "" {
		err = errors.New("no user_id in the answer")
	}
	if err != nil {
		a.log.Warn("slack auth.test failed; continuing without the bot's user id", "err", err)
	}
	a.selfMu.Lock()
	defer a.selfMu.Unlock()
	if err != nil {
		a.selfRetry = time.Now().Add(selfRetry)
	} else {
		a.self = match.Player{ID: resp.UserID, Name: resp.User}
		if strings.HasPrefix(resp.TeamID, "T") {
			a.home = resp.TeamID
		}
	}
	a.selfCall = nil
	close(call)
}

// userInfo asks users.info about id within lookupBudget: nil without a
// bot token, or when the lookup fails (logged with what the caller does
// then).
func (a *Adapter) userInfo(ctx context.Context, id, otherwise string) *slackapi.User {
	if a.api == nil {
		return nil
	}
	ctx, cancel := context.WithTimeout(ctx, lookupBudget)
	defer cancel()
	u, err := a.api.GetUserInfoContext(ctx, id)
	if err != nil {
		a.log.Warn("slack users.info failed; "+otherwise, "err", err)
		return nil
	}
	// Every answer also says the user's language.
	a.locales.put(id, u.Locale)
	return u
}

// Close stops taking new background work (later clicks are acknowledged
// and dropped, with a log line) and waits for the work in flight. When ctx
// ends first it cancels that work, waits for it to stop, and returns
// ctx.Err(). Call it after the HTTP server and RunSocketMode have stopped.
// Closing twice is harmless.
func (a *Adapter) Close(ctx context.Context) error {
	err := a.work.Close(ctx)
	if a.ownHTTP {
		a.httpc.CloseIdleConnections()
	}
	return err
}

// publicBase checks CONNECT4_PUBLIC_URL and returns it with a trailing
// slash ("" when unset): an absolute http(s) URL without query or
// fragment, and a secret to sign the pictures' URLs with.
func publicBase(cfg Config) (string, error) {
	if cfg.PublicURL == "" {
		return "", nil
	}
	u, err := url.Parse(cfg.PublicURL)
	switch {
	case err != nil:
		return "", fmt.Errorf("slack: CONNECT4_PUBLIC_URL %q: %w", cfg.PublicURL, err)
	case (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" || u.RawQuery != "" || u.Fragment != "":
		return "", fmt.Errorf("slack: CONNECT4_PUBLIC_URL %q: want an absolute http(s) URL without query or fragment", cfg.PublicURL)
	case cfg.SigningSecret == "" && cfg.BotToken == "":
		return "", errors.New("slack: CONNECT4_PUBLIC_URL needs SLACK_SIGNING_SECRET or SLACK_BOT_TOKEN to sign the pictures' URLs with")
	}
	if !strings.HasSuffix(u.Path, "/") {
		u.Path += "/"
	}
	return u.String(), nil
}
