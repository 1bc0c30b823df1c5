package main

import (
	"crypto/ed25519"
	"encoding/hex"
	"errors"
	"fmt"
	"log/slog"
	"net/url"
	"regexp"
	"strconv"
	"strings"
	"time"

	"github.com/connect4/connect4/bot"
	"github.com/redis/go-redis/v9"
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

	// Redis: at most one of URL, cluster addresses, sentinel addresses.
	RedisURL            string
	RedisClusterAddrs   []string
	RedisSentinelAddrs  []string
	RedisSentinelMaster string
	RedisUsername       string
	RedisPassword       string
	RedisTLS            bool
	RedisPrefix         string
	RedisTimeout        time.Duration

	ChallengeTTL time.Duration
	TurnTimeout  time.Duration
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

	SlackSigningSecret, SlackBotToken, SlackAppToken, SlackAPIURL string
	// PublicURL is where this server is reachable from outside
	// (CONNECT4_PUBLIC_URL): Slack then shows boards as pictures the bot
	// serves at /boards/.
	PublicURL                                                                      string
	DiscordPublicKey, DiscordBotToken, DiscordAppID, DiscordGuildID, DiscordAPIURL string
}

// envVar documents one environment variable, for the configuration table in
// the README, `connect4 help` and each subcommand's --help.
type envVar struct {
	name, def, doc string
	uses           uses // the subcommands that read it
}

// uses is a set of subcommands, for the variables each one reads.
type uses uint8

const (
	forPlay uses = 1 << iota
	forServe
	forRegister

	forStore = forPlay | forServe // the store and the game rules
)

var envVars = []envVar{
	{"CONNECT4_ADDR", ":8080", "listen address of `connect4 serve`", forServe},
	{"CONNECT4_SHUTDOWN_TIMEOUT", "10s", "how long shutdown waits for in-flight requests", forServe},
	{"CONNECT4_UNHEALTHY_AFTER", "5m", "/healthz fails once the Discord Gateway or Slack Socket Mode connection has been down this long, so that the orchestrator restarts the process", forServe},
	{"CONNECT4_RECONNECT_MAX", "1m", "longest wait between two attempts to connect to the Gateway or Socket Mode (the waits start at 500ms and double, with jitter)", forServe},
	{"CONNECT4_PPROF_ADDR", "", "if set, serve Go's /debug/pprof on this address (keep it on loopback)", forServe},
	{"REDIS_URL", "", "redis:// or rediss:// URL of a single Redis; unset (and no cluster or sentinel): in-memory store", forStore},
	{"REDIS_CLUSTER_ADDRS", "", "comma-separated host:port seeds of a Redis Cluster", forStore},
	{"REDIS_SENTINEL_ADDRS", "", "comma-separated host:port of Redis Sentinels (with REDIS_SENTINEL_MASTER)", forStore},
	{"REDIS_SENTINEL_MASTER", "", "master name watched by the Sentinels", forStore},
	{"REDIS_USERNAME", "", "ACL user for cluster or sentinel mode (REDIS_URL carries its own)", forStore},
	{"REDIS_PASSWORD", "", "password for cluster or sentinel mode", forStore},
	{"REDIS_TLS", "false", "use TLS for cluster or sentinel mode", forStore},
	{"REDIS_PREFIX", "c4:", "prefix of every Redis key (no braces)", forStore},
	{"CONNECT4_REDIS_TIMEOUT", "1s", "dial, read, write and pool timeout of every Redis call (a URL's own dial_timeout etc. win)", forStore},
	{"CONNECT4_CHALLENGE_TTL", "10m", "how long a challenge waits for an answer", forStore},
	{"CONNECT4_TURN_TIMEOUT", "24h", "idle time after which the waiting player may `/connect4 claim` the game", forStore},
	{"CONNECT4_GAME_TTL", "168h", "an idle game is forgotten after this long", forStore},
	{"CONNECT4_FINISHED_TTL", "24h", "a finished game stays readable this long", forStore},
	{"CONNECT4_MAX_GAMES", "10", "active games (and open challenges) one channel may hold at once", forStore},
	{"CONNECT4_AI_BUDGET", "1s", "thinking time of the AI per move", forStore},
	{"CONNECT4_AI_CONCURRENCY", "", "AI searches running at once (default: the number of CPUs); beyond it a move waits up to a second, then the player is asked to try again", forStore},
	{"LOG_FORMAT", "text", "text or json", forStore},
	{"LOG_LEVEL", "info", "debug, info, warn or error", forStore},
	{"SLACK_SIGNING_SECRET", "", "enables POST /slack/commands and /slack/interactions", forServe},
	{"SLACK_BOT_TOKEN", "", "xoxb- token: Web API calls, Socket Mode", forServe},
	{"SLACK_APP_TOKEN", "", "xapp- token: enables Socket Mode (with SLACK_BOT_TOKEN)", forServe},
	{"SLACK_API_URL", "", "base URL of Slack's Web API (tests, proxies)", forServe},
	{"CONNECT4_PUBLIC_URL", "", "public https base URL of this server: Slack boards become pictures served at GET /boards/<signed, expiring token>.png (without it they are uploaded, with files:write)", forServe},
	{"DISCORD_PUBLIC_KEY", "", "hex Ed25519 key: enables POST /discord/interactions", forServe},
	{"DISCORD_BOT_TOKEN", "", "enables the Gateway connection; needed by `connect4 register`", forServe | forRegister},
	{"DISCORD_APPLICATION_ID", "", "application id: deferred edits, `connect4 register`", forServe | forRegister},
	{"DISCORD_GUILD_ID", "", "register commands in one guild only (instant, for setup)", forRegister},
	{"DISCORD_API_URL", "", "base URL of Discord's REST API, with or without /api (tests)", forServe | forRegister},
}

// configError is one problem with the environment: the variable and what
// is wrong with it, with what a valid value looks like.
type configError struct{ Var, Msg string }

// Error returns "VAR: message".
func (e *configError) Error() string { return e.Var + ": " + e.Msg }

// loadConfig reads the environment through getenv and reports every
// problem at once, each a *configError naming its variable. Only the
// variables read by the subcommands in u are checked (all when u is 0).
func loadConfig(getenv func(string) string, u uses) (config, error) {
	var errs []error
	bad := func(name, format string, args ...any) {
		if u == 0 || varUses(name)&u != 0 {
			errs = append(errs, &configError{Var: name, Msg: fmt.Sprintf(format, args...)})
		}
	}
	get := func(name string) string {
		v := strings.TrimSpace(getenv(name))
		if v == "" {
			for _, e := range envVars {
				if e.name == name {
					return e.def
				}
			}
		}
		return v
	}
	dur := func(name string, lo, hi time.Duration) time.Duration {
		s := get(name)
		d, err := time.ParseDuration(s)
		switch {
		case err != nil:
			bad(name, "%q is not a duration (like 90s, 10m, 24h)", s)
		case d < lo || d > hi:
			bad(name, "%v out of range %v..%v", d, lo, hi)
		}
		return d
	}
	count := func(name string, lo, hi int) int {
		s := get(name)
		if s == "" {
			return 0
		}
		n, err := strconv.Atoi(s)
		if err != nil || n < lo || n > hi {
			bad(name, "%q is not a whole number from %d to %d", s, lo, hi)
			return 0
		}
		return n
	}
	list := func(name string) []string {
		var out []string
		for _, a := range strings.Split(get(name), ",") {
			if a = strings.TrimSpace(a); a != "" {
				out = append(out, a)
			}
		}
		return out
	}
	c := config{
		Addr:                get("CONNECT4_ADDR"),
		PprofAddr:           get("CONNECT4_PPROF_ADDR"),
		ShutdownTimeout:     dur("CONNECT4_SHUTDOWN_TIMEOUT", time.Second, 10*time.Minute),
		UnhealthyAfter:      dur("CONNECT4_UNHEALTHY_AFTER", time.Second, 24*time.Hour),
		ReconnectMax:        dur("CONNECT4_RECONNECT_MAX", 100*time.Millisecond, time.Hour),
		RedisURL:            get("REDIS_URL"),
		RedisClusterAddrs:   list("REDIS_CLUSTER_ADDRS"),
		RedisSentinelAddrs:  list("REDIS_SENTINEL_ADDRS"),
		RedisSentinelMaster: get("REDIS_SENTINEL_MASTER"),
		RedisUsername:       get("REDIS_USERNAME"),
		RedisPassword:       getenv("REDIS_PASSWORD"),
		RedisPrefix:         get("REDIS_PREFIX"),
		RedisTimeout:        dur("CONNECT4_REDIS_TIMEOUT", 50*time.Millisecond, 30*time.Second),
		ChallengeTTL:        dur("CONNECT4_CHALLENGE_TTL", time.Minute, 7*24*time.Hour),
		TurnTimeout:         dur("CONNECT4_TURN_TIMEOUT", time.Minute, 30*24*time.Hour),
		GameTTL:             dur("CONNECT4_GAME_TTL", time.Hour, 365*24*time.Hour),
		FinishedTTL:         dur("CONNECT4_FINISHED_TTL", time.Minute, 30*24*time.Hour),
		AIBudget:            dur("CONNECT4_AI_BUDGET", 10*time.Millisecond, 2*time.Second),
		AIConcurrency:       count("CONNECT4_AI_CONCURRENCY", 1, 1024),
		MaxGames:            count("CONNECT4_MAX_GAMES", 1, 1000),
		LogFormat:           strings.ToLower(get("LOG_FORMAT")),
		SlackSigningSecret:  getenv("SLACK_SIGNING_SECRET"),
		SlackBotToken:       getenv("SLACK_BOT_TOKEN"),
		SlackAppToken:       getenv("SLACK_APP_TOKEN"),
		SlackAPIURL:         get("SLACK_API_URL"),
		PublicURL:           get("CONNECT4_PUBLIC_URL"),
		DiscordPublicKey:    get("DISCORD_PUBLIC_KEY"),
		DiscordBotToken:     getenv("DISCORD_BOT_TOKEN"),
		DiscordAppID:        get("DISCORD_APPLICATION_ID"),
		DiscordGuildID:      get("DISCORD_GUILD_ID"),
		DiscordAPIURL:       get("DISCORD_API_URL"),
	}
	switch tlsOn := strings.ToLower(get("REDIS_TLS")); tlsOn {
	case "true", "1", "yes":
		c.RedisTLS = true
	case "false", "0", "no":
	default:
		bad("REDIS_TLS", "%q is not true or false", tlsOn)
	}
	if err := c.LogLevel.UnmarshalText([]byte(get("LOG_LEVEL"))); err != nil {
		bad("LOG_LEVEL", "%q is not debug, info, warn or error", get("LOG_LEVEL"))
	}
	if c.LogFormat != "text" && c.LogFormat != "json" {
		bad("LOG_FORMAT", "%q is not text or json", c.LogFormat)
	}
	modes := 0
	if c.RedisURL != "" {
		modes++
		if _, err := redis.ParseURL(c.RedisURL); err != nil {
			bad("REDIS_URL", "%v (want redis://[user:password@]host:6379/0 or rediss://...)", redactErr(err, c.RedisURL))
		}
	}
	if len(c.RedisClusterAddrs) > 0 {
		modes++
	}
	if len(c.RedisSentinelAddrs) > 0 {
		modes++
		if c.RedisSentinelMaster == "" {
			bad("REDIS_SENTINEL_MASTER", "required with REDIS_SENTINEL_ADDRS")
		}
	} else if c.RedisSentinelMaster != "" {
		bad("REDIS_SENTINEL_ADDRS", "required with REDIS_SENTINEL_MASTER")
	}
	if modes > 1 {
		bad("REDIS_URL", "set only one of REDIS_URL, REDIS_CLUSTER_ADDRS and REDIS_SENTINEL_ADDRS")
	}
	for _, l := range []struct {
		name  string
		addrs []string
	}{{"REDIS_CLUSTER_ADDRS", c.RedisClusterAddrs}, {"REDIS_SENTINEL_ADDRS", c.RedisSentinelAddrs}} {
		for _, a := range l.addrs {
			if !strings.Contains(a, ":") {
				bad(l.name, "%q is not host:port (like 10.0.0.1:6379)", a)
			}
		}
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
	c.DiscordAPIURL = discordBase(c.DiscordAPIURL)
	if msg := checkPublicKey(c.DiscordPublicKey); msg != "" {
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
	return c, errors.Join(errs...)
}

// discordBase returns a DISCORD_API_URL without a trailing /api or
// /api/v<N> (and slash): the adapter adds Discord's /api/v9 path itself,
// so "https://discord.com/api" and "https://discord.com" mean the same.
func discordBase(s string) string {
	s = strings.TrimRight(s, "/")
	if i := strings.LastIndex(s, "/api/v"); i >= 0 && strings.Trim(s[i+len("/api/v"):], "0123456789") == "" && i+len("/api/v") < len(s) {
		s = s[:i]
	}
	return strings.TrimSuffix(s, "/api")
}

// checkPublicKey checks DISCORD_PUBLIC_KEY: empty, or the 64 hex
// characters of an Ed25519 public key, as the Developer Portal shows it.
// It returns what is wrong, without repeating the value, or "".
func checkPublicKey(s string) string {
	const want = "must be 64 hex characters (the application's Public Key in the Developer Portal)"
	switch _, err := hex.DecodeString(s); {
	case s == "":
		return ""
	case len(s) != 2*ed25519.PublicKeySize:
		return fmt.Sprintf("%s, not %d", want, len(s))
	case err != nil:
		return want + "; it holds a character that is not 0-9 or a-f"
	}
	return ""
}

// varUses returns the subcommands that read the variable name.
func varUses(name string) uses {
	for _, e := range envVars {
		if e.name == name {
			return e.uses
		}
	}
	return 0
}

var urlCredentials = regexp.MustCompile(`://[^/@\s]*@`)

// redactErr returns err's text with any credentials of a URL in it
// removed: a URL parse error quotes the whole URL, password and all.
func redactErr(err error, _ string) string {
	return urlCredentials.ReplaceAllString(err.Error(), "://xxxxx@")
}

// botOptions are the bot's options from cfg, with the given logger and hooks.
func botOptions(cfg config, log *slog.Logger, hooks bot.Hooks) bot.Options {
	return bot.Options{ChallengeTTL: cfg.ChallengeTTL, TurnTimeout: cfg.TurnTimeout,
		AIBudget: cfg.AIBudget, AIConcurrency: cfg.AIConcurrency, Logger: log, Hooks: hooks}
}
