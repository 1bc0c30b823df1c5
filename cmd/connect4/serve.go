package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/pprof"
	"sync"
	"time"

	"github.com/connect4/connect4/bot"
	"github.com/connect4/connect4/bot/discord"
	"github.com/connect4/connect4/bot/slack"
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
	m := newMetrics()
	store, closeStore, err := openStore(ctx, cfg, log, m.storeHooks())
	if err != nil {
		return err
	}
	defer closeStore()
	if cfg.redisMode() == "memory" {
		log.Warn("no REDIS_URL: using the in-memory store; games and leaderboards will not survive a restart")
	}
	svc := bot.New(store, botOptions(cfg, log, m.botHooks()))

	// The adapters' connections run under runCtx, which a connection that
	// fails for good (a refused token) cancels too.
	runCtx, stopRun := context.WithCancel(ctx)
	defer stopRun()
	mux := http.NewServeMux()
	adapters, err := mountAdapters(runCtx, cfg, svc, mux, log, m)
	if err != nil {
		return err
	}
	h := &health{store: store, conns: adapters.watched, unhealthyAfter: cfg.UnhealthyAfter,
		storeUp: m.setStoreUp, log: log, now: time.Now}
	for _, c := range adapters.watched {
		m.watch(c)
	}
	mux.HandleFunc("GET /healthz", h.live)
	mux.HandleFunc("GET /readyz", h.ready)
	mux.Handle("GET /metrics", m.handler())

	ln, err := net.Listen("tcp", cfg.Addr)
	if err != nil {
		stopRun()
		adapters.stop(ctx)
		return fmt.Errorf("CONNECT4_ADDR: %w", err)
	}
	srv := &http.Server{
		Handler:           mux,
		ReadHeaderTimeout: 5 * time.Second,
		ReadTimeout:       10 * time.Second,
		WriteTimeout:      15 * time.Second,
		IdleTimeout:       2 * time.Minute,
		ErrorLog:          slog.NewLogLogger(log.Handler(), slog.LevelWarn),
	}
	log.Info("listening", "addr", ln.Addr().String(), "store", cfg.redisMode())
	if cfg.PprofAddr != "" {
		stopPprof, err := servePprof(cfg.PprofAddr, log)
		if err != nil {
			ln.Close()
			stopRun()
			adapters.stop(ctx)
			return err
		}
		defer stopPprof()
	}
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()

	var runErr error
	select {
	case err := <-served:
		runErr = err
	case err := <-adapters.fatal:
		log.Error("shutting down: a platform connection cannot recover", "err", err)
		runErr = err
	case <-ctx.Done():
		log.Info("shutting down")
	}
	h.stopping.Store(true)
	stopRun()
	sctx, cancel := context.WithTimeout(context.Background(), cfg.ShutdownTimeout)
	defer cancel()
	if err := srv.Shutdown(sctx); err != nil {
		log.Warn("shutdown", "err", err)
	}
	adapters.stop(sctx)
	if errors.Is(runErr, http.ErrServerClosed) {
		runErr = nil
	}
	return runErr
}

// adapterSet is what mountAdapters started: the adapters' background
// connections, the connections to watch, and their stop functions.
type adapterSet struct {
	running sync.WaitGroup
	stops   []func(context.Context)
	watched []watched
	// fatal receives the error of a background connection that stopped
	// before its context ended: it cannot recover (a refused token), and
	// the server stops with it.
	fatal chan error
}

// stop waits for in-flight work of every adapter (bounded by ctx) and for
// the background connections, which end with the serve context.
func (a *adapterSet) stop(ctx context.Context) {
	for _, f := range a.stops {
		f(ctx)
	}
	a.running.Wait()
}

// background runs f (a Socket Mode or Gateway connection) until ctx ends.
// The connections retry by themselves for as long as ctx lasts, so an
// error they return before it ends is fatal: it goes to a.fatal, and runServe
// stops.
func (a *adapterSet) background(ctx context.Context, f func(context.Context) error) {
	a.running.Add(1)
	go func() {
		defer a.running.Done()
		if err := f(ctx); err != nil && ctx.Err() == nil {
			select {
			case a.fatal <- err: // it names its platform
			default: // the server is stopping already
			}
		}
	}()
}

// mountAdapters mounts the chat platforms that the configuration enables:
// Slack over HTTP (SLACK_SIGNING_SECRET) and/or Socket Mode
// (SLACK_APP_TOKEN), Discord over HTTP (DISCORD_PUBLIC_KEY) and/or the
// Gateway (DISCORD_BOT_TOKEN).
func mountAdapters(ctx context.Context, cfg config, svc *bot.Service, mux *http.ServeMux, log *slog.Logger, m *metrics) (*adapterSet, error) {
	set := &adapterSet{fatal: make(chan error, 1)}
	slackOn := cfg.SlackSigningSecret != "" || cfg.SlackAppToken != ""
	discordOn := cfg.DiscordPublicKey != "" || cfg.DiscordBotToken != ""
	if !slackOn && !discordOn {
		log.Warn("no chat platform configured: set SLACK_SIGNING_SECRET, SLACK_APP_TOKEN, DISCORD_PUBLIC_KEY or DISCORD_BOT_TOKEN")
	}
	if slackOn {
		a, err := slack.New(svc, slack.Config{
			SigningSecret: cfg.SlackSigningSecret, BotToken: cfg.SlackBotToken, AppToken: cfg.SlackAppToken,
			APIURL: cfg.SlackAPIURL, Observe: m.observe("slack"), ReconnectMax: cfg.ReconnectMax,
			Pictures: true, PublicURL: cfg.PublicURL,
		}, log)
		if err != nil {
			return nil, err
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
		if cfg.SlackAppToken != "" {
			set.background(ctx, a.RunSocketMode)
			set.watched = append(set.watched, watched{name: "slack socket mode", platform: "slack", state: func() connState {
				st := a.Connection()
				return connState{Connected: st.Connected, Since: st.Since, Err: st.Err, Reconnects: st.Reconnects}
			}})
			log.Info("slack: connecting in Socket Mode")
		}
		set.stops = append(set.stops, func(ctx context.Context) {
			if err := a.Close(ctx); err != nil {
				log.Warn("slack: in-flight clicks cut short at shutdown", "err", err)
			}
		})
	}
	if discordOn {
		a, err := discord.New(svc, discord.Config{
			PublicKey: cfg.DiscordPublicKey, BotToken: cfg.DiscordBotToken, ApplicationID: cfg.DiscordAppID,
			GuildID: cfg.DiscordGuildID, APIURL: cfg.DiscordAPIURL, Observe: m.observe("discord"),
			ReconnectMax: cfg.ReconnectMax, Pictures: true,
		}, log)
		if err != nil {
			return nil, err
		}
		if cfg.DiscordPublicKey != "" {
			a.Register(mux)
			log.Info("discord: serving POST /discord/interactions")
		}
		if cfg.DiscordBotToken != "" {
			set.background(ctx, a.RunGateway)
			set.watched = append(set.watched, watched{name: "discord gateway", platform: "discord", state: func() connState {
				st := a.Connection()
				return connState{Connected: st.Connected, Since: st.Since, Err: st.Err, Reconnects: st.Reconnects}
			}})
			log.Info("discord: connecting to the Gateway")
		}
		set.stops = append(set.stops, func(ctx context.Context) { _ = a.Close(ctx) })
	}
	return set, nil
}

// runRegister registers the /connect4 command with Discord: globally, or in
// DISCORD_GUILD_ID only (instant, for setup).
func runRegister(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) error {
	me, _ := lookup("register")
	if err := parseFlags(me, flag.NewFlagSet("register", flag.ContinueOnError), args, stdout, stderr); err != nil {
		return err
	}
	cfg, err := loadConfig(getenv, forRegister)
	var errs []error
	if err != nil {
		errs = append(errs, err)
	}
	if cfg.DiscordAppID == "" {
		errs = append(errs, &configError{Var: "DISCORD_APPLICATION_ID", Msg: "required to register commands (the Application ID in the Developer Portal)"})
	}
	if cfg.DiscordBotToken == "" {
		errs = append(errs, &configError{Var: "DISCORD_BOT_TOKEN", Msg: "required to register commands (the bot's token, without \"Bot \")"})
	}
	if len(errs) > 0 {
		return fmt.Errorf("configuration:\n%w", errors.Join(errs...))
	}
	if err := discord.RegisterCommands(ctx, nil, cfg.DiscordAPIURL, cfg.DiscordBotToken, cfg.DiscordAppID, cfg.DiscordGuildID); err != nil {
		return fmt.Errorf("register: %w", err)
	}
	scope := "globally (may take up to an hour to appear)"
	if cfg.DiscordGuildID != "" {
		scope = "in guild " + cfg.DiscordGuildID
	}
	fmt.Fprintf(stdout, "registered /connect4 %s\n", scope)
	return nil
}

// servePprof serves Go's profiler on its own listener, apart from the
// public one, for operators who opt in with CONNECT4_PPROF_ADDR.
func servePprof(addr string, log *slog.Logger) (stop func(), err error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("CONNECT4_PPROF_ADDR: %w", err)
	}
	mux := http.NewServeMux()
	mux.HandleFunc("/debug/pprof/", pprof.Index)
	mux.HandleFunc("/debug/pprof/cmdline", pprof.Cmdline)
	mux.HandleFunc("/debug/pprof/profile", pprof.Profile)
	mux.HandleFunc("/debug/pprof/symbol", pprof.Symbol)
	mux.HandleFunc("/debug/pprof/trace", pprof.Trace)
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 5 * time.Second}
	go func() { _ = srv.Serve(ln) }()
	log.Warn("serving /debug/pprof: keep this address private", "addr", ln.Addr().String())
	return func() { _ = srv.Close() }, nil
}
