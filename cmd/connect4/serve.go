package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"time"

	"github.com/connect4/connect4/bot"
	"github.com/connect4/connect4/bot/discord"
	"github.com/connect4/connect4/bot/ops"
	"github.com/connect4/connect4/bot/slack"
	"github.com/connect4/connect4/bot/web"
	"github.com/connect4/connect4/render"
	"github.com/connect4/connect4/sessions"
)

// newLogger returns the process logger configured by LOG_FORMAT and
// LOG_LEVEL.
func newLogger(cfg config, w io.Writer) *slog.Logger {
	opt := &slog.HandlerOptions{Level: cfg.LogLevel}
	if cfg.LogFormat == "json" {
		return slog.New(slog.NewJSONHandler(w, opt))
	}
	return slog.New(slog.NewTextHandler(w, opt))
}

// runServe runs the HTTP listener that the Slack and Discord adapters plug
// into, with /healthz and /readyz, until ctx is cancelled (SIGINT or
// SIGTERM); then in-flight requests finish before it returns.
func runServe(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	me, _ := lookup("serve")
	if err := parseFlags(me, flag.NewFlagSet("serve", flag.ContinueOnError), args, stdout, stderr); err != nil {
		return err
	}
	cfg, err := loadConfig(getenv, forServe)
	if err != nil {
		return fmt.Errorf("configuration:\n%w", err)
	}
	log := newLogger(cfg, stderr)
	m := ops.NewMetrics()
	store, closeStore, err := openStore(ctx, cfg, log, sessions.Hooks{Conflict: m.StoreConflict, Retry: m.StoreRetry, Error: m.StoreError})
	if err != nil {
		return err
	}
	defer closeStore()
	if cfg.Redis.Mode() == "memory" {
		log.Warn("no REDIS_URL: using the in-memory store; games and leaderboards will not survive a restart")
	}
	opts := botOptions(cfg, log, m.BotHooks())
	links, err := pageLinks(cfg, log)
	if err != nil {
		return err
	}
	if links != nil {
		opts.Pages = links
	}
	svc := bot.New(store, opts)

	// The adapters' connections run under runCtx, which a connection that
	// fails for good (a refused token) cancels too.
	runCtx, stopRun := context.WithCancel(ctx)
	defer stopRun()
	mux := http.NewServeMux()
	var adapters ops.Group
	notifiers := map[string]bot.Notifier{}
	var previews bot.PagePreviewer
	if links != nil {
		pages, err := web.New(svc, links, nil, log)
		if err != nil {
			return err
		}
		pages.Register(mux)
		previews = pages
		log.Info("web: serving game, channel and player pages at GET /pages/")
	}
	conns, err := mountAdapters(runCtx, cfg, svc, store, mux, log, m, &adapters, notifiers, previews)
	if err != nil {
		return err
	}
	// The schedule's worker (expiries, reminders, timeouts) stops with
	// runCtx, its deliveries in flight cancelled.
	adapters.Go(runCtx, func(ctx context.Context) error {
		svc.RunSchedule(ctx, store, notifiers, bot.WorkerOptions{Poll: cfg.SchedulePoll, Hooks: m.WorkerHooks()})
		return nil
	})
	if cfg.AdaptiveProcs && getenv("GOMAXPROCS") == "" {
		procs := &ops.Procs{Log: log}
		adapters.Go(runCtx, func(ctx context.Context) error { procs.Run(ctx); return nil })
	}
	h := &ops.Health{Store: store, Conns: conns, UnhealthyAfter: cfg.UnhealthyAfter, StoreUp: m.SetStoreUp, Log: log}
	for _, c := range conns {
		m.Watch(c)
	}
	mux.HandleFunc("GET /healthz", h.Live)
	mux.HandleFunc("GET /readyz", h.Ready)
	mux.Handle("GET /metrics", m.Handler())

	srv := &ops.Server{Addr: cfg.Addr, Handler: mux, ShutdownTimeout: cfg.ShutdownTimeout, PprofAddr: cfg.PprofAddr,
		Log: log, LogAttrs: []any{"store", cfg.Redis.Mode()}, Health: h, Adapters: &adapters, Cancel: stopRun}
	return srv.Run(ctx)
}

// mountAdapters mounts the chat platforms that the configuration enables:
// Slack over HTTP (SLACK_SIGNING_SECRET) and/or Socket Mode
// (SLACK_APP_TOKEN), Discord over HTTP (DISCORD_PUBLIC_KEY) and/or the
// Gateway (DISCORD_BOT_TOKEN).
// Their connections run in set; it returns those to watch, and puts each
// adapter in notifiers for the bot's timed edits.
func mountAdapters(ctx context.Context, cfg config, svc *bot.Service, store store, mux *http.ServeMux, log *slog.Logger, m *ops.Metrics, set *ops.Group,
	notifiers map[string]bot.Notifier, previews bot.PagePreviewer) ([]ops.Conn, error) {
	var conns []ops.Conn
	slackOn := cfg.SlackSigningSecret != "" || cfg.SlackAppToken != ""
	discordOn := cfg.DiscordPublicKey != "" || cfg.DiscordBotToken != ""
	if !slackOn && !discordOn {
		log.Warn("no chat platform configured: set SLACK_SIGNING_SECRET, SLACK_APP_TOKEN, DISCORD_PUBLIC_KEY or DISCORD_BOT_TOKEN")
	}
	painter := render.NewPainter(0) // one for both adapters
	if slackOn {
		a, err := slack.New(svc, slack.Config{
			SigningSecret: cfg.SlackSigningSecret, BotToken: cfg.SlackBotToken, AppToken: cfg.SlackAppToken,
			APIURL: cfg.SlackAPIURL, Observe: m.Observe("slack"), ReconnectMax: cfg.ReconnectMax, PostReplies: true,
			Pictures: true, PublicURL: cfg.PublicURL, Painter: painter, Previews: previews,
			OAuth: slackOAuth(cfg, store),
		}, log)
		if err != nil {
			return nil, err
		}
		notifiers[slack.Platform] = a
		if !a.CanNotify() {
			noNotify(log, "slack", "SLACK_BOT_TOKEN (scope chat:write)")
		}
		if cfg.SlackSigningSecret != "" || cfg.PublicURL != "" {
			a.Register(mux)
		}
		if cfg.SlackSigningSecret != "" {
			log.Info("slack: serving POST /slack/commands and /slack/interactions")
		}
		if cfg.PublicURL != "" {
			log.Info("slack: serving board pictures at GET /boards/")
		}
		startSlackInstall(ctx, cfg, a, set, log)
		if cfg.SlackAppToken != "" {
			set.Go(ctx, a.RunSocketMode)
			conns = append(conns, ops.Conn{Name: "slack socket mode", Platform: "slack", State: a.Connection})
			log.Info("slack: connecting in Socket Mode")
		}
		set.OnStop(func(ctx context.Context) {
			if err := a.Close(ctx); err != nil {
				log.Warn("slack: in-flight clicks cut short at shutdown", "err", err)
			}
		})
	}
	if discordOn {
		a, err := discord.New(svc, discord.Config{
			PublicKey: cfg.DiscordPublicKey, BotToken: cfg.DiscordBotToken, ApplicationID: cfg.DiscordAppID,
			GuildID: cfg.DiscordGuildID, APIURL: cfg.DiscordAPIURL, Observe: m.Observe("discord"),
			ReconnectMax: cfg.ReconnectMax, Pictures: true, Painter: painter,
		}, log)
		if err != nil {
			return nil, err
		}
		notifiers[discord.Platform] = a
		if !a.CanNotify() {
			noNotify(log, "discord", "DISCORD_BOT_TOKEN")
		} else {
			set.Go(ctx, func(ctx context.Context) error { loadEmoji(ctx, a, log); return nil })
		}
		if cfg.DiscordPublicKey != "" {
			a.Register(mux)
			log.Info("discord: serving POST /discord/interactions")
		}
		if cfg.DiscordBotToken != "" {
			set.Go(ctx, a.RunGateway)
			conns = append(conns, ops.Conn{Name: "discord gateway", Platform: "discord", State: a.Connection})
			log.Info("discord: connecting to the Gateway")
		}
		set.OnStop(func(ctx context.Context) { _ = a.Close(ctx) })
	}
	return conns, nil
}

// noNotify says at startup what a platform without its bot token cannot do.
func noNotify(log *slog.Logger, platform, token string) {
	log.Warn(platform + ": without " + token + " the bot cannot edit messages on its own nor post reminders: expired challenges, offers and takebacks keep their buttons, timed-out games get no Claim button, abandoned games no final edit; everything else works")
}

// runRegister registers the /connect4 command with Discord: globally, or in
// DISCORD_GUILD_ID only (instant, for setup).
func runRegister(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	me, _ := lookup("register")
	if err := parseFlags(me, flag.NewFlagSet("register", flag.ContinueOnError), args, stdout, stderr); err != nil {
		return err
	}
	cfg, err := loadConfig(getenv, forRegister)
	if err != nil {
		return fmt.Errorf("configuration:\n%w", err)
	}
	if err := discord.RegisterCommands(ctx, nil, cfg.DiscordAPIURL, cfg.DiscordBotToken, cfg.DiscordAppID, cfg.DiscordGuildID); err != nil {
		return fmt.Errorf("register: %w", err)
	}
	scope := "globally (may take up to an hour to appear)"
	if cfg.DiscordGuildID != "" {
		scope = "in guild " + cfg.DiscordGuildID
	}
	fmt.Fprintf(stdout, "registered /connect4 %s, for server and user installs\n", scope)
	rep, err := discord.RegisterEmoji(ctx, nil, cfg.DiscordAPIURL, cfg.DiscordBotToken, cfg.DiscordAppID)
	if err != nil {
		return fmt.Errorf("register the disc emoji: %w", err)
	}
	fmt.Fprintf(stdout, "disc emoji: %d uploaded, %d already there, %d older pictures replaced (serve lists them at start)\n",
		rep.Uploaded, rep.Kept, rep.Replaced)
	return nil
}

// loadEmoji lets the Discord emoji boards use the disc emoji `connect4
// register` uploaded: it lists them within a few seconds of the start, in
// the background; until then, or without them, the boards keep the
// Unicode discs.
func loadEmoji(ctx context.Context, a *discord.Adapter, log *slog.Logger) {
	ctx, cancel := context.WithTimeout(ctx, 5*time.Second)
	defer cancel()
	n, err := a.LoadEmoji(ctx)
	switch {
	case err != nil:
		log.Warn("discord: the app's disc emoji are not known: emoji boards use the Unicode discs", "err", err)
	case n == 0:
		log.Info("discord: no disc emoji uploaded (run connect4 register): emoji boards use the Unicode discs")
	default:
		log.Info("discord: emoji boards use the app's disc emoji", "palettes", n)
	}
}
