package discord

import (
	"context"
	"crypto/ed25519"
	"encoding/hex"
	"errors"
	"log/slog"
	"net/http"
	"sync/atomic"
	"time"

	discordgo "github.com/bwmarrin/discordgo"

	"github.com/connect4/connect4/bot"
	"github.com/connect4/connect4/bot/internal/bg"
	"github.com/connect4/connect4/bot/internal/bodies"
	"github.com/connect4/connect4/bot/internal/inbound"
	"github.com/connect4/connect4/bot/internal/link"
	"github.com/connect4/connect4/bot/match"
	"github.com/connect4/connect4/render"
)

// Platform is the match.Key platform of Discord channels.
const Platform = "discord"

// DefaultTimeout bounds a deferred command (one that may run the AI), so
// that its answer (the reply, or the store's "try again" sentence) is
// delivered within Discord's 3 seconds even when the store hangs.
const DefaultTimeout = 2500 * time.Millisecond

// MaxBody is the largest request body accepted, in bytes; larger ones get
// 413. Discord's payloads are a few KiB.
const MaxBody = bodies.Max

// DefaultMaxBodies is how many request bodies are read at once by default.
const DefaultMaxBodies = bodies.DefaultSlots

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
	// deliverBudget bounds the delivery of a deferred reply (its REST
	// calls, a retry included), in a context of its own so that a command
	// that used up its time can still say so.
	deliverBudget = 2 * time.Second
	// lateGrace is how long a deferred command may overrun its deadline
	// (a store that ignores its context) before the adapter delivers the
	// "try again" sentence itself.
	lateGrace = 250 * time.Millisecond
	// window is how far X-Signature-Timestamp may be from now.
	window = 5 * time.Minute
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
	// Timeout bounds a deferred command (the delivery of its reply then
	// gets 2 s of its own); 0 means DefaultTimeout.
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
	// Observe, when set, is called once per interaction with its kind
	// (bot.Kind's String, "ping" or "unknown"), its outcome ("ok",
	// "refused", "error", "unauthorized", "bad_request" or "too_large")
	// and how long it took. It must be safe for concurrent use.
	Observe func(kind, outcome string, elapsed time.Duration)
	// ReconnectMax is the longest wait between two Gateway connection
	// attempts (the waits start at 500 ms and double, with full jitter); 0
	// means one minute.
	ReconnectMax time.Duration
	// Pictures shows boards as PNG pictures (Components V2 messages with
	// an attachment, in the response to a click or delivered after a
	// deferral: see render/README.md) in channels that have
	// not chosen emoji, and posts the replay GIF when a game ends; false
	// keeps the emoji board everywhere. cmd/connect4 serve turns it on.
	Pictures bool
	// Painter draws the pictures; nil means one of the adapter's own.
	// cmd/connect4 serve gives both adapters the same one, so that the
	// canvases and bands it keeps are drawn once, within one budget.
	Painter *render.Painter
}

// Adapter serves Discord interactions with a bot.Service. It is safe for
// concurrent use. Deferred commands finish in the background; Close waits
// for them at shutdown.
type Adapter struct {
	svc *bot.Service
	cfg Config
	pub ed25519.PublicKey // nil: no HTTP endpoint
	key *verifier         // of pub, when set
	// session is the Gateway connection, and the REST client behind rest.
	session *discordgo.Session
	rest    restAPI // every REST call goes through it
	// ownClient is the REST calls' HTTP client when the adapter made it
	// (Config.HTTPClient nil): Close closes its idle connections.
	ownClient *http.Client
	log       *slog.Logger // with platform=discord
	timeout   time.Duration
	work      *bg.Work // commands still running or delivering after their first response
	bodies    *bodies.Slots
	buffers   responseBuffers // the HTTP responses' JSON
	rec       inbound.Recorder
	gateway   *link.Tracker // the Gateway connection, for Connection
	keeper    *link.Keeper  // reconnects the Gateway
	// openTimeout bounds the reads of one Gateway Open (Hello, then READY
	// or RESUMED); the package constant, shortened by tests.
	openTimeout time.Duration

	painter *render.Painter // draws the pictures, keeping what it drew
	// emoji are the palettes of the app's own emoji, by image palette,
	// once LoadEmoji found them; nil: the Unicode discs.
	emoji atomic.Pointer[map[render.ImagePalette][]render.Palette]

	// deferAfter is the package constant, shortened or lengthened by tests.
	deferAfter time.Duration
	// pictureBudget is the package constant deferAfter, as the time a
	// click's reply may take for its picture to go in the response
	// (see Adapter.respond); changed by tests.
	pictureBudget time.Duration
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
		if msg := CheckPublicKey(cfg.PublicKey); msg != "" {
			errs = append(errs, errors.New("discord: DISCORD_PUBLIC_KEY "+msg))
		} else {
			pub, _ = hex.DecodeString(cfg.PublicKey)
		}
	}
	apiURL, err := parseAPIURL(cfg.APIURL)
	if err != nil {
		errs = append(errs, err)
	}
	errs = append(errs, inbound.CheckLimits(Platform, cfg.Timeout, cfg.MaxBodies, cfg.ReconnectMax)...)
	if len(errs) > 0 {
		return nil, errors.Join(errs...)
	}
	client := restClient(cfg.HTTPClient, apiURL)
	rest, err := newSession(cfg.BotToken, client)
	if err != nil {
		return nil, err
	}
	var own *http.Client
	if cfg.HTTPClient == nil {
		own = client
	}
	if cfg.Timeout == 0 {
		cfg.Timeout = DefaultTimeout
	}
	if cfg.MaxBodies == 0 {
		cfg.MaxBodies = DefaultMaxBodies
	}
	if cfg.Painter == nil {
		cfg.Painter = render.NewPainter(0)
	}
	log = log.With("platform", Platform)
	gateway := link.NewTracker()
	var key *verifier
	if pub != nil {
		key = newVerifier(pub)
	}
	return &Adapter{svc: svc, cfg: cfg, pub: pub, key: key, session: rest, rest: rest, ownClient: own, log: log,
		rec:     inbound.Recorder{Log: log, Observe: cfg.Observe, Message: "discord interaction"},
		timeout: cfg.Timeout, work: bg.New(), bodies: bodies.NewSlots(cfg.MaxBodies), deferAfter: deferAfter,
		pictureBudget: deferAfter,
		gateway:       gateway, keeper: &link.Keeper{Tracker: gateway, Backoff: link.Backoff{Max: cfg.ReconnectMax}, Log: log,
			Name: "discord gateway", Token: "discord: DISCORD_BOT_TOKEN", Refusal: refusal},
		openTimeout: openTimeout, painter: cfg.Painter}, nil
}

// Close stops taking new background work (later slow commands run before
// their interaction is answered) and waits for the work in flight: the
// Gateway interactions and the deferred commands with the delivery of
// their replies. When ctx ends first it cancels that work, waits for it to
// stop, and returns ctx.Err(). It then closes the idle connections of the
// REST client it made (none of Config.HTTPClient's). Call it after the
// HTTP server and RunGateway have stopped. Closing twice is harmless.
func (a *Adapter) Close(ctx context.Context) error {
	err := a.work.Close(ctx)
	if a.ownClient != nil {
		a.ownClient.CloseIdleConnections()
	}
	return err
}

// Kinds of interaction that are not commands, for Config.Observe and the log.
const (
	kindPing    = "ping"
	kindUnknown = inbound.KindUnknown
)

// report is what is logged and observed about one interaction: the shared
// inbound.Report, whether it was deferred, and the game to attach.
type report struct {
	inbound.Report
	deferred bool
	// attachGame is the game whose public reply to a command this
	// interaction's original response is, to attach once it is sent.
	attachGame string
	attachKey  match.Key
}

func newReport(via string) *report {
	return &report{Report: inbound.NewReport(via)}
}

// done records one finished interaction: Config.Observe and one log line
// at bot.OutcomeLevel.
func (a *Adapter) done(rep *report) { a.rec.Done(&rep.Report, "deferred", rep.deferred) }
