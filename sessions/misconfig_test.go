package sessions

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"
)

func TestMisconfigured(t *testing.T) {
	tests := []struct {
		name      string
		err       error
		want      bool
		fatal     bool
		fragments []string
	}{
		{"nil", nil, false, false, nil},
		{"outage", fmt.Errorf("ping: %w", errors.New("dial tcp 127.0.0.1:6379: connect: connection refused")), false, false, nil},
		{"timeout", context.DeadlineExceeded, false, false, nil},
		{"unknown host", fmt.Errorf("dial: %w", &net.DNSError{Err: "no such host", Name: "redis.invalid", IsNotFound: true}), true, false,
			[]string{"redis.invalid", "does not resolve", "REDIS_URL"}},
		{"dns timeout", &net.DNSError{Err: "i/o timeout", Name: "redis", IsTimeout: true}, false, false, nil},
	}
	for _, tt := range tests {
		m, ok := Misconfigured(tt.err)
		if ok != tt.want || m.Fatal != tt.fatal {
			t.Errorf("%s: Misconfigured(%v) = %+v, %v; want ok %v, fatal %v", tt.name, tt.err, m, ok, tt.want, tt.fatal)
		}
		for _, f := range tt.fragments {
			if !strings.Contains(m.Reason, f) {
				t.Errorf("%s: reason %q lacks %q", tt.name, m.Reason, f)
			}
		}
	}
}

// TestMisconfiguredByServer asks a real Redis for the errors of a wrong
// database and a refused user: what the server answers, not what we guess.
func TestMisconfiguredByServer(t *testing.T) {
	url := os.Getenv("REDIS_URL") // as sessions/storetest finds it
	if url == "" {
		url = "redis://127.0.0.1:6379/0"
	}
	base, err := redis.ParseURL(url)
	if err != nil {
		t.Fatalf("REDIS_URL: %v", err)
	}
	addr := base.Addr
	probe := redis.NewClient(&redis.Options{Addr: addr, DialTimeout: time.Second, MaxRetries: -1})
	defer probe.Close()
	if err := probe.Ping(t.Context()).Err(); err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("no Redis at %s: %v", addr, err)
		}
		t.Skipf("no Redis at %s: %v", addr, err)
	}
	tests := []struct {
		name string
		opt  redis.Options
		want string
	}{
		{"database 99", redis.Options{Addr: addr, Username: base.Username, Password: base.Password, DB: 99}, "database number"},
		{"refused user", redis.Options{Addr: addr, Username: "connect4-no-such-user", Password: "wrong"}, "refused the credentials"},
	}
	for _, tt := range tests {
		c := redis.NewClient(&tt.opt)
		err := c.Ping(t.Context()).Err()
		c.Close()
		m, ok := Misconfigured(fmt.Errorf("sessions: ping: %w", err))
		if !ok || !m.Fatal || !strings.Contains(m.Reason, tt.want) {
			t.Errorf("%s: Misconfigured(%v) = %+v, %v; want fatal, %q", tt.name, err, m, ok, tt.want)
		}
		if strings.Contains(m.Reason, "wrong") {
			t.Errorf("%s: reason %q repeats the password", tt.name, m.Reason)
		}
	}
}
