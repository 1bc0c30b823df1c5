package gallery

import (
	"bytes"
	"context"
	"errors"
	"runtime"
	"testing"
)

// TestBusy checks that with every drawing slot and queue place taken a
// draw of another picture is refused with ErrBusy, and a picture being
// drawn is shared.
func TestBusy(t *testing.T) {
	g := New(1<<20, 1, 1)
	release := make(chan struct{})
	started := make(chan struct{}, 2)
	slow := func(context.Context) ([]byte, error) { started <- struct{}{}; <-release; return []byte("x"), nil }
	errs := make(chan error, 3)
	go func() { _, err := g.Get(t.Context(), "a", slow); errs <- err }()
	<-started
	go func() { _, err := g.Get(t.Context(), "b", slow); errs <- err }() // waits in the queue
	for g.queued() != 1 {
		runtime.Gosched()
	}
	if _, err := g.Get(t.Context(), "c", slow); !errors.Is(err, ErrBusy) {
		t.Fatalf("a third picture with the slot and the queue taken: %v, want ErrBusy", err)
	}
	go func() { _, err := g.Get(t.Context(), "a", slow); errs <- err }() // shares a's draw
	close(release)
	for range 3 {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
	if draws, _ := g.Stats(); draws != 2 {
		t.Fatalf("%d draws, want 2 (a once, b once)", draws)
	}
}

// TestBytes checks that the cache keeps at most its bytes, dropping the
// least recently used picture.
func TestBytes(t *testing.T) {
	g := New(300, 1, 0)
	get := func(k string) {
		t.Helper()
		if _, err := g.Get(t.Context(), k, func(context.Context) ([]byte, error) { return bytes.Repeat([]byte(k), 100), nil }); err != nil {
			t.Fatal(err)
		}
	}
	for _, k := range []string{"a", "b", "c", "a", "d", "a", "b"} {
		get(k)
	}
	draws, n := g.Stats()
	if n > 300 {
		t.Fatalf("%d bytes kept, want at most 300", n)
	}
	if want := 5; draws != want { // a b c d, then b again (dropped for d, the least recently used); a stays
		t.Fatalf("%d draws, want %d", draws, want)
	}
}
