package main

import (
	"context"
	"crypto/tls"
	"fmt"
	"log/slog"
	"sync"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/connect4/connect4/bot"
	"github.com/connect4/connect4/sessions"
)

// store is what serve needs of a store: what the bot uses, and a health
// check.
type store interface {
	bot.Store
	bot.Schedule
	Ping(ctx context.Context) error
}

// openStore returns the configured store and a func that closes it: Redis
// (single node, Sentinel or Cluster) when configured, else the in-memory
// store, the documented default, without a word: serve says which store it
// uses in its "listening" line. go-redis's own log goes to log from then on.
func openStore(ctx context.Context, cfg config, log *slog.Logger, hooks sessions.Hooks) (store, func(), error) {
	opt := sessions.Options{
		Prefix: cfg.RedisPrefix, IdleTTL: cfg.GameTTL, FinishedTTL: cfg.FinishedTTL, MaxGames: cfg.MaxGames, Hooks: hooks,
	}
	c, err := cfg.redisClient()
	if err != nil {
		return nil, nil, err
	}
	if c == nil {
		return sessions.NewMemory(opt), func() {}, nil
	}
	redis.SetLogger(newRedisLogger(log, 10*time.Second))
	st := sessions.NewRedis(c, opt)
	pctx, cancel := context.WithTimeout(ctx, 3*time.Second)
	defer cancel()
	if err := st.Ping(pctx); err != nil {
		// Not fatal: /readyz reports it and requests get "try again".
		log.Warn("redis not reachable yet", "mode", cfg.redisMode(), "err", err)
	} else {
		log.Info("using redis", "mode", cfg.redisMode())
	}
	return st, func() {
		if err := c.Close(); err != nil {
			log.Warn("closing redis", "err", fmt.Sprint(err))
		}
	}, nil
}

// redisLogger sends go-redis's own log lines (pool dial failures and the
// like) to slog at Warn, the text as the "message" attribute, instead of
// go-redis's default log.Logger on stderr. While Redis is down the pool
// reports every failed dial; the bot already logs each failed command, so
// each kind of line (its format) is logged at most once per every, with
// the number of lines left out since. It is safe for concurrent use.
type redisLogger struct {
	log   *slog.Logger
	every time.Duration

	mu   sync.Mutex
	last map[string]redisLogged // by format
}

// redisLogged is when a kind of line was last logged, and how many were
// left out since.
type redisLogged struct {
	at      time.Time
	dropped int
}

func newRedisLogger(log *slog.Logger, every time.Duration) *redisLogger {
	return &redisLogger{log: log, every: every, last: map[string]redisLogged{}}
}

// Printf implements go-redis's internal.Logging.
func (l *redisLogger) Printf(ctx context.Context, format string, v ...any) {
	now := time.Now()
	l.mu.Lock()
	prev, seen := l.last[format]
	if seen && now.Sub(prev.at) < l.every {
		prev.dropped++
		l.last[format] = prev
		l.mu.Unlock()
		return
	}
	l.last[format] = redisLogged{at: now}
	l.mu.Unlock()
	attrs := []any{"message", fmt.Sprintf(format, v...)}
	if prev.dropped > 0 {
		attrs = append(attrs, "repeated", prev.dropped)
	}
	l.log.WarnContext(ctx, "redis client", attrs...)
}

// redisMode says which store the configuration asks for, for logs.
func (c config) redisMode() string {
	switch {
	case c.RedisURL != "":
		return "redis"
	case len(c.RedisClusterAddrs) > 0:
		return "redis-cluster"
	case len(c.RedisSentinelAddrs) > 0:
		return "redis-sentinel"
	}
	return "memory"
}

// Retry limits of every Redis mode, sized for a chat reply like
// CONNECT4_REDIS_TIMEOUT: go-redis's defaults (5 dial attempts 100 ms
// apart, 3 retries with up to 1 s of backoff, 5 s dial and read, context
// deadlines ignored) let one command outlast Discord's and Slack's 3 s.
// One retry: go-redis retries dial failures, EOFs and read timeouts, and a
// retry after a read timeout doubles the wait; ContextTimeoutEnabled makes
// a command's own deadline bound the retry too.
const (
	redisRetries      = 1
	redisMinBackoff   = 8 * time.Millisecond
	redisMaxBackoff   = 100 * time.Millisecond
	redisDialAttempts = 1
)

// setDur sets *d to v unless it is set already (by a URL's query).
func setDur(d *time.Duration, v time.Duration) {
	if *d == 0 {
		*d = v
	}
}

// redisClient returns the client for the configured Redis, or nil for the
// in-memory store. One go-redis UniversalClient serves all three modes,
// each with the limits of redisTimeouts; a REDIS_URL's own dial_timeout,
// read_timeout, write_timeout, pool_timeout, max_retries,
// min_retry_backoff and max_retry_backoff take precedence.
func (c config) redisClient() (redis.UniversalClient, error) {
	t := c.RedisTimeout
	switch c.redisMode() {
	case "redis":
		opt, err := redis.ParseURL(c.RedisURL)
		if err != nil {
			return nil, fmt.Errorf("REDIS_URL: %s", redactErr(err, c.RedisURL))
		}
		for _, d := range []*time.Duration{&opt.DialTimeout, &opt.ReadTimeout, &opt.WriteTimeout, &opt.PoolTimeout} {
			setDur(d, t)
		}
		setDur(&opt.MinRetryBackoff, redisMinBackoff)
		setDur(&opt.MaxRetryBackoff, min(redisMaxBackoff, t/10))
		if opt.MaxRetries == 0 {
			opt.MaxRetries = redisRetries
		}
		opt.DialerRetries, opt.DialerRetryTimeout, opt.ContextTimeoutEnabled = redisDialAttempts, redisMinBackoff, true
		return redis.NewClient(opt), nil
	case "redis-cluster", "redis-sentinel":
		opt := &redis.UniversalOptions{
			Addrs:      append(append([]string{}, c.RedisClusterAddrs...), c.RedisSentinelAddrs...),
			MasterName: c.RedisSentinelMaster, Username: c.RedisUsername, Password: c.RedisPassword,
			IsClusterMode: c.redisMode() == "redis-cluster",

			DialTimeout: t, ReadTimeout: t, WriteTimeout: t, PoolTimeout: t, ContextTimeoutEnabled: true,
			MaxRetries: redisRetries, MinRetryBackoff: redisMinBackoff, MaxRetryBackoff: min(redisMaxBackoff, t/10),
			DialerRetries: redisDialAttempts, DialerRetryTimeout: redisMinBackoff,
		}
		if c.RedisTLS {
			opt.TLSConfig = &tls.Config{MinVersion: tls.VersionTLS12}
		}
		return redis.NewUniversalClient(opt), nil
	}
	return nil, nil
}
