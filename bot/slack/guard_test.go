package slack

import (
	"bufio"
	"bytes"
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
	"github.com/connect4/connect4/sessions"
	"github.com/connect4/connect4/sessions/storetest"
)

// TestRefusedBeforeBody checks that requests without well-formed signature
// headers, or with a timestamp outside the 5-minute window, are answered
// 401 without their body being read.
func TestRefusedBeforeBody(t *testing.T) {
	e := newEnv(t, storetest.NewMemory(t, sessions.Options{}), Config{})
	mux := http.NewServeMux()
	e.a.Register(mux)
	ts := func(d time.Duration) string { return strconv.FormatInt(time.Now().Add(d).Unix(), 10) }
	sig := "v0=" + strings.Repeat("ab", 32)
	tests := []struct {
		name    string
		headers map[string]string
	}{
		{"no headers", nil},
		{"no signature", map[string]string{headerTimestamp: ts(0)}},
		{"no timestamp", map[string]string{headerSignature: sig}},
		{"6 minutes old", map[string]string{headerTimestamp: ts(-6 * time.Minute), headerSignature: sig}},
		{"1 day old", map[string]string{headerTimestamp: ts(-24 * time.Hour), headerSignature: sig}},
		{"6 minutes ahead", map[string]string{headerTimestamp: ts(6 * time.Minute), headerSignature: sig}},
		{"timestamp not a number", map[string]string{headerTimestamp: "hello", headerSignature: sig}},
		{"signature not hex", map[string]string{headerTimestamp: ts(0), headerSignature: "v0=zz"}},
		{"signature without v0=", map[string]string{headerTimestamp: ts(0), headerSignature: strings.Repeat("ab", 32)}},
	}
	for _, path := range []string{"/slack/commands", "/slack/interactions"} {
		for _, tt := range tests {
			t.Run(path+"/"+tt.name, func(t *testing.T) {
				r := httptest.NewRequestWithContext(t.Context(), http.MethodPost, path, nil)
				r.Body, r.ContentLength = adaptertest.MustNotRead{T: t}, 100
				for k, v := range tt.headers {
					r.Header.Set(k, v)
				}
				w := httptest.NewRecorder()
				mux.ServeHTTP(w, r)
				if w.Code != http.StatusUnauthorized {
					t.Fatalf("status %d, want 401", w.Code)
				}
			})
		}
	}
}

// stalledRequest is a request whose body never ends until release.
type stalledRequest struct {
	w       *httptest.ResponseRecorder
	done    chan struct{}
	release func()
}

// stall serves a request to mux in the background whose body sends
// nothing until released: it declares length bytes (-1 for unknown).
func stall(t *testing.T, mux http.Handler, path string, length int64) *stalledRequest {
	pr, pw := io.Pipe()
	r := httptest.NewRequestWithContext(t.Context(), http.MethodPost, path, nil)
	r.Body, r.ContentLength = pr, length
	ts := strconv.FormatInt(time.Now().Unix(), 10)
	r.Header.Set(headerTimestamp, ts)
	r.Header.Set(headerSignature, "v0="+strings.Repeat("ab", 32))
	s := &stalledRequest{w: httptest.NewRecorder(), done: make(chan struct{})}
	s.release = func() { pw.CloseWithError(io.ErrUnexpectedEOF) }
	go func() {
		defer close(s.done)
		mux.ServeHTTP(s.w, r)
	}()
	t.Cleanup(func() { s.release(); <-s.done })
	return s
}

// TestBodySlots checks that beyond MaxBodies bodies being read a request
// gets 503 with Retry-After: 1 before its body is read, and that large
// uploads can take only half of the slots, leaving room for real
// interactions.
func TestBodySlots(t *testing.T) {
	e := newEnv(t, storetest.NewMemory(t, sessions.Options{}), Config{MaxBodies: 4})
	mux := http.NewServeMux()
	e.a.Register(mux)
	signed := func() *httptest.ResponseRecorder {
		body := commandBody("UA", "help")
		r := httptest.NewRequestWithContext(t.Context(), http.MethodPost, "/slack/commands", bytes.NewReader(body))
		now := strconv.FormatInt(time.Now().Unix(), 10)
		r.Header.Set(headerTimestamp, now)
		r.Header.Set(headerSignature, sign(testSecret, now, body))
		r.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		w := httptest.NewRecorder()
		mux.ServeHTTP(w, r)
		return w
	}
	refused := func(what string, length int64) {
		t.Helper()
		r := httptest.NewRequestWithContext(t.Context(), http.MethodPost, "/slack/commands", nil)
		r.Body, r.ContentLength = adaptertest.MustNotRead{T: t}, length
		r.Header.Set(headerTimestamp, strconv.FormatInt(time.Now().Unix(), 10))
		r.Header.Set(headerSignature, "v0="+strings.Repeat("ab", 32))
		w := httptest.NewRecorder()
		mux.ServeHTTP(w, r)
		if w.Code != http.StatusServiceUnavailable || w.Header().Get("Retry-After") != "1" {
			t.Fatalf("%s: status %d Retry-After %q, want 503 and 1", what, w.Code, w.Header().Get("Retry-After"))
		}
	}
	// Two large uploads (one of unknown length) take the two large slots.
	stall(t, mux, "/slack/commands", MaxBody)
	stall(t, mux, "/slack/interactions", -1)
	adaptertest.WaitFor(t, "two large bodies in flight", func() bool { return inUseLarge(e.a.bodies) == 2 })
	refused("a third large upload", MaxBody)
	if w := signed(); w.Code != http.StatusOK {
		t.Fatalf("a signed command beside two stalled large uploads: %d %q, want 200", w.Code, w.Body)
	}
	// Two small stalled uploads take the rest: now everything waits.
	stall(t, mux, "/slack/commands", 1000)
	stall(t, mux, "/slack/commands", 1000)
	adaptertest.WaitFor(t, "four bodies in flight", func() bool { return inUseAll(e.a.bodies) == 4 })
	refused("a small request with every slot taken", 1000)
	if got := inUseLarge(e.a.bodies); got != 2 {
		t.Fatalf("%d large slots taken after refusals, want 2 (a refusal gives its slot back)", got)
	}
}

// TestStalledUploadsBoundMemory opens 300 connections that each send the
// headers of a signed-looking request and 256 KiB less one byte of body,
// then stall, and measures the heap while they hang. With the default 64
// body slots (32 for large bodies) the heap grows by a few MiB and a
// legitimate signed command is still answered; with slots for all of
// them, for comparison, it grows by 300 bodies.
func TestStalledUploadsBoundMemory(t *testing.T) {
	const uploads = 300
	bounded := stalledUploads(t, Config{}, uploads)
	t.Logf("%d stalled %d KiB uploads, MaxBodies %d: heap in use grew by %.1f MiB", uploads, MaxBody>>10, DefaultMaxBodies, mib(bounded))
	const ceiling = 24 << 20 // 32 bodies of 256 KiB, and both ends of 300 connections
	if bounded > ceiling {
		t.Errorf("heap grew by %.1f MiB under %d stalled uploads, want at most %.0f MiB", mib(bounded), uploads, mib(ceiling))
	}
	if testing.Short() {
		return
	}
	unbounded := stalledUploads(t, Config{MaxBodies: 2 * uploads}, uploads)
	t.Logf("the same with MaxBodies %d (no bound in effect): heap in use grew by %.1f MiB", 2*uploads, mib(unbounded))
	if unbounded < 2*bounded {
		t.Errorf("without a bound the heap grew by %.1f MiB, not clearly more than %.1f MiB: the measurement does not see the bodies",
			mib(unbounded), mib(bounded))
	}
}

func mib(n int64) float64 { return float64(n) / (1 << 20) }

// stalledUploads runs the attack of TestStalledUploadsBoundMemory against
// an adapter with cfg and returns how much HeapInuse grew while the
// uploads hung, after checking that a signed command is answered 200.
func stalledUploads(t *testing.T, cfg Config, uploads int) int64 {
	e := newEnv(t, storetest.NewMemory(t, sessions.Options{}), cfg)
	slots := e.a.cfg.MaxBodies / 2
	body := bytes.Repeat([]byte("a"), MaxBody-1)
	head := fmt.Sprintf("POST /slack/commands HTTP/1.1\r\nHost: test\r\nContent-Type: application/x-www-form-urlencoded\r\n"+
		"Content-Length: %d\r\n%s: %d\r\n%s: v0=%s\r\n\r\n",
		MaxBody, headerTimestamp, time.Now().Unix(), headerSignature, strings.Repeat("ab", 32))

	var before, during runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)

	var refused atomic.Int64
	var wg sync.WaitGroup
	conns := make([]net.Conn, 0, uploads)
	for range uploads {
		c, err := net.Dial("tcp", e.srv.Listener.Addr().String())
		if err != nil {
			t.Fatal(err)
		}
		conns = append(conns, c)
		wg.Go(func() {
			if _, err := io.WriteString(c, head); err != nil {
				return
			}
			c.Write(body) // returns when the connection closes, if the server stops reading
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
		return refused.Load() == want && inUseLarge(e.a.bodies) == min(uploads, slots)
	})
	time.Sleep(300 * time.Millisecond) // the bodies in the slots arrive
	runtime.GC()
	runtime.ReadMemStats(&during)

	start := time.Now()
	if got := e.slash("UA", "help"); !strings.Contains(got.Text, "Connect Four") {
		t.Fatalf("help under attack: %+v", got)
	}
	if d := time.Since(start); d > 3*time.Second {
		t.Fatalf("help under attack took %v", d)
	}
	return int64(during.HeapInuse) - int64(before.HeapInuse)
}

func inUseAll(s *bodies.Slots) int   { n, _ := s.InUse(); return n }
func inUseLarge(s *bodies.Slots) int { _, n := s.InUse(); return n }
