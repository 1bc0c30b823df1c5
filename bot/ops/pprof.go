package ops

import (
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/http/pprof"
	"time"
)

// PprofHandler returns a new mux serving Go's profiler under /debug/pprof/:
// net/http/pprof's index (and through it every named profile), cmdline,
// profile, symbol and trace handlers. It is mounted only here, never on a
// mux of the public listener; nothing of ours serves http.DefaultServeMux,
// on which the standard library's net/http/pprof registers the same
// handlers when it is linked in (as expvar, which the Prometheus client
// links, registers /debug/vars).
func PprofHandler() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("/debug/pprof/", pprof.Index)
	mux.HandleFunc("/debug/pprof/cmdline", pprof.Cmdline)
	mux.HandleFunc("/debug/pprof/profile", pprof.Profile)
	mux.HandleFunc("/debug/pprof/symbol", pprof.Symbol)
	mux.HandleFunc("/debug/pprof/trace", pprof.Trace)
	return mux
}

// ServePprof serves PprofHandler on its own listener at addr, apart from
// the public one, for operators who opt in (CONNECT4_PPROF_ADDR). stop
// closes it. It returns an error naming CONNECT4_PPROF_ADDR when addr
// cannot be listened on.
func ServePprof(addr string, log *slog.Logger) (stop func(), err error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("CONNECT4_PPROF_ADDR: %w", err)
	}
	srv := &http.Server{Handler: PprofHandler(), ReadHeaderTimeout: 5 * time.Second}
	go func() { _ = srv.Serve(ln) }()
	log.Warn("serving /debug/pprof: keep this address private", "addr", ln.Addr().String())
	return func() { _ = srv.Close() }, nil
}
