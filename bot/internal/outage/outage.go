// Package outage is an HTTP server for tests on a fixed loopback address that
// can be switched off and on again, so that a client sees what it would see
// when a platform is unreachable: while the server is down its port is closed
// and every dial fails with "connection refused".
//
// An httptest.Server cannot do this (it cannot listen again once its listener
// is closed), and answering 502 is a different failure from the one operators
// meet. The package is test support for the platform fakes under bot/; it
// knows nothing of Slack or Discord.
package outage

import (
	"errors"
	"fmt"
	"net"
	"net/http"
	"sync"
	"time"
)

// Server serves an http.Handler on 127.0.0.1 at a port chosen by New and kept
// across SetDown(true) and SetDown(false). Its methods are safe for
// concurrent use.
type Server struct {
	hs   *http.Server
	addr string

	mu     sync.Mutex
	ln     net.Listener // nil while down
	conns  map[net.Conn]struct{}
	closed bool
	wg     sync.WaitGroup
}

// ErrClosed is returned by SetDown after Close.
var ErrClosed = errors.New("outage: server closed")

// New starts serving h on a free loopback port. It returns an error when no
// port can be opened.
func New(h http.Handler) (*Server, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("outage: listen: %w", err)
	}
	s := &Server{addr: ln.Addr().String(), conns: make(map[net.Conn]struct{})}
	s.hs = &http.Server{Handler: h, ReadHeaderTimeout: 10 * time.Second, ConnState: s.track}
	s.serve(ln)
	return s, nil
}

// track remembers the connections the http.Server owns, so that going down
// can cut them. Hijacked connections (websockets) belong to the handler,
// which must close them itself.
func (s *Server) track(c net.Conn, st http.ConnState) {
	s.mu.Lock()
	defer s.mu.Unlock()
	switch st {
	case http.StateNew:
		s.conns[c] = struct{}{}
	case http.StateHijacked, http.StateClosed:
		delete(s.conns, c)
	}
}

// serve runs the http.Server on ln until ln is closed. The caller holds no
// lock or holds s.mu.
func (s *Server) serve(ln net.Listener) {
	s.ln = ln
	s.wg.Add(1)
	go func() {
		defer s.wg.Done()
		_ = s.hs.Serve(ln) // returns when ln is closed
	}()
}

// Addr returns the host:port the server listens on, up or down.
func (s *Server) Addr() string { return s.addr }

// URL returns "http://" followed by Addr, without a final slash.
func (s *Server) URL() string { return "http://" + s.addr }

// Down reports whether the server is switched off.
func (s *Server) Down() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.ln == nil
}

// SetDown switches the server off (the port is closed and the HTTP
// connections it owns are cut) or on again (it listens on the same address).
// Setting the current state again does nothing. It returns ErrClosed after
// Close, or the listen error when the port cannot be opened again.
func (s *Server) SetDown(down bool) error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return ErrClosed
	}
	if down == (s.ln == nil) {
		return nil
	}
	if down {
		err := s.ln.Close()
		s.ln = nil
		for c := range s.conns {
			_ = c.Close()
		}
		if err != nil {
			return fmt.Errorf("outage: close listener: %w", err)
		}
		return nil
	}
	ln, err := net.Listen("tcp", s.addr)
	if err != nil {
		return fmt.Errorf("outage: listen again on %s: %w", s.addr, err)
	}
	s.serve(ln)
	return nil
}

// Close stops the server for good, cutting the HTTP connections it owns,
// and waits for its serving goroutines. It is safe to call more than once.
func (s *Server) Close() {
	s.mu.Lock()
	if s.closed {
		s.mu.Unlock()
		return
	}
	s.closed = true
	s.ln = nil
	s.mu.Unlock()
	_ = s.hs.Close() // closes the listener and the tracked connections
	s.wg.Wait()
}
