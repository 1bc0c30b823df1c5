package engine

import (
	"bytes"
	"errors"
	"math/rand/v2"
	"reflect"
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
		if len(b) > MaxEncodedLen {
			t.Fatalf("encoding of %d bytes exceeds MaxEncodedLen %d", len(b), MaxEncodedLen)
		}
	}
}

func TestDecodeRejects(t *testing.T) {
	valid, _ := play(t, DefaultConfig(), 0, 1, 0, 1, 0, 1, 0).MarshalBinary() // Red won
	with := func(i int, v byte) []byte { b := bytes.Clone(valid); b[i] = v; return b }
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
	var g Game
	if err := g.UnmarshalBinary([]byte("x")); err == nil || g.state != StateUnknown {
		t.Errorf("UnmarshalBinary(garbage) = %v and changed the game", err)
	}
}
