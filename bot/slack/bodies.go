package slack

import (
	"errors"
	"io"
	"net/http"
)

// MaxBody is the largest request body accepted, in bytes; larger ones get
// 413. Slack's payloads are a few KiB.
const MaxBody = 256 << 10

// largeBody is the declared length above which a body counts as large.
const largeBody = 32 << 10

// bodySlots bounds the request bodies read at once, and so the memory that
// requests not yet verified can hold: each body being read takes a slot,
// and large ones (over largeBody declared, or of unknown length) also take
// one of half as many large slots, so that stalled large uploads leave room
// for real interactions. It is safe for concurrent use.
type bodySlots struct {
	all   chan struct{}
	large chan struct{}
}

func newBodySlots(n int) *bodySlots {
	return &bodySlots{all: make(chan struct{}, n), large: make(chan struct{}, max(1, n/2))}
}

// take reserves the slots for r's body without waiting and reports whether
// it could; release gives back what a successful take reserved.
func (s *bodySlots) take(r *http.Request) bool {
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

func (s *bodySlots) release(r *http.Request) {
	<-s.all
	s.releaseLarge(r)
}

func (s *bodySlots) releaseLarge(r *http.Request) {
	if r.ContentLength < 0 || r.ContentLength > largeBody {
		<-s.large
	}
}

// errBusy is returned by readBody when every body slot is taken.
var errBusy = errors.New("slack: too many request bodies in flight")

// readBody reads r's body (at most MaxBody bytes) in a body slot. It
// returns errBusy when no slot is free, an *http.MaxBytesError for a body
// over MaxBody (at once when its declared length is), or the read error.
// A body of declared length is read into a buffer of exactly that size.
func (a *Adapter) readBody(w http.ResponseWriter, r *http.Request) ([]byte, error) {
	if r.ContentLength > MaxBody {
		return nil, &http.MaxBytesError{Limit: MaxBody}
	}
	if !a.bodies.take(r) {
		return nil, errBusy
	}
	defer a.bodies.release(r)
	if r.ContentLength >= 0 {
		body := make([]byte, r.ContentLength)
		if _, err := io.ReadFull(r.Body, body); err != nil {
			return nil, err
		}
		return body, nil
	}
	return io.ReadAll(http.MaxBytesReader(w, r.Body, MaxBody))
}
