package main

import (
	"io"
	"log/slog"
	"net"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
)

// TestRedisClientTimeouts checks that every Redis mode gets the chat-sized
// limits of CONNECT4_REDIS_TIMEOUT, with context deadlines reaching the
// socket, and that a URL's own settings win.
func TestRedisClientTimeouts(t *testing.T) {
	tests := []struct {
		name string
		env  []string
		read time.Duration // want
		dial time.Duration
	}{
		{"url", []string{"REDIS_URL", "redis://127.0.0.1:1/0"}, time.Second, time.Second},
		{"url with its own", []string{"REDIS_URL", "redis://127.0.0.1:1/0?read_timeout=300ms", "CONNECT4_REDIS_TIMEOUT", "700ms"},
			300 * time.Millisecond, 700 * time.Millisecond},
		{"cluster", []string{"REDIS_CLUSTER_ADDRS", "127.0.0.1:1,127.0.0.1:2"}, time.Second, time.Second},
		{"sentinel", []string{"REDIS_SENTINEL_ADDRS", "127.0.0.1:1", "REDIS_SENTINEL_MASTER", "m", "CONNECT4_REDIS_TIMEOUT", "2s"},
			2 * time.Second, 2 * time.Second},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			cfg, err := loadConfig(env(tt.env...), 0)
			if err != nil {
				t.Fatal(err)
			}
			c, err := cfg.redisClient()
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			var o struct {
				ctxTimeout                      bool
				dial, read, write, pool, backof time.Duration
				retries, dialAttempts           int
			}
			switch c := c.(type) {
			case *redis.Client:
				opt := c.Options()
				o.ctxTimeout, o.dial, o.read, o.write, o.pool = opt.ContextTimeoutEnabled, opt.DialTimeout, opt.ReadTimeout, opt.WriteTimeout, opt.PoolTimeout
				o.backof, o.retries, o.dialAttempts = opt.MaxRetryBackoff, opt.MaxRetries, opt.DialerRetries
			case *redis.ClusterClient:
				opt := c.Options()
				o.ctxTimeout, o.dial, o.read, o.write, o.pool = opt.ContextTimeoutEnabled, opt.DialTimeout, opt.ReadTimeout, opt.WriteTimeout, opt.PoolTimeout
				o.backof, o.retries, o.dialAttempts = opt.MaxRetryBackoff, opt.MaxRetries, opt.DialerRetries
			default:
				t.Fatalf("client %T", c)
			}
			timeout := cfg.RedisTimeout
			if !o.ctxTimeout || o.dial != tt.dial || o.read != tt.read || o.write != timeout || o.pool != timeout {
				t.Errorf("ContextTimeoutEnabled %v, dial %v, read %v, write %v, pool %v; want true, %v, %v, %v, %v",
					o.ctxTimeout, o.dial, o.read, o.write, o.pool, tt.dial, tt.read, timeout, timeout)
			}
			if o.retries != 1 || o.backof > 100*time.Millisecond || o.dialAttempts != 1 {
				t.Errorf("retries %d with backoff up to %v, dial attempts %d; want 1, at most 100ms, 1", o.retries, o.backof, o.dialAttempts)
			}
		})
	}
}

// goRedisFormat matches a line of go-redis's own logger
// ("redis: 2026/12/01 08:02:36 pool.go:770: ...").
var goRedisFormat = regexp.MustCompile(`redis: \d{4}/\d\d/\d\d |\.go:\d+: `)

// waitStderr waits up to 5 s for want in p's stderr.
func (p *playSession) waitStderr(t *testing.T, want string) {
	t.Helper()
	for deadline := time.Now().Add(5 * time.Second); !strings.Contains(p.err.String(), want); {
		if time.Now().After(deadline) {
			t.Fatalf("stderr lacks %q:\n%s", want, p.err.String())
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// TestPlayRedisDown checks that with nothing listening at REDIS_URL each
// command is answered with the store sentence within 300 ms, and that
// go-redis's own log goes through slog.
func TestPlayRedisDown(t *testing.T) {
	dead := freeAddr(t) // nothing listens here
	p := startPlay(t, env("REDIS_URL", "redis://"+dead+"/0"))
	p.waitStderr(t, "redis not reachable yet")
	for _, cmd := range []string{"/connect4 board", "/connect4 @bob", "/connect4 leaderboard"} {
		took := p.command(t, cmd, "The game store is unavailable, try again in a moment.", 300*time.Millisecond)
		t.Logf("%s answered in %v", cmd, took)
	}
	p.in.Close()
	// go-redis's default logger writes to os.Stderr, which p.err is not:
	// its lines in p.err, in slog's format, show the redirection.
	s := p.err.String()
	if goRedisFormat.MatchString(s) || !strings.Contains(s, `level=WARN msg="redis client" message="redis: connection pool: failed to dial`) {
		t.Errorf("go-redis's own log lines are not slog Warn lines with a message attribute:\n%s", s)
	}
	if n := strings.Count(s, `msg="redis client"`); n > 2 {
		t.Errorf("%d go-redis lines for 3 commands, want each kind at most once:\n%s", n, s)
	}
}

// silentRedis is a listener that accepts connections and reads from them
// but never answers, like a Redis stopped with SIGSTOP.
func silentRedis(t *testing.T) string {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	var mu sync.Mutex
	var conns []net.Conn
	wg.Go(func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			mu.Lock()
			conns = append(conns, c)
			mu.Unlock()
			wg.Go(func() { io.Copy(io.Discard, c) })
		}
	})
	t.Cleanup(func() {
		ln.Close()
		mu.Lock()
		for _, c := range conns {
			c.Close()
		}
		mu.Unlock()
		wg.Wait()
	})
	return ln.Addr().String()
}

// TestPlayRedisSilent checks that a Redis that accepts and never answers
// gets each command answered with the store sentence within 1.5 s.
func TestPlayRedisSilent(t *testing.T) {
	p := startPlay(t, env("REDIS_URL", "redis://"+silentRedis(t)+"/0"))
	p.waitStderr(t, "redis not reachable yet")
	for _, cmd := range []string{"/connect4 board", "/connect4 @bob"} {
		took := p.command(t, cmd, "The game store is unavailable, try again in a moment.", 1500*time.Millisecond)
		t.Logf("%s answered in %v", cmd, took)
	}
	p.in.Close()
	if s := p.err.String(); goRedisFormat.MatchString(s) {
		t.Errorf("go-redis logged in its own format:\n%s", s)
	}
}

func TestRedisLoggerRepeats(t *testing.T) {
	var buf syncBuffer
	l := newRedisLogger(slog.New(slog.NewTextHandler(&buf, nil)), time.Hour)
	for range 5 {
		l.Printf(t.Context(), "redis: connection pool: failed to dial after %d attempts: %v", 1, "refused")
	}
	l.Printf(t.Context(), "redis: other %s", "thing")
	got := buf.String()
	if n := strings.Count(got, "\n"); n != 2 || !strings.Contains(got, `level=WARN msg="redis client" message="redis: connection pool: failed to dial after 1 attempts: refused"`) ||
		!strings.Contains(got, `message="redis: other thing"`) {
		t.Errorf("logged:\n%s\nwant one line per kind, at Warn, the text as message", got)
	}
	l.every = 0
	l.Printf(t.Context(), "redis: connection pool: failed to dial after %d attempts: %v", 1, "refused")
	if !strings.Contains(buf.String(), "repeated=4") {
		t.Errorf("the next line does not count the 4 left out:\n%s", buf.String())
	}
}
