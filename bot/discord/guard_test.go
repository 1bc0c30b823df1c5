package discord

import (
	"bufio"
	"bytes"
	"encoding/hex"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/connect4/connect4/bot/internal/adaptertest"
	"github.com/connect4/connect4/bot/internal/bodies"
)

// anySignature is a well-formed signature that verifies nothing.
var anySignature = strings.Repeat("ab", 64)

// TestRefusedBeforeBody checks that requests without well-formed signature
// headers, or whose X-Signature-Timestamp is not a number of seconds
// within 5 minutes of now, are answered 401 without their body being read.
func TestRefusedBeforeBody(t *testing.T) {
	f := newFixture(t, sessionsMemory(), 0)
	ts := func(d time.Duration) string { return strconv.FormatInt(time.Now().Add(d).Unix(), 10) }
	for _, tc := range []struct {
		name    string
		headers map[string]string
	}{
		{"no headers", nil},
		{"no signature", map[string]string{"X-Signature-Timestamp": ts(0)}},
		{"signature not hex", map[string]string{"X-Signature-Timestamp": ts(0), "X-Signature-Ed25519": "zz" + anySignature[2:]}},
		{"short signature", map[string]string{"X-Signature-Timestamp": ts(0), "X-Signature-Ed25519": anySignature[:64]}},
		{"empty timestamp", map[string]string{"X-Signature-Ed25519": anySignature}},
		{"timestamp hello", map[string]string{"X-Signature-Timestamp": "hello", "X-Signature-Ed25519": anySignature}},
		{"1 day old", map[string]string{"X-Signature-Timestamp": ts(-24 * time.Hour), "X-Signature-Ed25519": anySignature}},
		{"1 day ahead", map[string]string{"X-Signature-Timestamp": ts(24 * time.Hour), "X-Signature-Ed25519": anySignature}},
		{"1 year old", map[string]string{"X-Signature-Timestamp": ts(-365 * 24 * time.Hour), "X-Signature-Ed25519": anySignature}},
		{"6 minutes old", map[string]string{"X-Signature-Timestamp": ts(-6 * time.Minute), "X-Signature-Ed25519": anySignature}},
		{"signed number", map[string]string{"X-Signature-Timestamp": "+" + ts(0), "X-Signature-Ed25519": anySignature}},
		{"fraction", map[string]string{"X-Signature-Timestamp": ts(0) + ".5", "X-Signature-Ed25519": anySignature}},
		{"milliseconds", map[string]string{"X-Signature-Timestamp": strconv.FormatInt(time.Now().UnixMilli(), 10), "X-Signature-Ed25519": anySignature}},
		{"too many digits", map[string]string{"X-Signature-Timestamp": strings.Repeat("9", 25), "X-Signature-Ed25519": anySignature}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := httptest.NewRequestWithContext(t.Context(), http.MethodPost, InteractionsPath, nil)
			r.Body, r.ContentLength = adaptertest.MustNotRead{T: t}, 100
			for k, v := range tc.headers {
				r.Header.Set(k, v)
			}
			w := httptest.NewRecorder()
			f.mux.ServeHTTP(w, r)
			if w.Code != http.StatusUnauthorized {
				t.Fatalf("status %d %q, want 401", w.Code, w.Body)
			}
		})
	}
}

// TestTimestampWindow checks properly signed requests at the edges of the
// 5-minute window: the signature is good, only the time decides.
func TestTimestampWindow(t *testing.T) {
	f := newFixture(t, sessionsMemory(), 0)
	ping := []byte(`{"id":"1","application_id":"` + appID + `","type":1,"token":"tok","version":1}`)
	for _, tc := range []struct {
		name string
		ts   string
		code int
	}{
		{"now", strconv.FormatInt(time.Now().Unix(), 10), http.StatusOK},
		{"4 minutes old", strconv.FormatInt(time.Now().Add(-4*time.Minute).Unix(), 10), http.StatusOK},
		{"4 minutes ahead", strconv.FormatInt(time.Now().Add(4*time.Minute).Unix(), 10), http.StatusOK},
		{"6 minutes old", strconv.FormatInt(time.Now().Add(-6*time.Minute).Unix(), 10), http.StatusUnauthorized},
		{"6 minutes ahead", strconv.FormatInt(time.Now().Add(6*time.Minute).Unix(), 10), http.StatusUnauthorized},
		{"1 day old", strconv.FormatInt(time.Now().Add(-24*time.Hour).Unix(), 10), http.StatusUnauthorized},
		{"1 day ahead", strconv.FormatInt(time.Now().Add(24*time.Hour).Unix(), 10), http.StatusUnauthorized},
		{"30 days old", strconv.FormatInt(time.Now().Add(-30*24*time.Hour).Unix(), 10), http.StatusUnauthorized},
		{"hello", "hello", http.StatusUnauthorized},
		{"empty", "", http.StatusUnauthorized},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if w := f.do(ping, sign(f.priv, tc.ts, ping)); w.Code != tc.code {
				t.Fatalf("PING signed at %q = %d, want %d", tc.ts, w.Code, tc.code)
			}
		})
	}
}

// stall serves a request to mux in the background whose body sends
// nothing until the test ends: it declares length bytes (-1 for unknown).
func stall(t *testing.T, mux http.Handler, length int64) {
	pr, pw := io.Pipe()
	r := httptest.NewRequestWithContext(t.Context(), http.MethodPost, InteractionsPath, nil)
	r.Body, r.ContentLength = pr, length
	r.Header.Set("X-Signature-Timestamp", strconv.FormatInt(time.Now().Unix(), 10))
	r.Header.Set("X-Signature-Ed25519", anySignature)
	done := make(chan struct{})
	go func() {
		defer close(done)
		mux.ServeHTTP(httptest.NewRecorder(), r)
	}()
	t.Cleanup(func() { pw.CloseWithError(io.ErrUnexpectedEOF); <-done })
}

// TestBodySlots checks that beyond MaxBodies bodies being read a request
// gets 503 with Retry-After: 1 before its body is read, and that large
// uploads can take only half of the slots.
func TestBodySlots(t *testing.T) {
	f := newFixtureWith(t, sessionsMemory(), 0, func(c *Config) { c.MaxBodies = 4 })
	refused := func(what string, length int64) {
		t.Helper()
		r := httptest.NewRequestWithContext(t.Context(), http.MethodPost, InteractionsPath, nil)
		r.Body, r.ContentLength = adaptertest.MustNotRead{T: t}, length
		r.Header.Set("X-Signature-Timestamp", strconv.FormatInt(time.Now().Unix(), 10))
		r.Header.Set("X-Signature-Ed25519", anySignature)
		w := httptest.NewRecorder()
		f.mux.ServeHTTP(w, r)
		if w.Code != http.StatusServiceUnavailable || w.Header().Get("Retry-After") != "1" {
			t.Fatalf("%s: status %d Retry-After %q, want 503 and 1", what, w.Code, w.Header().Get("Retry-After"))
		}
	}
	stall(t, f.mux, MaxBody)
	stall(t, f.mux, -1)
	adaptertest.WaitFor(t, "two large bodies in flight", func() bool { return inUseLarge(f.a.bodies) == 2 })
	refused("a third large upload", MaxBody)
	want(t, f.slash("UA", "help", nil), typeMessage, flagEphemeral, "Connect Four")
	stall(t, f.mux, 1000)
	stall(t, f.mux, 1000)
	adaptertest.WaitFor(t, "four bodies in flight", func() bool { return inUseAll(f.a.bodies) == 4 })
	refused("a small request with every slot taken", 1000)
	if got := inUseLarge(f.a.bodies); got != 2 {
		t.Fatalf("%d large slots taken after refusals, want 2", got)
	}
	// A body declared over MaxBody is refused before it is read, whatever
	// the slots.
	r := httptest.NewRequestWithContext(t.Context(), http.MethodPost, InteractionsPath, nil)
	r.Body, r.ContentLength = adaptertest.MustNotRead{T: t}, MaxBody+1
	r.Header.Set("X-Signature-Timestamp", strconv.FormatInt(time.Now().Unix(), 10))
	r.Header.Set("X-Signature-Ed25519", anySignature)
	w := httptest.NewRecorder()
	f.mux.ServeHTTP(w, r)
	if w.Code != http.StatusRequestEntityTooLarge {
		t.Fatalf("a body declared over MaxBody: %d, want 413", w.Code)
	}
}

// TestStalledUploadsBoundMemory opens 300 connections that each send the
// headers of a signed-looking interaction and 256 KiB less one byte of
// body, then stall, and measures the heap while they hang; a legitimate
// signed interaction is still answered. With slots for all of them, for
// comparison, the heap grows by 300 bodies.
func TestStalledUploadsBoundMemory(t *testing.T) {
	const uploads = 300
	bounded := stalledUploads(t, 0, uploads)
	t.Logf("%d stalled %d KiB uploads, MaxBodies %d: heap in use grew by %.1f MiB", uploads, MaxBody>>10, DefaultMaxBodies, mib(bounded))
	const ceiling = 24 << 20 // 32 bodies of 256 KiB, and both ends of 300 connections
	if bounded > ceiling {
		t.Errorf("heap grew by %.1f MiB under %d stalled uploads, want at most %.0f MiB", mib(bounded), uploads, mib(ceiling))
	}
	if testing.Short() {
		return
	}
	unbounded := stalledUploads(t, 2*uploads, uploads)
	t.Logf("the same with MaxBodies %d (no bound in effect): heap in use grew by %.1f MiB", 2*uploads, mib(unbounded))
	if unbounded < 2*bounded {
		t.Errorf("without a bound the heap grew by %.1f MiB, not clearly more than %.1f MiB: the measurement does not see the bodies",
			mib(unbounded), mib(bounded))
	}
}

func mib(n int64) float64 { return float64(n) / (1 << 20) }

// stalledUploads runs the attack of TestStalledUploadsBoundMemory with
// maxBodies slots (0 for the default) and returns how much HeapInuse grew
// while the uploads hung, after checking that a signed interaction is
// answered.
func stalledUploads(t *testing.T, maxBodies, uploads int) int64 {
	f := newFixtureWith(t, sessionsMemory(), 0, func(c *Config) { c.MaxBodies = maxBodies })
	srv := httptest.NewServer(f.mux)
	t.Cleanup(srv.Close)
	slots := f.a.cfg.MaxBodies / 2
	body := bytes.Repeat([]byte("a"), MaxBody-1)
	head := fmt.Sprintf("POST %s HTTP/1.1\r\nHost: test\r\nContent-Type: application/json\r\nContent-Length: %d\r\n"+
		"X-Signature-Timestamp: %d\r\nX-Signature-Ed25519: %s\r\n\r\n", InteractionsPath, MaxBody, time.Now().Unix(), anySignature)

	var before, during runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)

	var refused atomic.Int64
	var wg sync.WaitGroup
	conns := make([]net.Conn, 0, uploads)
	for range uploads {
		c, err := net.Dial("tcp", srv.Listener.Addr().String())
		if err != nil {
			t.Fatal(err)
		}
		conns = append(conns, c)
		wg.Go(func() {
			if _, err := io.WriteString(c, head); err != nil {
				return
			}
			c.Write(body)
		})
		wg.Go(func() {
			resp, err := http.ReadResponse(bufio.NewReader(c), nil)
			if err == nil && resp.StatusCode == http.StatusServiceUnavailable {
				refused.Add(1)
			}
		})
	}
	defer func() {
		for _, c := range conns {
			c.Close()
		}
		wg.Wait()
	}()
	want := int64(uploads - min(uploads, slots))
	adaptertest.WaitFor(t, "the uploads beyond the slots refused", func() bool {
		return refused.Load() == want && inUseLarge(f.a.bodies) == min(uploads, slots)
	})
	time.Sleep(300 * time.Millisecond) // the bodies in the slots arrive
	runtime.GC()
	runtime.ReadMemStats(&during)

	start := time.Now()
	if status, got := signedPing(t, f, srv); status != http.StatusOK || !strings.Contains(got, `"type":1`) {
		t.Fatalf("PING under attack: %d %q, want 200 and a PONG", status, got)
	}
	if d := time.Since(start); d > 3*time.Second {
		t.Fatalf("PING under attack took %v", d)
	}
	return int64(during.HeapInuse) - int64(before.HeapInuse)
}

// TestNonce checks that a command's Nonce is its interaction's id, the
// same for a replay of the same request over HTTP or the Gateway, and a
// hash for an id that is not a snowflake.
func TestNonce(t *testing.T) {
	f := newFixture(t, sessionsMemory(), 0)
	in := f.slashIn("UA", "board", nil)
	id := in["id"].(string)
	body := mustJSON(t, in)
	var nonces []string
	for range 2 {
		parsed, err := parse(body)
		if err != nil {
			t.Fatal(err)
		}
		cmd, err := command(parsed, f.a.self(nil, parsed))
		if err != nil {
			t.Fatal(err)
		}
		nonces = append(nonces, cmd.Nonce)
	}
	g := fromGateway(gatewayEvent(t, in).Interaction)
	cmd, err := command(g, f.a.self(nil, g))
	if err != nil {
		t.Fatal(err)
	}
	nonces = append(nonces, cmd.Nonce)
	for _, n := range nonces {
		if n != id {
			t.Fatalf("nonces %q, want all %q", nonces, id)
		}
	}
	for _, odd := range []string{"", "abc", "12 3", strings.Repeat("1", 129)} {
		n := nonce(odd)
		if _, err := hex.DecodeString(n); err != nil || len(n) != 32 {
			t.Errorf("nonce(%q) = %q, want 32 hex digits", odd, n)
		}
		if n != nonce(odd) {
			t.Errorf("nonce(%q) is not stable", odd)
		}
	}
	if nonce("abc") == nonce("abd") {
		t.Error("different ids share a nonce")
	}
}

func inUseAll(s *bodies.Slots) int   { n, _ := s.InUse(); return n }
func inUseLarge(s *bodies.Slots) int { _, n := s.InUse(); return n }

// signedPing sends srv a PING signed with f's key and returns the status
// and body of the answer.
func signedPing(t *testing.T, f *fixture, srv *httptest.Server) (int, string) {
	t.Helper()
	ping := []byte(`{"id":"1","application_id":"` + appID + `","type":1,"token":"tok","version":1}`)
	req, err := http.NewRequestWithContext(t.Context(), http.MethodPost, srv.URL+InteractionsPath, bytes.NewReader(ping))
	if err != nil {
		t.Fatal(err)
	}
	req.Header = sign(f.priv, strconv.FormatInt(time.Now().Unix(), 10), ping)
	resp, err := srv.Client().Do(req)
	if err != nil {
		t.Fatal(err)
	}
	got, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	return resp.StatusCode, string(got)
}
