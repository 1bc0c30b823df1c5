package engine

import (
	"bytes"
	"encoding/hex"
	"errors"
	"math/rand/v2"
	"reflect"
	"slices"
	"testing"
)

func TestEncodingRoundTrip(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 7))
	games := []*Game{
		play(t, DefaultConfig()),
		play(t, DefaultConfig(), 3),
		play(t, DefaultConfig(), 0, 1, 0, 1, 0, 1, 0),
		play(t, DefaultConfig(), 0, 1, 5, 5, 0, 4, 4, 1, 4, 6, 0, 6, 1, 3, 5, 5, 6, 0, 5, 1, 4, 3, 2, 4, 4, 3, 3, 3, 0, 0, 5, 3, 2, 6, 2, 2, 1, 2, 6, 2, 1, 6),
	}
	// The longest record: 99 moves without a line, then three players leave.
	var longest []event
	for i := 0; i < 99; i++ {
		longest = append(longest, drop(Player(i%4+1), i/10))
	}
	longest = append(longest, quit(Red), quit(Blue), quit(Yellow))
	if b, _ := run(t, Config{Rows: 10, Cols: 10, Connect: 10, Players: 4}, longest...).MarshalBinary(); len(b) != MaxEncodedLen {
		t.Errorf("the longest game encodes to %d bytes, want MaxEncodedLen %d", len(b), MaxEncodedLen)
	}
	games = append(games, run(t, Config{Rows: 10, Cols: 10, Connect: 10, Players: 4}, longest...))
	resigned := play(t, Config{Rows: 10, Cols: 10, Connect: 5}, 9, 9, 9)
	_ = resigned.Resign(Yellow)
	games = append(games, resigned)
	for i := 0; i < 300; i++ {
		cfg := Config{Rows: 4 + rng.IntN(7), Cols: 4 + rng.IntN(7)}
		cfg.Connect = 3 + rng.IntN(max(cfg.Rows, cfg.Cols)-2)
		g, _ := New(cfg)
		for n := rng.IntN(cfg.Cells() + 1); n > 0 && g.State() == InProgress; n-- {
			l := g.LegalColumns()
			_ = g.Play(g.Turn(), l[rng.IntN(len(l))])
		}
		if g.State() == InProgress && rng.IntN(3) == 0 {
			_ = g.Resign(Player(1 + rng.IntN(2)))
		}
		games = append(games, g)
	}
	for i := 0; i < 300; i++ {
		n := 3 + i%2
		g, _ := New(randomMultiConfig(rng, n))
		for g.State() == InProgress {
			if rng.IntN(20) == 0 {
				a := g.Active()
				_ = g.Resign(a[rng.IntN(len(a))])
				continue
			}
			l := g.LegalColumns()
			_ = g.Play(g.Turn(), l[rng.IntN(len(l))])
			if rng.IntN(60) == 0 {
				break // some games stay in progress
			}
		}
		games = append(games, g)
	}
	for _, g := range games {
		b, err := g.MarshalBinary()
		if err != nil {
			t.Fatal(err)
		}
		d, err := Decode(b)
		if err != nil {
			t.Fatalf("Decode(%x) of %v %v: %v", b, g.Config(), g.History(), err)
		}
		if !reflect.DeepEqual(d, g) {
			t.Fatalf("Decode(%x) = %+v, want %+v", b, d, g)
		}
		if wantV := byte(1 + min(1, len(g.Players())-2)); b[0] != wantV {
			t.Fatalf("%d players encoded as version %d, want %d", len(g.Players()), b[0], wantV)
		}
		if len(b) > MaxEncodedLen {
			t.Fatalf("encoding of %d bytes exceeds MaxEncodedLen %d", len(b), MaxEncodedLen)
		}
	}
}

func TestDecodeRejects(t *testing.T) {
	valid, _ := play(t, DefaultConfig(), 0, 1, 0, 1, 0, 1, 0).MarshalBinary() // Red won
	with := func(i int, v byte) []byte { b := bytes.Clone(valid); b[i] = v; return b }
	v2, _ := run(t, Config{Rows: 6, Cols: 7, Connect: 4, Players: 3}, drop(Red, 3), drop(Yellow, 4), drop(Green, 5), quit(Yellow)).MarshalBinary()
	with2 := func(i int, v byte) []byte { b := bytes.Clone(v2); b[i] = v; return b }
	if _, err := Decode(v2); err != nil {
		t.Fatalf("the valid version 2 record: %v", err)
	}
	tests := []struct {
		name string
		in   []byte
	}{
		{"empty", nil},
		{"garbage", []byte("hello, world")},
		{"truncated header", valid[:4]},
		{"wrong version", with(0, 2)},
		{"version zero", with(0, 0)},
		{"rows 11", with(1, 11)},
		{"cols 3", with(2, 3)},
		{"connect 9", with(3, 9)},
		{"outcome says draw", with(4, byte(Draw))},
		{"outcome says yellow won", with(4, byte(Won)|byte(Yellow)<<4)},
		{"outcome says in progress", with(4, byte(InProgress))},
		{"outcome unknown state", with(4, 0x0f)},
		{"more moves than bytes", with(5, 9)},
		{"more moves than cells", with(5, 200)},
		{"trailing byte", append(bytes.Clone(valid), 0)},
		{"huge", make([]byte, 1<<20)},
		{"move into a full column", []byte{1, 6, 7, 4, byte(InProgress), 7, 0, 0, 0, 0x00}},
		{"moves after a win", []byte{1, 6, 7, 4, byte(Won) | byte(Red)<<4, 9, 0x10, 0x10, 0x10, 0x10, 0x02}},
		{"column 7 on a 7-wide board", []byte{1, 6, 7, 4, byte(InProgress), 1, 0x07}},
		{"nonzero padding", []byte{1, 6, 7, 4, byte(InProgress), 1, 0x33}},
		{"resignation of nobody", []byte{1, 6, 7, 4, byte(Resigned), 0}},
		{"resigned green in a two-player game", []byte{1, 6, 7, 4, byte(Resigned) | byte(Green)<<4, 0}},
		{"unknown version 3", []byte{3, 6, 7, 4, 3, byte(InProgress), 0, 0}},
		// Version 2: derived from a valid three-player game in which Yellow
		// left after three moves (see v2 below).
		{"v2 truncated header", v2[:7]},
		{"v2 with two players", with2(4, 2)},
		{"v2 with players 0", with2(4, 0)},
		{"v2 with five players", with2(4, 5)},
		{"v2 three players on six columns", with2(2, 6)},
		{"v2 three leaves of three players", with2(7, 3)},
		{"v2 two leaves, bytes for one", with2(7, 2)},
		{"v2 no leaves, bytes for one", with2(7, 0)},
		{"v2 leave after move 4 of 3", with2(8, 4)},
		{"v2 leave of nobody", with2(9, 0)},
		{"v2 leave of blue in a three-player game", with2(9, 4)},
		{"v2 leave of player 200", with2(9, 200)},
		{"v2 outcome says red won by resignation", with2(5, byte(Resigned)|byte(Red)<<4)},
		{"v2 outcome says draw", with2(5, byte(Draw))},
		{"v2 trailing byte", append(bytes.Clone(v2), 0)},
		{"v2 nonzero padding", with2(len(v2)-1, 0x35)},
		{"v2 more moves than bytes", with2(6, 5)},
		{"v2 leaves out of order", []byte{2, 6, 7, 4, 3, byte(InProgress), 2, 2, 2, byte(Yellow), 1, byte(Green), 0x10}},
		{"v2 the same player leaves twice", []byte{2, 6, 7, 4, 3, byte(InProgress), 2, 2, 1, byte(Yellow), 2, byte(Yellow), 0x10}},
		{"v2 moves after the last player left", []byte{2, 6, 7, 4, 3, byte(Resigned) | byte(Red)<<4, 2, 2, 1, byte(Yellow), 1, byte(Green), 0x10}},
		{"v2 leave after a win", []byte{2, 6, 7, 4, 3, byte(Won) | byte(Green)<<4, 12, 1, 12, byte(Red), 0x10, 0x02, 0x21, 0x10, 0x32, 0x24}},
		{"v2 outcome in progress after the last left", []byte{2, 6, 7, 4, 3, byte(InProgress), 0, 2, 0, byte(Yellow), 0, byte(Green)}},
		{"v2 one byte too long", append([]byte{2, 10, 10, 10, 4, byte(InProgress), 99, 3, 99, 1, 99, 2, 99, 3}, make([]byte, 51)...)},
	}
	for _, tt := range tests {
		g, err := Decode(tt.in)
		var de *DecodeError
		if g != nil || !errors.As(err, &de) {
			t.Errorf("%s: Decode(%x) = %v, %v; want nil, *DecodeError", tt.name, tt.in, g, err)
		}
	}
	if _, err := Decode(with(1, 11)); !errors.As(err, new(*ConfigError)) {
		t.Errorf("bad size: error %v does not unwrap to *ConfigError", err)
	}
	if _, err := Decode([]byte{1, 6, 7, 4, byte(InProgress), 7, 0, 0, 0, 0x00}); !errors.As(err, new(*MoveError)) {
		t.Errorf("full column: error %v does not unwrap to *MoveError", err)
	}
	var me *MoveError
	if _, err := Decode(with2(9, 4)); !errors.As(err, &me) || me.Reason != ReasonNoSuchPlayer {
		t.Errorf("leave of blue: error %v does not unwrap to a no-such-player *MoveError", err)
	}
	var ce *ConfigError
	if _, err := Decode(with2(2, 6)); !errors.As(err, &ce) || ce.Field != "cols" {
		t.Errorf("three players on six columns: error %v does not unwrap to a cols *ConfigError", err)
	}
	var g Game
	if err := g.UnmarshalBinary([]byte("x")); err == nil || g.state != StateUnknown {
		t.Errorf("UnmarshalBinary(garbage) = %v and changed the game", err)
	}
}

// TestVersion1Records decodes records written by the engine before games of
// 3 or 4 players existed (the hex was produced by that code): they must
// decode to the same games, and two-player games must still encode to the
// very same bytes.
func TestVersion1Records(t *testing.T) {
	big := Config{Rows: 10, Cols: 10, Connect: 5}
	tests := []struct {
		hex     string
		cfg     Config
		moves   []int
		resign  Player // resigned after the moves
		state   State
		winner  Player
		turnNow Player
	}{
		{"010607040100", DefaultConfig(), nil, NoPlayer, InProgress, NoPlayer, Red},
		{"01060704010103", DefaultConfig(), []int{3}, NoPlayer, InProgress, NoPlayer, Yellow},
		{"01060704120710101000", DefaultConfig(), []int{0, 1, 0, 1, 0, 1, 0}, NoPlayer, Won, Red, NoPlayer},
		{"01060704220810121315", DefaultConfig(), []int{0, 1, 2, 1, 3, 1, 5, 1}, NoPlayer, Won, Yellow, NoPlayer},
		{"01060704032a105540146460315506153442343300356222212661", DefaultConfig(),
			[]int{0, 1, 5, 5, 0, 4, 4, 1, 4, 6, 0, 6, 1, 3, 5, 5, 6, 0, 5, 1, 4, 3, 2, 4, 4, 3, 3, 3, 0, 0, 5, 3, 2, 6, 2, 2, 1, 2, 6, 2, 1, 6},
			NoPlayer, Draw, NoPlayer, NoPlayer},
		{"010a0a0514039909", big, []int{9, 9, 9}, Yellow, Resigned, Red, NoPlayer},
		{"01080905240a1032547688", Config{Rows: 8, Cols: 9, Connect: 5}, []int{0, 1, 2, 3, 4, 5, 6, 7, 8, 8}, Red, Resigned, Yellow, NoPlayer},
		{"010a0a051211657687870898990909", big, []int{5, 6, 6, 7, 7, 8, 7, 8, 8, 0, 8, 9, 9, 9, 9, 0, 9}, NoPlayer, Won, Red, NoPlayer},
	}
	for _, tt := range tests {
		b, err := hex.DecodeString(tt.hex)
		if err != nil {
			t.Fatal(err)
		}
		g, err := Decode(b)
		if err != nil {
			t.Errorf("Decode(%s): %v", tt.hex, err)
			continue
		}
		if g.Config() != tt.cfg || g.State() != tt.state || g.Winner() != tt.winner || g.Turn() != tt.turnNow ||
			!slices.Equal(g.History(), tt.moves) || !slices.Equal(g.Players(), []Player{Red, Yellow}) {
			t.Errorf("Decode(%s) = %+v %v/%v turn %v moves %v players %v, want %+v %v/%v turn %v moves %v",
				tt.hex, g.Config(), g.State(), g.Winner(), g.Turn(), g.History(), g.Players(),
				tt.cfg, tt.state, tt.winner, tt.turnNow, tt.moves)
		}
		want := play(t, tt.cfg, tt.moves...)
		if tt.resign != NoPlayer {
			if err := want.Resign(tt.resign); err != nil {
				t.Fatal(err)
			}
		}
		if !reflect.DeepEqual(g, want) {
			t.Errorf("Decode(%s) differs from the game played now:\n%+v\n%+v", tt.hex, g, want)
		}
		for name, h := range map[string]*Game{"decoded": g, "played": want} {
			if enc, _ := h.MarshalBinary(); hex.EncodeToString(enc) != tt.hex {
				t.Errorf("%s game encodes to %x, want %s as before", name, enc, tt.hex)
			}
		}
	}
	g, _ := New(Config{Rows: 6, Cols: 7, Connect: 4, Players: 2})
	if enc, _ := g.MarshalBinary(); hex.EncodeToString(enc) != "010607040100" {
		t.Errorf("explicit two-player game encodes to %x, want version 1", enc)
	}
}

// TestVersion2 checks the encoding of games of 3 and 4 players byte by
// byte, and its round trip.
func TestVersion2(t *testing.T) {
	c3 := Config{Rows: 6, Cols: 7, Connect: 4, Players: 3}
	c4 := Config{Rows: 10, Cols: 10, Connect: 5, Players: 4}
	tests := []struct {
		name string
		g    *Game
		hex  string
	}{
		{"empty, three players", run(t, c3), "0206070403010000"},
		{"one move, four players", run(t, c4, drop(Red, 9)), "020a0a0504010100" + "09"},
		{"green won", run(t, c3, cycle(3, 0, 1, 2, 0, 1, 2, 0, 1, 2, 3, 4, 2)...), "0206070403" + "32" + "0c00" + "10" + "02" + "21" + "10" + "32" + "24"},
		{"yellow left, red to move", run(t, c3, drop(Red, 3), drop(Yellow, 4), drop(Green, 5), quit(Yellow)), "0206070403" + "01" + "0301" + "0302" + "43" + "05"},
		{"three leave after one move, red the last one", run(t, c4, drop(Red, 1), quit(Blue), quit(Green), quit(Yellow)),
			"020a0a0504" + "14" + "0103" + "0104" + "0103" + "0102" + "01"},
		{"a leave before the first move", run(t, c3, quit(Red), drop(Yellow, 6)), "0206070403" + "01" + "0101" + "0001" + "06"},
	}
	for _, tt := range tests {
		b, _ := tt.g.MarshalBinary()
		if hex.EncodeToString(b) != tt.hex {
			t.Errorf("%s: MarshalBinary() = %x, want %s", tt.name, b, tt.hex)
		}
		d, err := Decode(b)
		if err != nil || !reflect.DeepEqual(d, tt.g) {
			t.Errorf("%s: Decode(%x) = %+v, %v; want %+v", tt.name, b, d, err, tt.g)
		}
	}
}
