package engine

import (
	"bytes"
	"errors"
	"testing"
)

// FuzzPlay plays arbitrary moves: the first three bytes choose the size,
// every later byte a player (high bits) and a column (low nibble, shifted so
// -1 and cols occur).
func FuzzPlay(f *testing.F) {
	f.Add([]byte{2, 3, 1, 0x10, 0x21, 0x10, 0x21, 0x10, 0x21, 0x10})
	f.Add([]byte{0, 0, 0, 0x11, 0x11, 0x2f, 0x00, 0x30})
	f.Add([]byte{6, 6, 7, 0x11, 0x22, 0x13, 0x24, 0x15, 0x26, 0x17, 0x28, 0x19, 0x2a})
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) < 3 {
			return
		}
		cfg := Config{Rows: 4 + int(data[0])%7, Cols: 4 + int(data[1])%7}
		cfg.Connect = 3 + int(data[2])%(max(cfg.Rows, cfg.Cols)-2)
		g, err := New(cfg)
		if err != nil {
			t.Fatalf("New(%+v): %v", cfg, err)
		}
		ref := newReferee(cfg)
		for _, b := range data[3:] {
			p, col := Player(b>>4&3), int(b&0x0f)-1
			before := snap(g)
			wasTurn := g.Turn()
			err := g.Play(p, col)
			if err != nil {
				var me *MoveError
				if !errors.As(err, &me) || me.Reason == ReasonNone || me.Reason > ReasonNoSuchPlayer {
					t.Fatalf("Play(%v, %d) = %v: not a known reason", p, col, err)
				}
				if before.state.Over() && me.Reason != ReasonGameOver {
					t.Fatalf("finished game: Play(%v, %d) = %v, want game over", p, col, err)
				}
				if after := snap(g); !bytes.Equal(before.enc, after.enc) {
					t.Fatalf("rejected Play(%v, %d) changed the game", p, col)
				}
				continue
			}
			if before.state.Over() || p != wasTurn {
				t.Fatalf("Play(%v, %d) accepted in state %v with %v to move", p, col, before.state, wasTurn)
			}
			ref.drop(p, col)
			discs := 0
			bd := g.Board()
			for c := 0; c < cfg.Cols; c++ {
				discs += bd.Height(c)
			}
			if discs != g.Moves() || g.Moves() != len(g.History()) {
				t.Fatalf("%d discs on the board, %d moves, %d in history", discs, g.Moves(), len(g.History()))
			}
			if g.Winner() != ref.winner || (g.State() == Draw) != ref.draw {
				t.Fatalf("engine %v/%v, referee winner %v draw %v", g.State(), g.Winner(), ref.winner, ref.draw)
			}
			if g.State() == InProgress && g.Turn() != p.Other() {
				t.Fatalf("turn did not pass: %v then %v", p, g.Turn())
			}
		}
		enc, _ := g.MarshalBinary()
		if d, err := Decode(enc); err != nil || !bytes.Equal(mustEncode(d), enc) {
			t.Fatalf("round trip of %x: %v", enc, err)
		}
	})
}

func mustEncode(g *Game) []byte {
	if g == nil {
		return nil
	}
	b, _ := g.MarshalBinary()
	return b
}

// FuzzDecode feeds arbitrary bytes to the decoder: never a panic, and
// whatever it accepts is a legal game that encodes back to the same bytes.
func FuzzDecode(f *testing.F) {
	for _, moves := range [][]int{nil, {3}, {0, 1, 0, 1, 0, 1, 0}, {3, 3, 3, 3, 3, 3}} {
		b, _ := play(f, DefaultConfig(), moves...).MarshalBinary()
		f.Add(b)
	}
	f.Add([]byte{1, 10, 10, 10, byte(InProgress), 0})
	f.Add([]byte{1, 6, 7, 4, byte(Resigned) | byte(Yellow)<<4, 1, 0x03})
	f.Fuzz(func(t *testing.T, b []byte) {
		g, err := Decode(b)
		if err != nil {
			if g != nil {
				t.Fatal("Decode returned a game and an error")
			}
			return
		}
		if !bytes.Equal(mustEncode(g), b) {
			t.Fatalf("Decode(%x) re-encodes to %x", b, mustEncode(g))
		}
		if err := g.Config().Validate(); err != nil {
			t.Fatalf("decoded an illegal size: %v", err)
		}
		replay := play(t, g.Config(), g.History()...)
		if g.State() != Resigned && (replay.State() != g.State() || replay.Winner() != g.Winner()) {
			t.Fatalf("decoded %v/%v, replay gives %v/%v", g.State(), g.Winner(), replay.State(), replay.Winner())
		}
	})
}
