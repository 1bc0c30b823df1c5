package render

import (
	"bytes"
	"errors"
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"image/gif"
	"image/png"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/connect4/connect4/engine"
)

// randomGame plays seeded random moves on a board of cfg until the game
// ends or, for some seeds, stops part way.
func randomGame(t testing.TB, cfg engine.Config, seed uint64) *engine.Game {
	t.Helper()
	rng := rand.New(rand.NewPCG(seed, 18))
	g, err := engine.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	stop := cfg.Cells()
	if seed%3 == 1 {
		stop = rng.IntN(cfg.Cells())
	}
	for g.State() == engine.InProgress && g.Moves() < stop {
		cols := g.LegalColumns()
		if err := g.Play(g.Turn(), cols[rng.IntN(len(cols))]); err != nil {
			t.Fatal(err)
		}
	}
	return g
}

// sizes are the boards the pixel tests draw: the smallest, the classic,
// the largest and the narrowest both ways.
var sizes = []engine.Config{
	{Rows: 4, Cols: 4, Connect: 3},
	{Rows: 6, Cols: 7, Connect: 4},
	{Rows: 10, Cols: 10, Connect: 5},
	{Rows: 4, Cols: 10, Connect: 4},
	{Rows: 10, Cols: 4, Connect: 4},
}

func decodePNG(t *testing.T, b []byte) image.Image {
	t.Helper()
	img, err := png.Decode(bytes.NewReader(b))
	if err != nil {
		t.Fatalf("decode png: %v", err)
	}
	return img
}

func same(a, b color.Color) bool {
	ar, ag, ab, aa := a.RGBA()
	br, bg, bb, ba := b.RGBA()
	return ar == br && ag == bg && ab == bb && aa == ba
}

// checkCells checks, by sampling pixels, that img shows exactly g's board
// drawn in pal at cell size s: the geometry is worked out here again, row
// 0 at the bottom, rather than taken from the renderer. At each cell's
// centre: the hole for an empty cell, the disc's face, or the white dot on
// the last move (whose face is checked off the centre); a ring outside the
// hole exactly on the winning cells; and in the colour-blind palette the
// inner ring on the second player's discs only.
func checkCells(t *testing.T, img image.Image, g *engine.Game, pal ImagePalette, s int) {
	t.Helper()
	th := pal.theme()
	b := g.Board()
	pad := s / 8
	if got, want := img.Bounds().Size(), image.Pt(2*pad+b.Cols()*s, pad+b.Rows()*s+s/2+pad/2); got != want {
		t.Fatalf("%v board: image size %v, want %v", g.Config(), got, want)
	}
	last, _ := g.LastMove()
	win := map[engine.Cell]bool{}
	for _, c := range g.WinningCells() {
		win[c] = true
	}
	at := func(r, c int, dx, dy float64) color.Color {
		x := pad + c*s + s/2 + int(dx*float64(s))
		y := pad + (b.Rows()-1-r)*s + s/2 + int(dy*float64(s))
		return img.At(x, y)
	}
	for r := range b.Rows() {
		for c := range b.Cols() {
			p := b.At(r, c)
			isLast := g.Moves() > 0 && last == engine.Cell{Row: r, Col: c}
			var want color.RGBA
			switch {
			case !p.Valid():
				want = th.hole
			case isLast:
				want = th.markFill
			default:
				want = th.face[p-1]
			}
			if got := at(r, c, 0, 0); !same(got, want) {
				t.Errorf("%v %v: cell row %d col %d (%v, last %v) centre is %v, want %v",
					g.History(), pal, r, c, p, isLast, got, want)
			}
			if p.Valid() {
				if got := at(r, c, 0.3, 0); !same(got, th.face[p-1]) {
					t.Errorf("%v %v: cell row %d col %d face is %v, want %v", g.History(), pal, r, c, got, th.face[p-1])
				}
				want := th.face[p-1]
				if pal == ImageColourBlind && p == engine.Yellow {
					want = th.rim[p-1]
				}
				if got := at(r, c, 0, -0.215); !same(got, want) {
					t.Errorf("%v %v: cell row %d col %d (%v) inner ring is %v, want %v", g.History(), pal, r, c, p, got, want)
				}
			}
			want = th.board
			if win[engine.Cell{Row: r, Col: c}] {
				want = th.win
			}
			if got := at(r, c, 0, 0.45); !same(got, want) {
				t.Errorf("%v %v: cell row %d col %d (win %v) outside the hole is %v, want %v",
					g.History(), pal, r, c, win[engine.Cell{Row: r, Col: c}], got, want)
			}
		}
	}
	// A column number under each column, in the band below the board, and
	// nothing but the board between them.
	for c := range b.Cols() {
		n := 0
		for y := pad + b.Rows()*s; y < img.Bounds().Dy(); y++ {
			for x := pad + c*s; x < pad+(c+1)*s; x++ {
				if !same(img.At(x, y), th.board) {
					n++
				}
			}
			if x := pad + c*s; !same(img.At(x, y), th.board) {
				t.Errorf("%v: label band at x %d, between columns %d and %d, is %v, want the board",
					g.Config(), x, c, c+1, img.At(x, y))
			}
		}
		if n == 0 {
			t.Errorf("%v: no label under column %d", g.Config(), c+1)
		}
	}
}

func TestImageShowsTheBoard(t *testing.T) {
	for _, cfg := range sizes {
		for seed := uint64(1); seed <= 3; seed++ {
			g := randomGame(t, cfg, seed)
			for _, pal := range []ImagePalette{ImageStandard, ImageColourBlind} {
				t.Run(fmt.Sprintf("%dx%d-%d-%v", cfg.Cols, cfg.Rows, seed, pal), func(t *testing.T) {
					var buf bytes.Buffer
					if err := PNG(&buf, g, ImageOptions{Palette: pal}); err != nil {
						t.Fatal(err)
					}
					checkCells(t, decodePNG(t, buf.Bytes()), g, pal, DefaultCellSize)
				})
			}
		}
	}
}

func TestImageCellSizes(t *testing.T) {
	g := game(t, engine.DefaultConfig(), diagonal...)
	for _, s := range []int{MinCellSize, 40, DefaultCellSize, MaxCellSize} {
		img, err := Image(g, ImageOptions{CellSize: s})
		if err != nil {
			t.Fatal(err)
		}
		checkCells(t, img, g, ImageStandard, s)
	}
}

func TestImageWinningLines(t *testing.T) {
	games := map[string][]int{
		"vertical":   {0, 1, 0, 1, 0, 1, 0},
		"horizontal": {0, 0, 1, 1, 2, 2, 3},
		"diagonal":   diagonal,
		"two lines":  {6, 4, 3, 5, 5, 6, 1, 4, 1, 6, 0, 5, 3, 6, 5, 1, 0, 3, 4, 3, 2},
	}
	for name, moves := range games {
		g := game(t, engine.DefaultConfig(), moves...)
		if g.State() != engine.Won {
			t.Fatalf("%s: %v is not won", name, moves)
		}
		for _, pal := range []ImagePalette{ImageStandard, ImageColourBlind} {
			img, err := Image(g, ImageOptions{Palette: pal})
			if err != nil {
				t.Fatal(err)
			}
			checkCells(t, img, g, pal, DefaultCellSize)
		}
	}
}

// composeGIF decodes a GIF and returns each frame as it is seen: drawn over
// the frames before it, as DisposalNone says.
func composeGIF(t *testing.T, b []byte) (*gif.GIF, []*image.RGBA) {
	t.Helper()
	anim, err := gif.DecodeAll(bytes.NewReader(b))
	if err != nil {
		t.Fatalf("decode gif: %v", err)
	}
	canvas := image.NewRGBA(image.Rect(0, 0, anim.Config.Width, anim.Config.Height))
	seen := make([]*image.RGBA, len(anim.Image))
	for i, m := range anim.Image {
		if anim.Disposal[i] != gif.DisposalNone {
			t.Errorf("frame %d: disposal %d, want none", i, anim.Disposal[i])
		}
		for y := m.Rect.Min.Y; y < m.Rect.Max.Y; y++ {
			for x := m.Rect.Min.X; x < m.Rect.Max.X; x++ {
				if c := m.At(x, y); c.(color.RGBA).A != 0 {
					canvas.Set(x, y, c)
				}
			}
		}
		seen[i] = image.NewRGBA(canvas.Rect)
		copy(seen[i].Pix, canvas.Pix)
	}
	return anim, seen
}

// samePixels reports whether a and b have the same bounds and pixels, and
// if not, the first pixel where they differ.
func samePixels(a, b image.Image) (image.Point, bool) {
	if a.Bounds() != b.Bounds() {
		return a.Bounds().Size(), false
	}
	ra, rb := toRGBA(a), toRGBA(b)
	if bytes.Equal(ra.Pix, rb.Pix) {
		return image.Point{}, true
	}
	for i := range ra.Pix {
		if ra.Pix[i] != rb.Pix[i] {
			return image.Pt(i%ra.Stride/4, i/ra.Stride).Add(ra.Rect.Min), false
		}
	}
	return image.Point{}, false
}

func toRGBA(m image.Image) *image.RGBA {
	if r, ok := m.(*image.RGBA); ok {
		return r
	}
	r := image.NewRGBA(m.Bounds())
	draw.Draw(r, r.Rect, m, m.Bounds().Min, draw.Src)
	return r
}

func TestGIFReplaysTheGame(t *testing.T) {
	t.Parallel() // CPU-bound and shares nothing: the suite's other slot is often waiting
	for i, cfg := range sizes {
		g := randomGame(t, cfg, 3)
		pal := []ImagePalette{ImageStandard, ImageColourBlind}[i%2]
		t.Run(fmt.Sprintf("%dx%d-%v", cfg.Cols, cfg.Rows, pal), func(t *testing.T) {
			var buf bytes.Buffer
			o := ImageOptions{Palette: pal, Delay: 500 * time.Millisecond, FinalDelay: 3 * time.Second}
			if err := GIF(&buf, g, o); err != nil {
				t.Fatal(err)
			}
			anim, frames := composeGIF(t, buf.Bytes())
			if len(frames) != g.Moves()+1 {
				t.Fatalf("%d frames for %d moves, want %d", len(frames), g.Moves(), g.Moves()+1)
			}
			for k, d := range anim.Delay {
				want := 50
				if k == len(anim.Delay)-1 {
					want = 300
				}
				if d != want {
					t.Errorf("frame %d: delay %d, want %d", k, d, want)
				}
			}
			if anim.LoopCount != 0 {
				t.Errorf("loop count %d, want 0 (for ever)", anim.LoopCount)
			}
			// Every frame is the image of the position after its moves;
			// the last is the final position, winning line and all.
			h := g.History()
			for k, f := range frames {
				pos := game(t, cfg, h[:k]...)
				if k == len(h) {
					pos = g
				}
				checkCells(t, f, pos, pal, DefaultCellSize)
				want, err := Image(pos, ImageOptions{Palette: pal})
				if err != nil {
					t.Fatal(err)
				}
				if p, ok := samePixels(f, want); !ok {
					t.Fatalf("frame %d differs from Image after %d moves at %v", k, k, p)
				}
			}
		})
	}
}

func TestGIFOfNoMoves(t *testing.T) {
	g := game(t, engine.DefaultConfig())
	var buf bytes.Buffer
	if err := GIF(&buf, g, ImageOptions{}); err != nil {
		t.Fatal(err)
	}
	anim, frames := composeGIF(t, buf.Bytes())
	if len(frames) != 1 || anim.Delay[0] != int(DefaultFinalDelay/(10*time.Millisecond)) {
		t.Fatalf("%d frames, delays %v; want one frame held %v", len(frames), anim.Delay, DefaultFinalDelay)
	}
	checkCells(t, frames[0], g, ImageStandard, DefaultCellSize)
}

func TestImageOptionErrors(t *testing.T) {
	g := game(t, engine.DefaultConfig(), 3)
	tests := []struct {
		o      ImageOptions
		option string // "" for no error
	}{
		{ImageOptions{}, ""},
		{ImageOptions{Palette: ImageColourBlind, CellSize: MinCellSize}, ""},
		{ImageOptions{CellSize: MaxCellSize, Delay: MinDelay, FinalDelay: MaxDelay}, ""},
		{ImageOptions{Palette: ImageColourBlind + 1}, "Palette"},
		{ImageOptions{CellSize: MinCellSize - 1}, "CellSize"},
		{ImageOptions{CellSize: -64}, "CellSize"},
		{ImageOptions{CellSize: MaxCellSize + 1}, "CellSize"},
		{ImageOptions{Delay: time.Millisecond}, "Delay"},
		{ImageOptions{Delay: -time.Second}, "Delay"},
		{ImageOptions{FinalDelay: MaxDelay + time.Second}, "FinalDelay"},
	}
	for _, tt := range tests {
		for name, draw := range map[string]func() error{
			"PNG": func() error { return PNG(&bytes.Buffer{}, g, tt.o) },
			"GIF": func() error { return GIF(&bytes.Buffer{}, g, tt.o) },
		} {
			var buf bytes.Buffer
			err := draw()
			var oe *OptionError
			switch {
			case tt.option == "" && err != nil:
				t.Errorf("%s(%+v) = %v, want no error", name, tt.o, err)
			case tt.option != "" && (!errors.As(err, &oe) || oe.Option != tt.option):
				t.Errorf("%s(%+v) = %v, want an *OptionError for %s", name, tt.o, err, tt.option)
			case tt.option != "" && buf.Len() != 0:
				t.Errorf("%s(%+v) wrote %d bytes with an error", name, tt.o, buf.Len())
			}
		}
	}
}

// errWriter fails every write.
type errWriter struct{}

var errDiskFull = errors.New("disk full")

func (errWriter) Write([]byte) (int, error) { return 0, errDiskFull }

func TestImageWriteErrors(t *testing.T) {
	g := game(t, engine.DefaultConfig(), 3)
	if err := PNG(errWriter{}, g, ImageOptions{}); !errors.Is(err, errDiskFull) {
		t.Errorf("PNG to a failing writer = %v, want it to wrap %v", err, errDiskFull)
	}
	if err := GIF(errWriter{}, g, ImageOptions{}); !errors.Is(err, errDiskFull) {
		t.Errorf("GIF to a failing writer = %v, want it to wrap %v", err, errDiskFull)
	}
}

func TestImageIsDeterministic(t *testing.T) {
	g := game(t, engine.DefaultConfig(), diagonal...)
	var a, b bytes.Buffer
	if err := GIF(&a, g, ImageOptions{}); err != nil {
		t.Fatal(err)
	}
	_ = PNG(&bytes.Buffer{}, game(t, engine.DefaultConfig(), midgame...), ImageOptions{Palette: ImageColourBlind})
	if err := GIF(&b, g, ImageOptions{}); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(a.Bytes(), b.Bytes()) {
		t.Error("two GIFs of the same game differ")
	}
}

// TestImageGolden compares the images with the files under testdata/,
// decoded, pixel by pixel; go test -update rewrites them.
// testdata/example-board.png is the picture the README shows.
func TestImageGolden(t *testing.T) {
	tests := []struct {
		file string
		g    *engine.Game
		o    ImageOptions
	}{
		{"example-board.png", game(t, engine.DefaultConfig(), diagonal...), ImageOptions{}},
		{"midgame.png", game(t, engine.DefaultConfig(), midgame...), ImageOptions{}},
		{"midgame.colourblind.png", game(t, engine.DefaultConfig(), midgame...), ImageOptions{Palette: ImageColourBlind}},
		{"diagonal-win.colourblind.png", game(t, engine.DefaultConfig(), diagonal...), ImageOptions{Palette: ImageColourBlind}},
		{"10x10-win.png", game(t, engine.Config{Rows: 10, Cols: 10, Connect: 5}, 5, 6, 6, 7, 7, 8, 7, 8, 8, 0, 8, 9, 9, 9, 9, 0, 9), ImageOptions{CellSize: 48}},
		{"4x4-empty.png", game(t, engine.Config{Rows: 4, Cols: 4, Connect: 3}), ImageOptions{Palette: ImageColourBlind}},
		{"diagonal-win.gif", game(t, engine.DefaultConfig(), diagonal...), ImageOptions{CellSize: 40}},
		{"4x5-connect3.colourblind.gif", game(t, engine.Config{Rows: 4, Cols: 5, Connect: 3}, 2, 2, 1, 1, 3), ImageOptions{Palette: ImageColourBlind}},
	}
	for _, tt := range tests {
		t.Run(tt.file, func(t *testing.T) {
			var buf bytes.Buffer
			encode := PNG
			if filepath.Ext(tt.file) == ".gif" {
				encode = GIF
			}
			if err := encode(&buf, tt.g, tt.o); err != nil {
				t.Fatal(err)
			}
			path := filepath.Join("testdata", tt.file)
			if *update {
				if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
					t.Fatal(err)
				}
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (run go test -update to create it)", err)
			}
			if bytes.Equal(buf.Bytes(), want) {
				return
			}
			if filepath.Ext(tt.file) == ".png" {
				if p, ok := samePixels(decodePNG(t, buf.Bytes()), decodePNG(t, want)); !ok {
					t.Errorf("%s differs from the image at %v (go test -update rewrites it)", path, p)
				}
				return
			}
			gotAnim, got := composeGIF(t, buf.Bytes())
			wantAnim, wantFrames := composeGIF(t, want)
			if len(got) != len(wantFrames) || fmt.Sprint(gotAnim.Delay) != fmt.Sprint(wantAnim.Delay) {
				t.Fatalf("%d frames with delays %v, want %d with %v", len(got), gotAnim.Delay, len(wantFrames), wantAnim.Delay)
			}
			for k := range got {
				if p, ok := samePixels(got[k], wantFrames[k]); !ok {
					t.Errorf("%s frame %d differs at %v (go test -update rewrites it)", path, k, p)
				}
			}
		})
	}
}

func TestImageSize(t *testing.T) {
	img, err := Image(game(t, engine.DefaultConfig()), ImageOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := img.Bounds().Size(), image.Pt(464, 428); got != want {
		t.Errorf("7 × 6 board at the default cell size: %v, want %v as ImageOptions documents", got, want)
	}
}

// TestImageConcurrent draws the same game from several goroutines at once,
// for the race detector, and checks that they agree.
func TestImageConcurrent(t *testing.T) {
	g := game(t, engine.DefaultConfig(), diagonal...)
	out := make([][]byte, 4)
	done := make(chan error, len(out))
	for i := range out {
		go func() {
			var buf bytes.Buffer
			err := PNG(&buf, g, ImageOptions{Palette: ImageColourBlind})
			if err == nil {
				err = GIF(&buf, g, ImageOptions{CellSize: MinCellSize})
			}
			out[i] = buf.Bytes()
			done <- err
		}()
	}
	for range out {
		if err := <-done; err != nil {
			t.Fatal(err)
		}
	}
	for i := range out {
		if !bytes.Equal(out[i], out[0]) {
			t.Errorf("goroutine %d drew different bytes from goroutine 0", i)
		}
	}
}
