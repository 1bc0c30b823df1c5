package ops

import (
	"context"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"
	"time"
)

// TestPprofHandler checks that the profiler's mux serves each of
// net/http/pprof's handlers: the index, a named profile through it,
// cmdline, symbol, and the CPU profile and trace (with a request whose
// context has ended, so that they stop at once).
func TestPprofHandler(t *testing.T) {
	h := PprofHandler()
	ended, cancel := context.WithCancel(t.Context())
	cancel()
	for _, tc := range []struct {
		path string
		ctx  context.Context
		want string // in the body
	}{
		{"/debug/pprof/", t.Context(), "goroutine"},
		{"/debug/pprof/heap?debug=1", t.Context(), "heap profile:"},
		{"/debug/pprof/goroutine?debug=1", t.Context(), "goroutine profile:"},
		{"/debug/pprof/cmdline", t.Context(), strings.Join(os.Args, "\x00")},
		{"/debug/pprof/symbol", t.Context(), "num_symbols: 1"},
		{"/debug/pprof/profile?seconds=1", ended, ""},
		{"/debug/pprof/trace?seconds=1", ended, ""},
	} {
		req := httptest.NewRequestWithContext(tc.ctx, http.MethodGet, tc.path, nil)
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if rec.Code != http.StatusOK || rec.Body.Len() == 0 || !strings.Contains(rec.Body.String(), tc.want) {
			t.Errorf("GET %s: %d, %d bytes, want 200 with %q in the body:\n%.300s", tc.path, rec.Code, rec.Body.Len(), tc.want, rec.Body.String())
		}
	}
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/metrics", nil))
	if rec.Code != http.StatusNotFound {
		t.Errorf("GET /metrics on the profiler's mux: %d, want 404", rec.Code)
	}
}

// freeAddr returns a loopback address nothing listens on.
func freeAddr(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	return ln.Addr().String()
}

// get returns the status and body of GET url, failing t when it cannot be
// fetched within a few seconds.
func get(t *testing.T, url string) (int, string) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for {
		resp, err := http.Get(url)
		if err == nil {
			defer resp.Body.Close()
			b, err := io.ReadAll(resp.Body)
			if err != nil {
				t.Fatalf("GET %s: %v", url, err)
			}
			return resp.StatusCode, string(b)
		}
		if time.Now().After(deadline) {
			t.Fatalf("GET %s: %v", url, err)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// TestServerServesPprofApart checks that Server.Run with PprofAddr serves
// the profiler on that address only: the public listener answers 404 for
// it (and for expvar's /debug/vars, which the standard library registers
// on http.DefaultServeMux), and stopping the server closes the profiler's
// listener too.
func TestServerServesPprofApart(t *testing.T) {
	public, private := freeAddr(t), freeAddr(t)
	mux := http.NewServeMux()
	mux.HandleFunc("/healthz", func(w http.ResponseWriter, r *http.Request) { io.WriteString(w, "ok") })
	ctx, cancel := context.WithCancel(t.Context())
	s := &Server{Addr: public, Handler: mux, ShutdownTimeout: time.Second, PprofAddr: private,
		Log: slog.New(slog.DiscardHandler), Health: &Health{}, Adapters: &Group{}, Cancel: func() {}}
	done := make(chan error, 1)
	go func() { done <- s.Run(ctx) }()

	if code, _ := get(t, "http://"+public+"/healthz"); code != http.StatusOK {
		t.Fatalf("public /healthz: %d", code)
	}
	for _, path := range []string{"/debug/pprof/", "/debug/pprof/cmdline", "/debug/vars"} {
		if code, _ := get(t, "http://"+public+path); code != http.StatusNotFound {
			t.Errorf("public %s: %d, want 404", path, code)
		}
	}
	if code, body := get(t, "http://"+private+"/debug/pprof/"); code != http.StatusOK || !strings.Contains(body, "goroutine") {
		t.Errorf("profiler /debug/pprof/: %d %.200q, want 200 with the index", code, body)
	}

	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("Run: %v", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Run did not return after its context ended")
	}
	if c, err := net.DialTimeout("tcp", private, time.Second); err == nil {
		c.Close()
		t.Errorf("the profiler still listens on %s after Run returned", private)
	}
}
