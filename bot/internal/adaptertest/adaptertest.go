// Package adaptertest is test support that the chat adapters' tests share
// (they must not import each other): a log sink safe for concurrent use, a
// request body that fails the test when read, and polling. Nothing outside
// tests imports it.
package adaptertest

import (
	"bytes"
	"context"
	"image"
	"io"
	"net"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// Buffer is a bytes.Buffer safe for concurrent writes and reads, for logs
// written by background goroutines.
type Buffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

// Write appends p.
func (l *Buffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

// String returns what was written so far.
func (l *Buffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// MustNotRead is a request body that fails T when read: for requests that
// must be refused on their headers alone.
type MustNotRead struct{ T testing.TB }

// Read fails the test.
func (r MustNotRead) Read([]byte) (int, error) {
	r.T.Error("the body of a request refused on its headers was read")
	return 0, io.ErrUnexpectedEOF
}

// Close does nothing.
func (MustNotRead) Close() error { return nil }

// WaitFor polls cond every millisecond for up to 5 s, failing t if it never
// holds.
func WaitFor(t testing.TB, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(5 * time.Second); !cond(); {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(time.Millisecond)
	}
}

// SamePixels reports whether a and b have the same bounds and colours.
func SamePixels(a, b image.Image) bool {
	if a.Bounds() != b.Bounds() {
		return false
	}
	for y := a.Bounds().Min.Y; y < a.Bounds().Max.Y; y++ {
		for x := a.Bounds().Min.X; x < a.Bounds().Max.X; x++ {
			r1, g1, b1, a1 := a.At(x, y).RGBA()
			r2, g2, b2, a2 := b.At(x, y).RGBA()
			if r1 != r2 || g1 != g2 || b1 != b2 || a1 != a2 {
				return false
			}
		}
	}
	return true
}

// Trickle opens n connections to addr from the local IP from (any address
// of 127.0.0.0/8 works on Linux), each sending head(i) (a request's
// headers, blank line included) and then one byte of its body every
// every, opening again whenever the server answers or closes it, until
// ctx is done. It returns a function that waits for the connections to
// stop and returns how many were opened. A head with Transfer-Encoding:
// chunked gets its bytes as one-byte chunks.
func Trickle(ctx context.Context, t testing.TB, addr, from string, n int, head func(i int) string, every time.Duration) (wait func() int) {
	t.Helper()
	d := net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(from)}}
	var opened atomic.Int64
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			for ctx.Err() == nil {
				c, err := d.DialContext(ctx, "tcp", addr)
				if err != nil {
					if ctx.Err() == nil {
						t.Errorf("trickle: dial from %s: %v", from, err)
					}
					return
				}
				opened.Add(1)
				trickle(ctx, c, head(i), every)
			}
		})
	}
	return func() int { wg.Wait(); return int(opened.Load()) }
}

// trickle sends h on c and then a byte every every until ctx is done or
// the server answers or closes c; it closes c.
func trickle(ctx context.Context, c net.Conn, h string, every time.Duration) {
	answered := make(chan struct{})
	go func() {
		defer close(answered)
		_, _ = io.Copy(io.Discard, c) // until the server answers and closes, or c is closed
	}()
	defer func() { c.Close(); <-answered }()
	one := "a"
	if strings.Contains(strings.ToLower(h), "transfer-encoding: chunked") {
		one = "1\r\na\r\n"
	}
	if _, err := io.WriteString(c, h); err != nil {
		return
	}
	tick := time.NewTicker(every)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case <-answered:
			return
		case <-tick.C:
			if _, err := io.WriteString(c, one); err != nil {
				return
			}
		}
	}
}
