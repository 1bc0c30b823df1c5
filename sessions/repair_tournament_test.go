package sessions_test

import (
	"testing"
	"time"

	"github.com/connect4/connect4/bot/clock"
	"github.com/connect4/connect4/bot/match"
	"github.com/connect4/connect4/bot/tournament"
	"github.com/connect4/connect4/engine"
	"github.com/connect4/connect4/sessions"
	"github.com/connect4/connect4/sessions/storetest"
)

// TestRedisRepairTournament: Repair removes a channel's tournament key of
// the wrong type or with damaged data, and keeps a readable one.
func TestRedisRepairTournament(t *testing.T) {
	t.Parallel()
	c := storetest.Redis(t)
	k := storetest.Channel
	key := "{" + k.String() + "}:tournament"
	for _, tc := range []struct {
		name    string
		damage  func(prefix string) error
		cleared bool
	}{
		{"readable", func(string) error { return nil }, false},
		{"wrong type", func(p string) error { return c.Set(t.Context(), p+key, "damaged", time.Hour).Err() }, true},
		{"damaged data", func(p string) error { return c.HSet(t.Context(), p+key, "data", "{not json").Err() }, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			prefix := storetest.Prefix(t, c)
			s := storetest.NewRedis(t, c, sessions.Options{Prefix: prefix})
			live, _ := clock.NewLive(5, 3)
			tr, err := tournament.New("t1", k, match.Player{ID: "U0", Name: "Olga"},
				tournament.Options{Format: tournament.Swiss, Rounds: 3, Clock: live, Board: engine.DefaultConfig()}, time.Now())
			if err != nil {
				t.Fatal(err)
			}
			if err := s.CreateTournament(t.Context(), tr); err != nil {
				t.Fatal(err)
			}
			if err := tc.damage(prefix); err != nil {
				t.Fatal(err)
			}
			rep, err := s.Repair(t.Context(), k)
			if err != nil {
				t.Fatal(err)
			}
			if rep.TournamentCleared != tc.cleared || rep.Changed() != tc.cleared {
				t.Fatalf("Repair = %+v, want TournamentCleared %v", rep, tc.cleared)
			}
			_, err = s.Tournament(t.Context(), k)
			if tc.cleared && err == nil || !tc.cleared && err != nil {
				t.Fatalf("after Repair: Tournament err = %v, want a tournament: %v", err, !tc.cleared)
			}
		})
	}
}

// TestRedisRepairTournamentHistory: Repair removes a finished tournaments
// key of the wrong type, and the next finished tournament is recorded
// again; the tournament itself is kept.
func TestRedisRepairTournamentHistory(t *testing.T) {
	t.Parallel()
	c := storetest.Redis(t)
	k := storetest.Channel
	prefix := storetest.Prefix(t, c)
	s := storetest.NewRedis(t, c, sessions.Options{Prefix: prefix})
	if err := c.Set(t.Context(), prefix+"{"+k.String()+"}:tourneys", "damaged", time.Hour).Err(); err != nil {
		t.Fatal(err)
	}
	if _, err := s.TournamentHistory(t.Context(), k); err == nil {
		t.Fatal("a damaged history read without an error")
	}
	rep, err := s.Repair(t.Context(), k)
	if err != nil || !rep.TournamentCleared {
		t.Fatalf("Repair = %+v, %v; want the history cleared", rep, err)
	}
	playOut(t, s, k, "t1")
	if h, err := s.TournamentHistory(t.Context(), k); err != nil || len(h) != 1 {
		t.Fatalf("after Repair: %d recorded (%v), want 1", len(h), err)
	}
}
