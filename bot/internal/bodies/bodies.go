// Package bodies reads the bodies of requests not yet verified within bounds:
// a size limit, a bounded number read at once so that stalled uploads
// cannot take the memory, a deadline by which the body must have arrived,
// and a share per remote address so that one slow sender cannot hold the
// slots signed requests need. Both chat adapters use it. It knows nothing
// of chat platforms.
package bodies

import (
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"sync"
	"time"
)

// Max is the largest request body accepted, in bytes; larger ones get
// 413. Slack's and Discord's payloads are a few KiB.
const Max = 256 << 10

// DefaultSlots is how many bodies are read at once by default.
const DefaultSlots = 64

// largeBody is the declared length above which a body counts as large.
const largeBody = 32 << 10

// The deadline of a body: it must have arrived bodyGrace after its
// headers plus one second per minRate bytes declared (Max for a body of
// unknown length). Slack and Discord send a few KiB at once; a sender that
// trickles is cut off within a second or two instead of the server's
// read timeout, and its slot goes back.
const (
	bodyGrace = time.Second
	minRate   = 16 << 10 // bytes per second
)

// Slots bounds the request bodies read at once, and so the memory that
// requests not yet verified can hold: each body being read takes a slot,
// and large ones (over largeBody declared, or of unknown length) also take
// one of half as many large slots, so that stalled large uploads leave room
// for real interactions. The last eighth of the slots is kept for remote
// addresses that hold less than an eighth: a sender that holds many
// slots cannot take them, so requests from elsewhere (Slack's, Discord's)
// still find one. It is safe for concurrent use.
type Slots struct {
	mu         sync.Mutex
	n, nLarge  int
	all, large int            // slots taken
	held       map[string]int // slots taken per remote address
	reserve    int            // the last slots, for addresses holding fewer than share
	share      int
}

// NewSlots returns Slots for n bodies at once (n ≥ 1).
func NewSlots(n int) *Slots {
	return &Slots{n: n, nLarge: max(1, n/2), held: make(map[string]int), reserve: n / 8, share: max(1, n/8)}
}

// isLarge reports whether r's body counts as large.
func isLarge(r *http.Request) bool { return r.ContentLength < 0 || r.ContentLength > largeBody }

// source is the remote address of r without its port.
func source(r *http.Request) string {
	if host, _, err := net.SplitHostPort(r.RemoteAddr); err == nil {
		return host
	}
	return r.RemoteAddr
}

// take reserves the slots for r's body without waiting and reports whether
// it could; release gives back what a successful take reserved.
func (s *Slots) take(r *http.Request, from string) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	switch {
	case s.all >= s.n:
		return false
	case isLarge(r) && s.large >= s.nLarge:
		return false
	case s.all >= s.n-s.reserve && s.held[from] >= s.share:
		return false
	}
	s.all++
	if isLarge(r) {
		s.large++
	}
	s.held[from]++
	return true
}

func (s *Slots) release(r *http.Request, from string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.all--
	if isLarge(r) {
		s.large--
	}
	if s.held[from]--; s.held[from] == 0 {
		delete(s.held, from)
	}
}

// ErrBusy is returned by Read when every body slot is taken, or every one
// the request's remote address may take.
var ErrBusy = errors.New("bodies: too many request bodies in flight")

// ErrSlow is wrapped by the error of Read when the body did not arrive by
// its deadline.
var ErrSlow = errors.New("bodies: the request body arrived too slowly")

// Read reads r's body (at most Max bytes) in a slot. It returns ErrBusy
// when no slot is free, an *http.MaxBytesError for a body over Max (at once
// when its declared length is), an error wrapping ErrSlow when the body has
// not arrived by its deadline (on a real connection), or the read error. A
// body of declared length is read into a buffer of exactly that size.
func (s *Slots) Read(w http.ResponseWriter, r *http.Request) ([]byte, error) {
	if r.ContentLength > Max {
		return nil, &http.MaxBytesError{Limit: Max}
	}
	from := source(r)
	if !s.take(r, from) {
		return nil, ErrBusy
	}
	defer s.release(r, from)
	rc := http.NewResponseController(w)
	if rc.SetReadDeadline(time.Now().Add(deadline(r.ContentLength))) == nil {
		// The rest of the request runs without it: a read deadline that
		// passes while the handler runs would cancel the request's context.
		defer rc.SetReadDeadline(time.Time{})
	}
	body, err := read(w, r)
	if errors.Is(err, os.ErrDeadlineExceeded) {
		return nil, fmt.Errorf("%w: %w", ErrSlow, err)
	}
	return body, err
}

// deadline is how long a body of declared length n (-1: unknown) may take
// to arrive.
func deadline(n int64) time.Duration {
	if n < 0 {
		n = Max
	}
	return bodyGrace + time.Duration(n)*time.Second/minRate
}

func read(w http.ResponseWriter, r *http.Request) ([]byte, error) {
	if r.ContentLength >= 0 {
		body := make([]byte, r.ContentLength)
		if _, err := io.ReadFull(r.Body, body); err != nil {
			return nil, err
		}
		return body, nil
	}
	return io.ReadAll(http.MaxBytesReader(w, r.Body, Max))
}

// InUse returns how many bodies are being read now, and how many of them
// are large.
func (s *Slots) InUse() (all, large int) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.all, s.large
}
