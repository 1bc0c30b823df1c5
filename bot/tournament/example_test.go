package tournament_test

import (
	"fmt"
	"time"

	"github.com/connect4/connect4/bot/clock"
	"github.com/connect4/connect4/bot/match"
	"github.com/connect4/connect4/bot/pairing"
	"github.com/connect4/connect4/bot/tournament"
	"github.com/connect4/connect4/engine"
)

// A round robin of three by the Berger tables: each round one game and
// one bye (the top seed's first, as the empty seat is player 4 of table
// 1). Each wins as White: all three tie on every tiebreak and share first
// place. A refused change says why and changes nothing.
func Example() {
	now := time.Date(2026, 12, 1, 20, 0, 0, 0, time.UTC)
	k := match.Key{Platform: "slack", Workspace: "T1", Channel: "C1"}
	c, _ := clock.ParseLive("5+3")
	t, err := tournament.New("cup", k, match.Player{ID: "U0", Name: "Olga"},
		tournament.Options{Format: tournament.RoundRobin, Clock: c, Board: engine.DefaultConfig()}, now)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, name := range []string{"Ann", "Bob", "Cat"} {
		_ = t.Join(match.Player{ID: name, Name: name})
	}
	fmt.Println(t.Join(match.Player{ID: "Bob", Name: "Bob"}))
	fmt.Println(t.Start("Ann", nil, now))
	_ = t.Start("U0", nil, now)
	for t.Status == tournament.Running {
		rd := t.Rounds[t.Round()-1]
		g := rd.Games[0]
		fmt.Printf("round %d: %s against %s (%s), bye %s\n", t.Round(), t.Players[g.White].Name, t.Players[g.Black].Name, g.GameID, t.Players[rd.Bye].Name)
		_ = t.Record(g.GameID, pairing.WhiteWins)
		_, _ = t.Advance(now)
	}
	st, _ := t.Standings()
	for _, s := range st {
		fmt.Printf("%d. %s %v (SB %v)\n", s.Rank, t.Players[s.Player].Name, s.Score.Float(), s.SonnebornBerger)
	}
	// Output:
	// tournament: already joined
	// tournament: not the organiser
	// round 1: Bob against Cat (cup-1-1), bye Ann
	// round 2: Ann against Bob (cup-2-1), bye Cat
	// round 3: Cat against Ann (cup-3-1), bye Bob
	// 1. Ann 1 (SB 1)
	// 1. Bob 1 (SB 1)
	// 1. Cat 1 (SB 1)
}
