// Package bodies reads the bodies of requests not yet verified within bounds:
// a size limit, and a bounded number read at once so that stalled uploads
// cannot take the memory. Both chat adapters use it. It knows nothing of
// chat platforms.
package bodies

import (
	"errors"
	"io"
	"net/http"
)

// Max is the largest request body accepted, in bytes; larger ones get
// 413. Slack's and Discord's payloads are a few KiB.
const Max = 256 << 10

// largeBody is the declared length above which a body counts as large.
const largeBody = 32 << 10

// Slots bounds the request bodies read at once, and so the memory that
// requests not yet verified can hold: each body being read takes a slot,
// and large ones (over largeBody declared, or of unknown length) also take
// one of half as many large slots, so that stalled large uploads leave room
// for real interactions. It is safe for concurrent use.
type Slots struct {
	all   chan struct{}
	large chan struct{}
}

// NewSlots returns Slots for n bodies at once (n ≥ 1).
func NewSlots(n int) *Slots {
	return &Slots{all: make(chan struct{}, n), large: make(chan struct{}, max(1, n/2))}
}

// take reserves the slots for r's body without waiting and reports whether
// it could; release gives back what a successful take reserved.
func (s *Slots) take(r *http.Request) bool {
	if r.ContentLength < 0 || r.ContentLength > largeBody {
		select {
		case s.large <- struct{}{}:
		default:
			return false
		}
	}
	select {
	case s.all <- struct{}{}:
		return true
	default:
		s.releaseLarge(r)
		return false
	}
}

func (s *Slots) release(r *http.Request) {
	<-s.all
	s.releaseLarge(r)
}

func (s *Slots) releaseLarge(r *http.Request) {
	if r.ContentLength < 0 || r.ContentLength > largeBody {
		<-s.large
	}
}

// ErrBusy is returned by Read when every body slot is taken.
var ErrBusy = errors.New("bodies: too many request bodies in flight")

// Read reads r's body (at most Max bytes) in a slot. It returns ErrBusy
// when no slot is free, an *http.MaxBytesError for a body over Max (at once
// when its declared length is), or the read error. A body of declared
// length is read into a buffer of exactly that size.
func (s *Slots) Read(w http.ResponseWriter, r *http.Request) ([]byte, error) {
	if r.ContentLength > Max {
		return nil, &http.MaxBytesError{Limit: Max}
	}
	if !s.take(r) {
		return nil, ErrBusy
	}
	defer s.release(r)
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
func (s *Slots) InUse() (all, large int) { return len(s.all), len(s.large) }
