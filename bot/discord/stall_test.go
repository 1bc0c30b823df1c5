package discord

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/connect4/connect4/bot/internal/adaptertest"
)

// TestSignedAnsweredAmongStalledBodies opens 130 connections from another
// address (127.0.0.2) that send plausible signature headers and then
// trickle their bodies a byte every half second (a mix of declared
// sizes, and chunked), opening again whenever the server lets one go; 30
// signed PINGs sent meanwhile from 127.0.0.1 must all be answered.
func TestSignedAnsweredAmongStalledBodies(t *testing.T) {
	if testing.Short() {
		t.Skip("an attack of several seconds")
	}
	t.Parallel()
	f := newFixture(t, sessionsMemory(), 0)
	srv := httptest.NewServer(f.mux)
	t.Cleanup(srv.Close)
	sizes := []int{1000, 20000, 100000, MaxBody - 1, -1}
	head := func(i int) string {
		length := "Content-Length: " + strconv.Itoa(sizes[i%len(sizes)])
		if sizes[i%len(sizes)] < 0 {
			length = "Transfer-Encoding: chunked"
		}
		return fmt.Sprintf("POST %s HTTP/1.1\r\nHost: test\r\nContent-Type: application/json\r\n%s\r\n"+
			"X-Signature-Timestamp: %d\r\nX-Signature-Ed25519: %s\r\n\r\n", InteractionsPath, length, time.Now().Unix(), anySignature)
	}
	ctx, stop := context.WithCancel(t.Context())
	const stalls = 130
	wait := adaptertest.Trickle(ctx, t, srv.Listener.Addr().String(), "127.0.0.2", stalls, head, 500*time.Millisecond)
	defer func() { stop(); t.Logf("%d connections opened by the stalls", wait()) }()
	adaptertest.WaitFor(t, "the stalled bodies in the slots", func() bool { return inUseAll(f.a.bodies) >= DefaultMaxBodies*7/8 })

	const signed = 30
	answered := 0
	for range signed {
		if status, got := signedPing(t, f, srv); status == http.StatusOK && strings.Contains(got, `"type":1`) {
			answered++
		}
		time.Sleep(50 * time.Millisecond)
	}
	t.Logf("%d of %d signed PINGs answered among %d stalled bodies", answered, signed, stalls)
	if answered != signed {
		t.Errorf("%d of %d signed PINGs answered among %d stalled bodies, want all", answered, signed, stalls)
	}
}
