package main

import (
	"io"
	"net"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"
)

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
	// It waits on a Redis that never answers. In parallel only with tests
	// that use no Redis: go-redis's logger, which this sets, is global.
	t.Parallel()
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
