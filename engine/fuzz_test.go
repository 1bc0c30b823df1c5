package engine

import (
	"bytes"
	"errors"
	"reflect"
	"testing"
)

// FuzzPlay plays arbitrary moves and resignations against the naive
// referee. The first byte chooses the rows (low six bits) and the number of
// players (top two bits: 0 and 3 for two, 1 for three, 2 for four), the next
// two the columns and the line length; every later byte is one step: a
// player in bits 4-6 (0 to 7, so NoPlayer and players not in the game
// occur) and in the low nibble a column shifted so that -1 and cols occur,
// or 0xf for a resignation.
func FuzzPlay(f *testing.F) {
	f.Add([]byte{2, 3, 1, 0x10, 0x21, 0x10, 0x21, 0x10, 0x21, 0x10})
	f.Add([]byte{0, 0, 0, 0x11, 0x11, 0x2f, 0x00, 0x30})
	f.Add([]byte{6, 6, 7, 0x11, 0x22, 0x13, 0x24, 0x15, 0x26, 0x17, 0x28, 0x19, 0x2a})
	f.Add([]byte{0x42, 3, 1, 0x11, 0x22, 0x33, 0x2f, 0x11, 0x33, 0x1f, 0x34})                   // three players, Yellow then Red leave
	f.Add([]byte{0x82, 3, 1, 0x11, 0x22, 0x33, 0x44, 0x4f, 0x11, 0x22, 0x33, 0x4a, 0x3f, 0x2f}) // four players
	f.Add([]byte{0x82, 0, 1, 0x11})                                                             // four players on four columns: refused
	f.Fuzz(func(t *testing.T, data []byte) {
		if len(data) < 3 {
			return
		}
		// A game has at most 100 moves and 3 leaves; a few hundred steps
		// cover any game with rejections between, and keep every run fast.
		if len(data) > 3+400 {
			data = data[:3+400]
		}
		n := [4]int{2, 3, 4, 2}[data[0]>>6]
		cfg := Config{Rows: 4 + int(data[0]&0x3f)%7, Cols: 4 + int(data[1])%7, Players: n}
		cfg.Connect = 3 + int(data[2])%(max(cfg.Rows, cfg.Cols)-2)
		g, err := New(cfg)
		var ce *ConfigError
		if bad := n > 2 && (cfg.Cols < 7 || cfg.Cells() < n*(cfg.Connect+2)); bad != errors.As(err, &ce) || (!bad && err != nil) {
			t.Fatalf("New(%+v) = %v; the board is too small for %d players: %v", cfg, err, n, bad)
		}
		if err != nil {
			return
		}
		ref := newReferee(cfg)
		for _, b := range data[3:] {
			p, col, resign := Player(b>>4&7), int(b&0x0f)-1, b&0x0f == 0x0f
			want := ref.playReason(p, col)
			if resign {
				want = ref.resignReason(p)
				col = -1
			}
			before := snap(g)
			if resign {
				err = g.Resign(p)
			} else {
				err = g.Play(p, col)
			}
			if err != nil {
				var me *MoveError
				if !errors.As(err, &me) || me.Reason != want || me.Player != p || me.Column != col {
					t.Fatalf("%+v: step %#x = %v, want reason %v", cfg, b, err, want)
				}
				if after := snap(g); !reflect.DeepEqual(before, after) {
					t.Fatalf("%+v: rejected step %#x changed the game", cfg, b)
				}
				continue
			}
			if want != ReasonNone {
				t.Fatalf("%+v: step %#x accepted in state %v with %v to move, want %v", cfg, b, before.state, before.turn, want)
			}
			if resign {
				ref.leave(p)
			} else {
				ref.drop(p, col)
			}
			discs := 0
			bd := g.Board()
			for c := 0; c < cfg.Cols; c++ {
				discs += bd.Height(c)
			}
			if discs != g.Moves() || g.Moves() != len(g.History()) {
				t.Fatalf("%d discs on the board, %d moves, %d in history", discs, g.Moves(), len(g.History()))
			}
			if g.State() != ref.state() || g.Winner() != ref.winner || g.Turn() != ref.turn {
				t.Fatalf("engine %v/%v turn %v, referee %v/%v turn %v", g.State(), g.Winner(), g.Turn(), ref.state(), ref.winner, ref.turn)
			}
		}
		enc, _ := g.MarshalBinary()
		if d, err := Decode(enc); err != nil || !reflect.DeepEqual(d, g) {
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

// replayGame plays a game again from its history and leaves, through the
// public API only.
func replayGame(t *testing.T, cfg Config, history []int, leaves []Leave) *Game {
	t.Helper()
	g, err := New(cfg)
	if err != nil {
		t.Fatalf("New(%+v): %v", cfg, err)
	}
	for i := 0; ; i++ {
		for len(leaves) > 0 && leaves[0].Moves == i {
			if err := g.Resign(leaves[0].Player); err != nil {
				t.Fatalf("replay: leave %+v: %v", leaves[0], err)
			}
			leaves = leaves[1:]
		}
		if i == len(history) {
			break
		}
		if err := g.Play(g.Turn(), history[i]); err != nil {
			t.Fatalf("replay: move %d: %v", i+1, err)
		}
	}
	if len(leaves) != 0 {
		t.Fatalf("replay: leaves %v after the last move", leaves)
	}
	return g
}

// FuzzDecode feeds arbitrary bytes to the decoder: never a panic, and
// whatever it accepts is a legal game that encodes back to the same bytes and
// that playing its history and leaves again reproduces exactly.
func FuzzDecode(f *testing.F) {
	for _, moves := range [][]int{nil, {3}, {0, 1, 0, 1, 0, 1, 0}, {3, 3, 3, 3, 3, 3}} {
		b, _ := play(f, DefaultConfig(), moves...).MarshalBinary()
		f.Add(b)
	}
	f.Add([]byte{1, 10, 10, 10, byte(InProgress), 0})
	f.Add([]byte{1, 6, 7, 4, byte(Resigned) | byte(Yellow)<<4, 1, 0x03})
	c3 := Config{Rows: 6, Cols: 7, Connect: 4, Players: 3}
	c4 := Config{Rows: 8, Cols: 9, Connect: 5, Players: 4}
	for _, g := range []*Game{
		run(f, c3),
		run(f, c3, cycle(3, 0, 1, 2, 0, 1, 2, 0, 1, 2, 3, 4, 2)...),
		run(f, c3, drop(Red, 3), drop(Yellow, 4), quit(Red), drop(Green, 5)),
		run(f, c3, quit(Green), quit(Red)),
		run(f, c4, drop(Red, 8), quit(Blue), drop(Yellow, 0), drop(Green, 0), quit(Green), drop(Red, 1)),
	} {
		b, _ := g.MarshalBinary()
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		g, err := Decode(b)
		if err != nil {
			var de *DecodeError
			if g != nil || !errors.As(err, &de) {
				t.Fatalf("Decode(%x) = %v, %v; want nil, *DecodeError", b, g, err)
			}
			return
		}
		if !bytes.Equal(mustEncode(g), b) {
			t.Fatalf("Decode(%x) re-encodes to %x", b, mustEncode(g))
		}
		if err := g.Config().Validate(); err != nil {
			t.Fatalf("decoded an illegal size: %v", err)
		}
		if replay := replayGame(t, g.Config(), g.History(), g.Leaves()); !reflect.DeepEqual(replay, g) {
			t.Fatalf("decoded %+v, replay gives %+v", g, replay)
		}
	})
}
