package storetest

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/connect4/connect4/bot/match"

	"github.com/connect4/connect4/sessions"
)

func testTTL(t *testing.T, s Store, clk *Clock) {
	tt, ok := s.(ttler)
	if !ok {
		t.Skipf("%T has no TTL method", s)
	}
	near := func(what string, got, want time.Duration) {
		t.Helper()
		if got > want || got < want-10*time.Second {
			t.Errorf("%s TTL = %v, want %v (less at most 10s)", what, got, want)
		}
	}
	var rec *match.Record
	ttls := func() (time.Duration, time.Duration) {
		t.Helper()
		g, l, err := tt.TTL(t.Context(), Channel, rec.ID)
		if err != nil {
			t.Fatalf("TTL: %v", err)
		}
		return g, l
	}
	rec = mustCreate(t, s, Playing(t, Channel))
	g, l := ttls()
	near("new game", g, sessions.DefaultIdleTTL)
	if l != 0 {
		t.Errorf("leaderboard TTL before any result = %v, want 0 (no key)", l)
	}
	clk.Advance(time.Hour)
	if _, err := s.Update(t.Context(), Channel, rec.ID, play(Alice.ID, 0, 0)); err != nil {
		t.Fatal(err)
	}
	g, _ = ttls()
	near("game after a move an hour later", g, sessions.DefaultIdleTTL)
	if _, err := s.Update(t.Context(), Channel, rec.ID, func(r *match.Record) (match.Tally, error) {
		return finish(r, match.FinishResign, Bob, Alice), nil
	}); err != nil {
		t.Fatal(err)
	}
	g, l = ttls()
	near("finished game", g, sessions.DefaultFinishedTTL)
	near("leaderboard", l, sessions.DefaultLeaderboardTTL)
}

func testExpiryByClock(t *testing.T, s Store, clk *Clock) {
	tt, ok := s.(ttler)
	if !ok {
		t.Skipf("%T has no TTL method", s)
	}
	g := mustCreate(t, s, Playing(t, Channel))
	before, _, _ := tt.TTL(t.Context(), Channel, g.ID)
	clk.Advance(time.Hour)
	after, _, _ := tt.TTL(t.Context(), Channel, g.ID)
	if before-after < time.Hour {
		t.Skipf("%T expires keys by its own clock, not Options.Now: its own tests check expiry", s)
	}
	clk.Advance(sessions.DefaultIdleTTL - time.Hour - time.Millisecond)
	mustLoad(t, s, Channel, g.ID)
	clk.Advance(time.Millisecond)
	if _, err := s.Load(t.Context(), Channel, g.ID); !errors.Is(err, match.ErrNoGame) {
		t.Fatalf("Load of a game idle for IdleTTL: err = %v, want ErrNoGame", err)
	}
	g = mustCreate(t, s, Playing(t, Channel, 0, 0, 1, 1, 2, 2))
	if _, err := s.Update(t.Context(), Channel, g.ID, play(Alice.ID, 6, 3)); err != nil {
		t.Fatal(err)
	}
	clk.Advance(sessions.DefaultFinishedTTL - time.Millisecond)
	mustLoad(t, s, Channel, g.ID)
	clk.Advance(time.Millisecond)
	if _, err := s.Load(t.Context(), Channel, g.ID); !errors.Is(err, match.ErrNoGame) {
		t.Fatalf("Load of a game finished FinishedTTL ago: err = %v, want ErrNoGame", err)
	}
	if st, _ := s.Stats(t.Context(), Channel, Alice.ID); st.Wins != 1 {
		t.Errorf("Stats after the game expired = %+v, want 1 win", st)
	}
	clk.Advance(sessions.DefaultLeaderboardTTL)
	if lb, _ := s.Leaderboard(t.Context(), Channel, 0); len(lb) != 0 {
		t.Errorf("Leaderboard after LeaderboardTTL = %+v, want empty", lb)
	}
}

func testInvalidKey(t *testing.T, s Store, clk *Clock) {
	for _, k := range []match.Key{
		{},
		{Platform: "slack", Workspace: "T1"},
		{Platform: "slack", Workspace: "T{1}", Channel: "C1"},
		{Platform: "slack", Workspace: "T1", Channel: "C:1"},
		{Platform: "slack", Workspace: "T 1", Channel: "C1"},
		{Platform: "slack", Workspace: "T1", Channel: "C\n1"},
		{Platform: "slack", Workspace: "T1", Channel: "C\x001"},
		{Platform: "slack", Workspace: "T1", Channel: strings.Repeat("C", 129)},
		{Platform: "slack", Workspace: "T1", Channel: "\xff"},
	} {
		if k.Validate() == nil {
			t.Errorf("%q.Validate() = nil, want an error", k)
		}
		r := Challenge(k)
		errs := map[string]error{"Create": s.Create(t.Context(), r), "Delete": s.Delete(t.Context(), k, "g1")}
		_, errs["Load"] = s.Load(t.Context(), k, "g1")
		_, errs["Update"] = s.Update(t.Context(), k, "g1", func(*match.Record) (match.Tally, error) { return match.Tally{}, nil })
		_, errs["Leaderboard"] = s.Leaderboard(t.Context(), k, 1)
		_, errs["Stats"] = s.Stats(t.Context(), k, Alice.ID)
		_, errs["Active"] = s.Active(t.Context(), k)
		_, errs["PlayerGame"] = s.PlayerGame(t.Context(), k, Alice.ID)
		for op, err := range errs {
			if err == nil || errors.Is(err, match.ErrNoGame) || !strings.Contains(err.Error(), "invalid key") {
				t.Errorf("%s(%q) = %v, want a key error", op, k, err)
			}
		}
	}
	for _, k := range []match.Key{Channel, {Platform: "discord", Workspace: "123456789012345678", Channel: strings.Repeat("9", 128)}} {
		if err := k.Validate(); err != nil {
			t.Errorf("%q.Validate() = %v, want nil", k, err)
		}
	}
	if got := Channel.String(); got != "slack:T1:C1" {
		t.Errorf("String() = %q, want slack:T1:C1", got)
	}
}
