package bodies

import (
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"
)

// TestSlowBodyCut checks that a body trickled slower than its deadline
// allows is cut off with ErrSlow at about bodyGrace, not at the server's
// read timeout, and gives its slot back.
func TestSlowBodyCut(t *testing.T) {
	s := NewSlots(4)
	errc := make(chan error, 1)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, err := s.Read(w, r)
		errc <- err
	}))
	t.Cleanup(srv.Close)
	c, err := net.Dial("tcp", srv.Listener.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	start := time.Now()
	fmt.Fprintf(c, "POST / HTTP/1.1\r\nHost: test\r\nContent-Length: 1000\r\n\r\na")
	go io.Copy(io.Discard, c)
	select {
	case err := <-errc:
		if !errors.Is(err, ErrSlow) {
			t.Fatalf("Read of a stalled body = %v, want ErrSlow", err)
		}
		if d := time.Since(start); d > deadline(1000)+time.Second {
			t.Fatalf("the stalled body was cut after %v, want about %v", d, deadline(1000))
		}
	case <-time.After(5 * time.Second):
		t.Fatal("a stalled body was not cut within 5 s")
	}
	time.Sleep(10 * time.Millisecond) // the handler returns
	if all, _ := s.InUse(); all != 0 {
		t.Fatalf("%d slots taken after the cut, want 0", all)
	}
}

// TestShareOfOneAddress checks that one address cannot take the last
// eighth of the slots while it holds an eighth, and another one can.
func TestShareOfOneAddress(t *testing.T) {
	s := NewSlots(16) // 2 reserved, a share of 2
	req := func(addr string) *http.Request {
		r := httptest.NewRequest(http.MethodPost, "/", nil)
		r.RemoteAddr, r.ContentLength = addr+":1234", 100
		return r
	}
	for i := range 14 {
		if !s.take(req("192.0.2.1"), "192.0.2.1") {
			t.Fatalf("slot %d refused to the first address", i+1)
		}
	}
	if s.take(req("192.0.2.1"), "192.0.2.1") {
		t.Fatal("the first address took a reserved slot while holding 14")
	}
	for i := range 2 {
		if !s.take(req("192.0.2.2"), "192.0.2.2") {
			t.Fatalf("reserved slot %d refused to a second address", i+1)
		}
	}
	if s.take(req("192.0.2.3"), "192.0.2.3") {
		t.Fatal("a slot beyond all 16 was given")
	}
}
