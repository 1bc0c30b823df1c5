package tournament

import (
	"math/rand/v2"
	"testing"
	"time"

	"github.com/connect4/connect4/bot/pairing"
	"github.com/connect4/connect4/engine"
)

// TestPlayedOut plays seeded random tournaments of every format, 3 to 16
// players, with players withdrawing now and then, to the end, checking at
// every step that the value is valid, that nobody withdrawn gets a game to
// play or a bye, and at the end that it finished after at most the planned
// rounds with every game decided.
func TestPlayedOut(t *testing.T) {
	for seed := range 300 {
		rng := rand.New(rand.NewPCG(uint64(seed), 5))
		n := 3 + rng.IntN(14)
		opt := Options{Format: RoundRobin, Double: rng.IntN(3) == 0, Board: engine.DefaultConfig()}
		if rng.IntN(2) == 0 {
			opt = Options{Format: Swiss, Rounds: rng.IntN(min(9, n-1) + 1), Board: engine.DefaultConfig()}
		}
		tr := joined(t, opt, n)
		if err := tr.Start(org.ID, func(id string) float64 { return float64(len(id)) }, t0); err != nil {
			t.Fatalf("seed %d: %v", seed, err)
		}
		now := t0
		for steps := 0; tr.Status == Running; steps++ {
			if steps > 200 {
				t.Fatalf("seed %d: never finished", seed)
			}
			if err := tr.Validate(); err != nil {
				t.Fatalf("seed %d round %d: %v", seed, tr.Round(), err)
			}
			cur := tr.Rounds[len(tr.Rounds)-1]
			for _, g := range cur.Games {
				if g.GameID != "" && (tr.Players[g.White].Withdrawn || tr.Players[g.Black].Withdrawn) && g.Result == pairing.NoResult {
					// withdrew during the round: the caller ends the game
					_ = tr.Record(g.GameID, pairing.Result(1+rng.IntN(3)))
				}
			}
			if rng.IntN(8) == 0 {
				p := tr.Players[rng.IntN(n)]
				if err := tr.Withdraw(p.ID); err != nil && ReasonOf(err) != ReasonWithdrawn {
					t.Fatalf("seed %d: withdraw: %v", seed, err)
				}
			}
			for _, g := range cur.Games {
				if g.Result == pairing.NoResult {
					if err := tr.Record(g.GameID, pairing.Result(1+rng.IntN(3))); err != nil {
						t.Fatalf("seed %d: %v", seed, err)
					}
				}
			}
			now = now.Add(time.Hour)
			more, err := tr.Advance(now)
			if err != nil {
				t.Fatalf("seed %d round %d: %v", seed, tr.Round(), err)
			}
			if !more {
				break
			}
			nr := tr.Rounds[len(tr.Rounds)-1]
			if nr.Bye != pairing.NoBye && tr.Players[nr.Bye].Withdrawn {
				t.Errorf("seed %d round %d: a bye for withdrawn player %d", seed, tr.Round(), nr.Bye)
			}
			for _, g := range nr.Games {
				if g.GameID != "" && (tr.Players[g.White].Withdrawn || tr.Players[g.Black].Withdrawn) {
					t.Errorf("seed %d round %d: a game to play for a withdrawn player: %+v", seed, tr.Round(), g)
				}
			}
		}
		if tr.Status != Finished || tr.Round() > tr.Planned || tr.Validate() != nil {
			t.Errorf("seed %d: %v after %d of %d rounds: %v", seed, tr.Status, tr.Round(), tr.Planned, tr.Validate())
		}
		if _, err := tr.Standings(); err != nil {
			t.Errorf("seed %d: %v", seed, err)
		}
	}
}
