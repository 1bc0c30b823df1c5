package main

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"encoding/hex"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/connect4/connect4/bot/match"

	"github.com/connect4/connect4/bot"
	"github.com/connect4/connect4/bot/discord"
	"github.com/connect4/connect4/sessions"
	"github.com/connect4/connect4/sessions/storetest"
)

// loadtestTarget serves the Discord endpoint on st, wired to m the way
// `connect4 serve` wires it, and returns its base URL: a server whose
// store a test can slow down.
func loadtestTarget(t *testing.T, st bot.Store, pub ed25519.PublicKey) string {
	t.Helper()
	m := newMetrics()
	log := slog.New(slog.DiscardHandler)
	svc := bot.New(st, bot.Options{Logger: log, Hooks: m.botHooks()})
	a, err := discord.New(svc, discord.Config{PublicKey: hex.EncodeToString(pub), APIURL: restStub(t),
		Observe: m.observe("discord")}, log)
	if err != nil {
		t.Fatal(err)
	}
	mux := http.NewServeMux()
	a.Register(mux)
	mux.Handle("GET /metrics", m.handler())
	srv := httptest.NewServer(mux)
	t.Cleanup(func() {
		srv.Close()
		_ = a.Close(context.Background())
	})
	return srv.URL
}

func newKey(t *testing.T) (ed25519.PublicKey, ed25519.PrivateKey) {
	t.Helper()
	pub, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	return pub, priv
}

// restStub stands in for Discord's REST API, so that the edits of deferred
// replies stay on this machine; it accepts everything.
func restStub(t *testing.T) string {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Write([]byte(`{"id":"1","channel_id":"1"}`))
	}))
	t.Cleanup(srv.Close)
	return srv.URL
}

// scrape returns the samples of GET base/metrics by series, as written:
// `name{label="value",...}` with the labels in name order.
func scrape(t *testing.T, base string) map[string]float64 {
	t.Helper()
	resp, err := http.Get(base + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	out := map[string]float64{}
	for line := range strings.Lines(string(body)) {
		line = strings.TrimSpace(line)
		i := strings.LastIndexByte(line, ' ')
		if line == "" || line[0] == '#' || i < 0 {
			continue
		}
		v, err := strconv.ParseFloat(line[i+1:], 64)
		if err != nil {
			t.Fatalf("GET /metrics: bad sample %q", line)
		}
		out[line[:i]] = v
	}
	return out
}

// TestLoadtestPlaysGames runs `connect4 serve` on the in-memory store and
// on a private Redis, plays 8 games 4 at a time against it, and checks the
// report against the server's own metrics.
func TestLoadtestPlaysGames(t *testing.T) {
	stores := []struct {
		name  string
		redis func(t *testing.T) (url, prefix string)
	}{
		{"memory", nil},
		{"redis", func(t *testing.T) (string, string) {
			// A private server: INFO then counts this test's commands only.
			srv := storetest.StartServer(t)
			return "redis://" + srv.Addr + "/0", storetest.Prefix(t, srv.Client(t))
		}},
	}
	for _, tt := range stores {
		t.Run(tt.name, func(t *testing.T) {
			pub, priv := newKey(t)
			vars := []string{"CONNECT4_ADDR", freeAddr(t), "DISCORD_PUBLIC_KEY", hex.EncodeToString(pub),
				"DISCORD_API_URL", restStub(t), "LOG_LEVEL", "error"}
			var redisURL string
			if tt.redis != nil {
				var prefix string
				redisURL, prefix = tt.redis(t)
				vars = append(vars, "REDIS_URL", redisURL, "REDIS_PREFIX", prefix)
			}
			base, stop := startServe(t, env(vars...))

			const total = 8
			lt := newLoadtester(loadOptions{URL: base, Games: 4, Total: total, Duration: time.Minute,
				Key: priv, Redis: redisURL, Guild: "lt", Seed: 7, Wait: 5 * time.Second, Timeout: 10 * time.Second})
			if err := lt.waitReady(t.Context(), false, io.Discard); err != nil {
				t.Fatal(err)
			}
			rep, err := lt.run(t.Context())
			if err != nil {
				t.Fatal(err)
			}
			if rep.Games != total || rep.Abandoned != 0 || rep.Errors != 0 {
				t.Fatalf("games %d, abandoned %d, errors %d (%q); want %d, 0, 0", rep.Games, rep.Abandoned, rep.Errors, rep.Samples, total)
			}
			// A game lasts from 7 moves (a quick win) to a full board.
			if rep.Moves < 7*total || rep.Moves > 42*total || len(rep.Latencies) != rep.Moves {
				t.Errorf("moves %d with %d latencies, want %d..%d and one latency each", rep.Moves, len(rep.Latencies), 7*total, 42*total)
			}
			if want := rep.Moves + 2*total + rep.Boards; rep.Requests != want || rep.Boards < rep.Deferred {
				t.Errorf("requests %d, want %d (a challenge, an accept, the moves and %d /connect4 board after %d deferred moves)",
					rep.Requests, want, rep.Boards, rep.Deferred)
			}
			var out bytes.Buffer
			rep.print(&out)
			if !strings.Contains(out.String(), "games      8 finished, 0 abandoned\n") {
				t.Errorf("report lacks the games line:\n%s", out.String())
			}
			if redisURL == "" && rep.RedisCommands != nil {
				t.Errorf("RedisCommands = %v without -redis, want nil", rep.RedisCommands)
			}
			if redisURL != "" && !strings.Contains(out.String(), "redis      ") {
				t.Errorf("report lacks the redis lines:\n%s", out.String())
			}
			if rep.Deferred > 0 {
				// A move slower than the adapter's deferral threshold (a
				// busy machine): its reply went to the REST stub, the
				// counts below may lag, and the board was read again.
				t.Logf("%d moves deferred: skipping the metrics and Redis checks", rep.Deferred)
				return
			}

			// The server counted what the client saw.
			got := scrape(t, base)
			for _, c := range []struct {
				series string
				want   float64
			}{
				{`connect4_moves_total{platform="discord"}`, float64(rep.Moves)},
				{`connect4_games_started_total{ai="no",platform="discord"}`, total},
				{`connect4_requests_total{kind="drop",outcome="ok",platform="discord"}`, float64(rep.Moves)},
				{`connect4_requests_total{kind="challenge",outcome="ok",platform="discord"}`, total},
				{`connect4_requests_total{kind="accept",outcome="ok",platform="discord"}`, total},
				{`connect4_request_duration_seconds_count{platform="discord"}`, float64(rep.Requests + 1)}, // and the PING
			} {
				if got[c.series] != c.want {
					t.Errorf("%s = %v, want %v", c.series, got[c.series], c.want)
				}
			}
			finished := got[`connect4_games_finished_total{platform="discord",result="win"}`] +
				got[`connect4_games_finished_total{platform="discord",result="draw"}`]
			if finished != total {
				t.Errorf("connect4_games_finished_total{win}+{draw} = %v, want %d", finished, total)
			}
			for series, v := range got {
				if strings.HasPrefix(series, "connect4_store_errors_total") && v != 0 {
					t.Errorf("%s = %v, want 0", series, v)
				}
			}

			if redisURL != "" {
				// A move is one script: the store remembers the record it
				// last wrote, so it needs no GET first (one round trip). A
				// game adds its challenge (a script) and its accept (one
				// script too). Beside those, each script's first runs are an
				// EVALSHA refused with NOSCRIPT and the EVAL that loads it,
				// and each connection opens with a HELLO and CLIENT
				// SETINFOs, which Redis 7.0 refuses (so they are not in
				// commandstats) but answers, in one or more writes.
				t.Logf("redis: %d round trips, %d calls for %d moves: %v", rep.RedisRoundTrips, rep.RedisCalls, rep.Moves, rep.RedisCommands)
				conns := rep.RedisCommands["hello"]
				got := rep.RedisRoundTrips - 2*rep.RedisCommands["eval"]
				if lo, hi := int64(rep.Moves+2*total), int64(rep.Moves+2*total)+3*conns; got < lo || got > hi {
					t.Errorf("redis round trips %d (less script loads) for %d moves in %d games on %d connections, want %d..%d: 1 per move, 2 per game, 1-3 per connection",
						got, rep.Moves, total, conns, lo, hi)
				}
				if rep.RedisCalls < rep.RedisRoundTrips {
					t.Errorf("redis calls %d < round trips %d: scripts' commands are calls too", rep.RedisCalls, rep.RedisRoundTrips)
				}
			}
			if err := stop(); err != nil {
				t.Errorf("serve: %v", err)
			}
		})
	}
}

// TestLoadtestCommand runs `connect4 loadtest` with flags against a server
// and checks its report and its refusal of a key the server does not know.
func TestLoadtestCommand(t *testing.T) {
	pub, priv := newKey(t)
	url := loadtestTarget(t, sessions.NewMemory(sessions.Options{}), pub)
	seed := hex.EncodeToString(priv.Seed())

	var stdout, stderr bytes.Buffer
	err := runLoadtest(t.Context(), []string{"-url", url, "-key", seed, "-games", "2", "-total", "3", "-seed", "9"}, &stdout, &stderr)
	if err != nil {
		t.Fatalf("loadtest: %v\n%s", err, stderr.String())
	}
	for _, re := range []string{
		`(?m)^games      3 finished, 0 abandoned$`,
		`(?m)^moves      \d+ in [0-9.]+s: [0-9.]+ moves/s \(\d+ requests\)$`,
		`(?m)^errors     0 \(http 0, refused 0, protocol 0\); \d+ moves deferred$`,
		`(?m)^latency    move p50 [0-9.]+ms  p95 [0-9.]+ms  p99 [0-9.]+ms  max [0-9.]+ms$`,
	} {
		if !regexp.MustCompile(re).MatchString(stdout.String()) {
			t.Errorf("report does not match %s:\n%s", re, stdout.String())
		}
	}

	_, other := newKey(t)
	stderr.Reset()
	err = runLoadtest(t.Context(), []string{"-url", url, "-key", hex.EncodeToString(other.Seed()), "-total", "1"}, io.Discard, &stderr)
	if err == nil || !strings.Contains(err.Error(), "401") {
		t.Errorf("loadtest with a key the server does not know: err = %v, want a 401 error", err)
	}
}

// slowStore makes every fifth Update take longer than the Discord
// adapter's deferral threshold (300 ms).
type slowStore struct {
	bot.Store
	n atomic.Int64
}

func (s *slowStore) Update(ctx context.Context, k match.Key, fn func(r *match.Record) (match.Tally, error)) (*match.Record, error) {
	if s.n.Add(1)%5 == 0 {
		time.Sleep(400 * time.Millisecond)
	}
	return s.Store.Update(ctx, k, fn)
}

// TestLoadtestDeferredMoves checks that a game goes on after a move is
// answered with a deferral: the board is asked for again.
func TestLoadtestDeferredMoves(t *testing.T) {
	if testing.Short() {
		t.Skip("slow moves take seconds")
	}
	pub, priv := newKey(t)
	url := loadtestTarget(t, &slowStore{Store: sessions.NewMemory(sessions.Options{})}, pub)
	lt := newLoadtester(loadOptions{URL: url, Games: 2, Total: 2, Duration: time.Minute,
		Key: priv, Guild: "lt", Seed: 3, Wait: 5 * time.Second, Timeout: 10 * time.Second})
	rep, err := lt.run(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	if rep.Games != 2 || rep.Errors != 0 || rep.Deferred == 0 || rep.Boards < rep.Deferred {
		t.Errorf("games %d, errors %d (%q), deferred %d, boards %d; want 2 games, 0 errors, some deferred moves each followed by a board",
			rep.Games, rep.Errors, rep.Samples, rep.Deferred, rep.Boards)
	}
	if slices.Max(rep.Latencies) < 300*time.Millisecond {
		t.Errorf("max move latency %v, want at least the 300 ms of a deferred move", slices.Max(rep.Latencies))
	}
}

func TestLoadtestFlags(t *testing.T) {
	seed := strings.Repeat("ab", 32)
	tests := []struct {
		args []string
		want string // in the error
	}{
		{[]string{"-key", seed, "-games", "0"}, "-games 0"},
		{[]string{"-key", seed, "-total", "0", "-duration", "0"}, "stops"},
		{[]string{"-key", seed, "-url", "ftp://x"}, "-url"},
		{[]string{"-key", seed, "-guild", "a:b"}, "-guild"},
		{[]string{"-key", "abc"}, "-key: not hex"},
		{[]string{"-key", "abcd"}, "-key: 2 bytes"},
		{[]string{"-key", seed, "extra"}, "usage"},
	}
	for _, tt := range tests {
		var stderr bytes.Buffer
		err := runLoadtest(t.Context(), tt.args, io.Discard, &stderr)
		if err == nil || !strings.Contains(err.Error()+stderr.String(), tt.want) {
			t.Errorf("loadtest %q: err = %v, want one mentioning %q", tt.args, err, tt.want)
		}
	}
}

func TestLoadtestKeygen(t *testing.T) {
	var out bytes.Buffer
	if err := runLoadtest(t.Context(), []string{"-keygen"}, &out, io.Discard); err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`^DISCORD_PUBLIC_KEY=([0-9a-f]{64})\n# connect4 loadtest -key ([0-9a-f]{64})\n$`).FindStringSubmatch(out.String())
	if m == nil {
		t.Fatalf("keygen printed %q, want the public key and the seed", out.String())
	}
	priv, err := parseSeed(m[2])
	if err != nil {
		t.Fatal(err)
	}
	if got := hex.EncodeToString(priv.Public().(ed25519.PublicKey)); got != m[1] {
		t.Errorf("seed's public key %s, printed %s", got, m[1])
	}
}

func TestParseSeed(t *testing.T) {
	_, priv := newKey(t)
	bad := append(append([]byte{}, priv.Seed()...), make([]byte, 32)...)
	tests := []struct {
		in      string
		wantErr bool
	}{
		{hex.EncodeToString(priv.Seed()), false},
		{hex.EncodeToString(priv), false},
		{hex.EncodeToString(bad), true}, // public half does not match
		{"zz", true},
		{"", true},
	}
	for _, tt := range tests {
		k, err := parseSeed(tt.in)
		if (err != nil) != tt.wantErr {
			t.Errorf("parseSeed(%q) error = %v, want error %v", tt.in, err, tt.wantErr)
			continue
		}
		if err == nil && !k.Equal(priv) {
			t.Errorf("parseSeed(%q) = another key", tt.in)
		}
	}
}

func TestParseCommandStats(t *testing.T) {
	in := "# Stats\r\ntotal_writes_processed:52764\r\n# Commandstats\r\n" +
		"cmdstat_get:calls=21,usec=175,usec_per_call=8.33,rejected_calls=0,failed_calls=0\r\n" +
		"cmdstat_evalsha:calls=7,usec=300,usec_per_call=42.86,rejected_calls=0,failed_calls=1\r\n" +
		"cmdstat_client|setinfo:calls=2,usec=3,usec_per_call=1.50,rejected_calls=0,failed_calls=0\r\n" +
		"not_a_stat:calls=5\r\n"
	got := parseCommandStats(in)
	want := map[string]int64{"get": 21, "evalsha": 7, "client|setinfo": 2}
	if len(got) != len(want) {
		t.Errorf("parseCommandStats = %v, want %v", got, want)
	}
	for k, v := range want {
		if got[k] != v {
			t.Errorf("parseCommandStats[%q] = %d, want %d", k, got[k], v)
		}
	}
}

func TestPercentile(t *testing.T) {
	var lat []time.Duration
	for i := 1; i <= 100; i++ {
		lat = append(lat, time.Duration(i)*time.Millisecond)
	}
	tests := []struct {
		in   []time.Duration
		p    float64
		want time.Duration
	}{
		{lat, 50, 50 * time.Millisecond},
		{lat, 95, 95 * time.Millisecond},
		{lat, 99, 99 * time.Millisecond},
		{lat, 100, 100 * time.Millisecond},
		{lat[:1], 99, time.Millisecond},
		{lat[:3], 50, 2 * time.Millisecond},
		{nil, 50, 0},
	}
	for _, tt := range tests {
		if got := percentile(tt.in, tt.p); got != tt.want {
			t.Errorf("percentile(%d values, %v) = %v, want %v", len(tt.in), tt.p, got, tt.want)
		}
	}
}
