package ops

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"time"
)

// Server is the HTTP side of a serving bot: the listener the adapters'
// endpoints, the probes and the metrics are mounted on, and the order of
// its shutdown.
type Server struct {
	Addr            string       // CONNECT4_ADDR
	Handler         http.Handler // the mux
	ShutdownTimeout time.Duration
	PprofAddr       string // when set, Go's profiler on a listener of its own
	Log             *slog.Logger
	// LogAttrs are added to the "listening" line (the store's mode).
	LogAttrs []any
	// Health is told when the server is shutting down (not ready).
	Health *Health
	// Adapters are stopped after the listener; a connection of theirs
	// that fails for good stops the server.
	Adapters *Group
	// Cancel ends the context the adapters' connections run under.
	Cancel func()
}

// Run serves until ctx ends (SIGINT or SIGTERM) or an adapter's
// connection fails for good; then the server stops taking requests, the
// adapters finish their in-flight work, all within ShutdownTimeout. It
// returns why it stopped: nil for ctx.
func (s *Server) Run(ctx context.Context) error {
	ln, err := net.Listen("tcp", s.Addr)
	if err != nil {
		s.Cancel()
		s.Adapters.Stop(ctx)
		return fmt.Errorf("CONNECT4_ADDR: %w", err)
	}
	srv := &http.Server{
		Handler:           s.Handler,
		ReadHeaderTimeout: 5 * time.Second,
		ReadTimeout:       10 * time.Second,
		WriteTimeout:      15 * time.Second,
		IdleTimeout:       2 * time.Minute,
		ErrorLog:          slog.NewLogLogger(s.Log.Handler(), slog.LevelWarn),
	}
	s.Log.Info("listening", append([]any{"addr", ln.Addr().String()}, s.LogAttrs...)...)
	if s.PprofAddr != "" {
		stopPprof, err := ServePprof(s.PprofAddr, s.Log)
		if err != nil {
			ln.Close()
			s.Cancel()
			s.Adapters.Stop(ctx)
			return err
		}
		defer stopPprof()
	}
	served := make(chan error, 1)
	go func() { served <- srv.Serve(ln) }()

	var runErr error
	select {
	case err := <-served:
		runErr = err
	case err := <-s.Adapters.Fatal():
		s.Log.Error("shutting down: a platform connection cannot recover", "err", err)
		runErr = err
	case <-ctx.Done():
		s.Log.Info("shutting down")
	}
	s.Health.Stopping()
	s.Cancel()
	sctx, cancel := context.WithTimeout(context.Background(), s.ShutdownTimeout)
	defer cancel()
	if err := srv.Shutdown(sctx); err != nil {
		s.Log.Warn("shutdown", "err", err)
	}
	s.Adapters.Stop(sctx)
	if errors.Is(runErr, http.ErrServerClosed) {
		runErr = nil
	}
	return runErr
}
