package discord

import (
	"crypto/ed25519"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"sync"
	"time"

	discordgo "github.com/bwmarrin/discordgo"

	"github.com/connect4/connect4/bot"
)

// Timings of an interaction.
const (
	// handleTimeout bounds a command answered in the initial response,
	// well inside Discord's 3 s (discordgo.InteractionDeadline).
	handleTimeout = 2500 * time.Millisecond
	// deferAfter is how long a command that may run the AI (bot.Service.Slow)
	// may take before it is acknowledged with a deferred response and
	// delivered later. Human moves finish well inside it and update the
	// message at once (type 7).
	deferAfter = 300 * time.Millisecond
	// workTimeout bounds a deferred command and the delivery of its reply;
	// Close waits for at most this long per piece of work.
	workTimeout = 10 * time.Second
	// restTimeout is the HTTP client timeout of REST calls when
	// Config.HTTPClient is nil.
	restTimeout = 20 * time.Second
)

// Config configures an Adapter. cmd/connect4 fills it from the environment
// variables named in the field comments.
type Config struct {
	// PublicKey is the application's Ed25519 public key in hex
	// (DISCORD_PUBLIC_KEY). When set, Register mounts the HTTP
	// interactions endpoint.
	PublicKey string
	// BotToken is the bot token, without the "Bot " prefix
	// (DISCORD_BOT_TOKEN). It enables RunGateway and RegisterCommands.
	BotToken string
	// ApplicationID is the application's id (DISCORD_APPLICATION_ID), needed
	// by RegisterCommands.
	ApplicationID string
	// GuildID, when set, makes RegisterCommands register the commands in
	// that guild only, where they appear at once (DISCORD_GUILD_ID).
	GuildID string
	// APIURL, when set, replaces https://discord.com in every REST call
	// (DISCORD_API_URL), for tests against a local fake.
	APIURL string
	// HTTPClient makes the REST calls; nil means a client with a 20 s
	// timeout.
	HTTPClient *http.Client
	// Observe, when set, is called once per interaction with its kind
	// (bot.Kind's String, "ping" or "unknown"), its outcome ("ok",
	// "refused", "error", "unauthorized", "bad_request" or "too_large")
	// and how long it took. It must be safe for concurrent use.
	Observe func(kind, outcome string, elapsed time.Duration)
}

// Adapter serves Discord interactions with a bot.Service. It is safe for
// concurrent use.
type Adapter struct {
	svc  *bot.Service
	cfg  Config
	pub  ed25519.PublicKey // nil: no HTTP endpoint
	rest *discordgo.Session
	log  *slog.Logger

	// deferAfter is the package constant, shortened or lengthened by tests.
	deferAfter time.Duration

	mu     sync.Mutex
	closed bool
	work   sync.WaitGroup // commands still running or delivering after their first response
}

// New returns an Adapter for svc. It checks cfg and returns an error naming
// the environment variable of every bad field: DISCORD_PUBLIC_KEY must be
// 32 bytes in hex, DISCORD_API_URL an absolute http(s) URL. A nil log means
// slog.Default().
func New(svc *bot.Service, cfg Config, log *slog.Logger) (*Adapter, error) {
	if svc == nil {
		return nil, errors.New("discord: nil bot.Service")
	}
	if log == nil {
		log = slog.Default()
	}
	var errs []error
	var pub ed25519.PublicKey
	if cfg.PublicKey != "" {
		b, err := hex.DecodeString(cfg.PublicKey)
		switch {
		case err != nil:
			errs = append(errs, fmt.Errorf("discord: DISCORD_PUBLIC_KEY is not hex: %w", err))
		case len(b) != ed25519.PublicKeySize:
			errs = append(errs, fmt.Errorf("discord: DISCORD_PUBLIC_KEY is %d bytes, want %d", len(b), ed25519.PublicKeySize))
		default:
			pub = ed25519.PublicKey(b)
		}
	}
	apiURL, err := parseAPIURL(cfg.APIURL)
	if err != nil {
		errs = append(errs, err)
	}
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	rest, err := newSession(cfg.BotToken, restClient(cfg.HTTPClient, apiURL))
	if err != nil {
		return nil, err
	}
	return &Adapter{svc: svc, cfg: cfg, pub: pub, rest: rest, log: log, deferAfter: deferAfter}, nil
}

// Close waits for the Gateway interactions in flight and for the commands
// still running after their first response (deferred AI moves and their
// message edits, each bounded by 10 s), and makes later ones run before
// their interaction returns. Call it after the HTTP server and RunGateway
// have stopped.
func (a *Adapter) Close() {
	a.mu.Lock()
	a.closed = true
	a.mu.Unlock()
	a.work.Wait()
}

// spawn runs f in a goroutine that Close waits for, or reports false (and
// does not run f) once Close has been called.
func (a *Adapter) spawn(f func()) bool {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.closed {
		return false
	}
	a.work.Add(1)
	go func() {
		defer a.work.Done()
		f()
	}()
	return true
}

// Kinds of interaction that are not commands, for Config.Observe and the log.
const (
	kindPing    = "ping"
	kindUnknown = "unknown"
)

// done records one finished interaction: Config.Observe and one log line.
// It never logs tokens or message text.
func (a *Adapter) done(start time.Time, channel, kind, outcome string, deferred bool) {
	elapsed := time.Since(start)
	if a.cfg.Observe != nil {
		a.cfg.Observe(kind, outcome, elapsed)
	}
	a.log.Info("discord interaction", "platform", "discord", "channel", channel, "kind", kind,
		"outcome", outcome, "deferred", deferred, "duration", elapsed)
}
