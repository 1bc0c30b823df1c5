package sessions

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"log/slog"
	"regexp"
	"strings"
	"sync"
	"time"

	"github.com/redis/go-redis/v9"
)

// Conn says how to reach Redis: at most one of URL, ClusterAddrs and
// SentinelAddrs (none means the in-memory store), with the limits of every
// call.
type Conn struct {
	URL            string   // redis:// or rediss:// URL of a single Redis
	ClusterAddrs   []string // host:port seeds of a Cluster
	SentinelAddrs  []string // host:port of Sentinels watching SentinelMaster
	SentinelMaster string
	// Username, Password and TLS are for cluster and sentinel mode; a URL
	// carries its own.
	Username, Password string
	TLS                bool
	// Timeout is the dial, read, write and pool timeout of every call; a
	// URL's own dial_timeout, read_timeout, write_timeout, pool_timeout,
	// max_retries, min_retry_backoff and max_retry_backoff win.
	Timeout time.Duration
}

// Mode says which store c asks for: "redis", "redis-cluster",
// "redis-sentinel" or "memory".
func (c Conn) Mode() string {
	switch {
	case c.URL != "":
		return "redis"
	case len(c.ClusterAddrs) > 0:
		return "redis-cluster"
	case len(c.SentinelAddrs) > 0:
		return "redis-sentinel"
	}
	return "memory"
}

// Check returns what is wrong with c, each problem naming the field
// ("URL", "ClusterAddrs", "SentinelAddrs", "SentinelMaster") it is about.
func (c Conn) Check() []*ConnError {
	var errs []*ConnError
	bad := func(field, format string, args ...any) {
		errs = append(errs, &ConnError{Field: field, Msg: fmt.Sprintf(format, args...)})
	}
	modes := 0
	if c.URL != "" {
		modes++
		if _, err := redis.ParseURL(c.URL); err != nil {
			bad("URL", "%s (want redis://[user:password@]host:6379/0 or rediss://...)", Redact(err))
		}
	}
	if len(c.ClusterAddrs) > 0 {
		modes++
	}
	if len(c.SentinelAddrs) > 0 {
		modes++
		if c.SentinelMaster == "" {
			bad("SentinelMaster", "required with sentinel addresses")
		}
	} else if c.SentinelMaster != "" {
		bad("SentinelAddrs", "required with a sentinel master name")
	}
	if modes > 1 {
		bad("URL", "set only one of a URL, cluster addresses and sentinel addresses")
	}
	for _, l := range []struct {
		field string
		addrs []string
	}{{"ClusterAddrs", c.ClusterAddrs}, {"SentinelAddrs", c.SentinelAddrs}} {
		for _, a := range l.addrs {
			if !strings.Contains(a, ":") {
				bad(l.field, "%q is not host:port (like 10.0.0.1:6379)", a)
			}
		}
	}
	return errs
}

// ConnError is one problem with a Conn.
type ConnError struct{ Field, Msg string }

// Error returns the message.
func (e *ConnError) Error() string { return e.Msg }

// Retry limits of every Redis mode, sized for a chat reply like
// Conn.Timeout: go-redis's defaults (5 dial attempts 100 ms apart, 3
// retries with up to 1 s of backoff, 5 s dial and read, context deadlines
// ignored) let one command outlast Discord's and Slack's 3 s. One retry:
// go-redis retries dial failures, EOFs and read timeouts, and a retry after
// a read timeout doubles the wait; ContextTimeoutEnabled makes a command's
// own deadline bound the retry too.
const (
	redisRetries      = 1
	redisMinBackoff   = 8 * time.Millisecond
	redisMaxBackoff   = 100 * time.Millisecond
	redisDialAttempts = 1
)

// Client returns the client for c, or nil for the in-memory store. One
// go-redis UniversalClient serves all three modes, each with the limits
// above.
func (c Conn) Client() (redis.UniversalClient, error) {
	t := c.Timeout
	if t <= 0 {
		t = time.Second
	}
	switch c.Mode() {
	case "redis":
		opt, err := redis.ParseURL(c.URL)
		if err != nil {
			return nil, errors.New(Redact(err))
		}
		for _, d := range []*time.Duration{&opt.DialTimeout, &opt.ReadTimeout, &opt.WriteTimeout, &opt.PoolTimeout} {
			if *d == 0 {
				*d = t
			}
		}
		if opt.MinRetryBackoff == 0 {
			opt.MinRetryBackoff = redisMinBackoff
		}
		if opt.MaxRetryBackoff == 0 {
			opt.MaxRetryBackoff = min(redisMaxBackoff, t/10)
		}
		if opt.MaxRetries == 0 {
			opt.MaxRetries = redisRetries
		}
		opt.DialerRetries, opt.DialerRetryTimeout, opt.ContextTimeoutEnabled = redisDialAttempts, redisMinBackoff, true
		return redis.NewClient(opt), nil
	case "redis-cluster", "redis-sentinel":
		opt := &redis.UniversalOptions{
			Addrs:      append(append([]string{}, c.ClusterAddrs...), c.SentinelAddrs...),
			MasterName: c.SentinelMaster, Username: c.Username, Password: c.Password,
			IsClusterMode: c.Mode() == "redis-cluster",

			DialTimeout: t, ReadTimeout: t, WriteTimeout: t, PoolTimeout: t, ContextTimeoutEnabled: true,
			MaxRetries: redisRetries, MinRetryBackoff: redisMinBackoff, MaxRetryBackoff: min(redisMaxBackoff, t/10),
			DialerRetries: redisDialAttempts, DialerRetryTimeout: redisMinBackoff,
		}
		if c.TLS {
			opt.TLSConfig = &tls.Config{MinVersion: tls.VersionTLS12}
		}
		return redis.NewUniversalClient(opt), nil
	}
	return nil, nil
}

var urlCredentials = regexp.MustCompile(`://[^/@\s]*@`)

// Redact returns err's text with any credentials of a URL in it removed: a
// URL parse error quotes the whole URL, password and all.
func Redact(err error) string {
	return urlCredentials.ReplaceAllString(err.Error(), "://xxxxx@")
}

// Logger sends go-redis's own log lines (pool dial failures and the like)
// to slog at Warn, the text as the "message" attribute, instead of
// go-redis's default log.Logger on stderr; install it with redis.SetLogger.
// While Redis is down the pool reports every failed dial, and the bot
// already logs each failed command, so each kind of line (its format) is
// logged at most once per Every, with the number of lines left out since.
// It is safe for concurrent use.
type Logger struct {
	log   *slog.Logger
	every time.Duration

	mu   sync.Mutex
	last map[string]logged // by format
}

// logged is when a kind of line was last logged, and how many were left
// out since.
type logged struct {
	at      time.Time
	dropped int
}

// NewLogger returns a Logger writing to log at most once per every for
// each kind of line.
func NewLogger(log *slog.Logger, every time.Duration) *Logger {
	return &Logger{log: log, every: every, last: map[string]logged{}}
}

// Printf implements go-redis's internal.Logging.
func (l *Logger) Printf(ctx context.Context, format string, v ...any) {
	now := time.Now()
	l.mu.Lock()
	prev, seen := l.last[format]
	if seen && now.Sub(prev.at) < l.every {
		prev.dropped++
		l.last[format] = prev
		l.mu.Unlock()
		return
	}
	l.last[format] = logged{at: now}
	l.mu.Unlock()
	attrs := []any{"message", fmt.Sprintf(format, v...)}
	if prev.dropped > 0 {
		attrs = append(attrs, "repeated", prev.dropped)
	}
	l.log.WarnContext(ctx, "redis client", attrs...)
}
