package sessions

import (
	"context"
	"errors"
	"fmt"
	"reflect"
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

// TestMemoryNoncesPointerFree: the map of nonces seen holds an entry per
// write for ten minutes; its keys and values hold no pointer, so the
// garbage collector never scans it.
func TestMemoryNoncesPointerFree(t *testing.T) {
	m, err := NewMemory(Options{})
	if err != nil {
		t.Fatal(err)
	}
	typ := reflect.TypeOf(m.seen)
	for _, part := range []reflect.Type{typ.Key(), typ.Elem()} {
		if p := pointerIn(part); p != "" {
			t.Errorf("the nonces' map %v holds a pointer in %v: %s", typ, part, p)
		}
	}
}

// pointerIn returns the path to the first pointer t holds, or "".
func pointerIn(t reflect.Type) string {
	switch t.Kind() {
	case reflect.Struct:
		for i := range t.NumField() {
			if p := pointerIn(t.Field(i).Type); p != "" {
				return t.Field(i).Name + "." + p
			}
		}
		return ""
	case reflect.Array:
		return pointerIn(t.Elem())
	case reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr,
		reflect.Float32, reflect.Float64, reflect.Complex64, reflect.Complex128:
		return ""
	}
	return t.Kind().String()
}

// TestMemoryPurgeNonces: a workspace's purge drops its nonces and no
// other workspace's, which still refuse a replay.
func TestMemoryPurgeNonces(t *testing.T) {
	m, err := NewMemory(Options{})
	if err != nil {
		t.Fatal(err)
	}
	g, _ := engine.New(engine.DefaultConfig())
	create := func(ws, nonce string) error {
		ctx := match.WithNonce(context.Background(), nonce)
		return m.Create(ctx, &match.Record{Key: match.Key{Platform: "t", Workspace: ws, Channel: "C" + nonce},
			Status: match.StatusPending, Challenger: match.Player{ID: "U1"}, Game: g, FirstTo: 1})
	}
	for i := range 10 {
		for _, ws := range []string{"W1", "W2"} {
			if err := create(ws, fmt.Sprint(i)); err != nil {
				t.Fatal(err)
			}
		}
	}
	m.purgeWorkspace("t", "W1")
	if n := len(m.seen); n != 10 {
		t.Errorf("after purging W1: %d nonces kept, want W2's 10", n)
	}
	for i := range 10 {
		if err := create("W2", fmt.Sprint(i)); !errors.Is(err, match.ErrReplay) {
			t.Errorf("W2's nonce %d again after W1's purge: err = %v, want ErrReplay", i, err)
		}
	}
}

// TestMemoryPacksFinished: a finished game, rated, with its rounds and
// timers, is kept packed (as bytes the garbage collector does not scan)
// and reads back as it was written; an active one is kept as it is.
func TestMemoryPacksFinished(t *testing.T) {
	now := time.Date(2026, 12, 1, 0, 0, 0, 123456789, time.UTC)
	m, err := NewMemory(Options{Now: func() time.Time { return now }})
	if err != nil {
		t.Fatal(err)
	}
	ctx := t.Context()
	k := match.Key{Platform: "discord", Workspace: "G1", Channel: "C1"}
	alice, bob := match.Player{ID: "U1", Name: "alice"}, match.Player{ID: "U2", Name: "bob"}
	g, _ := engine.New(engine.DefaultConfig())
	rec := &match.Record{Key: k, Status: match.StatusPlaying, Challenger: alice, Opponent: bob, RedID: alice.ID, Game: g, FirstTo: 1,
		Message: match.MessageRef{Channel: "C1", Timestamp: "1712345678.000100"}, Lang: "de",
		Timers: []match.Timer{{Kind: match.TimerTimeout, Due: now.Add(time.Hour)}}}
	if err := m.Create(ctx, rec); err != nil {
		t.Fatal(err)
	}
	if p := m.games[k][rec.ID].packed; p != nil {
		t.Errorf("a game being played is packed: %s", p)
	}
	play := func(r *match.Record) (match.Tally, error) {
		for _, c := range []int{0, 1, 0, 1, 0, 1, 0} {
			if err := r.Game.Play(r.Game.Turn(), c); err != nil {
				return match.Tally{}, err
			}
		}
		r.Status, r.Finish = match.StatusFinished, match.FinishWin
		r.Rounds = append(r.Rounds, match.RoundResult{Winner: alice.ID, Finish: match.FinishWin})
		r.Timers = []match.Timer{{Kind: match.TimerAbandon, Due: now.Add(2 * time.Hour), Fired: true}}
		return match.Tally{Winner: alice, Loser: bob, Rated: true}, nil
	}
	now = now.Add(time.Second)
	done, err := m.Update(ctx, k, rec.ID, play)
	if err != nil {
		t.Fatal(err)
	}
	if m.games[k][rec.ID].packed == nil {
		t.Fatal("a finished game is kept unpacked")
	}
	if done.Rating == nil {
		t.Fatal("the rated game has no rating change")
	}
	got, err := m.Load(ctx, k, rec.ID)
	if err != nil || !reflect.DeepEqual(got, done) {
		t.Errorf("Load of the packed game = %+v, %v; want %+v", got, err, done)
	}
	if last, err := m.LastFinished(ctx, k, bob.ID); err != nil || !reflect.DeepEqual(last, done) {
		t.Errorf("LastFinished = %+v, %v; want %+v", last, err, done)
	}
	if act, err := m.Active(ctx, k); err != nil || len(act) != 0 {
		t.Errorf("Active = %v, %v; want none", act, err)
	}
	// A finished game is still written to: a rematch's count.
	again, err := m.Update(ctx, k, rec.ID, func(r *match.Record) (match.Tally, error) { r.Rematches++; return match.Tally{}, nil })
	if err != nil || again.Rematches != 1 || again.Version != done.Version+1 {
		t.Fatalf("update of a packed game = %+v, %v; want one rematch, version %d", again, err, done.Version+1)
	}
	if got, _ := m.Load(ctx, k, rec.ID); !reflect.DeepEqual(got, again) {
		t.Errorf("after the update Load = %+v, want %+v", got, again)
	}
}
