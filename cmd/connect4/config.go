package main

import (
	"log/slog"
	"net/url"
	"strings"
	"time"

	"github.com/connect4/connect4/bot"
	"github.com/connect4/connect4/bot/discord"
	"github.com/connect4/connect4/bot/ops"
	"github.com/connect4/connect4/sessions"
)

// config is everything connect4 reads from the environment.
type config struct {
	Addr            string
	PprofAddr       string
	ShutdownTimeout time.Duration
	// UnhealthyAfter is how long a platform connection may be down before
	// /healthz fails; ReconnectMax the longest wait between two attempts.
	UnhealthyAfter time.Duration
	ReconnectMax   time.Duration
	// AdaptiveProcs runs the server on one P while its load fits in one
	// core (CONNECT4_PROCS=adaptive; see ops.Procs).
	AdaptiveProcs bool

	Redis       sessions.Conn
	RedisPrefix string
	// RedisUnpipelined turns off the sharing of round trips between
	// concurrent writes (sessions.Options.Unpipelined).
	RedisUnpipelined bool

	ChallengeTTL time.Duration
	TurnTimeout  time.Duration
	RemindAfter  time.Duration // 0: no reminders
	SchedulePoll time.Duration
	GameTTL      time.Duration
	FinishedTTL  time.Duration
	AIBudget     time.Duration
	// AIConcurrency bounds the AI searches running at once; 0 means the
	// number of CPUs.
	AIConcurrency int
	// MaxGames is how many active games a channel may hold.
	MaxGames int

	LogFormat string
	LogLevel  slog.Level

	SlackSigningSecret, SlackBotToken, SlackAppToken, SlackAPIURL                  string
	DiscordPublicKey, DiscordBotToken, DiscordAppID, DiscordGuildID, DiscordAPIURL string

	// PublicURL is where this server is reachable from outside
	// (CONNECT4_PUBLIC_URL): Slack then shows boards as pictures the bot
	// serves at /boards/.
	PublicURL string

	// SlackInstall is Slack's many-workspace mode ("Add to Slack"; see
	// slackinstall.go).
	SlackInstall slackInstall
	// PageTTL is how long a link to a web page works (CONNECT4_PAGE_TTL).
	PageTTL time.Duration
}

// uses is a set of subcommands, for the variables each one reads (Var.Uses).
type uses = uint

const (
	forPlay uses = 1 << iota
	forServe
	forRegister

	forStore = forPlay | forServe // the store and the game rules
)

// v documents a variable read by the subcommands in u.
func v(name, def, doc string, u uses) ops.Var {
	return ops.Var{Name: name, Default: def, Doc: doc, Uses: u}
}

var envVars = []ops.Var{
	v("CONNECT4_ADDR", ":8080", "listen address of `connect4 serve`", forServe),
	v("CONNECT4_SHUTDOWN_TIMEOUT", "10s", "how long shutdown waits for in-flight requests", forServe),
	v("CONNECT4_UNHEALTHY_AFTER", "5m", "/healthz fails once the Discord Gateway or Slack Socket Mode connection has been down this long, so that the orchestrator restarts the process", forServe),
	v("CONNECT4_RECONNECT_MAX", "1m", "longest wait between two attempts to connect to the Gateway or Socket Mode (the waits start at 500ms and double, with jitter)", forServe),
	v("CONNECT4_PROCS", "adaptive", "adaptive: Go runs the server's goroutines on one thread at a time (GOMAXPROCS=1) while its load fits in one core, which saves the CPU of waking a second thread for each goroutine that becomes ready, and on every CPU once it fills one; all: on every CPU always. A GOMAXPROCS variable wins over both", forServe),
	v("CONNECT4_PPROF_ADDR", "", "if set, serve Go's /debug/pprof on this address (keep it on loopback)", forServe),
	v("REDIS_URL", "", "redis:// or rediss:// URL of a single Redis; unset (and no cluster or sentinel): in-memory store", forStore),
	v("REDIS_CLUSTER_ADDRS", "", "comma-separated host:port seeds of a Redis Cluster", forStore),
	v("REDIS_SENTINEL_ADDRS", "", "comma-separated host:port of Redis Sentinels (with REDIS_SENTINEL_MASTER)", forStore),
	v("REDIS_SENTINEL_MASTER", "", "master name watched by the Sentinels", forStore),
	v("REDIS_USERNAME", "", "ACL user for cluster or sentinel mode (REDIS_URL carries its own)", forStore),
	v("REDIS_PASSWORD", "", "password for cluster or sentinel mode", forStore),
	v("REDIS_TLS", "false", "use TLS for cluster or sentinel mode", forStore),
	v("REDIS_PREFIX", "c4:", "prefix of every Redis key (no braces)", forStore),
	v("CONNECT4_REDIS_TIMEOUT", "1s", "dial, read, write and pool timeout of every Redis call (a URL's own dial_timeout etc. win)", forStore),
	v("CONNECT4_REDIS_UNPIPELINED", "false", "send each game write in a round trip of its own instead of sharing round trips between concurrent writes", forStore),
	v("CONNECT4_CHALLENGE_TTL", "10m", "how long a challenge waits for an answer", forStore),
	v("CONNECT4_TURN_TIMEOUT", "24h", "idle time after which the waiting player may `/connect4 claim` the game (the game's message then offers a Claim button)", forStore),
	v("CONNECT4_REMIND_AFTER", "1h", "how long after a turn began the player to move gets one reminder that notifies them; 0 turns reminders off", forStore),
	v("CONNECT4_SCHEDULE_POLL", "500ms", "how often each replica (and `connect4 play`) looks for due expiries, reminders, timeouts and abandoned games", forStore),
	v("CONNECT4_GAME_TTL", "168h", "an idle game is forgotten after this long", forStore),
	v("CONNECT4_FINISHED_TTL", "24h", "a finished game stays readable this long", forStore),
	v("CONNECT4_MAX_GAMES", "10", "active games (and open challenges) one channel may hold at once", forStore),
	v("CONNECT4_AI_BUDGET", "1s", "thinking time of the AI per move", forStore),
	v("CONNECT4_AI_CONCURRENCY", "", "AI searches running at once (default: the number of CPUs); beyond it a move waits up to a second, then the player is asked to try again", forStore),
	v("LOG_FORMAT", "text", "text or json", forStore),
	v("LOG_LEVEL", "info", "debug, info, warn or error", forStore),
	v("SLACK_SIGNING_SECRET", "", "enables POST /slack/commands and /slack/interactions", forServe),
	v("SLACK_BOT_TOKEN", "", "xoxb- token: Web API calls, Socket Mode", forServe),
	v("SLACK_APP_TOKEN", "", "xapp- token: enables Socket Mode (with SLACK_BOT_TOKEN)", forServe),
	v("SLACK_API_URL", "", "base URL of Slack's Web API (tests, proxies)", forServe),
	// Slack for every workspace ("Add to Slack", OAuth v2): slackinstall.go.
	v("SLACK_CLIENT_ID", "", "the app's Client ID: serves every workspace that installs the app at GET /slack/install (OAuth v2), instead of the one of SLACK_BOT_TOKEN; needs SLACK_CLIENT_SECRET, SLACK_SIGNING_SECRET and CONNECT4_SECRET_KEY", forServe),
	v("SLACK_CLIENT_SECRET", "", "the app's Client Secret, for oauth.v2.access (with SLACK_CLIENT_ID)", forServe),
	v("CONNECT4_SECRET_KEY", "", "32 random bytes in base64 (openssl rand -base64 32) sealing the workspaces' tokens at rest (AES-GCM) and signing install states; during a rotation two, comma-separated: the new one first (writes), then the old (still read)", forServe),
	v("CONNECT4_PUBLIC_URL", "", "public https base URL of this server: Slack boards become pictures served at GET /boards/<signed, expiring token>.png (without it they are uploaded, with files:write), and finished games, leaderboards and stats link to their web pages at /pages/ (without it, no links)", forServe),
	v("CONNECT4_PAGE_TTL", "720h", "how long a link to a game, channel or player page works", forStore),
	v("DISCORD_PUBLIC_KEY", "", "hex Ed25519 key: enables POST /discord/interactions", forServe),
	v("DISCORD_BOT_TOKEN", "", "enables the Gateway connection; needed by `connect4 register`", forServe|forRegister),
	v("DISCORD_APPLICATION_ID", "", "application id: deferred edits, `connect4 register`", forServe|forRegister),
	v("DISCORD_GUILD_ID", "", "register commands in one guild only (instant, for setup)", forRegister),
	v("DISCORD_API_URL", "", "base URL of Discord's REST API, with or without /api (tests)", forServe|forRegister),
}

// loadConfig reads the environment through getenv and reports every
// problem at once, each an *ops.VarError naming its variable. Only the
// variables read by the subcommands in u are checked (all when u is 0).
func loadConfig(getenv func(string) string, u uses) (config, error) {
	e := &ops.Env{Getenv: getenv, Vars: envVars, Uses: u}
	get, dur, count, list, bad := e.String, e.Duration, e.Count, e.List, e.Bad
	c := config{
		Addr:            get("CONNECT4_ADDR"),
		PprofAddr:       get("CONNECT4_PPROF_ADDR"),
		ShutdownTimeout: dur("CONNECT4_SHUTDOWN_TIMEOUT", time.Second, 10*time.Minute),
		UnhealthyAfter:  dur("CONNECT4_UNHEALTHY_AFTER", time.Second, 24*time.Hour),
		ReconnectMax:    dur("CONNECT4_RECONNECT_MAX", 100*time.Millisecond, time.Hour),
		Redis: sessions.Conn{
			URL: get("REDIS_URL"), ClusterAddrs: list("REDIS_CLUSTER_ADDRS"), SentinelAddrs: list("REDIS_SENTINEL_ADDRS"),
			SentinelMaster: get("REDIS_SENTINEL_MASTER"), Username: get("REDIS_USERNAME"), Password: e.Raw("REDIS_PASSWORD"),
			Timeout: dur("CONNECT4_REDIS_TIMEOUT", 50*time.Millisecond, 30*time.Second),
		},
		RedisPrefix:        get("REDIS_PREFIX"),
		ChallengeTTL:       dur("CONNECT4_CHALLENGE_TTL", time.Second, 7*24*time.Hour),
		TurnTimeout:        dur("CONNECT4_TURN_TIMEOUT", time.Second, 30*24*time.Hour),
		RemindAfter:        dur("CONNECT4_REMIND_AFTER", 0, 30*24*time.Hour),
		SchedulePoll:       dur("CONNECT4_SCHEDULE_POLL", 10*time.Millisecond, time.Minute),
		GameTTL:            dur("CONNECT4_GAME_TTL", time.Hour, 365*24*time.Hour),
		FinishedTTL:        dur("CONNECT4_FINISHED_TTL", time.Minute, 30*24*time.Hour),
		AIBudget:           dur("CONNECT4_AI_BUDGET", 10*time.Millisecond, 2*time.Second),
		AIConcurrency:      count("CONNECT4_AI_CONCURRENCY", 1, 1024),
		MaxGames:           count("CONNECT4_MAX_GAMES", 1, 1000),
		LogFormat:          strings.ToLower(get("LOG_FORMAT")),
		SlackSigningSecret: e.Raw("SLACK_SIGNING_SECRET"),
		SlackBotToken:      e.Raw("SLACK_BOT_TOKEN"),
		SlackAppToken:      e.Raw("SLACK_APP_TOKEN"),
		SlackAPIURL:        get("SLACK_API_URL"),
		PublicURL:          get("CONNECT4_PUBLIC_URL"),
		PageTTL:            dur("CONNECT4_PAGE_TTL", time.Minute, 10*365*24*time.Hour),
		DiscordPublicKey:   get("DISCORD_PUBLIC_KEY"),
		DiscordBotToken:    e.Raw("DISCORD_BOT_TOKEN"),
		DiscordAppID:       get("DISCORD_APPLICATION_ID"),
		DiscordGuildID:     get("DISCORD_GUILD_ID"),
		DiscordAPIURL:      get("DISCORD_API_URL"),
	}
	c.Redis.TLS = e.Bool("REDIS_TLS")
	c.RedisUnpipelined = e.Bool("CONNECT4_REDIS_UNPIPELINED")
	switch procs := strings.ToLower(get("CONNECT4_PROCS")); procs {
	case "adaptive", "all":
		c.AdaptiveProcs = procs == "adaptive"
	default:
		bad("CONNECT4_PROCS", "%q is not adaptive or all", procs)
	}
	c.SlackInstall = loadSlackInstall(e, c)
	if err := c.LogLevel.UnmarshalText([]byte(get("LOG_LEVEL"))); err != nil {
		bad("LOG_LEVEL", "%q is not debug, info, warn or error", get("LOG_LEVEL"))
	}
	if c.LogFormat != "text" && c.LogFormat != "json" {
		bad("LOG_FORMAT", "%q is not text or json", c.LogFormat)
	}
	for _, e := range c.Redis.Check() {
		bad(redisVars[e.Field], "%s", e.Msg)
	}
	if strings.ContainsAny(c.RedisPrefix, "{}") {
		bad("REDIS_PREFIX", "%q must not contain braces (they mark cluster hash tags)", c.RedisPrefix)
	}
	for _, u := range []struct{ name, val string }{{"SLACK_API_URL", c.SlackAPIURL}, {"DISCORD_API_URL", c.DiscordAPIURL}, {"CONNECT4_PUBLIC_URL", c.PublicURL}} {
		if u.val == "" {
			continue
		}
		if p, err := url.Parse(u.val); err != nil || (p.Scheme != "http" && p.Scheme != "https") || p.Host == "" ||
			p.RawQuery != "" || p.Fragment != "" {
			bad(u.name, "%q is not an http(s) base URL without query (like https://discord.com or http://127.0.0.1:9000)", u.val)
		}
	}
	if msg := discord.CheckPublicKey(c.DiscordPublicKey); msg != "" {
		bad("DISCORD_PUBLIC_KEY", "%s", msg)
	}
	if c.SlackAppToken != "" && !strings.HasPrefix(c.SlackAppToken, "xapp-") {
		bad("SLACK_APP_TOKEN", "an app-level token starts with xapp-")
	}
	if c.SlackBotToken != "" && !strings.HasPrefix(c.SlackBotToken, "xoxb-") {
		bad("SLACK_BOT_TOKEN", "a bot token starts with xoxb-")
	}
	if c.SlackAppToken != "" && c.SlackBotToken == "" {
		bad("SLACK_BOT_TOKEN", "required with SLACK_APP_TOKEN for Socket Mode")
	}
	if u == forRegister && c.DiscordAppID == "" {
		bad("DISCORD_APPLICATION_ID", "required to register commands (the Application ID in the Developer Portal)")
	}
	if u == forRegister && c.DiscordBotToken == "" {
		bad("DISCORD_BOT_TOKEN", "required to register commands (the bot's token, without \"Bot \")")
	}
	return c, e.Err()
}

// redisVars name the variable of each field of sessions.Conn.
var redisVars = map[string]string{"URL": "REDIS_URL", "ClusterAddrs": "REDIS_CLUSTER_ADDRS",
	"SentinelAddrs": "REDIS_SENTINEL_ADDRS", "SentinelMaster": "REDIS_SENTINEL_MASTER"}

// botOptions are the bot's options from cfg, with the given logger and hooks.
func botOptions(cfg config, log *slog.Logger, hooks bot.Hooks) bot.Options {
	return bot.Options{ChallengeTTL: cfg.ChallengeTTL, TurnTimeout: cfg.TurnTimeout,
		RemindAfter: cfg.RemindAfter, IdleAfter: bot.IdleBefore(cfg.GameTTL),
		AIBudget: cfg.AIBudget, AIConcurrency: cfg.AIConcurrency, Logger: log, Hooks: hooks}
}
