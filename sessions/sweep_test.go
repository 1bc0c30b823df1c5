package sessions

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/connect4/connect4/bot/match"
	"github.com/connect4/connect4/engine"
)

// TestMemorySweepBounded writes many records, each with a nonce, in many
// channels, lets them all expire, and writes as many again: the sampling
// sweep keeps every map within a small factor of what is live, at a
// constant cost per write.
func TestMemorySweepBounded(t *testing.T) {
	now := time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)
	m, err := NewMemory(Options{Now: func() time.Time { return now }, IdleTTL: time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	g, _ := engine.New(engine.DefaultConfig())
	const n = 5000
	write := func(round int) {
		for i := range n {
			ctx := match.WithNonce(context.Background(), fmt.Sprintf("r%d-%d", round, i))
			rec := &match.Record{Key: match.Key{Platform: "t", Workspace: "w", Channel: fmt.Sprintf("c%d-%d", round, i)},
				Status: match.StatusPending, Challenger: match.Player{ID: "U1"}, Game: g, FirstTo: 1}
			if err := m.Create(ctx, rec); err != nil {
				t.Fatal(err)
			}
		}
	}
	write(0)
	now = now.Add(replayWindow + time.Minute) // every record and nonce of round 0 has expired
	write(1)
	m.mu.Lock()
	games, seen := len(m.games), len(m.seen)
	m.mu.Unlock()
	if games > 3*n/2 || seen > 3*n/2 {
		t.Errorf("after %d expired and %d live writes: %d records and %d nonces kept, want under %d each", n, n, games, seen, 3*n/2)
	}
}
