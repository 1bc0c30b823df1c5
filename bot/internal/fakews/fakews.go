// Package fakews is what the fakes of the platforms' websocket services
// (gatewayfake for the Discord Gateway, socketfake for Slack Socket Mode)
// share: a connection whose writes are serialised, the upgrader, a signal
// that wakes waiters on every change of state, and locked reads of the
// fakes' counters. Nothing outside tests and the fakes imports it; it
// knows nothing of either platform's protocol.
package fakews

import (
	"context"
	"net/http"
	"sync"
	"time"

	"github.com/gorilla/websocket"
)

// Upgrader returns a websocket upgrader that accepts any Origin: clients
// send their platform's (socketmode: https://api.slack.com), which is not
// the fake's host.
func Upgrader() websocket.Upgrader {
	return websocket.Upgrader{CheckOrigin: func(*http.Request) bool { return true }}
}

// Conn is one websocket connection; its writes are serialised.
type Conn struct {
	WS  *websocket.Conn
	wmu sync.Mutex
}

// WriteJSON writes v as one message, within 5 s.
func (c *Conn) WriteJSON(v any) error {
	c.wmu.Lock()
	defer c.wmu.Unlock()
	_ = c.WS.SetWriteDeadline(time.Now().Add(5 * time.Second))
	return c.WS.WriteJSON(v)
}

// CloseWith sends a close frame with code and text, then closes c.
func (c *Conn) CloseWith(code int, text string) {
	c.wmu.Lock()
	_ = c.WS.WriteControl(websocket.CloseMessage, websocket.FormatCloseMessage(code, text), time.Now().Add(time.Second))
	c.wmu.Unlock()
	_ = c.WS.Close()
}

// Signal wakes everyone waiting for a change of a fake's state. The fake
// holds its own mutex around NotifyLocked and the conditions of Wait.
type Signal struct {
	ch chan struct{}
}

// NotifyLocked wakes the waiters; the fake's mutex is held.
func (s *Signal) NotifyLocked() {
	if s.ch != nil {
		close(s.ch)
	}
	s.ch = make(chan struct{})
}

// Wait blocks until ok (called with mu held) is true, or ctx is done; it
// returns ctx.Err() then.
func (s *Signal) Wait(ctx context.Context, mu *sync.Mutex, ok func() bool) error {
	for {
		mu.Lock()
		if s.ch == nil {
			s.ch = make(chan struct{})
		}
		done, ch := ok(), s.ch
		mu.Unlock()
		if done {
			return nil
		}
		select {
		case <-ch:
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

// Read returns *v read with mu held: a fake's counter or flag.
func Read[T any](mu *sync.Mutex, v *T) T {
	mu.Lock()
	defer mu.Unlock()
	return *v
}

// Copy returns a copy of *v read with mu held: a fake's record of calls.
func Copy[T any](mu *sync.Mutex, v *[]T) []T {
	mu.Lock()
	defer mu.Unlock()
	return append([]T(nil), (*v)...)
}
