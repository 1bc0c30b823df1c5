package clock

import (
	"math/rand/v2"
	"testing"
	"time"

	"github.com/connect4/connect4/engine"
)

// played returns a game of cfg after moves, failing t on an illegal one.
func played(t testing.TB, cfg engine.Config, moves ...int) *engine.Game {
	t.Helper()
	g, err := engine.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range moves {
		if err := g.Play(g.Turn(), c); err != nil {
			t.Fatal(err)
		}
	}
	return g
}

// TestFlagVerdict checks positions found on a 4×4 board, connect 4, where
// one side or both can no longer connect.
func TestFlagVerdict(t *testing.T) {
	small := engine.Config{Rows: 4, Cols: 4, Connect: 4}
	for _, tc := range []struct {
		name           string
		cfg            engine.Config
		moves          []int
		red, yellow    bool // CanConnect
		redFlag, yFlag Verdict
	}{
		{"empty board", engine.DefaultConfig(), nil, true, true, Lost, Lost},
		{"red blocked", small, []int{0, 3, 0, 0, 1, 2, 2, 1, 3, 0}, false, true, Lost, Drawn},
		{"both blocked", small, []int{0, 3, 0, 0, 1, 2, 2, 1, 3, 0, 2, 3, 2}, false, false, Drawn, Drawn},
		{"yellow blocked", small, []int{2, 0, 0, 3, 2, 2, 1, 0, 0, 2, 1, 3, 3}, true, false, Drawn, Lost},
	} {
		g := played(t, tc.cfg, tc.moves...)
		if r, y := CanConnect(g, engine.Red), CanConnect(g, engine.Yellow); r != tc.red || y != tc.yellow {
			t.Errorf("%s: CanConnect red %v yellow %v, want %v %v", tc.name, r, y, tc.red, tc.yellow)
		}
		if got := FlagVerdict(g, engine.Red); got != tc.redFlag {
			t.Errorf("%s: red's flag: %v, want %v", tc.name, got, tc.redFlag)
		}
		if got := FlagVerdict(g, engine.Yellow); got != tc.yFlag {
			t.Errorf("%s: yellow's flag: %v, want %v", tc.name, got, tc.yFlag)
		}
	}
	over := played(t, engine.DefaultConfig(), 0, 1, 0, 1, 0, 1, 0)
	if got := FlagVerdict(over, engine.Yellow); got != NoVerdict {
		t.Errorf("a won game: %v, want none", got)
	}
	if got := FlagVerdict(played(t, engine.DefaultConfig()), engine.Green); got != NoVerdict {
		t.Errorf("green in a two-player game: %v, want none", got)
	}
}

// TestCanConnectReference compares CanConnect with a reference over
// seeded random games: fill every empty cell with p's disc and look for
// a run of Connect along every line of the board, cell by cell.
func TestCanConnectReference(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for i := range 3000 {
		cfg := engine.Config{Rows: 4 + rng.IntN(4), Cols: 4 + rng.IntN(4)}
		cfg.Connect = 3 + rng.IntN(2)
		g := played(t, cfg)
		for g.State() == engine.InProgress && rng.IntN(30) > 0 {
			cols := g.LegalColumns()
			_ = g.Play(g.Turn(), cols[rng.IntN(len(cols))])
		}
		for _, p := range []engine.Player{engine.Red, engine.Yellow} {
			if got, want := CanConnect(g, p), filledRun(g, p); got != want {
				t.Fatalf("game %d %v: CanConnect(%v) = %v, want %v", i, g.History(), p, got, want)
			}
		}
	}
}

func filledRun(g *engine.Game, p engine.Player) bool {
	b, n := g.Board(), g.Config().Connect
	mine := func(r, c int) bool {
		if r < 0 || c < 0 || r >= b.Rows() || c >= b.Cols() {
			return false
		}
		q := b.At(r, c)
		return q == p || q == engine.NoPlayer
	}
	for _, d := range [][2]int{{0, 1}, {1, 0}, {1, 1}, {1, -1}} {
		for r := range b.Rows() {
			for c := range b.Cols() {
				if mine(r-d[0], c-d[1]) { // not the start of a run
					continue
				}
				run := 0
				for mine(r+run*d[0], c+run*d[1]) {
					run++
				}
				if run >= n {
					return true
				}
			}
		}
	}
	return false
}

func BenchmarkFlagVerdict(b *testing.B) {
	g := played(b, engine.DefaultConfig(), 3, 3, 2, 4, 4, 2, 1, 5)
	for b.Loop() {
		FlagVerdict(g, engine.Red)
	}
}

// TestDeadline: at a round's time limit the player with less time left
// loses as on time; on equal time, or without a clock, the player to move.
func TestDeadline(t *testing.T) {
	live, _ := NewLive(5, 0)
	start := time.Date(2026, 12, 1, 20, 0, 0, 0, time.UTC)
	k := Start(live, 2, start)
	k, _ = k.Move(start.Add(time.Minute), 1) // Red 4:00 left, Yellow to move with 5:00
	g := played(t, engine.DefaultConfig(), 3)
	small := engine.Config{Rows: 4, Cols: 4, Connect: 4}
	redBlocked := played(t, small, 0, 3, 0, 0, 1, 2, 2, 1, 3, 0)           // Red to move, cannot connect; Yellow can
	bothBlocked := played(t, small, 0, 3, 0, 0, 1, 2, 2, 1, 3, 0, 2, 3, 2) // Yellow to move; nobody can connect
	for _, tc := range []struct {
		name  string
		g     *engine.Game
		k     Clock
		at    time.Time
		loser engine.Player
		v     Verdict
	}{
		{"red has less", g, k, start.Add(90 * time.Second), engine.Red, Lost},       // Yellow 4:30 > Red 4:00
		{"yellow ran below", g, k, start.Add(3 * time.Minute), engine.Yellow, Lost}, // Yellow 3:00 < Red 4:00
		{"equal time", g, k, start.Add(2 * time.Minute), engine.Yellow, Lost},       // both 4:00: the one to move
		{"no clock", g, Clock{}, start, engine.Yellow, Lost},                        // the one to move
		{"mover cannot connect", redBlocked, Clock{}, start, engine.Red, Lost},
		{"nobody can connect", bothBlocked, Clock{}, start, engine.Yellow, Drawn},
		{"over", played(t, engine.DefaultConfig(), 0, 1, 0, 1, 0, 1, 0), k, start, engine.NoPlayer, NoVerdict},
	} {
		loser, v := Deadline(tc.g, tc.k, tc.at)
		if loser != tc.loser || v != tc.v {
			t.Errorf("%s: Deadline = %v, %v, want %v, %v", tc.name, loser, v, tc.loser, tc.v)
		}
	}
}
