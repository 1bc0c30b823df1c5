package slack

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	"github.com/connect4/connect4/bot/match"

	slackapi "github.com/slack-go/slack"

	"github.com/connect4/connect4/bot"
)

// Platform is the match.Key platform of Slack channels.
const Platform = "slack"

// DefaultTimeout bounds the background work of one click (running the
// command and posting to its response_url) and each call of the default
// HTTP client.
const DefaultTimeout = 10 * time.Second

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
	// means a client with Timeout.
	HTTPClient *http.Client
	// Timeout bounds the background work of one click; 0 means
	// DefaultTimeout.
	Timeout time.Duration
	// Observe, when set, is called once per request with the command kind
	// (bot.Kind.String(), or "unknown"), the outcome ("ok", "refused",
	// "error", "unauthorized", "bad_request", "too_large") and the time from
	// arrival to the last reply. It must be safe for concurrent use.
	Observe func(kind, outcome string, elapsed time.Duration)
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
	svc     *bot.Service
	cfg     Config
	log     *slog.Logger
	httpc   *http.Client
	api     webAPI // nil without a bot token
	apiURL  string
	timeout time.Duration

	selfMu    sync.Mutex
	self      match.Player
	selfRetry time.Time // no auth.test before this time after a failure

	mu      sync.Mutex
	closing bool
	running int           // background tasks in flight
	idle    chan struct{} // closed when running drops to 0
	abort   chan struct{} // closed when Close gives up waiting
}

// New returns an Adapter for svc. It checks cfg and returns every problem
// at once (errors.Join), each naming its environment variable; it makes no
// network calls. log nil means slog.Default().
func New(svc *bot.Service, cfg Config, log *slog.Logger) (*Adapter, error) {
	var errs []error
	if svc == nil {
		errs = append(errs, errors.New("slack: no bot service"))
	}
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
	apiURL := slackapi.APIURL
	if cfg.APIURL != "" {
		u, err := apiBase(cfg.APIURL)
		if err != nil {
			errs = append(errs, fmt.Errorf("slack: SLACK_API_URL %q: %w", cfg.APIURL, err))
		}
		apiURL = u
	}
	if cfg.Timeout < 0 {
		errs = append(errs, fmt.Errorf("slack: negative timeout %v", cfg.Timeout))
	}
	if err := errors.Join(errs...); err != nil {
		return nil, err
	}
	if log == nil {
		log = slog.Default()
	}
	a := &Adapter{svc: svc, cfg: cfg, log: log, httpc: cfg.HTTPClient, apiURL: apiURL,
		timeout: cfg.Timeout, abort: make(chan struct{})}
	if a.timeout == 0 {
		a.timeout = DefaultTimeout
	}
	if a.httpc == nil {
		a.httpc = &http.Client{Timeout: a.timeout}
	}
	if cfg.BotToken != "" {
		a.api = a.client()
	}
	return a, nil
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

// selfPlayer returns this bot's own user, asking auth.test the first time
// (and again at most once a minute after a failure). Without a bot token,
// or while auth.test fails, it returns the zero Player: challenges of the
// bot then cannot start an AI game, and nothing else changes.
func (a *Adapter) selfPlayer(ctx context.Context) match.Player {
	if a.api == nil {
		return match.Player{}
	}
	a.selfMu.Lock()
	defer a.selfMu.Unlock()
	if a.self.ID != "" || time.Now().Before(a.selfRetry) {
		return a.self
	}
	ctx, cancel := context.WithTimeout(ctx, lookupBudget)
	defer cancel()
	resp, err := a.api.AuthTestContext(ctx)
	if err != nil || resp.UserID == "" {
		if err == nil {
			err = errors.New("no user_id in the answer")
		}
		a.selfRetry = time.Now().Add(selfRetry)
		a.log.Warn("slack auth.test failed; continuing without the bot's user id", "platform", Platform, "err", err)
		return match.Player{}
	}
	a.self = match.Player{ID: resp.UserID, Name: resp.User}
	return a.self
}

// isBot reports whether Slack marks user id as a bot or app user. It
// returns false when it cannot tell (no bot token, or users.info failed).
func (a *Adapter) isBot(ctx context.Context, id string) bool {
	if id == "USLACKBOT" {
		return true
	}
	if a.api == nil {
		return false
	}
	ctx, cancel := context.WithTimeout(ctx, lookupBudget)
	defer cancel()
	u, err := a.api.GetUserInfoContext(ctx, id)
	if err != nil {
		a.log.Warn("slack users.info failed; treating the user as a person", "platform", Platform, "err", err)
		return false
	}
	return u.IsBot || u.IsAppUser
}

// spawn runs f in the background with a context bounded by the adapter's
// timeout and cancelled if Close gives up waiting. It returns false, and
// runs nothing, once Close has begun.
func (a *Adapter) spawn(f func(ctx context.Context)) bool {
	a.mu.Lock()
	if a.closing {
		a.mu.Unlock()
		return false
	}
	if a.running == 0 {
		a.idle = make(chan struct{})
	}
	a.running++
	a.mu.Unlock()
	go func() {
		defer a.taskDone()
		ctx, cancel := context.WithTimeout(context.Background(), a.timeout)
		defer cancel()
		stop := make(chan struct{})
		defer close(stop)
		go func() {
			select {
			case <-a.abort:
				cancel()
			case <-stop:
			}
		}()
		f(ctx)
	}()
	return true
}

func (a *Adapter) taskDone() {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.running--
	if a.running == 0 {
		close(a.idle)
	}
}

// Wait blocks until no background work is in flight, or ctx is done
// (returning ctx.Err()). Work started while it waits is waited for too.
func (a *Adapter) Wait(ctx context.Context) error {
	for {
		a.mu.Lock()
		if a.running == 0 {
			a.mu.Unlock()
			return nil
		}
		idle := a.idle
		a.mu.Unlock()
		select {
		case <-idle:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

// Close stops taking new background work (later clicks are acknowledged
// and dropped, with a log line) and waits for the work in flight. When ctx
// ends first it cancels that work, waits for it to stop, and returns
// ctx.Err(). Call it after the HTTP server and RunSocketMode have stopped.
// Closing twice is harmless.
func (a *Adapter) Close(ctx context.Context) error {
	a.mu.Lock()
	a.closing = true
	a.mu.Unlock()
	err := a.Wait(ctx)
	if err == nil {
		return nil
	}
	a.mu.Lock()
	select {
	case <-a.abort:
	default:
		close(a.abort)
	}
	a.mu.Unlock()
	_ = a.Wait(context.Background()) // the cancelled tasks return promptly
	return err
}
