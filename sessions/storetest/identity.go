package storetest

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/connect4/connect4/bot/match"
)

// testABA is the race that a compare-and-set on the version alone lost: a
// challenge expires; in each of 10 channels, 10 late accepts of the expired
// challenge race with 10 new challenges. A new challenge starts again at
// version 1, so a stale accept that compared only the version could
// overwrite it with the old challenge marked expired. Every channel must end
// with exactly one new challenge stored, pending, the one its Create was told
// it made.
func testABA(t *testing.T, s Store, clk *Clock) {
	const channels, racers = 10, 10
	olds := make([]*match.Record, channels)
	keys := make([]match.Key, channels)
	for i := range channels {
		keys[i] = Channel
		keys[i].Channel = fmt.Sprintf("ABA%d", i)
		r := Challenge(keys[i])
		r.ExpiresAt = clk.Now().Add(time.Minute)
		olds[i] = mustCreate(t, s, r)
	}
	clk.Advance(2 * time.Minute) // every old challenge has now expired
	errExpiredAlready := errors.New("not the expired challenge")
	var wg sync.WaitGroup
	start := make(chan struct{})
	created := make([]atomic.Pointer[match.Record], channels)
	var createdN [channels]atomic.Int32
	for i := range channels {
		for j := range racers {
			wg.Add(2)
			go func() { // a late accept: it finds the old challenge expired and says so
				defer wg.Done()
				<-start
				_, err := s.Update(context.Background(), keys[i], olds[i].ID, func(r *match.Record) (match.Tally, error) {
					if r.ID != olds[i].ID {
						return match.Tally{}, errExpiredAlready
					}
					if r.Status != match.StatusPending {
						return match.Tally{}, match.ErrNoChange
					}
					r.Status, r.Finish = match.StatusFinished, match.FinishExpired
					return match.Tally{}, nil
				})
				if err != nil && !errors.Is(err, errExpiredAlready) && !errors.Is(err, match.ErrConflict) && !errors.Is(err, match.ErrNoGame) {
					t.Errorf("late accept: %v", err)
				}
			}()
			go func() { // a new challenge from another player
				defer wg.Done()
				<-start
				r := Challenge(keys[i])
				r.Challenger = match.Player{ID: fmt.Sprintf("UNEW%d", j), Name: "New"}
				r.ExpiresAt = clk.Now().Add(time.Hour)
				err := s.Create(context.Background(), r)
				switch {
				case err == nil:
					createdN[i].Add(1)
					created[i].Store(r)
				case errors.Is(err, match.ErrBusy):
				default:
					t.Errorf("new challenge: %v", err)
				}
			}()
		}
	}
	close(start)
	wg.Wait()
	for i, k := range keys {
		if n := createdN[i].Load(); n != 1 {
			t.Errorf("%s: %d new challenges were told they were created, want exactly 1", k.Channel, n)
			continue
		}
		want := created[i].Load()
		got := mustLoad(t, s, k, want.ID)
		if got.ID != want.ID || got.Status != match.StatusPending || got.Challenger != want.Challenger {
			t.Errorf("%s: stored %s %v by %s, want the new challenge %s by %s, pending: a stale writer replaced it",
				k.Channel, got.ID, got.Status, got.Challenger.ID, want.ID, want.Challenger.ID)
		}
	}
}

// testReplay: a write carrying a request's nonce lands once; the same nonce
// again, in Create or Update, changes nothing and says ErrReplay; another
// nonce, or none, writes as usual.
func testReplay(t *testing.T, s Store, clk *Clock) {
	ctx := match.WithNonce(t.Context(), "req-1")
	r := Challenge(Channel)
	if err := s.Create(ctx, r); err != nil {
		t.Fatalf("Create with a fresh nonce: %v", err)
	}
	if err := s.Create(ctx, Challenge(Channel)); !errors.Is(err, match.ErrReplay) {
		t.Errorf("Create replayed: err = %v, want ErrReplay", err)
	}
	accept := func(r *match.Record) (match.Tally, error) {
		r.Status, r.RedID = match.StatusPlaying, Alice.ID
		return match.Tally{}, nil
	}
	if _, err := s.Update(ctx, Channel, r.ID, accept); !errors.Is(err, match.ErrReplay) {
		t.Errorf("Update with the nonce that created: err = %v, want ErrReplay", err)
	}
	sameRecord(t, "after the replays", mustLoad(t, s, Channel, r.ID), r)

	ctx2 := match.WithNonce(t.Context(), "req-2")
	if _, err := s.Update(ctx2, Channel, r.ID, accept); err != nil {
		t.Fatalf("Update with a new nonce: %v", err)
	}
	if _, err := s.Update(ctx2, Channel, r.ID, play(Alice.ID, 0, 3)); !errors.Is(err, match.ErrReplay) {
		t.Errorf("a second write with the same nonce: err = %v, want ErrReplay", err)
	}
	// The same request's second write carries no nonce (the AI's reply).
	if _, err := s.Update(match.WithNonce(ctx2, ""), Channel, r.ID, play(Alice.ID, 0, 3)); err != nil {
		t.Errorf("a write without a nonce: %v", err)
	}
	// Nonces are per channel, and hostile ones are refused.
	k := Channel
	k.Channel = "C2"
	if err := s.Create(ctx, Challenge(k)); err != nil {
		t.Errorf("the same nonce in another channel: %v", err)
	}
	bad := match.WithNonce(t.Context(), "a b}{")
	if err := s.Create(bad, Challenge(k)); !errors.Is(err, match.ErrInvalid) {
		t.Errorf("Create with a malformed nonce: err = %v, want ErrInvalid", err)
	}
	if got := mustLoad(t, s, Channel, r.ID); got.Version != 3 || got.Game.Moves() != 1 {
		t.Errorf("after the replays: version %d, %d moves; want 3 and 1", got.Version, got.Game.Moves())
	}
}
