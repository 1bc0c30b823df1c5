package main

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"io"
	"log/slog"
	"maps"
	"math"
	"net/http"
	"net/http/httptest"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/connect4/connect4/bot"
	"github.com/connect4/connect4/bot/discord"
	"github.com/connect4/connect4/bot/discord/discordtest"
	"github.com/connect4/connect4/bot/match"
	"github.com/connect4/connect4/engine"
	"github.com/connect4/connect4/sessions"
	"github.com/connect4/connect4/sessions/storetest"
)

// target is the Discord adapter on a store, served over HTTP the way
// `connect4 serve` serves it, with /metrics carrying the process's CPU
// time, and the adapter's count of interactions by kind and outcome.
type target struct {
	URL string

	mu       sync.Mutex
	observed map[string]int // "kind/outcome"
}

func newTarget(t *testing.T, st bot.Store, pub ed25519.PublicKey) *target {
	return newPictureTarget(t, st, pub, nil)
}

// newPictureTarget is newTarget with api as Discord's REST API; with a
// non-nil api the adapter shows pictures.
func newPictureTarget(t *testing.T, st bot.Store, pub ed25519.PublicKey, api http.Handler) *target {
	t.Helper()
	tg := &target{observed: map[string]int{}}
	pictures := api != nil
	if api == nil {
		api = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			// Discord's REST API, for the edits of deferred replies: accept all.
			w.Header().Set("Content-Type", "application/json")
			w.Write([]byte(`{"id":"1","channel_id":"1"}`))
		})
	}
	rest := httptest.NewServer(api)
	t.Cleanup(rest.Close)
	log := slog.New(slog.DiscardHandler)
	svc := bot.New(st, bot.Options{Logger: log})
	a, err := discord.New(svc, discord.Config{PublicKey: hex.EncodeToString(pub), APIURL: rest.URL, Pictures: pictures,
		Observe: func(kind, outcome string, _ time.Duration) {
			tg.mu.Lock()
			defer tg.mu.Unlock()
			tg.observed[kind+"/"+outcome]++
		}}, log)
	if err != nil {
		t.Fatal(err)
	}
	reg := prometheus.NewRegistry()
	reg.MustRegister(collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	mux := http.NewServeMux()
	a.Register(mux)
	mux.Handle("GET /metrics", promhttp.HandlerFor(reg, promhttp.HandlerOpts{}))
	srv := httptest.NewServer(mux)
	t.Cleanup(func() {
		srv.Close()
		_ = a.Close(context.Background())
	})
	tg.URL = srv.URL
	return tg
}

// count returns how many interactions of kind ended with outcome.
func (tg *target) count(kind, outcome string) int {
	tg.mu.Lock()
	defer tg.mu.Unlock()
	return tg.observed[kind+"/"+outcome]
}

// playAll plays lt's games once the server answers, and fails t unless
// all of them (opt.Total) finished without an error.
func playAll(t *testing.T, lt *loadtester) report {
	t.Helper()
	if err := lt.waitReady(t.Context(), false, io.Discard); err != nil {
		t.Fatal(err)
	}
	rep, err := lt.run(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	if rep.Games != lt.opt.Total || rep.Errors != 0 {
		t.Fatalf("games %d, errors %d (%q); want %d, none", rep.Games, rep.Errors, rep.Samples, lt.opt.Total)
	}
	return rep
}

func newKey(t *testing.T) (ed25519.PublicKey, ed25519.PrivateKey) {
	t.Helper()
	pub, priv, err := ed25519.GenerateKey(rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	return pub, priv
}

// TestPlaysGames plays 8 games 4 at a time against the adapter on the
// in-memory store and on a private Redis, and checks the report against
// what the server counted.
func TestPlaysGames(t *testing.T) {
	// A private server: INFO then counts this test's commands only.
	onRedis := func(unpipelined bool) func(t *testing.T) (bot.Store, string) {
		return func(t *testing.T) (bot.Store, string) {
			srv := storetest.StartServer(t)
			c := srv.Client(t)
			return storetest.NewRedis(t, c, sessions.Options{Prefix: storetest.Prefix(t, c), Unpipelined: unpipelined}), "redis://" + srv.Addr + "/0"
		}
	}
	stores := []struct {
		name string
		// shared: concurrent writes may share a round trip (as connect4
		// serve runs), so only the most round trips below holds.
		shared bool
		store  func(t *testing.T) (bot.Store, string)
	}{
		{"memory", false, func(t *testing.T) (bot.Store, string) { return storetest.NewMemory(t, sessions.Options{}), "" }},
		{"redis", false, onRedis(true)},
		{"redis-pipelined", true, onRedis(false)},
	}
	for _, tt := range stores {
		t.Run(tt.name, func(t *testing.T) {
			st, redisURL := tt.store(t)
			pub, priv := newKey(t)
			tg := newTarget(t, st, pub)
			const total = 8
			lt := newLoadtester(options{URL: tg.URL, Games: 4, Total: total, Duration: time.Minute,
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
			if want := rep.Moves + 3*total + rep.Boards; rep.Requests != want || rep.Boards < rep.Deferred {
				t.Errorf("requests %d, want %d (emoji boards for the channel, a challenge, an accept, the moves and %d /connect4 board after %d deferred moves)",
					rep.Requests, want, rep.Boards, rep.Deferred)
			}
			if !rep.HaveCPU || rep.ServerCPU <= 0 {
				t.Errorf("server CPU %v (have %v), want a positive reading from /metrics", rep.ServerCPU, rep.HaveCPU)
			}
			var out bytes.Buffer
			rep.print(&out)
			for _, want := range []string{"games      8 finished, 0 abandoned\n", "server cpu "} {
				if !strings.Contains(out.String(), want) {
					t.Errorf("report lacks %q:\n%s", want, out.String())
				}
			}
			if redisURL == "" && rep.RedisCommands != nil {
				t.Errorf("RedisCommands = %v without -redis, want nil", rep.RedisCommands)
			}
			if redisURL != "" && (!strings.Contains(out.String(), "redis      ") || !strings.Contains(out.String(), "redis cpu  ")) {
				t.Errorf("report lacks the redis lines:\n%s", out.String())
			}
			if redisURL != "" && rep.RedisCPU <= 0 {
				t.Errorf("Redis CPU %v, want a positive reading from INFO cpu", rep.RedisCPU)
			}
			if redisURL != "" && (rep.RedisScriptTime <= 0 || rep.RedisCommandTime <= 0 || rep.RedisCPUSys < 0 || rep.RedisCPUSys > rep.RedisCPU) {
				t.Errorf("Redis script time %dµs, command time %dµs, sys CPU %vs of %vs: want positive times and a share of the CPU",
					rep.RedisScriptTime, rep.RedisCommandTime, rep.RedisCPUSys, rep.RedisCPU)
			}
			if rep.Deferred > 0 {
				// A move slower than the adapter's deferral threshold (a
				// busy machine): its reply went to the REST stub, and the
				// counts below may lag.
				t.Logf("%d moves deferred: skipping the server's counts and the Redis checks", rep.Deferred)
				return
			}
			// The server counted what the client saw.
			for _, c := range []struct {
				kind string
				want int
			}{{"drop", rep.Moves}, {"challenge", total}, {"accept", total}} {
				if got := tg.count(c.kind, bot.OutcomeOK.String()); got != c.want {
					t.Errorf("server counted %d %s/ok, want %d", got, c.kind, c.want)
				}
			}
			if redisURL != "" {
				// One replica serves every move of its games, so the store
				// remembers the record it last wrote and a move is one
				// script: one round trip. A game adds its challenge and its
				// accept (a script each); the finishing move is one script
				// too, which tallies, rates (from the ratings the store last
				// saw: none, for players new to the channel) and points each
				// player at the game as their last finished one (for
				// /connect4 analyze). Beside those, each script's
				// first runs are an EVALSHA refused with NOSCRIPT and the
				// EVAL that loads it, and each connection opens with a HELLO
				// and CLIENT SETINFOs, answered in one or more writes. Each
				// game's channel has its display settings written once (the
				// load test asks for emoji boards, as the baseline draws), and
				// the bot keeps what it wrote for a while.
				t.Logf("redis: %d round trips, %d calls for %d moves: %v", rep.RedisRoundTrips, rep.RedisCalls, rep.Moves, rep.RedisCommands)
				// A script's load is counted as one or two replies written
				// (the NOSCRIPT refusal and the EVAL's): with several
				// connections loading the same scripts at once, runs of
				// this test counted 6 to 11 EVALs and fell 1 or 2 replies
				// short of two each, on an idle machine as on a busy one.
				conns, loads := rep.RedisCommands["hello"], rep.RedisCommands["eval"]
				least, most := rep.RedisRoundTrips-2*loads, rep.RedisRoundTrips-loads
				lo, hi := int64(rep.Moves+3*total), int64(rep.Moves+3*total)+3*conns
				if tt.shared {
					lo = 1
				}
				if most < lo || least > hi {
					t.Errorf("redis round trips %d..%d (less script loads) for %d moves in %d games on %d connections, want %d..%d",
						least, most, rep.Moves, total, conns, lo, hi)
				}
				if rep.RedisCalls < rep.RedisRoundTrips-3*conns {
					t.Errorf("redis calls %d < round trips %d: scripts' commands are calls too", rep.RedisCalls, rep.RedisRoundTrips)
				}
			}
		})
	}
}

// TestPlaysPictures plays games with picture boards against the adapter
// showing pictures, its REST API the load test's fake: every move comes
// with its PNG (in the answer itself, or delivered there after a
// deferral), at least one in the answer, and the replay GIF of each
// finished game reaches the fake.
func TestPlaysPictures(t *testing.T) {
	pub, priv := newKey(t)
	const total = 4
	lt := newLoadtester(options{Games: 2, Total: total, Duration: time.Minute, Key: priv, Guild: "lt",
		Seed: 3, Wait: 5 * time.Second, Timeout: 10 * time.Second, Pictures: true})
	tg := newPictureTarget(t, storetest.NewMemory(t, sessions.Options{}), pub, lt.api)
	lt.opt.URL = tg.URL
	lt.base = tg.URL
	lt.client.URL = tg.URL + interactionsPath
	rep := playAll(t, lt)
	a := rep.API
	if a == nil || rep.Delivered+rep.InPlace != rep.Moves || a.Pictures < int64(rep.Moves) || a.Bad != 0 {
		t.Fatalf("%d moves, %d delivered, %d answered with their picture, API %+v: want every move with its PNG, none bad",
			rep.Moves, rep.Delivered, rep.InPlace, a)
	}
	if rep.InPlace == 0 {
		t.Errorf("no move answered with its picture in place (%d delivered after a deferral)", rep.Delivered)
	}
	if a.Bytes < 1000*a.Pictures {
		t.Errorf("%d PNGs of %d bytes in all: too small to be boards", a.Pictures, a.Bytes)
	}
	// The replay follows the last move's edit; give it a moment.
	deadline := time.Now().Add(5 * time.Second)
	for lt.api.snapshot().Replays < total && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if got := lt.api.snapshot().Replays; got != total {
		t.Errorf("%d replays received, want one per game: %d", got, total)
	}
	var out bytes.Buffer
	rep.print(&out)
	if !strings.Contains(out.String(), "pictures   ") {
		t.Errorf("report lacks the pictures line:\n%s", out.String())
	}
	t.Log(out.String())
}

// TestCommand runs the command with flags against a server and checks its
// report, and its refusal of a key the server does not know.
func TestCommand(t *testing.T) {
	pub, priv := newKey(t)
	tg := newTarget(t, storetest.NewMemory(t, sessions.Options{}), pub)
	seed := hex.EncodeToString(priv.Seed())

	var stdout, stderr bytes.Buffer
	err := run(t.Context(), []string{"-url", tg.URL, "-key", seed, "-games", "2", "-total", "3", "-seed", "9"}, &stdout, &stderr)
	if err != nil {
		t.Fatalf("loadtest: %v\n%s", err, stderr.String())
	}
	for _, re := range []string{
		`(?m)^games      3 finished, 0 abandoned$`,
		`(?m)^moves      \d+ in [0-9.]+s: [0-9.]+ moves/s \(\d+ requests\)$`,
		`(?m)^errors     0 \(http 0, refused 0, protocol 0\); \d+ moves deferred$`,
		`(?m)^latency    move p50 [0-9.]+ms  p95 [0-9.]+ms  p99 [0-9.]+ms  max [0-9.]+ms$`,
		`(?m)^server cpu [0-9.]+s: \d+µs per move, \d+µs per request \(process_cpu_seconds_total\)$`,
	} {
		if !regexp.MustCompile(re).MatchString(stdout.String()) {
			t.Errorf("report does not match %s:\n%s", re, stdout.String())
		}
	}

	_, other := newKey(t)
	stderr.Reset()
	err = run(t.Context(), []string{"-url", tg.URL, "-key", hex.EncodeToString(other.Seed()), "-total", "1"}, io.Discard, &stderr)
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

func (s *slowStore) Update(ctx context.Context, k match.Key, gameID string, fn func(r *match.Record) (match.Tally, error)) (*match.Record, error) {
	if s.n.Add(1)%5 == 0 {
		time.Sleep(400 * time.Millisecond)
	}
	return s.Store.Update(ctx, k, gameID, fn)
}

// TestSlowMoves checks that a slow store holds a game up without breaking
// it: a move between two people is answered in place even when the store
// takes longer than the adapter's deferral threshold (only a move that may
// wait for the AI is deferred), so the load tester sees slow moves and no
// deferral.
func TestSlowMoves(t *testing.T) {
	if testing.Short() {
		t.Skip("slow moves take seconds")
	}
	t.Parallel() // it waits on its slow store
	pub, priv := newKey(t)
	tg := newTarget(t, &slowStore{Store: storetest.NewMemory(t, sessions.Options{})}, pub)
	lt := newLoadtester(options{URL: tg.URL, Games: 2, Total: 2, Duration: time.Minute,
		Key: priv, Guild: "lt", Seed: 3, Wait: 5 * time.Second, Timeout: 10 * time.Second})
	rep, err := lt.run(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	if rep.Games != 2 || rep.Errors != 0 || rep.Deferred != 0 {
		t.Errorf("games %d, errors %d (%q), deferred %d; want 2 games, 0 errors, no deferral",
			rep.Games, rep.Errors, rep.Samples, rep.Deferred)
	}
	if slices.Max(rep.Latencies) < 400*time.Millisecond {
		t.Errorf("max move latency %v, want at least the 400 ms of a slow store", slices.Max(rep.Latencies))
	}
}

func TestFlags(t *testing.T) {
	seed := strings.Repeat("ab", 32)
	tests := []struct {
		args []string
		want string // in the error or stderr
	}{
		{[]string{"-key", seed, "-games", "0"}, "-games 0"},
		{[]string{"-key", seed, "-total", "0", "-duration", "0"}, "stops"},
		{[]string{"-key", seed, "-url", "ftp://x"}, "-url"},
		{[]string{"-key", seed, "-guild", "a:b"}, "-guild"},
		{[]string{"-key", "abc"}, "-key: not hex"},
		{[]string{"-key", "abcd"}, "-key: 2 bytes"},
		{[]string{"-key", seed, "extra"}, `unexpected argument "extra"`},
		{[]string{"-bogus"}, "flag provided but not defined"},
		{[]string{"-key", seed, "-rounds", "0"}, "-rounds 0"},
		{[]string{"-key", seed, "-compare", "127.0.0.1:8509"}, "-compare"},
		{[]string{"-key", seed, "-baseline", "127.0.0.1:0", "-rounds", "2"}, "-baseline serves"},
	}
	for _, tt := range tests {
		var stderr bytes.Buffer
		err := run(t.Context(), tt.args, io.Discard, &stderr)
		if err == nil || !strings.Contains(err.Error()+stderr.String(), tt.want) {
			t.Errorf("loadtest %q: err = %v, want one mentioning %q", tt.args, err, tt.want)
		}
	}
	// Every problem at once.
	err := run(t.Context(), []string{"-key", "abc", "-games", "0", "-url", "ftp://x"}, io.Discard, io.Discard)
	for _, want := range []string{"-key", "-games", "-url"} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("three bad flags: err = %v, want it to name %s", err, want)
		}
	}
}

func TestHelp(t *testing.T) {
	for _, arg := range []string{"-h", "--help"} {
		var stdout, stderr bytes.Buffer
		if err := run(t.Context(), []string{arg}, &stdout, &stderr); err != nil {
			t.Errorf("%s: %v", arg, err)
		}
		if !strings.HasPrefix(stdout.String(), "usage: connect4-loadtest") || !strings.Contains(stdout.String(), "-games") || stderr.Len() != 0 {
			t.Errorf("%s printed %q (stderr %q), want the usage with the flags on stdout", arg, stdout.String(), stderr.String())
		}
	}
}

func TestKeygen(t *testing.T) {
	var out bytes.Buffer
	if err := run(t.Context(), []string{"-keygen"}, &out, io.Discard); err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`^DISCORD_PUBLIC_KEY=([0-9a-f]{64})\n# connect4-loadtest -key ([0-9a-f]{64})\n$`).FindStringSubmatch(out.String())
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
	calls, usec := parseCommandStats(in)
	for _, c := range []struct {
		what      string
		got, want map[string]int64
	}{
		{"calls", calls, map[string]int64{"get": 21, "evalsha": 7, "client|setinfo": 2}},
		{"usec", usec, map[string]int64{"get": 175, "evalsha": 300, "client|setinfo": 3}},
	} {
		if len(c.got) != len(c.want) {
			t.Errorf("parseCommandStats %s = %v, want %v", c.what, c.got, c.want)
		}
		for k, v := range c.want {
			if c.got[k] != v {
				t.Errorf("parseCommandStats %s[%q] = %d, want %d", c.what, k, c.got[k], v)
			}
		}
	}
}

// TestParseRedisCPU: INFO cpu's seconds are read as whole microseconds, so
// the sys share of the CPU between two readings never exceeds the whole
// (in float seconds, 36.077002 + 11.532638 - (36.077002 + 11.438111) is
// less than 11.532638 - 11.438111, and TestPlaysGames once failed so).
func TestParseRedisCPU(t *testing.T) {
	info := func(user, sys string) string {
		return "# CPU\r\nused_cpu_sys:" + sys + "\r\nused_cpu_user:" + user + "\r\nused_cpu_sys_children:0.000000\r\n"
	}
	before, after := parseRedisStats(info("36.077002", "11.438111")), parseRedisStats(info("36.077002", "11.532638"))
	if before.cpuUS != 47515113 || before.sysUS != 11438111 {
		t.Errorf("parseRedisStats: cpu %d µs, sys %d µs; want 47515113 and 11438111", before.cpuUS, before.sysUS)
	}
	if cpu, sys := after.cpuUS-before.cpuUS, after.sysUS-before.sysUS; cpu != 94527 || sys != cpu {
		t.Errorf("between the readings: cpu %d µs, sys %d µs; want 94527 both", cpu, sys)
	}
}

func TestParseMetric(t *testing.T) {
	text := "# HELP process_cpu_seconds_total Total user and system CPU time spent in seconds.\n" +
		"# TYPE process_cpu_seconds_total counter\n" +
		"process_cpu_seconds_total_other 9\n" +
		"process_cpu_seconds_total 12.5\n"
	tests := []struct {
		text string
		want float64
		err  bool
	}{
		{text, 12.5, false},
		{"process_cpu_seconds_total 1.25e+01\n", 12.5, false},
		{"process_cpu_seconds_total x\n", 0, true},
		{"go_goroutines 7\n", 0, true},
	}
	for _, tt := range tests {
		got, err := parseMetric(tt.text, cpuMetric)
		if got != tt.want || (err != nil) != tt.err {
			t.Errorf("parseMetric(%q) = %v, %v; want %v, error %v", tt.text, got, err, tt.want, tt.err)
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

// TestBaseline plays games against the baseline server: they finish
// without errors, so its CPU per move is comparable with the bot's.
func TestBaseline(t *testing.T) {
	pub, priv := newKey(t)
	srv := httptest.NewServer(newBaselineHandler(pub, nil))
	defer srv.Close()
	lt := newLoadtester(options{URL: srv.URL, Games: 3, Total: 6, Duration: time.Minute,
		Key: priv, Guild: "lt", Seed: 5, Wait: 5 * time.Second, Timeout: 10 * time.Second})
	if err := lt.waitReady(t.Context(), false, io.Discard); err != nil {
		t.Fatal(err)
	}
	rep, err := lt.run(t.Context())
	if err != nil {
		t.Fatal(err)
	}
	if rep.Games != 6 || rep.Errors != 0 || rep.Moves < 7*6 || !rep.HaveCPU {
		t.Errorf("games %d, errors %d (%q), moves %d, cpu %v; want 6 games, no errors, at least 42 moves, a CPU reading",
			rep.Games, rep.Errors, rep.Samples, rep.Moves, rep.HaveCPU)
	}
	// It refuses what the bot refuses: a bad signature, a move out of turn.
	_, other := newKey(t)
	bad := *lt.client
	bad.Signer.Key = other
	if _, status, err := bad.Send(t.Context(), discordtest.Ping(appID)); err != nil || status != http.StatusUnauthorized {
		t.Errorf("baseline PING with another key = %d, %v; want 401", status, err)
	}
	g := &game{lt: lt, id: "x1", channel: "chan-x1", challenger: discordtest.User{ID: "1"}, op: discordtest.User{ID: "2"}}
	r, _, _ := lt.client.Send(t.Context(), g.interaction(discordtest.TypeApplicationCommand, g.challenger,
		discordtest.Slash("challenge", []discordtest.Option{discordtest.UserOption("opponent", g.op)}, g.op)))
	accept, _ := r.Button("Accept")
	r, _, _ = lt.client.Send(t.Context(), g.click(g.op, accept.CustomID))
	st, ok := r.Game()
	if !ok {
		t.Fatalf("accept: no game in %+v", r)
	}
	if r, _, _ = lt.client.Send(t.Context(), g.click(g.op, st.Columns[0].CustomID)); !r.Ephemeral() {
		t.Errorf("yellow moving first = %+v, want a refusal", r)
	}
}

// TestBaselineRedis plays games against the baseline keeping its games in
// a private Redis: each challenge, accept and move is one script, the keys
// hold every game as last played, and closing the store deletes them.
func TestBaselineRedis(t *testing.T) {
	srv := storetest.StartServer(t)
	c := srv.Client(t)
	url := "redis://" + srv.Addr + "/0"
	store, err := newBaselineStore(t.Context(), url)
	if err != nil {
		t.Fatal(err)
	}
	pub, priv := newKey(t)
	hs := httptest.NewServer(newBaselineHandler(pub, store))
	defer hs.Close()
	const games = 6
	lt := newLoadtester(options{URL: hs.URL, Games: 3, Total: games, Duration: time.Minute, Redis: url,
		Key: priv, Guild: "lt", Seed: 5, Wait: 5 * time.Second, Timeout: 10 * time.Second})
	rep := playAll(t, lt)
	// One script a challenge, an accept and a move; it runs three commands.
	if want := int64(rep.Moves + 2*games); rep.RedisCommands["evalsha"] != want || rep.RedisCommands["hset"] != want || rep.RedisCommands["pexpire"] != want {
		t.Errorf("commands %v for %d moves of %d games; want %d EVALSHA, HSET and PEXPIRE", rep.RedisCommands, rep.Moves, games, want)
	}
	keys, err := c.Keys(t.Context(), store.prefix+"*").Result()
	if err != nil {
		t.Fatal(err)
	}
	if len(keys) != games {
		t.Fatalf("keys %q, want one a game", keys)
	}
	moves := 0
	for _, k := range keys {
		h, err := c.HGetAll(t.Context(), k).Result()
		if err != nil {
			t.Fatal(err)
		}
		parts := strings.SplitN(h["g"], "\n", 4)
		if len(parts) != 4 || !strings.HasSuffix(k, "}:"+parts[0]) {
			t.Fatalf("%s holds %q, want the game id, players and game", k, h["g"])
		}
		g, err := engine.Decode([]byte(parts[3]))
		if err != nil || !g.State().Over() {
			t.Fatalf("%s holds game %v (%v), want a finished one", k, g, err)
		}
		if v, _ := strconv.Atoi(h["v"]); v != g.Moves()+2 {
			t.Errorf("%s at version %q after %d moves, want a version a write", k, h["v"], g.Moves())
		}
		if ttl := c.PTTL(t.Context(), k).Val(); ttl <= 0 || ttl > baselineTTL {
			t.Errorf("%s expires in %v, want within %v", k, ttl, baselineTTL)
		}
		moves += g.Moves()
	}
	if moves != rep.Moves {
		t.Errorf("stored games hold %d moves, the report counts %d", moves, rep.Moves)
	}
	// A write that does not replace the stored version is refused and
	// leaves the key alone.
	before := c.HGetAll(t.Context(), keys[0]).Val()
	stale := &baselineWrite{key: strings.TrimPrefix(keys[0], store.prefix), from: 1, to: 2, value: []byte("stale")}
	if err := store.write(t.Context(), stale); !errors.Is(err, errVersion) {
		t.Errorf("stale write = %v, want errVersion", err)
	}
	if after := c.HGetAll(t.Context(), keys[0]).Val(); !maps.Equal(before, after) {
		t.Errorf("stale write changed %s from %v to %v", keys[0], before, after)
	}
	if err := store.close(t.Context()); err != nil {
		t.Fatal(err)
	}
	if left := c.Keys(t.Context(), "*").Val(); len(left) != 0 {
		t.Errorf("keys left after close: %q", left)
	}
}

// TestBaselineRedisUnreachable: a Redis that does not answer is an error
// naming -redis, without the URL's password.
func TestBaselineRedisUnreachable(t *testing.T) {
	t.Parallel() // it waits out go-redis's dial retries
	_, priv := newKey(t)
	url := "redis://user:hunter2@" + storetest.ClosedPort(t) + "/0"
	err := run(t.Context(), []string{"-baseline", "127.0.0.1:0", "-key", hex.EncodeToString(priv.Seed()), "-redis", url}, io.Discard, io.Discard)
	if err == nil || !strings.Contains(err.Error(), "-redis") || strings.Contains(err.Error(), "hunter2") {
		t.Errorf("-baseline with an unreachable -redis = %v, want an error naming -redis without the password", err)
	}
}

// TestRounds loads a server and the baseline in three rounds: the two
// take turns, the baseline first in odd rounds, and the summary gives each
// one's CPU per move by round, as each run's report read it ("-" where
// the counter did not move: these runs are short), and the ratio of the
// two in each round, or that there is none; with -redis (the server on a
// private Redis), Redis's CPU and commands per move by round too.
func TestRounds(t *testing.T) {
	t.Run("memory", func(t *testing.T) { testRounds(t, false) })
	t.Run("redis", func(t *testing.T) { testRounds(t, true) })
}

func testRounds(t *testing.T, onRedis bool) {
	pub, priv := newKey(t)
	var st bot.Store = storetest.NewMemory(t, sessions.Options{})
	redisURL := ""
	if onRedis {
		srv := storetest.StartServer(t)
		c := srv.Client(t)
		st, redisURL = storetest.NewRedis(t, c, sessions.Options{Prefix: storetest.Prefix(t, c)}), "redis://"+srv.Addr+"/0"
	}
	tg := newTarget(t, st, pub)
	base := httptest.NewServer(newBaselineHandler(pub, nil))
	defer base.Close()
	var out bytes.Buffer
	args := []string{"-url", tg.URL, "-compare", base.URL, "-key", hex.EncodeToString(priv.Seed()),
		"-games", "2", "-total", "2", "-rounds", "3", "-guild", "lt", "-wait", "5s"}
	if redisURL != "" {
		args = append(args, "-redis", redisURL)
	}
	if err := run(t.Context(), args, &out, io.Discard); err != nil {
		t.Fatalf("%v\n%s", err, out.String())
	}
	header := regexp.MustCompile(`^== round (\d) of 3: (-url|-compare) (\S+)$`)
	cpuLine := regexp.MustCompile(`^server cpu \S+: (\d+)µs per move`)
	var order []string
	perMove := map[string][]string{}
	runOf := ""
	for line := range strings.Lines(out.String()) {
		if m := header.FindStringSubmatch(strings.TrimSpace(line)); m != nil {
			runOf = m[2]
			order = append(order, m[1]+m[2])
			if want := map[string]string{"-url": tg.URL, "-compare": base.URL}[m[2]]; m[3] != want {
				t.Errorf("round %s loads %s at %s, want %s", m[1], m[2], m[3], want)
			}
		}
		if m := cpuLine.FindStringSubmatch(line); m != nil {
			read := m[1]
			if strings.HasPrefix(line, "server cpu 0.000s") {
				read = "-"
			}
			perMove[runOf] = append(perMove[runOf], read)
		}
	}
	if want := []string{"1-compare", "1-url", "2-url", "2-compare", "3-compare", "3-url"}; !slices.Equal(order, want) {
		t.Errorf("runs in the order %q, want %q", order, want)
	}
	for _, flag := range []string{"-url", "-compare"} {
		if want := flag + strings.Repeat(" ", 10-len(flag)) + " " + strings.Join(perMove[flag], " ") + " µs"; len(perMove[flag]) != 3 || !strings.Contains(out.String(), want+"\n") {
			t.Errorf("summary lacks %q:\n%s", want, out.String())
		}
	}
	ratios := `(?m)^ratio      \d+\.\d\d \d+\.\d\d \d+\.\d\d: least \d+\.\d\d, median \d+\.\d\d \(`
	if slices.Contains(perMove["-url"], "-") || slices.Contains(perMove["-compare"], "-") {
		ratios = "(?m)^ratio      no CPU reading from a server's /metrics$"
	}
	if !regexp.MustCompile(ratios).MatchString(out.String()) {
		t.Errorf("summary lacks %q:\n%s", ratios, out.String())
	}
	// The Redis summary: the server's three runs each ran its scripts (10
	// or so commands a move), the baseline's none.
	redisSummary := regexp.MustCompile(`(?m)^== Redis per move by round \(INFO cpu, INFO commandstats\)\n` +
		`-url       cpu \d+ \d+ \d+ µs: least \d+, median \d+; commands (\d+\.\d\d) (\d+\.\d\d) (\d+\.\d\d): least \d+\.\d\d, median \d+\.\d\d\n` +
		`-compare   cpu \d+ \d+ \d+ µs: least \d+, median \d+; commands (\d+\.\d\d) (\d+\.\d\d) (\d+\.\d\d): least`)
	m := redisSummary.FindStringSubmatch(out.String())
	switch {
	case !onRedis && strings.Contains(out.String(), "== Redis"):
		t.Errorf("a summary of Redis without -redis:\n%s", out.String())
	case onRedis && m == nil:
		t.Errorf("summary lacks Redis by round:\n%s", out.String())
	case onRedis:
		for i, v := range m[1:] {
			n, _ := strconv.ParseFloat(v, 64)
			if server := i < 3; server && n < 3 || !server && n > 1 {
				t.Errorf("commands a move in the summary %q: the server's should be several, the baseline's under one:\n%s", m[1:], out.String())
				break
			}
		}
	}
}

func TestPrintRounds(t *testing.T) {
	sides := []side{{flag: "-url"}, {flag: "-compare"}}
	var b bytes.Buffer
	printRounds(&b, sides, [][]float64{{150, 100, 120, 90}, {100, 100, 80, 100}})
	want := "== CPU per move by round (process_cpu_seconds_total)\n" +
		"-url       150 100 120 90 µs\n" +
		"-compare   100 100 80 100 µs\n" +
		"ratio      1.50 1.00 1.50 0.90: least 0.90, median 1.25 (-url's over -compare's, each from one round)\n"
	if b.String() != want {
		t.Errorf("printRounds =\n%s\nwant\n%s", b.String(), want)
	}
	// A round without a CPU reading leaves the ratios' summary out.
	b.Reset()
	printRounds(&b, sides, [][]float64{{150, math.NaN(), 120}, {100, 100, 80}})
	if !strings.Contains(b.String(), "-url       150 - 120 µs\n") || !strings.Contains(b.String(), "ratio      no CPU reading") {
		t.Errorf("printRounds with a missing reading =\n%s", b.String())
	}
	// One server: its CPU by round, no ratio.
	b.Reset()
	printRounds(&b, sides[:1], [][]float64{{150, 140, 130}})
	if strings.Contains(b.String(), "ratio") || !strings.Contains(b.String(), "-url       150 140 130 µs\n") {
		t.Errorf("printRounds of one server =\n%s", b.String())
	}
}

func TestLeastMedian(t *testing.T) {
	tests := []struct {
		in          []float64
		least, want float64
	}{
		{[]float64{3}, 3, 3},
		{[]float64{5, 1, 3}, 1, 3},
		{[]float64{4, 1, 3, 2}, 1, 2.5},
	}
	for _, tt := range tests {
		if l, m := leastMedian(tt.in); l != tt.least || m != tt.want {
			t.Errorf("leastMedian(%v) = %v, %v; want %v, %v", tt.in, l, m, tt.least, tt.want)
		}
	}
	for _, in := range [][]float64{nil, {1, math.NaN()}} {
		if l, m := leastMedian(in); !math.IsNaN(l) || !math.IsNaN(m) {
			t.Errorf("leastMedian(%v) = %v, %v; want NaNs", in, l, m)
		}
	}
}

func TestBaselineNeedsKey(t *testing.T) {
	if err := run(t.Context(), []string{"-baseline", "127.0.0.1:0"}, io.Discard, io.Discard); err == nil || !strings.Contains(err.Error(), "-key") {
		t.Errorf("-baseline without -key = %v, want an error naming -key", err)
	}
}

func TestPrintRedisRounds(t *testing.T) {
	sides := []side{{flag: "-url"}, {flag: "-compare"}}
	var b bytes.Buffer
	printRedisRounds(&b, sides, [][]redisRound{
		{{70, 10.8}, {55, 10.7}, {90, 10.9}},
		{{45, 3.3}, {41, 3.3}, {50, 3.4}},
	})
	want := "== Redis per move by round (INFO cpu, INFO commandstats)\n" +
		"-url       cpu 70 55 90 µs: least 55, median 70; commands 10.80 10.70 10.90: least 10.70, median 10.80\n" +
		"-compare   cpu 45 41 50 µs: least 41, median 45; commands 3.30 3.30 3.40: least 3.30, median 3.30\n"
	if b.String() != want {
		t.Errorf("printRedisRounds =\n%s\nwant\n%s", b.String(), want)
	}
	if r := redisPerMove(report{Moves: 4, RedisCPU: 0.0002, RedisCalls: 42}); r.cpu != 50 || r.cmds != 10.5 {
		t.Errorf("redisPerMove = %+v, want 50 µs and 10.5 commands", r)
	}
	if r := redisPerMove(report{}); !math.IsNaN(r.cpu) || !math.IsNaN(r.cmds) {
		t.Errorf("redisPerMove without moves = %+v, want NaNs", r)
	}
}
