package sessions_test

import (
	"errors"
	"testing"
	"time"

	"github.com/connect4/connect4/bot/match"
	"github.com/connect4/connect4/bot/tournament"
	"github.com/connect4/connect4/engine"
	"github.com/connect4/connect4/sessions"
	"github.com/connect4/connect4/sessions/storetest"
)

// TestTournamentsMemory runs the tournament suite on the in-memory twin.
func TestTournamentsMemory(t *testing.T) {
	t.Parallel()
	storetest.Tournaments(t, func(t *testing.T, now func() time.Time) storetest.TournamentStore {
		s, err := sessions.NewMemoryTournaments(sessions.Options{Now: now})
		if err != nil {
			t.Fatal(err)
		}
		return s
	})
}

// TestTournamentsRedis runs the tournament suite on Redis.
func TestTournamentsRedis(t *testing.T) {
	t.Parallel()
	c := storetest.Redis(t)
	storetest.Tournaments(t, func(t *testing.T, now func() time.Time) storetest.TournamentStore {
		return storetest.NewRedis(t, c, sessions.Options{Prefix: storetest.Prefix(t, c), Now: now})
	})
}

// TestTournamentsCluster runs the tournament suite on a three-master
// Redis Cluster of its own: the tournament's one key is under the
// channel's hash tag, so every script runs on one slot.
func TestTournamentsCluster(t *testing.T) {
	t.Parallel()
	c := storetest.SharedCluster(t)
	storetest.Tournaments(t, func(t *testing.T, now func() time.Time) storetest.TournamentStore {
		return storetest.NewRedis(t, c, sessions.Options{Prefix: storetest.Prefix(t, c), Now: now})
	})
}

// TestTournamentKeptAfterEnd: an ended tournament is dropped 30 days
// after its last write, an active one never.
func TestTournamentKeptAfterEnd(t *testing.T) {
	clk := storetest.NewClock(time.Date(2026, 12, 1, 20, 0, 0, 0, time.UTC))
	s, err := sessions.NewMemoryTournaments(sessions.Options{Now: clk.Now})
	if err != nil {
		t.Fatal(err)
	}
	k := match.Key{Platform: "slack", Workspace: "T1", Channel: "C1"}
	tr, err := tournament.New("t1", k, match.Player{ID: "U0"}, tournament.Options{Format: tournament.RoundRobin, Board: engine.DefaultConfig()}, clk.Now())
	if err != nil {
		t.Fatal(err)
	}
	if err := s.CreateTournament(t.Context(), tr); err != nil {
		t.Fatal(err)
	}
	clk.Advance(400 * 24 * time.Hour)
	if _, err := s.Tournament(t.Context(), k); err != nil {
		t.Fatalf("an active tournament after 400 days: %v", err)
	}
	if _, err := s.UpdateTournament(t.Context(), k, "t1", func(tr *tournament.Tournament) error { return tr.Cancel("U0", clk.Now()) }); err != nil {
		t.Fatal(err)
	}
	clk.Advance(30*24*time.Hour - time.Second)
	if _, err := s.Tournament(t.Context(), k); err != nil {
		t.Fatalf("a cancelled tournament a second before 30 days: %v", err)
	}
	clk.Advance(time.Second)
	if _, err := s.Tournament(t.Context(), k); !errors.Is(err, tournament.ErrNotFound) {
		t.Errorf("a cancelled tournament after 30 days: %v, want ErrNotFound", err)
	}
}

// TestTournamentCorrupt: a tournament key of another type, or holding
// what is not a valid tournament, is reported as corrupt, and one written
// by a newer version as such; nothing is overwritten.
func TestTournamentCorrupt(t *testing.T) {
	t.Parallel()
	c := storetest.Redis(t)
	prefix := storetest.Prefix(t, c)
	s := storetest.NewRedis(t, c, sessions.Options{Prefix: prefix})
	ctx := t.Context()
	for i, tc := range []struct {
		name  string
		write func(key string) error
		newer bool
	}{
		{"wrong type", func(key string) error { return c.Set(ctx, key, "x", 0).Err() }, false},
		{"no data", func(key string) error { return c.HSet(ctx, key, "id", "t1", "v", "1").Err() }, false},
		{"bad version", func(key string) error { return c.HSet(ctx, key, "id", "t1", "v", "x", "data", "{}").Err() }, false},
		{"not json", func(key string) error { return c.HSet(ctx, key, "id", "t1", "v", "1", "data", "{").Err() }, false},
		{"invalid", func(key string) error {
			return c.HSet(ctx, key, "id", "t1", "v", "1", "data", `{"schema":1,"id":"t1","status":1}`).Err()
		}, false},
		{"newer", func(key string) error {
			return c.HSet(ctx, key, "id", "t1", "v", "1", "data", `{"schema":3,"id":"t1"}`).Err()
		}, true},
	} {
		k := match.Key{Platform: "slack", Workspace: "T1", Channel: "X" + string(rune('A'+i))}
		key := prefix + "{" + k.String() + "}:tournament"
		if err := tc.write(key); err != nil {
			t.Fatal(err)
		}
		_, err := s.Tournament(ctx, k)
		if !errors.Is(err, match.ErrCorrupt) || errors.Is(err, sessions.ErrNewerSchema) != tc.newer {
			t.Errorf("%s: Tournament = %v, want corrupt (newer %v)", tc.name, err, tc.newer)
		}
		_, err = s.UpdateTournament(ctx, k, "t1", func(*tournament.Tournament) error { return nil })
		if !errors.Is(err, match.ErrCorrupt) {
			t.Errorf("%s: UpdateTournament = %v, want corrupt", tc.name, err)
		}
		tr, _ := tournament.New("t2", k, match.Player{ID: "U0"}, tournament.Options{Format: tournament.Swiss, Board: engine.DefaultConfig()}, time.Now())
		if err := s.CreateTournament(ctx, tr); tc.name == "wrong type" && !errors.Is(err, match.ErrCorrupt) {
			t.Errorf("%s: CreateTournament = %v, want corrupt", tc.name, err)
		}
	}
}
