package sessions_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/connect4/connect4/bot/match"
	"github.com/connect4/connect4/bot/pairing"
	"github.com/connect4/connect4/bot/tournament"
	"github.com/connect4/connect4/engine"
	"github.com/connect4/connect4/sessions"
	"github.com/connect4/connect4/sessions/storetest"
)

// historyStore is what the history test needs of a store.
type historyStore interface {
	CreateTournament(ctx context.Context, t *tournament.Tournament) error
	UpdateTournament(ctx context.Context, k match.Key, id string, fn func(*tournament.Tournament) error) (*tournament.Tournament, error)
	AdvanceTournament(ctx context.Context, k match.Key, id string, round int) (*tournament.Tournament, bool, error)
	TournamentHistory(ctx context.Context, k match.Key) ([]tournament.Summary, error)
}

// playOut plays a round robin of 3 to its end, the first seed winning
// every game, advancing each round twice (a second replica) to check that
// the finish is recorded once.
func playOut(t *testing.T, s historyStore, k match.Key, id string) {
	t.Helper()
	ctx := t.Context()
	tr, err := tournament.New(id, k, match.Player{ID: "UO"}, tournament.Options{Format: tournament.RoundRobin, Board: engine.DefaultConfig()}, time.Now())
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range []string{"UA", "UB", "UC"} {
		if err := tr.Join(match.Player{ID: p, Name: p}); err != nil {
			t.Fatal(err)
		}
	}
	if err := tr.Start("UO", nil, time.Now()); err != nil {
		t.Fatal(err)
	}
	if err := s.CreateTournament(ctx, tr); err != nil {
		t.Fatal(err)
	}
	for tr.Status == tournament.Running {
		tr, err = s.UpdateTournament(ctx, k, id, func(t *tournament.Tournament) error {
			for _, g := range t.Rounds[len(t.Rounds)-1].Games {
				if g.GameID != "" {
					res := pairing.WhiteWins
					if t.Players[g.Black].ID == "UA" {
						res = pairing.BlackWins
					}
					if err := t.Record(g.GameID, res); err != nil {
						return err
					}
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		round := tr.Round()
		next, advanced, err := s.AdvanceTournament(ctx, k, id, round)
		if err != nil || !advanced {
			t.Fatalf("advance after round %d: %v %v", round, advanced, err)
		}
		if _, again, err := s.AdvanceTournament(ctx, k, id, round); err != nil || again {
			t.Fatalf("a second advance after round %d: %v %v, want refused", round, again, err)
		}
		tr = next
	}
}

// TestTournamentHistoryStores: a finished tournament's final table is
// recorded once, newest first, at most tournament.MaxHistory per channel,
// on Memory and Redis alike.
func TestTournamentHistoryStores(t *testing.T) {
	t.Parallel()
	stores := map[string]func(t *testing.T) historyStore{
		"memory": func(t *testing.T) historyStore { return storetest.NewMemory(t, sessions.Options{}) },
		"redis": func(t *testing.T) historyStore {
			c := storetest.Redis(t)
			return storetest.NewRedis(t, c, sessions.Options{Prefix: storetest.Prefix(t, c)})
		},
	}
	for name, mk := range stores {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			s := mk(t)
			k := match.Key{Platform: "slack", Workspace: "T1", Channel: "H" + name}
			playOut(t, s, k, "t1")
			h, err := s.TournamentHistory(t.Context(), k)
			if err != nil || len(h) != 1 || h[0].ID != "t1" || len(h[0].Winners()) != 1 {
				t.Fatalf("after one: %+v (%v), want it once with one winner", h, err)
			}
			for i := 2; i <= tournament.MaxHistory+1; i++ {
				playOut(t, s, k, fmt.Sprintf("t%d", i))
			}
			h, err = s.TournamentHistory(t.Context(), k)
			if err != nil || len(h) != tournament.MaxHistory || h[0].ID != fmt.Sprintf("t%d", tournament.MaxHistory+1) || h[len(h)-1].ID != "t2" {
				t.Fatalf("after %d: %d kept (%v), newest %q, oldest %q; want the last %d, newest first", tournament.MaxHistory+1, len(h), err, h[0].ID, h[len(h)-1].ID, tournament.MaxHistory)
			}
		})
	}
}
