package main

import (
	"bytes"
	"context"
	"crypto/ed25519"
	"encoding/hex"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/connect4/connect4/sessions/storetest"
)

// env returns a getenv over the given pairs.
func env(pairs ...string) func(string) string {
	m := map[string]string{}
	for i := 0; i+1 < len(pairs); i += 2 {
		m[pairs[i]] = pairs[i+1]
	}
	return func(k string) string { return m[k] }
}

func TestLoadConfigDefaults(t *testing.T) {
	c, err := loadConfig(env(), 0)
	if err != nil {
		t.Fatal(err)
	}
	if c.Addr != ":8080" || c.ChallengeTTL != 10*time.Minute || c.TurnTimeout != 24*time.Hour ||
		c.GameTTL != 7*24*time.Hour || c.AIBudget != time.Second || c.Redis.Mode() != "memory" || c.LogFormat != "text" || !c.AdaptiveProcs {
		t.Errorf("defaults: %+v", c)
	}
}

func TestLoadConfigReportsEveryProblem(t *testing.T) {
	_, err := loadConfig(env(
		"CONNECT4_CHALLENGE_TTL", "soon",
		"CONNECT4_AI_BUDGET", "1h",
		"REDIS_URL", "mysql://x",
		"REDIS_CLUSTER_ADDRS", "a:1,b:2",
		"REDIS_SENTINEL_MASTER", "m",
		"REDIS_TLS", "maybe",
		"REDIS_PREFIX", "c4{",
		"LOG_LEVEL", "loud",
		"LOG_FORMAT", "xml",
		"SLACK_APP_TOKEN", "xoxb-1",
		"DISCORD_API_URL", "ftp://x",
		"CONNECT4_PROCS", "some",
	), 0)
	if err == nil {
		t.Fatal("no error")
	}
	for _, name := range []string{"CONNECT4_CHALLENGE_TTL", "CONNECT4_AI_BUDGET", "REDIS_URL", "REDIS_SENTINEL_ADDRS",
		"REDIS_TLS", "REDIS_PREFIX", "LOG_LEVEL", "LOG_FORMAT", "SLACK_APP_TOKEN", "SLACK_BOT_TOKEN", "DISCORD_API_URL",
		"CONNECT4_PROCS", "set only one"} {
		if !strings.Contains(err.Error(), name) {
			t.Errorf("error does not name %s:\n%v", name, err)
		}
	}
}

func TestLoadConfigRedactsPassword(t *testing.T) {
	_, err := loadConfig(env("REDIS_URL", "redis://:s3cret@host:notaport/0"), 0)
	if err == nil || strings.Contains(err.Error(), "s3cret") {
		t.Errorf("error %v leaks the password or is missing", err)
	}
}

// TestPlayScripted pipes a short script into `connect4 play`: the wiring of
// the terminal adapter (bot/terminal's own tests play whole games).
func TestPlayScripted(t *testing.T) {
	script := strings.Join([]string{
		"/connect4 @bob", "as bob", "Accept", "as alice", "4",
		"quit",
		"/connect4 @never", // after quit: not run
	}, "\n")
	var out, errb bytes.Buffer
	if err := run(t.Context(), []string{"play"}, env(), strings.NewReader(script), &out, &errb); err != nil {
		t.Fatalf("play: %v\n%s", err, errb.String())
	}
	got := out.String()
	for _, want := range []string{
		"@alice challenges @bob to Connect Four",
		"@bob accepted! @alice is red and goes first.",
		"@alice dropped a disc in column 4.",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("output lacks %q\n--- output ---\n%s", want, got)
		}
	}
	if strings.Contains(got, "@never") {
		t.Error("a line after quit was run")
	}
	if errb.Len() != 0 {
		t.Errorf("play wrote to stderr: %q", errb.String())
	}
}

// TestPlayAgainstAI plays the AI in the terminal until the game ends.
func TestPlayAgainstAI(t *testing.T) {
	var script strings.Builder
	script.WriteString("/connect4 ai easy\n")
	for i := 0; i < 21; i++ { // alice keeps dropping wherever there is room
		for c := 1; c <= 7; c++ {
			fmt.Fprintf(&script, "%d\n", c)
		}
	}
	var out, errb bytes.Buffer
	if err := run(t.Context(), []string{"play"}, env("CONNECT4_AI_BUDGET", "50ms"), strings.NewReader(script.String()), &out, &errb); err != nil {
		t.Fatalf("play: %v\n%s", err, errb.String())
	}
	got := out.String()
	if !strings.Contains(got, "@alice takes on the AI (easy)") || !strings.Contains(got, "@connect4 (easy) dropped a disc") {
		t.Fatalf("no AI game:\n%s", got)
	}
	if !strings.Contains(got, "wins!") && !strings.Contains(got, "draw") {
		t.Errorf("the AI game did not finish:\n%s", got[max(0, len(got)-2000):])
	}
}

func freeAddr(t *testing.T) string {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().String()
}

// inProcess is getenv for a `connect4 serve` run inside the test binary:
// CONNECT4_PROCS=all unless the test sets it, since ops.Procs would set
// the GOMAXPROCS of every test running beside it.
func inProcess(getenv func(string) string) func(string) string {
	return func(k string) string {
		if v := getenv(k); v != "" || k != "CONNECT4_PROCS" {
			return v
		}
		return "all"
	}
}

// startServe runs `connect4 serve` until the test ends and returns its base
// URL and a func that stops it and returns run's error.
func startServe(t *testing.T, getenv func(string) string) (string, func() error) {
	t.Helper()
	getenv = inProcess(getenv)
	ctx, cancel := context.WithCancel(context.Background())
	var logs bytes.Buffer
	done := make(chan error, 1)
	go func() { done <- run(ctx, []string{"serve"}, getenv, nil, &logs, &logs) }()
	base := "http://" + getenv("CONNECT4_ADDR")
	deadline := time.Now().Add(5 * time.Second)
	for {
		resp, err := http.Get(base + "/healthz")
		if err == nil {
			resp.Body.Close()
			break
		}
		select {
		case err := <-done:
			cancel()
			t.Fatalf("serve exited: %v\n%s", err, logs.String())
		default:
		}
		if time.Now().After(deadline) {
			cancel()
			t.Fatalf("serve did not come up: %v", err)
		}
		time.Sleep(20 * time.Millisecond)
	}
	stopped := false
	stop := func() error {
		if stopped {
			return nil
		}
		stopped = true
		cancel()
		select {
		case err := <-done:
			return err
		case <-time.After(15 * time.Second):
			return fmt.Errorf("serve did not stop")
		}
	}
	t.Cleanup(func() { _ = stop() })
	return base, stop
}

func TestServeHealthAndReady(t *testing.T) {
	t.Run("memory", func(t *testing.T) {
		addr := freeAddr(t)
		base, stop := startServe(t, env("CONNECT4_ADDR", addr))
		for path, want := range map[string]int{"/healthz": 200, "/readyz": 200, "/nope": 404} {
			resp, err := http.Get(base + path)
			if err != nil {
				t.Fatal(err)
			}
			resp.Body.Close()
			if resp.StatusCode != want {
				t.Errorf("GET %s = %d, want %d", path, resp.StatusCode, want)
			}
		}
		if err := stop(); err != nil {
			t.Errorf("serve returned %v after shutdown", err)
		}
	})
	t.Run("redis down", func(t *testing.T) {
		dead := freeAddr(t) // nothing listens here
		addr := freeAddr(t)
		base, _ := startServe(t, env("CONNECT4_ADDR", addr, "REDIS_URL", "redis://"+dead+"/0"))
		// The store is shared: an outage would take every replica out of
		// the Service at once, so it is reported but keeps the replica ready.
		resp, err := http.Get(base + "/readyz")
		if err != nil {
			t.Fatal(err)
		}
		body, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode != http.StatusOK || !strings.Contains(string(body), "store: unavailable") {
			t.Errorf("/readyz with Redis down = %d %q, want 200 naming the store unavailable", resp.StatusCode, body)
		}
		resp, err = http.Get(base + "/metrics")
		if err != nil {
			t.Fatal(err)
		}
		body, _ = io.ReadAll(resp.Body)
		resp.Body.Close()
		if !strings.Contains(string(body), "connect4_store_up 0") {
			t.Errorf("/metrics after a failed store check lacks connect4_store_up 0")
		}
	})
	t.Run("redis", func(t *testing.T) {
		storetest.Redis(t) // skips (or fails in CI) without a server
		addr := freeAddr(t)
		base, _ := startServe(t, env("CONNECT4_ADDR", addr, "REDIS_URL", storetest.RedisURL()))
		resp, err := http.Get(base + "/readyz")
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != 200 {
			t.Errorf("/readyz with Redis up = %d, want 200", resp.StatusCode)
		}
	})
}

func TestRunUsage(t *testing.T) {
	var out, errb bytes.Buffer
	if err := run(t.Context(), nil, env(), nil, &out, &errb); err != errUsage || !strings.Contains(errb.String(), "connect4 play") {
		t.Errorf("no args: %v, %q", err, errb.String())
	}
	if err := run(t.Context(), []string{"help"}, env(), nil, &out, &errb); err != nil || !strings.Contains(out.String(), "REDIS_URL") {
		t.Errorf("help: %v", err)
	}
	if err := run(t.Context(), []string{"serve"}, env("LOG_LEVEL", "loud"), nil, &out, &errb); err == nil || !strings.Contains(err.Error(), "LOG_LEVEL") {
		t.Errorf("serve with bad config: %v", err)
	}
}

// TestServePlatforms checks that serve mounts the platforms the
// environment enables, behind their signature checks, and /metrics.
func TestServePlatforms(t *testing.T) {
	pub, priv, err := ed25519.GenerateKey(nil)
	if err != nil {
		t.Fatal(err)
	}
	addr := freeAddr(t)
	base, stop := startServe(t, env("CONNECT4_ADDR", addr, "DISCORD_PUBLIC_KEY", hex.EncodeToString(pub),
		"SLACK_SIGNING_SECRET", "shh"))

	post := func(path string, body string, hdr map[string]string) (int, string) {
		req, _ := http.NewRequest("POST", base+path, strings.NewReader(body))
		for k, v := range hdr {
			req.Header.Set(k, v)
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}
	ping := `{"type":1,"id":"1","application_id":"2","token":"t","version":1}`
	ts := strconv.FormatInt(time.Now().Unix(), 10)
	sig := hex.EncodeToString(ed25519.Sign(priv, []byte(ts+ping)))
	if code, body := post("/discord/interactions", ping, map[string]string{"X-Signature-Ed25519": sig, "X-Signature-Timestamp": ts}); code != 200 || !strings.Contains(body, `"type":1`) {
		t.Errorf("signed Discord PING = %d %q, want 200 {\"type\":1}", code, body)
	}
	if code, _ := post("/discord/interactions", ping+" ", map[string]string{"X-Signature-Ed25519": sig, "X-Signature-Timestamp": ts}); code != 401 {
		t.Errorf("Discord PING with a changed body = %d, want 401", code)
	}
	if code, _ := post("/slack/commands", "text=help", nil); code != 401 {
		t.Errorf("unsigned Slack command = %d, want 401", code)
	}
	resp, err := http.Get(base + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if resp.StatusCode != 200 || !strings.Contains(string(b), `connect4_requests_total{kind="ping",outcome="ok",platform="discord"} 1`) {
		t.Errorf("/metrics = %d, want the Discord ping counted:\n%s", resp.StatusCode, b)
	}
	if err := stop(); err != nil {
		t.Errorf("serve returned %v after shutdown", err)
	}
}

// TestServeAdaptsProcs: serve runs ops.Procs unless told not to. Idle, it
// goes to one P within its window of 2 s and says so at debug level, and
// it restores the runtime's default when it stops; a GOMAXPROCS variable
// or CONNECT4_PROCS=all leaves the runtime alone. The serves run in a
// process of their own, this test binary run again for this test alone
// (procsChild set): Procs sets its process's GOMAXPROCS and reads its
// process's CPU time, which the other tests would share. So the test runs
// beside the others instead of holding them back for its 2 s.
func TestServeAdaptsProcs(t *testing.T) {
	def := runtime.GOMAXPROCS(0)
	if def <= 1 {
		t.Skip("GOMAXPROCS is 1 already: nothing to adapt")
	}
	if os.Getenv(procsChild) == "" {
		t.Parallel() // the serves run in a child process (see above)
		cmd := exec.CommandContext(t.Context(), os.Args[0], "-test.run=^TestServeAdaptsProcs$", "-test.count=1", "-test.v")
		cmd.Env = append(os.Environ(), procsChild+"=1")
		out, err := cmd.CombinedOutput()
		if err != nil || !strings.Contains(string(out), "--- PASS: TestServeAdaptsProcs") {
			t.Fatalf("the serves' process: %v\n%s", err, out)
		}
		return
	}
	type server struct {
		logs *syncLog
		stop context.CancelFunc
		done chan error
	}
	start := func(pairs ...string) server {
		ctx, cancel := context.WithCancel(t.Context())
		s := server{logs: &syncLog{}, stop: cancel, done: make(chan error, 1)}
		getenv := env(append([]string{"CONNECT4_ADDR", freeAddr(t), "LOG_LEVEL", "debug"}, pairs...)...)
		go func() { s.done <- run(ctx, []string{"serve"}, getenv, nil, s.logs, s.logs) }()
		return s
	}
	const adapted = `msg="GOMAXPROCS adapted to the load" gomaxprocs=1 `
	adaptive, pinned, all := start(), start("GOMAXPROCS", strconv.Itoa(def)), start("CONNECT4_PROCS", "all")
	for deadline := time.Now().Add(10 * time.Second); !strings.Contains(adaptive.logs.String(), adapted); time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("no %q in the log of an idle serve after 10 s:\n%s", adapted, adaptive.logs)
		}
	}
	if n := runtime.GOMAXPROCS(0); n != 1 {
		t.Errorf("GOMAXPROCS is %d after the log said 1", n)
	}
	for name, s := range map[string]server{"adaptive": adaptive, "GOMAXPROCS set": pinned, "all": all} {
		s.stop()
		if err := <-s.done; err != nil {
			t.Errorf("%s: serve returned %v", name, err)
		}
	}
	if n := runtime.GOMAXPROCS(0); n != def {
		t.Errorf("GOMAXPROCS is %d after serve stopped, want the default %d", n, def)
	}
	for name, s := range map[string]server{"GOMAXPROCS set": pinned, "all": all} {
		if strings.Contains(s.logs.String(), "GOMAXPROCS adapted") {
			t.Errorf("%s: serve adapted GOMAXPROCS:\n%s", name, s.logs)
		}
	}
}

// procsChild is set in the environment of TestServeAdaptsProcs's own
// process.
const procsChild = "CONNECT4_TEST_PROCS_CHILD"
