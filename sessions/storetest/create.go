package storetest

import (
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/connect4/connect4/bot/match"

	"github.com/connect4/connect4/engine/solver"
)

func testCreateLoad(t *testing.T, s Store, clk *Clock) {
	r := Challenge(Channel)
	r.ExpiresAt = clk.Now().Add(10 * time.Minute)
	r.AILevel, r.Rematches = solver.LevelNone, 2
	mustCreate(t, s, r)
	if len(r.ID) < 12 || strings.Trim(r.ID, "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_") != "" {
		t.Errorf("ID = %q, want 12+ URL-safe characters", r.ID)
	}
	if r.Version != 1 {
		t.Errorf("Version = %d, want 1", r.Version)
	}
	if now := clk.Now(); !r.Created.Equal(now) || !r.Updated.Equal(now) {
		t.Errorf("Created, Updated = %v, %v, want both %v", r.Created, r.Updated, now)
	}
	sameRecord(t, "Load after Create", mustLoad(t, s, Channel, r.ID), r)

	// A second channel is independent, and so is a record with a game.
	other := Channel
	other.Channel = "C2"
	p := mustCreate(t, s, Playing(t, other, 3, 3, 4))
	if p.ID == r.ID {
		t.Errorf("two creates gave the same ID %q", p.ID)
	}
	got := mustLoad(t, s, other, p.ID)
	sameRecord(t, "Load of the second channel", got, p)
	if h := got.Game.History(); !slices.Equal(h, []int{3, 3, 4}) {
		t.Errorf("History() = %v, want [3 3 4]", h)
	}
}

func testCreateBusy(t *testing.T, s Store, clk *Clock) {
	first := mustCreate(t, s, Playing(t, Channel))
	second := Challenge(Channel)
	second.Challenger = match.Player{ID: "UCAROL", Name: "Carol"}
	err := s.Create(t.Context(), second)
	var busy *match.BusyError
	if !errors.As(err, &busy) || !errors.Is(err, match.ErrBusy) {
		t.Fatalf("Create on a busy channel: err = %v, want a *BusyError matching ErrBusy", err)
	}
	sameRecord(t, "BusyError.Existing", busy.Existing, first)
	for _, name := range []string{"Alice", "Bob"} {
		if !strings.Contains(err.Error(), name) {
			t.Errorf("error %q does not name %s", err, name)
		}
	}
	if second.ID != "" || second.Version != 0 {
		t.Errorf("failed Create changed the record: ID %q, Version %d", second.ID, second.Version)
	}
	sameRecord(t, "Load after a refused Create", mustLoad(t, s, Channel, first.ID), first)

	// A pending challenge without expiry blocks too.
	k := Channel
	k.Channel = "C2"
	mustCreate(t, s, Challenge(k))
	if err := s.Create(t.Context(), Challenge(k)); !errors.Is(err, match.ErrBusy) {
		t.Errorf("Create over a pending challenge: err = %v, want ErrBusy", err)
	}
}

// finish marks r finished as a win for winner, returning the tally.
func finish(r *match.Record, how match.Finish, winner, loser match.Player) match.Tally {
	r.Status, r.Finish = match.StatusFinished, how
	r.Rounds = append(r.Rounds, match.RoundResult{Winner: winner.ID, Finish: how})
	return match.Tally{Winner: winner, Loser: loser, Rated: true}
}

func testCreateOverFinished(t *testing.T, s Store, clk *Clock) {
	first := mustCreate(t, s, Playing(t, Channel))
	if _, err := s.Update(t.Context(), Channel, first.ID, func(r *match.Record) (match.Tally, error) {
		return finish(r, match.FinishResign, Bob, Alice), nil
	}); err != nil {
		t.Fatalf("Update to finished: %v", err)
	}
	second := mustCreate(t, s, Challenge(Channel))
	if second.ID == first.ID || second.Version != 1 {
		t.Errorf("Create over a finished game: ID %q (old %q), Version %d; want a new ID and version 1", second.ID, first.ID, second.Version)
	}
	sameRecord(t, "Load after Create over a finished game", mustLoad(t, s, Channel, second.ID), second)

	// A declined challenge is finished too.
	if _, err := s.Update(t.Context(), Channel, second.ID, func(r *match.Record) (match.Tally, error) {
		r.Status, r.Finish = match.StatusFinished, match.FinishDeclined
		return match.Tally{}, nil
	}); err != nil {
		t.Fatalf("decline: %v", err)
	}
	mustCreate(t, s, Challenge(Channel))
}

func testLastFinished(t *testing.T, s Store, clk *Clock) {
	if _, err := s.LastFinished(t.Context(), Channel, Alice.ID); !errors.Is(err, match.ErrNoGame) {
		t.Fatalf("LastFinished before any game: %v, want match.ErrNoGame", err)
	}
	first := mustCreate(t, s, Playing(t, Channel, 3, 3))
	if _, err := s.LastFinished(t.Context(), Channel, Alice.ID); !errors.Is(err, match.ErrNoGame) {
		t.Fatalf("LastFinished while playing: %v, want match.ErrNoGame", err)
	}
	done, err := s.Update(t.Context(), Channel, first.ID, func(r *match.Record) (match.Tally, error) {
		return finish(r, match.FinishResign, Bob, Alice), nil
	})
	if err != nil {
		t.Fatalf("Update to finished: %v", err)
	}
	for _, p := range []match.Player{Alice, Bob} {
		got, err := s.LastFinished(t.Context(), Channel, p.ID)
		if err != nil {
			t.Fatalf("LastFinished(%s): %v", p.ID, err)
		}
		sameRecord(t, "LastFinished("+p.ID+")", got, done)
	}
	if _, err := s.LastFinished(t.Context(), Channel, "U-nobody"); !errors.Is(err, match.ErrNoGame) {
		t.Errorf("LastFinished of a stranger: %v, want match.ErrNoGame", err)
	}
	other := Channel
	other.Channel = "C2"
	if _, err := s.LastFinished(t.Context(), other, Alice.ID); !errors.Is(err, match.ErrNoGame) {
		t.Errorf("LastFinished in another channel: %v, want match.ErrNoGame", err)
	}
	// A declined challenge is finished but was never played: it is not
	// anyone's last game. A second game played to its end is.
	declined := mustCreate(t, s, Challenge(Channel))
	if _, err := s.Update(t.Context(), Channel, declined.ID, func(r *match.Record) (match.Tally, error) {
		r.Status, r.Finish = match.StatusFinished, match.FinishDeclined
		return match.Tally{}, nil
	}); err != nil {
		t.Fatalf("decline: %v", err)
	}
	if got, err := s.LastFinished(t.Context(), Channel, Alice.ID); err != nil || got.ID != first.ID {
		t.Errorf("LastFinished after a declined challenge: %v, %v; want game %s", got, err, first.ID)
	}
	second := mustCreate(t, s, Playing(t, Channel, 0))
	if _, err := s.Update(t.Context(), Channel, second.ID, func(r *match.Record) (match.Tally, error) {
		return finish(r, match.FinishResign, Alice, Bob), nil
	}); err != nil {
		t.Fatalf("finish the second game: %v", err)
	}
	if got, err := s.LastFinished(t.Context(), Channel, Bob.ID); err != nil || got.ID != second.ID {
		t.Errorf("LastFinished after a second game: %v, %v; want game %s", got, err, second.ID)
	}
}

func testCreateOverExpired(t *testing.T, s Store, clk *Clock) {
	r := Challenge(Channel)
	r.ExpiresAt = clk.Now().Add(time.Minute)
	mustCreate(t, s, r)
	clk.Advance(time.Minute) // ExpiresAt == now: still active
	if err := s.Create(t.Context(), Challenge(Channel)); !errors.Is(err, match.ErrBusy) {
		t.Fatalf("Create at the expiry instant: err = %v, want ErrBusy", err)
	}
	clk.Advance(time.Millisecond)
	n := mustCreate(t, s, Challenge(Channel))
	sameRecord(t, "Load after Create over an expired challenge", mustLoad(t, s, Channel, n.ID), n)
}

func testCreateInvalid(t *testing.T, s Store, clk *Clock) {
	for _, tc := range []struct {
		name   string
		modify func(r *match.Record)
	}{
		{"finished", func(r *match.Record) { r.Status, r.Finish = match.StatusFinished, match.FinishDraw }},
		{"no status", func(r *match.Record) { r.Status = match.StatusNone }},
		{"no game", func(r *match.Record) { r.Game = nil }},
		{"first-to 0", func(r *match.Record) { r.FirstTo = 0 }},
		{"no challenger", func(r *match.Record) { r.Challenger = match.Player{} }},
		{"self challenge", func(r *match.Record) { r.Opponent = r.Challenger }},
		{"pending with moves played", func(r *match.Record) { r.Game = Playing(t, Channel, 3).Game }},
		{"unknown AI level", func(r *match.Record) { r.AILevel = 9 }},
		{"red is a stranger", func(r *match.Record) { r.RedID = "UCAROL" }},
		{"long name", func(r *match.Record) { r.Challenger.Name = strings.Repeat("x", 1000) }},
	} {
		r := Challenge(Channel)
		tc.modify(r)
		if err := s.Create(t.Context(), r); !errors.Is(err, match.ErrInvalid) {
			t.Errorf("Create(%s): err = %v, want ErrInvalid", tc.name, err)
		}
	}
	if recs, err := s.Active(t.Context(), Channel); err != nil || len(recs) != 0 {
		t.Errorf("Active after invalid creates = %v, %v; want none", recs, err)
	}
}

func testLoadMissing(t *testing.T, s Store, clk *Clock) {
	if r, err := s.Load(t.Context(), Channel, "nosuchgame"); !errors.Is(err, match.ErrNoGame) {
		t.Errorf("Load of an empty channel = %v, %v; want ErrNoGame", r, err)
	}
}
