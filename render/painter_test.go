package render

import (
	"bytes"
	"fmt"
	"hash/adler32"
	"image/png"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/connect4/connect4/engine"
)

// prefixes returns g's positions after each of its moves, the empty board
// first.
func prefixes(t testing.TB, g *engine.Game) []*engine.Game {
	t.Helper()
	pos, err := engine.New(g.Config())
	if err != nil {
		t.Fatal(err)
	}
	out := []*engine.Game{pos.Clone()}
	for _, c := range g.History() {
		if err := pos.Play(pos.Turn(), c); err != nil {
			t.Fatal(err)
		}
		out = append(out, pos.Clone())
	}
	return out
}

// TestPainterSamePixels checks that a Painter's PNGs have the pixels of
// Image's, for every position of random games on every shape, in both
// palettes, at several cell sizes, for 2 to 4 players, drawn in the order
// of play so that the kept bands are reused.
func TestPainterSamePixels(t *testing.T) {
	t.Parallel()                                   // CPU-bound and shares nothing: the suite's other slot is often waiting
	cfgs := append([]engine.Config(nil), sizes...) // and the default look below
	cfgs = append(cfgs, engine.Config{Rows: 7, Cols: 9, Connect: 4, Players: 3},
		engine.Config{Rows: 7, Cols: 9, Connect: 4, Players: 4})
	p := NewPainter(0)
	for i, cfg := range cfgs {
		for _, pal := range []ImagePalette{ImageStandard, ImageColourBlind} {
			for _, s := range []int{MinCellSize, 41} {
				o := ImageOptions{Palette: pal, CellSize: s}
				g := randomGame(t, cfg, uint64(i*7+s))
				t.Run(fmt.Sprintf("%dx%d-%d-%v-%d", cfg.Rows, cfg.Cols, cfg.NumPlayers(), pal, s), func(t *testing.T) {
					for k, pos := range prefixes(t, g) {
						var buf bytes.Buffer
						if err := p.PNG(&buf, pos, o); err != nil {
							t.Fatal(err)
						}
						got, err := png.Decode(&buf)
						if err != nil {
							t.Fatalf("move %d: decode: %v", k, err)
						}
						want, err := Image(pos, o)
						if err != nil {
							t.Fatal(err)
						}
						if at, ok := samePixels(got, want); !ok {
							t.Fatalf("move %d %v: the Painter's PNG differs from Image at %v", k, pos.History(), at)
						}
					}
				})
			}
		}
	}
}

// TestPainterAppendPNG checks that AppendPNG appends PNG's bytes after
// what the slice holds, and leaves it as it was on a bad option.
func TestPainterAppendPNG(t *testing.T) {
	p := NewPainter(0)
	for k, pos := range prefixes(t, randomGame(t, engine.DefaultConfig(), 3)) {
		var want bytes.Buffer
		if err := p.PNG(&want, pos, ImageOptions{}); err != nil {
			t.Fatal(err)
		}
		prefix := []byte("before the picture")
		got, err := p.AppendPNG(prefix, pos, ImageOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.HasPrefix(got, prefix) || !bytes.Equal(got[len(prefix):], want.Bytes()) {
			t.Fatalf("move %d: AppendPNG wrote %d bytes after %q, want PNG's %d", k, len(got)-len(prefix), got[:min(len(got), len(prefix))], want.Len())
		}
	}
	g, _ := engine.New(engine.DefaultConfig())
	got, err := p.AppendPNG([]byte("x"), g, ImageOptions{CellSize: MaxCellSize + 1})
	if err == nil || string(got) != "x" {
		t.Errorf("AppendPNG with a cell size over the maximum = %q, %v; want \"x\" and an error", got, err)
	}
}

// TestPainterDefaultLook checks the picture chat shows most, at the
// default size, against the golden file.
func TestPainterDefaultLook(t *testing.T) {
	p := NewPainter(0)
	for _, moves := range [][]int{midgame, midgame[:5], midgame} {
		var buf bytes.Buffer
		if err := p.PNG(&buf, game(t, engine.DefaultConfig(), moves...), ImageOptions{}); err != nil {
			t.Fatal(err)
		}
		want, _ := Image(game(t, engine.DefaultConfig(), moves...), ImageOptions{})
		if at, ok := samePixels(decodePNG(t, buf.Bytes()), want); !ok {
			t.Errorf("%v differs at %v", moves, at)
		}
	}
	b, err := os.ReadFile(filepath.Join("testdata", "midgame.png"))
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := p.PNG(&buf, game(t, engine.DefaultConfig(), midgame...), ImageOptions{}); err != nil {
		t.Fatal(err)
	}
	if at, ok := samePixels(decodePNG(t, buf.Bytes()), decodePNG(t, b)); !ok {
		t.Errorf("differs from testdata/midgame.png at %v", at)
	}
}

// TestPainterGIF checks that a Painter's replays show, frame by frame, what
// the package's GIF shows, twice on the same Painter.
func TestPainterGIF(t *testing.T) {
	t.Parallel() // CPU-bound and shares nothing: the suite's other slot is often waiting
	p := NewPainter(0)
	for seed := uint64(1); seed <= 4; seed++ {
		for _, cfg := range sizes {
			g := randomGame(t, cfg, seed)
			o := ImageOptions{Palette: ImagePalette(1 + seed%2), CellSize: 30}
			var want bytes.Buffer
			if err := GIF(&want, g, o); err != nil {
				t.Fatal(err)
			}
			_, wantFrames := composeGIF(t, want.Bytes())
			for range 2 {
				var got bytes.Buffer
				if err := p.GIF(&got, g, o); err != nil {
					t.Fatal(err)
				}
				_, frames := composeGIF(t, got.Bytes())
				if len(frames) != len(wantFrames) {
					t.Fatalf("%v: %d frames, want %d", g.History(), len(frames), len(wantFrames))
				}
				for k := range frames {
					if at, ok := samePixels(frames[k], wantFrames[k]); !ok {
						t.Fatalf("%v frame %d differs at %v", g.History(), k, at)
					}
				}
			}
		}
	}
}

// TestPainterAppendGIF checks that AppendGIF appends the very bytes of
// the package's GIF after what the buffer held, on one Painter replay
// after replay (its LZW tables and frame buffer reused), and leaves the
// buffer alone on an error.
func TestPainterAppendGIF(t *testing.T) {
	p := NewPainter(0)
	for seed := uint64(1); seed <= 6; seed++ {
		g := randomGame(t, engine.DefaultConfig(), seed)
		var want bytes.Buffer
		if err := GIF(&want, g, ImageOptions{}); err != nil {
			t.Fatal(err)
		}
		prefix := []byte("before the replay")
		for again := range 2 { // the second from the frames kept
			kept := p.Size()
			got, err := p.AppendGIF(prefix, g, ImageOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.HasPrefix(got, prefix) || !bytes.Equal(got[len(prefix):], want.Bytes()) {
				t.Fatalf("seed %d, replay %d: AppendGIF wrote %d bytes after %q, want GIF's %d", seed, again+1, len(got)-len(prefix), got[:min(len(got), len(prefix))], want.Len())
			}
			if again == 1 && p.Size() != kept {
				t.Errorf("seed %d: the second replay kept %d bytes more, want its frames found kept", seed, p.Size()-kept)
			}
		}
	}
	g, _ := engine.New(engine.DefaultConfig())
	got, err := p.AppendGIF([]byte("x"), g, ImageOptions{CellSize: MaxCellSize + 1})
	if err == nil || string(got) != "x" {
		t.Errorf("AppendGIF with a cell size over the maximum = %q, %v; want \"x\" and an error", got, err)
	}
}

// TestPainterBudget draws 10,000 distinct positions of seeded random games,
// and each game's replay, and checks after each that the Painter keeps no
// more than its budget,
// and that it keeps something: a budget the size of a few canvases, so
// that bands and canvases are dropped and drawn again many times.
func TestPainterBudget(t *testing.T) {
	t.Parallel() // CPU-bound and shares nothing: the suite's other slot is often waiting
	const budget = 1 << 20
	p := NewPainter(budget)
	seen := make(map[string]bool, 10000)
	var most int64
	for seed := uint64(0); len(seen) < 10000; seed++ {
		cfg := sizes[seed%uint64(len(sizes))]
		o := ImageOptions{Palette: ImagePalette(1 + seed%2), CellSize: MinCellSize + int(seed%5)*16}
		for _, pos := range prefixes(t, randomGame(t, cfg, seed)) {
			key := fmt.Sprint(cfg, o, pos.History())
			if seen[key] {
				continue
			}
			seen[key] = true
			if err := p.PNG(io.Discard, pos, o); err != nil {
				t.Fatal(err)
			}
			if n := p.Size(); n > budget {
				t.Fatalf("after %d positions the Painter keeps %d bytes, over its budget of %d", len(seen), n, budget)
			} else if n > most {
				most = n
			}
		}
		if err := p.GIF(io.Discard, randomGame(t, cfg, seed), o); err != nil { // its frames kept too
			t.Fatal(err)
		}
		if n := p.Size(); n > budget {
			t.Fatalf("after a replay the Painter keeps %d bytes, over its budget of %d", n, budget)
		}
	}
	if most < budget/2 {
		t.Errorf("the Painter kept at most %d bytes of its %d: it keeps too little to help", most, budget)
	}
	t.Logf("10,000 positions: at most %d bytes kept of %d", most, budget)
}

// TestPainterTinyBudget checks that a budget smaller than one canvas still
// draws right and keeps nothing.
func TestPainterTinyBudget(t *testing.T) {
	p := NewPainter(1000)
	g := game(t, engine.DefaultConfig(), midgame...)
	var buf bytes.Buffer
	if err := p.PNG(&buf, g, ImageOptions{}); err != nil {
		t.Fatal(err)
	}
	want, _ := Image(g, ImageOptions{})
	if at, ok := samePixels(decodePNG(t, buf.Bytes()), want); !ok {
		t.Errorf("differs at %v", at)
	}
	if n := p.Size(); n > 1000 {
		t.Errorf("keeps %d bytes, budget 1000", n)
	}
}

// TestPainterConcurrent draws the positions of several games, and their
// replays, from goroutines sharing one Painter, for the race detector, and
// checks each picture and replay.
func TestPainterConcurrent(t *testing.T) {
	t.Parallel()               // CPU-bound and shares nothing: the suite's other slot is often waiting
	p := NewPainter(300 << 10) // small, so that goroutines evict each other's bands
	var wg sync.WaitGroup
	for i := range 4 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			g := randomGame(t, engine.DefaultConfig(), uint64(100+i))
			o := ImageOptions{Palette: ImagePalette(1 + i%2)}
			for _, pos := range prefixes(t, g) {
				var buf bytes.Buffer
				if err := p.PNG(&buf, pos, o); err != nil {
					t.Error(err)
					return
				}
				got, err := png.Decode(&buf)
				if err != nil {
					t.Error(err)
					return
				}
				want, _ := Image(pos, o)
				if at, ok := samePixels(got, want); !ok {
					t.Errorf("%v differs at %v", pos.History(), at)
					return
				}
			}
			// Replays read the canvas the pictures share, each with a
			// gifWriter of its own.
			var want bytes.Buffer
			if err := GIF(&want, g, o); err != nil {
				t.Error(err)
				return
			}
			for range 3 {
				got, err := p.AppendGIF(nil, g, o)
				if err != nil {
					t.Error(err)
					return
				}
				if !bytes.Equal(got, want.Bytes()) {
					t.Errorf("%v: the Painter's replay differs from GIF's", g.History())
					return
				}
			}
		}()
	}
	wg.Wait()
}

func TestAdlerCombine(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for _, n := range []int{0, 1, 100, 5552, 70000, 300000} {
		a := make([]byte, rng.IntN(70000))
		b := make([]byte, n)
		for i := range a {
			a[i] = byte(rng.Uint32())
		}
		for i := range b {
			b[i] = 0xff
		}
		got := adlerCombine(adler32.Checksum(a), adler32.Checksum(b), len(b))
		if want := adler32.Checksum(append(a, b...)); got != want {
			t.Errorf("combine of %d and %d bytes = %08x, want %08x", len(a), len(b), got, want)
		}
	}
}
