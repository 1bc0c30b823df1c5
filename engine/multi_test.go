package engine

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"
)

// event is one step of a scripted game: a disc, or a resignation when
// resign is set.
type event struct {
	p      Player
	col    int
	resign bool
}

func drop(p Player, col int) event { return event{p: p, col: col} }
func quit(p Player) event          { return event{p: p, resign: true} }

// run plays the events on a new game of cfg and fails the test on a
// rejection.
func run(t testing.TB, cfg Config, evs ...event) *Game {
	t.Helper()
	g, err := New(cfg)
	if err != nil {
		t.Fatalf("New(%+v): %v", cfg, err)
	}
	for i, e := range evs {
		if err := e.apply(g); err != nil {
			t.Fatalf("event %d %+v: %v", i+1, e, err)
		}
	}
	return g
}

func (e event) apply(g *Game) error {
	if e.resign {
		return g.Resign(e.p)
	}
	return g.Play(e.p, e.col)
}

// cycle returns moves in cols by the players in turn order, starting with
// Red: the columns of a game nobody left.
func cycle(n int, cols ...int) []event {
	evs := make([]event, len(cols))
	for i, c := range cols {
		evs[i] = drop(Player(i%n+1), c)
	}
	return evs
}

func TestConfigPlayers(t *testing.T) {
	tests := []struct {
		cfg      Config
		field    string // "" = valid
		min, max int
		rule     bool // the error must say which 3-4 player rule set the range
	}{
		{Config{Rows: 6, Cols: 7, Connect: 4, Players: 0}, "", 0, 0, false},
		{Config{Rows: 6, Cols: 7, Connect: 4, Players: 2}, "", 0, 0, false},
		{Config{Rows: 6, Cols: 7, Connect: 4, Players: 3}, "", 0, 0, false},
		{Config{Rows: 6, Cols: 7, Connect: 4, Players: 4}, "", 0, 0, false},
		{Config{Rows: 4, Cols: 4, Connect: 3, Players: 2}, "", 0, 0, false}, // small boards stay fine for two
		{Config{Rows: 10, Cols: 10, Connect: 10, Players: 4}, "", 0, 0, false},
		{Config{Rows: 4, Cols: 7, Connect: 5, Players: 4}, "", 0, 0, false},  // 28 cells, exactly 4×(5+2)
		{Config{Rows: 4, Cols: 7, Connect: 7, Players: 3}, "", 0, 0, false},  // 28 cells, 27 needed
		{Config{Rows: 10, Cols: 7, Connect: 4, Players: 3}, "", 0, 0, false}, // tall and narrow is fine at 7
		{Config{Rows: 6, Cols: 7, Connect: 4, Players: 1}, "players", MinPlayers, MaxPlayers, false},
		{Config{Rows: 6, Cols: 7, Connect: 4, Players: 5}, "players", MinPlayers, MaxPlayers, false},
		{Config{Rows: 6, Cols: 7, Connect: 4, Players: -1}, "players", MinPlayers, MaxPlayers, false},
		{Config{Rows: 6, Cols: 7, Connect: 4, Players: 9}, "players", MinPlayers, MaxPlayers, false},
		{Config{Rows: 10, Cols: 6, Connect: 4, Players: 3}, "cols", MinColsMulti, MaxSize, true},
		{Config{Rows: 7, Cols: 4, Connect: 3, Players: 4}, "cols", MinColsMulti, MaxSize, true},
		{Config{Rows: 4, Cols: 7, Connect: 6, Players: 4}, "cells", 32, 100, true}, // 28 < 4×(6+2)
		{Config{Rows: 5, Cols: 7, Connect: 7, Players: 4}, "cells", 36, 100, true}, // 35 < 4×(7+2)
		{Config{Rows: 4, Cols: 8, Connect: 8, Players: 4}, "cells", 40, 100, true}, // 32 < 40
		{Config{Rows: 4, Cols: 7, Connect: 8, Players: 3}, "connect", 3, 7, false}, // the plain ranges first
		{Config{Rows: 3, Cols: 7, Connect: 4, Players: 3}, "rows", MinSize, MaxSize, false},
		{Config{Rows: 6, Cols: 11, Connect: 4, Players: 4}, "cols", MinSize, MaxSize, false},
	}
	for _, tt := range tests {
		g, err := New(tt.cfg)
		if tt.field == "" {
			if err != nil {
				t.Errorf("New(%+v) = %v, want no error", tt.cfg, err)
				continue
			}
			if n := tt.cfg.NumPlayers(); len(g.Players()) != n || g.Turn() != Red || len(g.Active()) != n {
				t.Errorf("New(%+v): players %v active %v turn %v, want %d players, Red to move", tt.cfg, g.Players(), g.Active(), g.Turn(), n)
			}
			continue
		}
		var ce *ConfigError
		if !errors.As(err, &ce) {
			t.Errorf("New(%+v) error = %v, want *ConfigError", tt.cfg, err)
			continue
		}
		inRange := ce.Value >= ce.Min && ce.Value <= ce.Max
		if ce.Field != tt.field || ce.Min != tt.min || ce.Max != tt.max || inRange || (ce.Rule != "") != tt.rule {
			t.Errorf("New(%+v) = %+v, want field %q out of range %d..%d, a rule: %v", tt.cfg, ce, tt.field, tt.min, tt.max, tt.rule)
		}
	}
	for _, tt := range []struct {
		cfg  Config
		want string
	}{
		{Config{Rows: 10, Cols: 6, Connect: 4, Players: 3}, "engine: cols 6 out of range 7..10: 3 players need at least 7 columns"},
		{Config{Rows: 4, Cols: 7, Connect: 6, Players: 4}, "engine: cells 28 out of range 32..100: 4 players with connect 6 need at least 4×(6+2) = 32 cells"},
		{Config{Rows: 6, Cols: 7, Connect: 4, Players: 5}, "engine: players 5 out of range 2..4"},
	} {
		if err := tt.cfg.Validate(); err == nil || err.Error() != tt.want {
			t.Errorf("Validate(%+v) = %v, want %q", tt.cfg, err, tt.want)
		}
	}
}

func TestConfigNormalized(t *testing.T) {
	g, _ := New(Config{Rows: 6, Cols: 7, Connect: 4, Players: 2})
	if g.Config() != DefaultConfig() {
		t.Errorf("Config() of an explicit two-player game = %+v, want %+v", g.Config(), DefaultConfig())
	}
	g, _ = New(Config{Rows: 6, Cols: 7, Connect: 4, Players: 3})
	if c := g.Config(); c.Players != 3 || c.NumPlayers() != 3 {
		t.Errorf("Config() of a three-player game = %+v", c)
	}
	if n := DefaultConfig().NumPlayers(); n != 2 {
		t.Errorf("DefaultConfig().NumPlayers() = %d, want 2", n)
	}
}

func TestPlayerStrings(t *testing.T) {
	for p, want := range map[Player]string{NoPlayer: "none", Red: "red", Yellow: "yellow", Green: "green", Blue: "blue", 5: "player(5)"} {
		if p.String() != want {
			t.Errorf("Player(%d).String() = %q, want %q", p, p.String(), want)
		}
		if p.Valid() != (p >= 1 && p <= 4) {
			t.Errorf("Player(%d).Valid() = %v", p, p.Valid())
		}
	}
	if Red != 1 || Yellow != 2 || Green.Other() != NoPlayer || Red.Other() != Yellow {
		t.Error("Red and Yellow changed")
	}
	if ReasonLeft.String() != "player has left" || ReasonLeft <= ReasonNoSuchPlayer {
		t.Errorf("ReasonLeft = %d %q", ReasonLeft, ReasonLeft)
	}
}

func TestTurnOrder(t *testing.T) {
	for n := 2; n <= 4; n++ {
		g, _ := New(Config{Rows: 6, Cols: 7, Connect: 4, Players: n})
		var got []Player
		for i := 0; i < 9; i++ {
			got = append(got, g.Turn())
			if err := g.Play(g.Turn(), i%7); err != nil {
				t.Fatal(err)
			}
		}
		want := []Player{Red, Yellow, Green, Blue, Red, Yellow, Green, Blue, Red}
		if n == 2 {
			want = []Player{Red, Yellow, Red, Yellow, Red, Yellow, Red, Yellow, Red}
		} else if n == 3 {
			want = []Player{Red, Yellow, Green, Red, Yellow, Green, Red, Yellow, Green}
		}
		if !slices.Equal(got, want) {
			t.Errorf("%d players: turns %v, want %v", n, got, want)
		}
	}
}

func TestMultiWins(t *testing.T) {
	c3 := Config{Rows: 6, Cols: 7, Connect: 4, Players: 3}
	c4 := Config{Rows: 6, Cols: 7, Connect: 4, Players: 4}
	tests := []struct {
		name   string
		cfg    Config
		evs    []event
		winner Player
		cells  []Cell
	}{
		{"green vertical", c3, cycle(3, 0, 1, 2, 0, 1, 2, 0, 1, 2, 3, 4, 2), Green, cells(0, 2, 1, 2, 2, 2, 3, 2)},
		{"blue horizontal", c4, cycle(4, 0, 0, 0, 3, 1, 1, 1, 4, 2, 2, 2, 5, 0, 0, 0, 6), Blue, cells(0, 3, 0, 4, 0, 5, 0, 6)},
		{"red vertical among three", c3, cycle(3, 6, 0, 1, 6, 2, 3, 6, 4, 5, 6), Red, cells(0, 6, 1, 6, 2, 6, 3, 6)},
		{"yellow wins after green left", c3, append(cycle(3, 0, 1, 2, 0, 1), quit(Green), drop(Red, 3), drop(Yellow, 1), drop(Red, 4), drop(Yellow, 1)), Yellow, cells(0, 1, 1, 1, 2, 1, 3, 1)},
		{"yellow vertical between three others' stacks", c4, cycle(4, 0, 1, 2, 3, 0, 1, 2, 3, 0, 1, 2, 3, 4, 1), Yellow, cells(0, 1, 1, 1, 2, 1, 3, 1)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := run(t, tt.cfg, tt.evs...)
			ref := newReferee(tt.cfg)
			for _, e := range tt.evs {
				if e.resign {
					ref.leave(e.p)
				} else {
					ref.drop(e.p, e.col)
				}
			}
			if ref.winner != tt.winner {
				t.Fatalf("test table is wrong: the referee says %v wins", ref.winner)
			}
			if g.State() != Won || g.Winner() != tt.winner || g.Turn() != NoPlayer {
				t.Fatalf("state %v winner %v turn %v, want won by %v", g.State(), g.Winner(), g.Turn(), tt.winner)
			}
			got := g.WinningCells()
			for _, c := range got {
				if g.Board().At(c.Row, c.Col) != tt.winner {
					t.Errorf("winning cell %v holds %v", c, g.Board().At(c.Row, c.Col))
				}
			}
			if len(got) < tt.cfg.Connect || (tt.cells != nil && !reflect.DeepEqual(sortCells(got), sortCells(tt.cells))) {
				t.Errorf("WinningCells() = %v, want %v", sortCells(got), tt.cells)
			}
		})
	}
}

// TestLeave follows the turn, the players still in and the outcome through
// resignations in games of 2, 3 and 4.
func TestLeave(t *testing.T) {
	c2 := DefaultConfig()
	c3 := Config{Rows: 6, Cols: 7, Connect: 4, Players: 3}
	c4 := Config{Rows: 6, Cols: 7, Connect: 4, Players: 4}
	tests := []struct {
		name   string
		cfg    Config
		evs    []event
		turn   Player // after the events
		active []Player
		state  State
		winner Player
	}{
		{"two players: resigning ends the game", c2, []event{drop(Red, 3), quit(Red)}, NoPlayer, []Player{Yellow}, Resigned, Yellow},
		{"two players: resigning before any move", c2, []event{quit(Yellow)}, NoPlayer, []Player{Red}, Resigned, Red},
		{"three: the player to move leaves, the turn passes", c3, []event{drop(Red, 0), quit(Yellow)}, Green, []Player{Red, Green}, InProgress, NoPlayer},
		{"three: a player leaves off turn, the turn stays", c3, []event{drop(Red, 0), quit(Green)}, Yellow, []Player{Red, Yellow}, InProgress, NoPlayer},
		{"three: a left player is skipped", c3, []event{quit(Yellow), drop(Red, 0), drop(Green, 1)}, Red, []Player{Red, Green}, InProgress, NoPlayer},
		{"three: the first player leaves at once", c3, []event{quit(Red), drop(Yellow, 0), drop(Green, 1)}, Yellow, []Player{Yellow, Green}, InProgress, NoPlayer},
		{"three: two leave, the last one wins", c3, []event{drop(Red, 0), quit(Green), quit(Yellow)}, NoPlayer, []Player{Red}, Resigned, Red},
		{"three: the player to move is the last one left", c3, []event{drop(Red, 0), drop(Yellow, 0), quit(Green), quit(Red)}, NoPlayer, []Player{Yellow}, Resigned, Yellow},
		{"four: one leaves, three go on", c4, []event{drop(Red, 0), quit(Blue), drop(Yellow, 1), drop(Green, 2)}, Red, []Player{Red, Yellow, Green}, InProgress, NoPlayer},
		{"four: two leave, two alternate", c4, []event{quit(Yellow), quit(Blue), drop(Red, 0), drop(Green, 1), drop(Red, 0)}, Green, []Player{Red, Green}, InProgress, NoPlayer},
		{"four: three leave, the last wins", c4, []event{quit(Yellow), drop(Red, 0), quit(Blue), quit(Red)}, NoPlayer, []Player{Green}, Resigned, Green},
		{"four: the player to move leaves and the next has left", c4, []event{quit(Green), drop(Red, 0), quit(Yellow)}, Blue, []Player{Red, Blue}, InProgress, NoPlayer},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := run(t, tt.cfg, tt.evs...)
			if g.Turn() != tt.turn || !slices.Equal(g.Active(), tt.active) || g.State() != tt.state || g.Winner() != tt.winner {
				t.Fatalf("turn %v active %v %v/%v, want turn %v active %v %v/%v", g.Turn(), g.Active(), g.State(), g.Winner(),
					tt.turn, tt.active, tt.state, tt.winner)
			}
			var leaves []Leave
			moves := 0
			for _, e := range tt.evs {
				if e.resign {
					leaves = append(leaves, Leave{Player: e.p, Moves: moves})
				} else {
					moves++
				}
			}
			if !slices.Equal(g.Leaves(), leaves) {
				t.Errorf("Leaves() = %v, want %v", g.Leaves(), leaves)
			}
			for _, p := range g.Players() {
				if g.Left(p) == slices.Contains(tt.active, p) {
					t.Errorf("Left(%v) = %v with %v still in", p, g.Left(p), tt.active)
				}
			}
			for _, p := range []Player{NoPlayer, Player(len(g.Players()) + 1), 9} {
				if g.Left(p) {
					t.Errorf("Left(%v) = true for a player not in the game", p)
				}
			}
			if (g.State() == InProgress) != (g.LegalColumns() != nil) {
				t.Errorf("LegalColumns() = %v in state %v", g.LegalColumns(), g.State())
			}
		})
	}
}

// TestLeaveKeepsDiscs checks that a player's discs stay, and still block,
// after they leave.
func TestLeaveKeepsDiscs(t *testing.T) {
	g := run(t, Config{Rows: 4, Cols: 7, Connect: 3, Players: 3},
		drop(Red, 0), drop(Yellow, 1), drop(Green, 0), drop(Red, 0), drop(Yellow, 0), quit(Green))
	b := g.Board()
	if b.At(1, 0) != Green || b.At(3, 0) != Yellow || b.Height(0) != 4 {
		t.Fatalf("column 0 after Green left: %v %v height %d", b.At(1, 0), b.At(3, 0), b.Height(0))
	}
	if g.CanPlay(0) || slices.Contains(g.LegalColumns(), 0) {
		t.Error("a column filled partly by a player who left must stay full")
	}
	if err := g.Play(Red, 1); err != nil || g.Turn() != Yellow {
		t.Fatalf("Play(Red, 1) = %v, turn %v, want Yellow next (Green left)", err, g.Turn())
	}
}

// TestMultiDraw plays seeded random four-player games on a small board, in
// which Blue leaves at once, until one fills the board with no line: a draw,
// even though a player left.
func TestMultiDraw(t *testing.T) {
	cfg := Config{Rows: 4, Cols: 7, Connect: 4, Players: 4}
	rng := rand.New(rand.NewPCG(5, 5))
	for tries := 0; tries < 10000; tries++ {
		g := run(t, cfg, quit(Blue))
		ref := newReferee(cfg)
		ref.leave(Blue)
		evs := []event{quit(Blue)}
		for g.State() == InProgress {
			l := g.LegalColumns()
			e := drop(g.Turn(), l[rng.IntN(len(l))])
			if err := e.apply(g); err != nil {
				t.Fatal(err)
			}
			ref.drop(e.p, e.col)
			evs = append(evs, e)
		}
		if g.State() != Draw {
			continue
		}
		if !ref.draw || g.Winner() != NoPlayer || g.Turn() != NoPlayer || g.Moves() != cfg.Cells() || !g.Left(Blue) {
			t.Fatalf("draw: referee %v, winner %v turn %v moves %d", ref.draw, g.Winner(), g.Turn(), g.Moves())
		}
		if g2 := run(t, cfg, evs...); !reflect.DeepEqual(g2, g) {
			t.Fatal("replaying the events gives another game")
		}
		return
	}
	t.Fatal("no draw in 10000 random games")
}

func TestMultiRejections(t *testing.T) {
	c3 := Config{Rows: 6, Cols: 7, Connect: 4, Players: 3}
	c4 := Config{Rows: 6, Cols: 7, Connect: 4, Players: 4}
	greenWon := cycle(3, 0, 1, 2, 0, 1, 2, 0, 1, 2, 3, 4, 2)
	tests := []struct {
		name   string
		cfg    Config
		evs    []event
		try    event
		reason Reason
	}{
		{"blue in a three-player game", c3, nil, drop(Blue, 0), ReasonNoSuchPlayer},
		{"player 5 in a four-player game", c4, nil, drop(Player(5), 0), ReasonNoSuchPlayer},
		{"no player", c4, nil, drop(NoPlayer, 0), ReasonNoSuchPlayer},
		{"green before yellow", c3, cycle(3, 0), drop(Green, 0), ReasonNotYourTurn},
		{"red twice", c4, cycle(4, 0), drop(Red, 0), ReasonNotYourTurn},
		{"blue on red's turn", c4, cycle(4, 0, 1, 2, 3), drop(Blue, 0), ReasonNotYourTurn},
		{"a player who left plays", c3, []event{quit(Yellow)}, drop(Yellow, 0), ReasonLeft},
		{"a player who left plays on the turn they would have had", c3, []event{drop(Red, 0), quit(Green), drop(Yellow, 0)}, drop(Green, 1), ReasonLeft},
		{"a player who left resigns again", c4, []event{quit(Green)}, quit(Green), ReasonLeft},
		{"blue resigns from a three-player game", c3, nil, quit(Blue), ReasonNoSuchPlayer},
		{"nobody resigns", c3, nil, quit(NoPlayer), ReasonNoSuchPlayer},
		{"column out of range", c3, nil, drop(Red, 7), ReasonOutOfRange},
		{"column -1", c4, nil, drop(Red, -1), ReasonOutOfRange},
		{"full column", c3, cycle(3, 0, 0, 0, 0, 0, 0), drop(Red, 0), ReasonColumnFull},
		{"after green won", c3, greenWon, drop(Red, 5), ReasonGameOver},
		{"resign after green won", c3, greenWon, quit(Red), ReasonGameOver},
		{"after the last one left", c3, []event{quit(Red), quit(Green)}, drop(Yellow, 0), ReasonGameOver},
		{"resign after the last one left", c3, []event{quit(Red), quit(Green)}, quit(Yellow), ReasonGameOver},
		{"the left player after the end", c4, []event{quit(Red), quit(Green), quit(Blue)}, drop(Red, 0), ReasonGameOver},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := run(t, tt.cfg, tt.evs...)
			before := snap(g)
			err := tt.try.apply(g)
			var me *MoveError
			if !errors.As(err, &me) {
				t.Fatalf("%+v = %v, want *MoveError", tt.try, err)
			}
			col := tt.try.col
			if tt.try.resign {
				col = -1
			}
			if me.Reason != tt.reason || me.Player != tt.try.p || me.Column != col {
				t.Errorf("%+v = %+v (%v), want reason %v", tt.try, me, err, tt.reason)
			}
			if after := snap(g); !reflect.DeepEqual(before, after) {
				t.Errorf("rejected %+v changed the game:\nbefore %+v\nafter  %+v", tt.try, before, after)
			}
		})
	}
	g := run(t, c3, quit(Yellow))
	if err := g.Play(Yellow, 0); err == nil || err.Error() != "engine: yellow has left the game" {
		t.Errorf("error text %q", err)
	}
}

// randomMultiConfig returns a valid board for n players: the classic board
// one time in four, otherwise a random one.
func randomMultiConfig(rng *rand.Rand, n int) Config {
	if rng.IntN(4) == 0 {
		return Config{Rows: 6, Cols: 7, Connect: 4, Players: n}
	}
	for {
		cfg := Config{Rows: 4 + rng.IntN(7), Cols: 7 + rng.IntN(4), Players: n}
		cfg.Connect = 3 + rng.IntN(min(max(cfg.Rows, cfg.Cols), 6)-2) // long lines rarely win
		if cfg.Cells() >= n*(cfg.Connect+2) {
			return cfg
		}
	}
}

// TestAgainstRefereeMulti plays seeded random games of 3 and 4 players with
// resignations and rejected moves and resignations mixed in, and checks the
// engine against the naive referee after every step: state, winner, turn,
// legal columns, who is still in, the reason of every rejection, that a
// rejection changes nothing, the board, and the encoding round trip.
func TestAgainstRefereeMulti(t *testing.T) {
	const games = 12000 // 6000 each of 3 and 4 players
	rng := rand.New(rand.NewPCG(2026, 19))
	mismatches := 0
	fail := func(format string, args ...any) {
		mismatches++
		if mismatches <= 10 {
			t.Errorf(format, args...)
		}
	}
	type outcome struct { // exported fields, so that the log prints names
		State  State
		Winner Player
		Leaves bool
	}
	seen := map[outcome]int{}
	steps, rejected := 0, 0
	for gi := 0; gi < games && mismatches == 0; gi++ {
		n := 3 + gi%2
		cfg := randomMultiConfig(rng, n)
		g, err := New(cfg)
		if err != nil {
			t.Fatalf("New(%+v): %v", cfg, err)
		}
		ref := newReferee(cfg)
		var evs []event
		check := func(what string) {
			steps++
			if g.State() != ref.state() || g.Winner() != ref.winner || g.Turn() != ref.turn ||
				!slices.Equal(g.LegalColumns(), ref.legal()) || !slices.Equal(g.Active(), ref.active()) {
				fail("%+v %v after %s: engine %v/%v turn %v legal %v active %v; referee %v/%v turn %v legal %v active %v",
					cfg, evs, what, g.State(), g.Winner(), g.Turn(), g.LegalColumns(), g.Active(),
					ref.state(), ref.winner, ref.turn, ref.legal(), ref.active())
			}
			for p := NoPlayer; p <= Blue+1; p++ {
				if want := int(p) >= 1 && int(p) <= n && ref.gone[p]; g.Left(p) != want {
					fail("%+v %v: Left(%v) = %v, want %v", cfg, evs, p, g.Left(p), want)
				}
			}
		}
		for !ref.over() {
			if rng.IntN(6) == 0 { // something that must be rejected
				var e event
				switch rng.IntN(5) {
				case 0:
					e = drop(ref.turn, []int{-1, cfg.Cols, 15}[rng.IntN(3)])
				case 1, 2: // anybody else, in the game or not, left or not
					p := Player(rng.IntN(n + 2))
					for p == ref.turn {
						p = Player(rng.IntN(n + 2))
					}
					e = drop(p, rng.IntN(cfg.Cols))
				case 3:
					e = drop(ref.turn, rng.IntN(cfg.Cols))
				case 4:
					e = quit([]Player{NoPlayer, Player(n + 1), Player(rng.IntN(n) + 1)}[rng.IntN(3)])
				}
				want := ref.playReason(e.p, e.col)
				if e.resign {
					want = ref.resignReason(e.p)
				}
				if want != ReasonNone {
					rejected++
					before := snap(g)
					err := e.apply(g)
					var me *MoveError
					if !errors.As(err, &me) || me.Reason != want {
						fail("%+v %v: %+v = %v, want %v", cfg, evs, e, err, want)
					} else if after := snap(g); !reflect.DeepEqual(before, after) {
						fail("%+v %v: rejected %+v changed the game", cfg, evs, e)
					}
					check(fmt.Sprintf("rejected %+v", e))
				}
			}
			var e event
			if active := ref.active(); rng.IntN(50) == 0 {
				e = quit(active[rng.IntN(len(active))])
			} else {
				legal := ref.legal()
				e = drop(ref.turn, legal[rng.IntN(len(legal))])
			}
			if err := e.apply(g); err != nil {
				fail("%+v %v: %+v: %v", cfg, evs, e, err)
				break
			}
			if e.resign {
				ref.leave(e.p)
			} else {
				ref.drop(e.p, e.col)
			}
			evs = append(evs, e)
			check(fmt.Sprintf("%+v", e))
		}
		seen[outcome{g.State(), g.Winner(), len(g.Leaves()) > 0}]++
		b := g.Board()
		for r := 0; r < cfg.Rows; r++ {
			for c := 0; c < cfg.Cols; c++ {
				if b.At(r, c) != ref.grid[r][c] {
					fail("%+v %v: cell (%d,%d) engine %v referee %v", cfg, evs, r, c, b.At(r, c), ref.grid[r][c])
				}
			}
		}
		enc, _ := g.MarshalBinary()
		if d, err := Decode(enc); err != nil || !reflect.DeepEqual(d, g) {
			fail("%+v %v: Decode(%x) = %v, %v", cfg, evs, enc, d, err)
		}
	}
	t.Logf("%d games, %d steps checked against the naive referee (%d rejections), outcomes %v", games, steps, rejected, seen)
	for _, want := range []outcome{
		{Won, Red, false}, {Won, Green, false}, {Won, Blue, false}, {Won, Yellow, true}, {Won, Blue, true},
		{Draw, NoPlayer, false}, {Draw, NoPlayer, true}, {Resigned, Red, true}, {Resigned, Blue, true},
	} {
		if seen[want] == 0 {
			t.Errorf("no game ended %v/%v (leaves: %v): the random games miss a case", want.State, want.Winner, want.Leaves)
		}
	}
}

// ExampleGame_threePlayers plays a three-player game in which Yellow leaves
// and Green lines up four.
func ExampleGame_threePlayers() {
	g, err := New(Config{Rows: 6, Cols: 7, Connect: 4, Players: 3})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, col := range []int{0, 1, 2, 0, 1, 2} {
		_ = g.Play(g.Turn(), col)
	}
	fmt.Println(g.Turn(), "to move of", g.Players())
	_ = g.Resign(Yellow) // Yellow leaves; their discs stay
	fmt.Println(g.Play(Yellow, 3))
	for _, col := range []int{0, 2, 5, 2} {
		_ = g.Play(g.Turn(), col)
	}
	fmt.Println(g.State(), g.Winner(), g.WinningCells())
	fmt.Println("still in:", g.Active(), "left:", g.Leaves())
	// Output:
	// red to move of [red yellow green]
	// engine: yellow has left the game
	// won green [{0 2} {1 2} {2 2} {3 2}]
	// still in: [red green] left: [{yellow 6}]
}
