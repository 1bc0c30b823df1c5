package sessions

import (
	"math/rand/v2"
	"slices"
	"strconv"
	"testing"
	"time"

	"github.com/connect4/connect4/bot/match"
)

// busyWithNaive is busyWith as the store first wrote it: every active
// record of the channel, oldest first, the first that binds one of ids.
func (m *Memory) busyWithNaive(k match.Key, ids []string, skip string, now time.Time) (*match.Record, string) {
	for _, r := range m.active(k, now) {
		if r.ID == skip {
			continue
		}
		for _, b := range r.Bound() {
			if slices.Contains(ids, b) {
				return r, b
			}
		}
	}
	return nil, ""
}

// TestMemoryBusyWithOldest holds busyWith to busyWithNaive over random
// channels of pending, playing and finished records sharing players, some
// created at the same instant: the same record (the oldest that binds one
// of the players) and the same player.
func TestMemoryBusyWithOldest(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	now := time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC)
	m, err := NewMemory(Options{Now: func() time.Time { return now }})
	if err != nil {
		t.Fatal(err)
	}
	player := func() string { return "U" + strconv.Itoa(rng.IntN(6)) }
	statuses := []match.Status{match.StatusPending, match.StatusPlaying, match.StatusFinished}
	busy := 0
	for i := range 300 {
		k := match.Key{Platform: "t", Workspace: "w", Channel: "C" + strconv.Itoa(i)}
		m.games[k] = map[string]memGame{}
		for j := range 1 + rng.IntN(5) {
			r := &match.Record{Key: k, ID: "g" + strconv.Itoa(j), Status: statuses[rng.IntN(len(statuses))],
				Created: now.Add(-time.Duration(rng.IntN(3)) * time.Minute), Challenger: match.Player{ID: player()}}
			if rng.IntN(3) > 0 {
				r.Opponent = match.Player{ID: player()}
			}
			m.games[k][r.ID] = memGame{rec: r, expires: now.Add(time.Hour)}
		}
		ids := []string{player(), player()}[:rng.IntN(3)]
		skip := "g" + strconv.Itoa(rng.IntN(3))
		got, gotWho := m.busyWith(k, ids, skip, now)
		want, wantWho := m.busyWithNaive(k, ids, skip, now)
		if got != want || gotWho != wantWho {
			t.Errorf("channel %d, ids %v, skip %s: busyWith = %v, %q; want %v, %q", i, ids, skip, got, gotWho, want, wantWho)
		}
		if want != nil {
			busy++
		}
	}
	if busy < 50 {
		t.Errorf("only %d of 300 channels had a busy player: the test checks too little", busy)
	}
}
