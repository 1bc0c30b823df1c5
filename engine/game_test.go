package engine

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"
)

// play plays cols alternately from Red and fails the test on a rejection.
func play(t testing.TB, cfg Config, cols ...int) *Game {
	t.Helper()
	g, err := New(cfg)
	if err != nil {
		t.Fatalf("New(%+v): %v", cfg, err)
	}
	for i, c := range cols {
		if err := g.Play(g.Turn(), c); err != nil {
			t.Fatalf("move %d (col %d) of %v: %v", i+1, c, cols, err)
		}
	}
	return g
}

func cells(rc ...int) []Cell {
	var cs []Cell
	for i := 0; i < len(rc); i += 2 {
		cs = append(cs, Cell{Row: rc[i], Col: rc[i+1]})
	}
	return cs
}

func sortCells(cs []Cell) []Cell {
	cs = slices.Clone(cs)
	slices.SortFunc(cs, func(a, b Cell) int {
		if a.Row != b.Row {
			return a.Row - b.Row
		}
		return a.Col - b.Col
	})
	return cs
}

func TestNewConfig(t *testing.T) {
	tests := []struct {
		cfg   Config
		field string // "" = valid
	}{
		{DefaultConfig(), ""},
		{Config{Rows: 4, Cols: 4, Connect: 3}, ""},
		{Config{Rows: 10, Cols: 10, Connect: 10}, ""},
		{Config{Rows: 4, Cols: 10, Connect: 10}, ""},
		{Config{Rows: 3, Cols: 7, Connect: 4}, "rows"},
		{Config{Rows: 11, Cols: 7, Connect: 4}, "rows"},
		{Config{Rows: 6, Cols: 3, Connect: 4}, "cols"},
		{Config{Rows: 6, Cols: 11, Connect: 4}, "cols"},
		{Config{Rows: 6, Cols: 7, Connect: 2}, "connect"},
		{Config{Rows: 6, Cols: 7, Connect: 8}, "connect"},
		{Config{Rows: -1, Cols: 7, Connect: 4}, "rows"},
	}
	for _, tt := range tests {
		g, err := New(tt.cfg)
		var ce *ConfigError
		switch {
		case tt.field == "" && err != nil:
			t.Errorf("New(%+v) = %v, want no error", tt.cfg, err)
		case tt.field == "" && (g.State() != InProgress || g.Turn() != Red || g.Moves() != 0):
			t.Errorf("New(%+v): state %v turn %v moves %d, want a fresh game", tt.cfg, g.State(), g.Turn(), g.Moves())
		case tt.field != "" && !errors.As(err, &ce):
			t.Errorf("New(%+v) error = %v, want *ConfigError", tt.cfg, err)
		case tt.field != "" && ce.Field != tt.field:
			t.Errorf("New(%+v) error names %q, want %q (%v)", tt.cfg, ce.Field, tt.field, err)
		}
	}
}

func TestWins(t *testing.T) {
	std := DefaultConfig()
	tests := []struct {
		name   string
		cfg    Config
		moves  []int
		winner Player
		cells  []Cell
	}{
		{"horizontal, bottom-left edge", std, []int{0, 0, 1, 1, 2, 2, 3}, Red, cells(0, 0, 0, 1, 0, 2, 0, 3)},
		{"horizontal, right edge", std, []int{6, 6, 5, 5, 4, 4, 3}, Red, cells(0, 3, 0, 4, 0, 5, 0, 6)},
		{"vertical, left edge", std, []int{0, 1, 0, 1, 0, 1, 0}, Red, cells(0, 0, 1, 0, 2, 0, 3, 0)},
		{"vertical, top and right edges", std, []int{0, 6, 1, 6, 6, 0, 6, 1, 6, 2, 6}, Red, cells(2, 6, 3, 6, 4, 6, 5, 6)},
		{"yellow vertical", std, []int{0, 1, 2, 1, 3, 1, 5, 1}, Yellow, cells(0, 1, 1, 1, 2, 1, 3, 1)},
		{"diagonal up-right", std, []int{0, 1, 1, 2, 2, 3, 2, 3, 3, 6, 3}, Red, cells(0, 0, 1, 1, 2, 2, 3, 3)},
		{"diagonal up-left", std, []int{6, 5, 5, 4, 4, 3, 4, 3, 3, 0, 3}, Red, cells(0, 6, 1, 5, 2, 4, 3, 3)},
		{"disc dropped into the middle of a line", std, []int{0, 0, 1, 1, 3, 3, 2}, Red, cells(0, 0, 0, 1, 0, 2, 0, 3)},
		{"gap filled in R R _ R R: a line of five", std, []int{0, 0, 1, 1, 3, 3, 4, 4, 2}, Red, cells(0, 0, 0, 1, 0, 2, 0, 3, 0, 4)},
		{"connect 3 on a small board", Config{Rows: 4, Cols: 4, Connect: 3}, []int{0, 0, 1, 1, 2}, Red, cells(0, 0, 0, 1, 0, 2)},
		{"connect 10 on a 10x10 board", Config{Rows: 10, Cols: 10, Connect: 10}, []int{0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9}, Red,
			cells(0, 0, 0, 1, 0, 2, 0, 3, 0, 4, 0, 5, 0, 6, 0, 7, 0, 8, 0, 9)},
		{"wide board diagonal across words", Config{Rows: 10, Cols: 10, Connect: 5}, []int{5, 6, 6, 7, 7, 8, 7, 8, 8, 0, 8, 9, 9, 9, 9, 0, 9}, Red,
			cells(0, 5, 1, 6, 2, 7, 3, 8, 4, 9)},
		{"last disc on a full board wins", std, []int{2, 5, 6, 3, 3, 2, 1, 1, 5, 5, 0, 4, 0, 6, 1, 1, 1, 5, 5, 5, 2, 3, 3, 1, 4, 2, 3, 3, 6, 2, 0, 6, 2, 4, 6, 6, 4, 0, 0, 4, 0, 4}, Yellow, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := play(t, tt.cfg, tt.moves[:len(tt.moves)-1]...)
			if g.State() != InProgress {
				t.Fatalf("before the last move: state %v, want in progress", g.State())
			}
			last := tt.moves[len(tt.moves)-1]
			if err := g.Play(g.Turn(), last); err != nil {
				t.Fatalf("last move %d: %v", last, err)
			}
			if g.State() != Won || g.Winner() != tt.winner || g.Turn() != NoPlayer {
				t.Fatalf("after %v: state %v winner %v turn %v, want won by %v", tt.moves, g.State(), g.Winner(), g.Turn(), tt.winner)
			}
			ref := newReferee(tt.cfg)
			for i, c := range tt.moves {
				ref.drop(Player(i%2+1), c)
			}
			if ref.winner != tt.winner {
				t.Fatalf("test table is wrong: the referee says %v wins", ref.winner)
			}
			got := g.WinningCells()
			if len(got) < tt.cfg.Connect {
				t.Errorf("WinningCells() = %v, want at least %d cells", got, tt.cfg.Connect)
			}
			for _, c := range got {
				if g.Board().At(c.Row, c.Col) != tt.winner {
					t.Errorf("winning cell %v holds %v", c, g.Board().At(c.Row, c.Col))
				}
			}
			if tt.cells != nil && !reflect.DeepEqual(sortCells(got), sortCells(tt.cells)) {
				t.Errorf("WinningCells() = %v, want %v", sortCells(got), sortCells(tt.cells))
			}
		})
	}
}

func TestDraw(t *testing.T) {
	moves := []int{0, 1, 5, 5, 0, 4, 4, 1, 4, 6, 0, 6, 1, 3, 5, 5, 6, 0, 5, 1, 4, 3, 2, 4, 4, 3, 3, 3, 0, 0, 5, 3, 2, 6, 2, 2, 1, 2, 6, 2, 1, 6}
	g := play(t, DefaultConfig(), moves...)
	if g.State() != Draw || g.Winner() != NoPlayer || g.Turn() != NoPlayer || g.WinningCells() != nil {
		t.Fatalf("state %v winner %v turn %v cells %v, want a draw", g.State(), g.Winner(), g.Turn(), g.WinningCells())
	}
	if g.LegalColumns() != nil {
		t.Errorf("LegalColumns() = %v after a draw, want none", g.LegalColumns())
	}
	if !slices.Equal(g.History(), moves) {
		t.Errorf("History() = %v, want %v", g.History(), moves)
	}
}

// snapshot is everything a rejected move must leave alone.
type snapshot struct {
	enc     []byte
	board   Board
	history []int
	turn    Player
	moves   int
	state   State
	winner  Player
	legal   []int
	active  []Player
	leaves  []Leave
	game    Game
}

func snap(g *Game) snapshot {
	enc, _ := g.MarshalBinary()
	return snapshot{enc, g.Board(), g.History(), g.Turn(), g.Moves(), g.State(), g.Winner(), g.LegalColumns(),
		g.Active(), g.Leaves(), *g}
}

func TestRejections(t *testing.T) {
	std := DefaultConfig()
	won := []int{0, 1, 0, 1, 0, 1, 0}
	draw := []int{0, 1, 5, 5, 0, 4, 4, 1, 4, 6, 0, 6, 1, 3, 5, 5, 6, 0, 5, 1, 4, 3, 2, 4, 4, 3, 3, 3, 0, 0, 5, 3, 2, 6, 2, 2, 1, 2, 6, 2, 1, 6}
	tests := []struct {
		name   string
		moves  []int
		resign Player // resign before the move
		player Player
		col    int
		reason Reason
	}{
		{"column -1", nil, NoPlayer, Red, -1, ReasonOutOfRange},
		{"column cols", nil, NoPlayer, Red, 7, ReasonOutOfRange},
		{"column far out", []int{3}, NoPlayer, Yellow, 1 << 30, ReasonOutOfRange},
		{"full column", []int{0, 0, 0, 0, 0, 0}, NoPlayer, Red, 0, ReasonColumnFull},
		{"red twice", []int{3}, NoPlayer, Red, 3, ReasonNotYourTurn},
		{"yellow first", nil, NoPlayer, Yellow, 3, ReasonNotYourTurn},
		{"no player", nil, NoPlayer, NoPlayer, 3, ReasonNoSuchPlayer},
		{"player 7", nil, NoPlayer, Player(7), 3, ReasonNoSuchPlayer},
		{"after a win", won, NoPlayer, Yellow, 2, ReasonGameOver},
		{"after a win, the winner again", won, NoPlayer, Red, 2, ReasonGameOver},
		{"after a draw", draw, NoPlayer, Red, 0, ReasonGameOver},
		{"after a resignation", []int{3, 3}, Yellow, Red, 2, ReasonGameOver},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			g := play(t, std, tt.moves...)
			if tt.resign != NoPlayer {
				if err := g.Resign(tt.resign); err != nil {
					t.Fatal(err)
				}
			}
			before := snap(g)
			err := g.Play(tt.player, tt.col)
			var me *MoveError
			if !errors.As(err, &me) {
				t.Fatalf("Play(%v, %d) = %v, want *MoveError", tt.player, tt.col, err)
			}
			if me.Reason != tt.reason || me.Column != tt.col || me.Player != tt.player {
				t.Errorf("Play(%v, %d) = %+v, want reason %v", tt.player, tt.col, me, tt.reason)
			}
			if after := snap(g); !reflect.DeepEqual(before, after) {
				t.Errorf("rejected move changed the game:\nbefore %+v\nafter  %+v", before, after)
			}
		})
	}
}

func TestResign(t *testing.T) {
	g := play(t, DefaultConfig(), 3, 3, 4)
	if err := g.Resign(Red); err != nil { // Red resigns on Yellow's turn: allowed
		t.Fatal(err)
	}
	if g.State() != Resigned || g.Winner() != Yellow || g.Turn() != NoPlayer || g.WinningCells() != nil {
		t.Fatalf("state %v winner %v turn %v, want resigned, Yellow wins", g.State(), g.Winner(), g.Turn())
	}
	var me *MoveError
	if err := g.Resign(Yellow); !errors.As(err, &me) || me.Reason != ReasonGameOver {
		t.Errorf("second Resign = %v, want game over", err)
	}
	g = play(t, DefaultConfig())
	if err := g.Resign(NoPlayer); !errors.As(err, &me) || me.Reason != ReasonNoSuchPlayer || g.State() != InProgress {
		t.Errorf("Resign(NoPlayer) = %v state %v, want no such player and nothing changed", err, g.State())
	}
}

// TestDesignTrace is the trace from the design notes.
func TestDesignTrace(t *testing.T) {
	g, _ := New(DefaultConfig())
	steps := []struct {
		p      Player
		col    int
		reason Reason // ReasonNone: accepted
	}{
		{Red, 0, 0}, {Yellow, 1, 0}, {Red, 2, 0}, {Yellow, 3, 0}, {Red, 3, 0}, {Yellow, 3, 0},
		{Red, 3, 0}, {Yellow, 2, 0}, {Red, 1, 0},
		{Red, 4, ReasonNotYourTurn},
		{Yellow, 7, ReasonOutOfRange},
		{Yellow, 6, 0},
		{Red, 2, 0},
		{Yellow, 4, ReasonGameOver},
	}
	for i, s := range steps {
		err := g.Play(s.p, s.col)
		var me *MoveError
		switch {
		case s.reason == ReasonNone && err != nil:
			t.Fatalf("step %d: %v %d: %v", i+1, s.p, s.col, err)
		case s.reason != ReasonNone && (!errors.As(err, &me) || me.Reason != s.reason):
			t.Fatalf("step %d: %v %d = %v, want %v", i+1, s.p, s.col, err, s.reason)
		}
		if i == 11 && g.State() != InProgress {
			t.Fatalf("game ended early at step %d", i+1)
		}
	}
	if g.State() != Won || g.Winner() != Red {
		t.Fatalf("state %v winner %v, want Red wins", g.State(), g.Winner())
	}
	if last, _ := g.LastMove(); last != (Cell{2, 2}) {
		t.Errorf("last move %v, want (2,2) in the middle of the line", last)
	}
	if want := cells(0, 0, 1, 1, 2, 2, 3, 3); !reflect.DeepEqual(sortCells(g.WinningCells()), want) {
		t.Errorf("WinningCells() = %v, want %v", g.WinningCells(), want)
	}
	if want := []int{0, 1, 2, 3, 3, 3, 3, 2, 1, 6, 2}; !slices.Equal(g.History(), want) {
		t.Errorf("History() = %v, want %v", g.History(), want)
	}
}

func TestBoardView(t *testing.T) {
	g := play(t, DefaultConfig(), 3, 3, 0)
	b := g.Board()
	if b.At(0, 3) != Red || b.At(1, 3) != Yellow || b.At(0, 0) != Red || b.At(2, 3) != NoPlayer {
		t.Errorf("At: got %v %v %v %v", b.At(0, 3), b.At(1, 3), b.At(0, 0), b.At(2, 3))
	}
	if b.At(-1, 0) != NoPlayer || b.At(0, 7) != NoPlayer || b.At(6, 0) != NoPlayer {
		t.Error("At off the board must be NoPlayer")
	}
	if b.Height(3) != 2 || b.Height(0) != 1 || b.Height(6) != 0 || b.Height(-1) != 0 || b.Height(7) != 0 {
		t.Errorf("Height: %d %d %d", b.Height(3), b.Height(0), b.Height(6))
	}
	if err := g.Play(Yellow, 6); err != nil {
		t.Fatal(err)
	}
	if b.At(0, 6) != NoPlayer {
		t.Error("a Board snapshot changed after a later move")
	}
	c := g.Clone()
	_ = c.Play(Red, 5)
	if g.Board().At(0, 5) != NoPlayer || g.Moves() != 4 {
		t.Error("playing on a clone changed the original")
	}
}

// TestAgainstReferee plays seeded random games of every size, with rejected
// moves mixed in, and checks the engine against the naive referee after
// every move.
func TestAgainstReferee(t *testing.T) {
	const games = 10000
	rng := rand.New(rand.NewPCG(2026, 11))
	checked, mismatches := 0, 0
	fail := func(format string, args ...any) {
		mismatches++
		if mismatches <= 10 {
			t.Errorf(format, args...)
		}
	}
	for gi := 0; gi < games; gi++ {
		cfg := DefaultConfig()
		if gi%4 != 0 {
			cfg.Rows, cfg.Cols = 4+rng.IntN(7), 4+rng.IntN(7)
			cfg.Connect = 3 + rng.IntN(max(cfg.Rows, cfg.Cols)-2)
		}
		g, err := New(cfg)
		if err != nil {
			t.Fatal(err)
		}
		ref := newReferee(cfg)
		var hist []int
		for g.State() == InProgress {
			if rng.IntN(8) == 0 { // a move that must be rejected
				before := snap(g)
				bad := []int{-1, cfg.Cols, rng.IntN(cfg.Cols)}[rng.IntN(3)]
				p := g.Turn()
				if bad >= 0 && bad < cfg.Cols && g.Board().Height(bad) < cfg.Rows {
					p = p.Other()
				}
				if err := g.Play(p, bad); err == nil {
					fail("%v: Play(%v, %d) accepted, want rejection", cfg, p, bad)
				} else if after := snap(g); !reflect.DeepEqual(before, after) {
					fail("%v: rejected Play(%v, %d) changed the game", cfg, p, bad)
				}
			}
			if rng.IntN(200) == 0 { // a resignation, by either player
				p := Player(1 + rng.IntN(2))
				if err := g.Resign(p); err != nil {
					fail("%v %v: Resign(%v): %v", cfg, hist, p, err)
					break
				}
				ref.leave(p)
				if g.State() != Resigned || g.Winner() != p.Other() || ref.winner != p.Other() || g.Turn() != NoPlayer ||
					g.LegalColumns() != nil || !slices.Equal(g.Active(), []Player{p.Other()}) {
					fail("%v %v: after Resign(%v): %v/%v turn %v active %v", cfg, hist, p, g.State(), g.Winner(), g.Turn(), g.Active())
				}
				break
			}
			legal := ref.legal()
			col := legal[rng.IntN(len(legal))]
			p := g.Turn()
			if p != ref.turn {
				fail("%v %v: turn %v, referee %v", cfg, hist, p, ref.turn)
			}
			if err := g.Play(p, col); err != nil {
				fail("%v %v: Play(%v, %d): %v", cfg, hist, p, col, err)
				break
			}
			ref.drop(p, col)
			hist = append(hist, col)
			checked++
			wantState := InProgress
			switch {
			case ref.winner != NoPlayer:
				wantState = Won
			case ref.draw:
				wantState = Draw
			}
			if g.State() != wantState || g.Winner() != ref.winner || !slices.Equal(g.LegalColumns(), ref.legal()) {
				fail("%v %v: engine %v/%v legal %v, referee %v/%v legal %v", cfg, hist,
					g.State(), g.Winner(), g.LegalColumns(), wantState, ref.winner, ref.legal())
				break
			}
		}
		b := g.Board()
		for r := 0; r < cfg.Rows; r++ {
			for c := 0; c < cfg.Cols; c++ {
				if b.At(r, c) != ref.grid[r][c] {
					fail("%v %v: cell (%d,%d) engine %v referee %v", cfg, hist, r, c, b.At(r, c), ref.grid[r][c])
				}
			}
		}
	}
	t.Logf("%d games, %d moves checked against the naive referee, %d mismatches", games, checked, mismatches)
	if checked < games*5 {
		t.Errorf("only %d moves checked", checked)
	}
}

func ExampleGame() {
	g, _ := New(DefaultConfig())
	for _, col := range []int{3, 3, 4, 4, 5, 5, 6} {
		if err := g.Play(g.Turn(), col); err != nil {
			fmt.Println(err)
		}
	}
	fmt.Println(g.State(), g.Winner(), g.WinningCells())
	fmt.Println(g.Play(Yellow, 0))
	// Output:
	// won red [{0 3} {0 4} {0 5} {0 6}]
	// engine: the game is over
}
