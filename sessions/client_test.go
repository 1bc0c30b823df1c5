package sessions

import (
	"bytes"
	"errors"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
)

// TestConnClientTimeouts checks that every Redis mode gets the chat-sized
// limits of Conn.Timeout, with context deadlines reaching the socket, and
// that a URL's own settings win.
func TestConnClientTimeouts(t *testing.T) {
	tests := []struct {
		name       string
		conn       Conn
		mode       string
		read, dial time.Duration // want
	}{
		{"url", Conn{URL: "redis://127.0.0.1:1/0", Timeout: time.Second}, "redis", time.Second, time.Second},
		{"url with its own", Conn{URL: "redis://127.0.0.1:1/0?read_timeout=300ms", Timeout: 700 * time.Millisecond}, "redis",
			300 * time.Millisecond, 700 * time.Millisecond},
		{"cluster", Conn{ClusterAddrs: []string{"127.0.0.1:1", "127.0.0.1:2"}, Timeout: time.Second}, "redis-cluster", time.Second, time.Second},
		{"sentinel", Conn{SentinelAddrs: []string{"127.0.0.1:1"}, SentinelMaster: "m", Timeout: 2 * time.Second}, "redis-sentinel",
			2 * time.Second, 2 * time.Second},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if errs := tt.conn.Check(); len(errs) > 0 || tt.conn.Mode() != tt.mode {
				t.Fatalf("Check() = %v, Mode() = %q; want none, %q", errs, tt.conn.Mode(), tt.mode)
			}
			c, err := tt.conn.Client()
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
			timeout := tt.conn.Timeout
			if !o.ctxTimeout || o.dial != tt.dial || o.read != tt.read || o.write != timeout || o.pool != timeout {
				t.Errorf("ContextTimeoutEnabled %v, dial %v, read %v, write %v, pool %v; want true, %v, %v, %v, %v",
					o.ctxTimeout, o.dial, o.read, o.write, o.pool, tt.dial, tt.read, timeout, timeout)
			}
			if o.retries != 1 || o.backof > 100*time.Millisecond || o.dialAttempts != 1 {
				t.Errorf("retries %d with backoff up to %v, dial attempts %d; want 1, at most 100ms, 1", o.retries, o.backof, o.dialAttempts)
			}
		})
	}
	if c, err := (Conn{}).Client(); c != nil || err != nil || (Conn{}).Mode() != "memory" {
		t.Errorf("empty Conn: Client() = %v, %v, Mode %q; want nil, nil, memory", c, err, (Conn{}).Mode())
	}
}

func TestConnCheck(t *testing.T) {
	for _, tt := range []struct {
		conn   Conn
		fields []string
	}{
		{Conn{URL: "http://x"}, []string{"URL"}},
		{Conn{URL: "redis://u:hunter2@[::1"}, []string{"URL"}},
		{Conn{URL: "redis://h:1/0", ClusterAddrs: []string{"a:1"}}, []string{"URL"}},
		{Conn{SentinelAddrs: []string{"a:1"}}, []string{"SentinelMaster"}},
		{Conn{SentinelMaster: "m"}, []string{"SentinelAddrs"}},
		{Conn{ClusterAddrs: []string{"nohost"}}, []string{"ClusterAddrs"}},
	} {
		errs := tt.conn.Check()
		var got []string
		for _, e := range errs {
			got = append(got, e.Field)
			if strings.Contains(e.Error(), "hunter2") {
				t.Errorf("%+v: %q shows the password", tt.conn, e.Error())
			}
		}
		if strings.Join(got, ",") != strings.Join(tt.fields, ",") {
			t.Errorf("%+v: Check() fields %v, want %v", tt.conn, got, tt.fields)
		}
	}
	if got := Redact(errors.New(`parse "redis://u:hunter2@h:1": bad`)); strings.Contains(got, "hunter2") {
		t.Errorf("Redact left the password: %q", got)
	}
}

func TestLoggerRepeats(t *testing.T) {
	var buf bytes.Buffer // one goroutine logs
	l := NewLogger(slog.New(slog.NewTextHandler(&buf, nil)), time.Hour)
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
