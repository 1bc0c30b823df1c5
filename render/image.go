package render

import (
	"fmt"
	"image"
	"image/color"
	"image/draw"
	"image/png"
	"io"
	"strconv"
	"time"

	"golang.org/x/image/font"
	"golang.org/x/image/font/gofont/gobold"
	"golang.org/x/image/font/opentype"
	"golang.org/x/image/math/fixed"
	"golang.org/x/image/vector"

	"github.com/connect4/connect4/engine"
)

// The sizes of a board image's cells, in pixels.
const (
	DefaultCellSize = 64
	MinCellSize     = 24
	MaxCellSize     = 128
)

// ImageOptions say how Image, PNG and GIF draw a board. The zero value is
// ready to use: the standard palette, DefaultCellSize, and the default GIF
// timings.
type ImageOptions struct {
	// Palette is the set of colours; the zero value draws as
	// ImageStandard.
	Palette ImagePalette
	// CellSize is the side of one cell in pixels, MinCellSize to
	// MaxCellSize; 0 means DefaultCellSize. A 7 × 6 board at the default
	// is 464 × 428 pixels.
	CellSize int
	// Delay is how long a GIF shows each move, DefaultDelay if 0. GIFs
	// count time in hundredths of a second: it is rounded to that.
	Delay time.Duration
	// FinalDelay is how long a GIF holds its last frame before it starts
	// again, DefaultFinalDelay if 0.
	FinalDelay time.Duration
}

// The default timings of a GIF replay, and the bounds of both delays.
const (
	DefaultDelay      = 700 * time.Millisecond
	DefaultFinalDelay = 4 * time.Second
	MinDelay          = 20 * time.Millisecond // browsers show shorter delays as 100 ms
	MaxDelay          = time.Minute
)

// OptionError reports an ImageOptions field out of range; nothing is
// written.
type OptionError struct {
	Option string // the field's name, such as "CellSize"
	Value  string // its value
	Want   string // what it may be
}

// Error says which option is out of range and what it may be.
func (e *OptionError) Error() string {
	return fmt.Sprintf("render: image option %s = %s out of range (want %s)", e.Option, e.Value, e.Want)
}

// withDefaults checks o and fills in the defaults of its zero fields.
func (o ImageOptions) withDefaults() (ImageOptions, error) {
	if o.Palette != ImagePaletteUnknown && !o.Palette.valid() {
		return o, &OptionError{Option: "Palette", Value: strconv.Itoa(int(o.Palette)), Want: "standard or colourblind"}
	}
	o.Palette = o.Palette.orStandard()
	if o.CellSize == 0 {
		o.CellSize = DefaultCellSize
	}
	if o.CellSize < MinCellSize || o.CellSize > MaxCellSize {
		return o, &OptionError{Option: "CellSize", Value: strconv.Itoa(o.CellSize),
			Want: fmt.Sprintf("%d to %d pixels", MinCellSize, MaxCellSize)}
	}
	for _, d := range []struct {
		name string
		v    *time.Duration
		def  time.Duration
	}{{"Delay", &o.Delay, DefaultDelay}, {"FinalDelay", &o.FinalDelay, DefaultFinalDelay}} {
		if *d.v == 0 {
			*d.v = d.def
		}
		if *d.v < MinDelay || *d.v > MaxDelay {
			return o, &OptionError{Option: d.name, Value: d.v.String(), Want: fmt.Sprintf("%v to %v", MinDelay, MaxDelay)}
		}
	}
	return o, nil
}

// Image returns g's board drawn as a paletted image: the discs in their
// holes on the board, the column numbers 1, 2, ... under the columns, a dot
// on the last move's disc and a ring around each disc of the winning line.
// The same game and options always give the same pixels; it is safe for
// concurrent use. It returns an *OptionError if o is out of range.
func Image(g *engine.Game, o ImageOptions) (*image.Paletted, error) {
	o, err := o.withDefaults()
	if err != nil {
		return nil, err
	}
	cv, err := newCanvas(g.Config(), o)
	if err != nil {
		return nil, err
	}
	cv.drawAll(looks(g))
	return cv.out, nil
}

// PNG writes g's board, drawn as Image draws it, to w as a PNG. It returns
// an *OptionError if o is out of range, or the error writing to w.
func PNG(w io.Writer, g *engine.Game, o ImageOptions) error {
	img, err := Image(g, o)
	if err != nil {
		return err
	}
	enc := png.Encoder{CompressionLevel: png.BestSpeed}
	if err := enc.Encode(w, img); err != nil {
		return fmt.Errorf("render: encode png: %w", err)
	}
	return nil
}

// look is what one cell shows.
type look struct {
	disc      engine.Player
	last, win bool
}

// looks returns what each cell of g shows, row by row from the bottom.
func looks(g *engine.Game) []look {
	b := g.Board()
	ls := make([]look, b.Rows()*b.Cols())
	for r := range b.Rows() {
		for c := range b.Cols() {
			ls[r*b.Cols()+c].disc = b.At(r, c)
		}
	}
	if last, ok := g.LastMove(); ok {
		ls[last.Row*b.Cols()+last.Col].last = true
	}
	for _, c := range g.WinningCells() {
		ls[c.Row*b.Cols()+c.Col].win = true
	}
	return ls
}

// The radii of the circles a cell is drawn with, as fractions of its side.
const (
	winRadius     = 0.485 // the ring around a winning disc, outside the hole
	holeRadius    = 0.41  // a hole, and a disc's rim
	faceRadius    = 0.34  // a disc's face inside its rim
	cueOuter      = 0.25  // the second player's inner ring, colour-blind palette
	cueInner      = 0.18
	markOuter     = 0.12 // the last move's dot and its edge
	markInner     = 0.08
	labelFontSize = 0.30 // the column numbers' size
)

// canvas draws boards of one size in one palette, straight into a
// paletted image. Each cell is drawn inside its own square, from a tile
// drawn once per look, so that a board costs a few copies and a replay can
// redraw only the cells that change.
type canvas struct {
	cfg            engine.Config
	th             theme
	s, pad, labelH int
	out            *image.Paletted
	q              *quantizer
	tiles          map[look]*image.Paletted
	scratch        *image.RGBA // a cell's square, to draw a tile in
	masks          masks
	labelFace      font.Face
	emptyLZW       []byte // a frozen canvas's empty board as a GIF frame's LZW data
	// sameRows says a frozen canvas's rows of cells are the same pixels
	// when their cells look the same, whichever row: a Painter keeps one
	// band for them all.
	sameRows bool
}

// masks are the anti-aliased circles a tile is drawn with, each centred
// in a cell's square.
type masks struct {
	win, hole, face *image.Alpha
	cueOut, cueIn   *image.Alpha
	markOut, markIn *image.Alpha
	square          *image.Alpha // the fourth player's cue
}

func newCanvas(cfg engine.Config, o ImageOptions) (*canvas, error) {
	s := o.CellSize
	cv := &canvas{cfg: cfg, th: o.Palette.theme(), s: s, pad: s / 8, labelH: s / 2,
		tiles: make(map[look]*image.Paletted, 12)}
	w := 2*cv.pad + cfg.Cols*s
	h := cv.pad + cfg.Rows*s + cv.labelH + cv.pad/2
	pal := colourTable(cv.th, cfg.NumPlayers())
	cv.out = image.NewPaletted(image.Rect(0, 0, w, h), pal)
	cv.q = newQuantizer(pal)
	cv.scratch = image.NewRGBA(image.Rect(0, 0, s, s))
	z := vector.NewRasterizer(s, s)
	for _, m := range []struct {
		dst **image.Alpha
		r   float32
	}{{&cv.masks.win, winRadius}, {&cv.masks.hole, holeRadius}, {&cv.masks.face, faceRadius},
		{&cv.masks.cueOut, cueOuter}, {&cv.masks.cueIn, cueInner},
		{&cv.masks.markOut, markOuter}, {&cv.masks.markIn, markInner}} {
		*m.dst = circle(z, s, m.r*float32(s))
	}
	cv.masks.square = square(s, cueOuter*float32(s))
	f, err := opentype.Parse(gobold.TTF)
	if err != nil {
		return nil, fmt.Errorf("render: parse label font: %w", err)
	}
	cv.labelFace, err = opentype.NewFace(f, &opentype.FaceOptions{
		Size: labelFontSize * float64(s), DPI: 72, Hinting: font.HintingFull})
	if err != nil {
		return nil, fmt.Errorf("render: label font: %w", err)
	}
	return cv, nil
}

// circle returns the coverage of a circle of radius r centred in an s × s
// square, anti-aliased, cut to the pixels the circle touches.
func circle(z *vector.Rasterizer, s int, r float32) *image.Alpha {
	z.Reset(s, s)
	c := float32(s) / 2
	const k = 0.5522847 // the cubic Bézier control distance for a quarter circle
	z.MoveTo(c+r, c)
	z.CubeTo(c+r, c+k*r, c+k*r, c+r, c, c+r)
	z.CubeTo(c-k*r, c+r, c-r, c+k*r, c-r, c)
	z.CubeTo(c-r, c-k*r, c-k*r, c-r, c, c-r)
	z.CubeTo(c+k*r, c-r, c+r, c-k*r, c+r, c)
	z.ClosePath()
	a := image.NewAlpha(image.Rect(0, 0, s, s))
	z.Draw(a, a.Bounds(), image.Opaque, image.Point{})
	lo, hi := int(c-r)-1, int(c+r)+2
	return a.SubImage(image.Rect(lo, lo, hi, hi).Intersect(a.Rect)).(*image.Alpha)
}

// square returns the coverage of a square of half-side h centred in an
// s × s square, cut to its pixels.
func square(s int, h float32) *image.Alpha {
	a := image.NewAlpha(image.Rect(0, 0, s, s))
	c := float32(s) / 2
	r := image.Rect(int(c-h+0.5), int(c-h+0.5), int(c+h+0.5), int(c+h+0.5))
	draw.Draw(a, r, image.Opaque, image.Point{}, draw.Src)
	return a.SubImage(r).(*image.Alpha)
}

// cell returns the square of the cell in row r (0 at the bottom), column c.
func (cv *canvas) cell(r, c int) image.Rectangle {
	x := cv.pad + c*cv.s
	y := cv.pad + (cv.cfg.Rows-1-r)*cv.s
	return image.Rect(x, y, x+cv.s, y+cv.s)
}

// drawAll draws the whole board showing ls, one look per cell row by row
// from the bottom.
func (cv *canvas) drawAll(ls []look) {
	board := cv.q.nearest(cv.th.board)
	w := cv.out.Rect.Dx()
	for i := range w {
		cv.out.Pix[i] = board
	}
	for i := w; i < len(cv.out.Pix); i += w {
		copy(cv.out.Pix[i:i+w], cv.out.Pix[:w])
	}
	cv.drawLabels()
	for i, l := range ls {
		cv.drawCell(i/cv.cfg.Cols, i%cv.cfg.Cols, l)
	}
}

// drawCell draws the cell in row r, column c showing l, inside its square
// only.
func (cv *canvas) drawCell(r, c int, l look) {
	t := cv.tile(l)
	sq := cv.cell(r, c)
	for y := 0; y < cv.s; y++ {
		i := cv.out.PixOffset(sq.Min.X, sq.Min.Y+y)
		copy(cv.out.Pix[i:i+cv.s], t.Pix[y*t.Stride:])
	}
}

// tile returns a cell's square showing l, drawn the first time it is
// asked for: the hole, or the disc with its rim, with the ring of a
// winning disc around it, the colour-blind shape cue and the last move's
// dot.
func (cv *canvas) tile(l look) *image.Paletted {
	if t, ok := cv.tiles[l]; ok {
		return t
	}
	th, m, dst := &cv.th, &cv.masks, cv.scratch
	draw.Draw(dst, dst.Rect, image.NewUniform(th.board), image.Point{}, draw.Src)
	over := func(mask *image.Alpha, col color.RGBA) {
		draw.DrawMask(dst, mask.Rect, image.NewUniform(col), image.Point{}, mask, mask.Rect.Min, draw.Over)
	}
	if l.win {
		over(m.win, th.win)
	}
	if !l.disc.Valid() {
		over(m.hole, th.hole)
	} else {
		i := int(l.disc) - 1
		over(m.hole, th.rim[i])
		over(m.face, th.face[i])
		switch {
		case th.secondPlayerHasRing && l.disc == engine.Yellow:
			over(m.cueOut, th.rim[i])
			over(m.cueIn, th.face[i])
		case l.disc == engine.Green: // the shape cues of 3 and 4 players, in every palette
			over(m.cueOut, th.rim[i])
		case l.disc == engine.Blue:
			over(m.square, th.rim[i])
		}
		if l.last {
			over(m.markOut, th.markEdge)
			over(m.markIn, th.markFill)
		}
	}
	t := image.NewPaletted(dst.Rect, cv.out.Palette)
	cv.q.convert(t, dst, dst.Rect)
	cv.tiles[l] = t
	return t
}

// drawLabels writes the column numbers, each centred under its column in
// the band below the bottom row.
func (cv *canvas) drawLabels() {
	band := image.Rect(0, cv.pad+cv.cfg.Rows*cv.s, cv.out.Rect.Dx(), cv.out.Rect.Dy())
	dst := image.NewRGBA(band)
	draw.Draw(dst, band, image.NewUniform(cv.th.board), image.Point{}, draw.Src)
	d := font.Drawer{Dst: dst, Src: image.NewUniform(cv.th.label), Face: cv.labelFace}
	digits, _ := font.BoundString(cv.labelFace, "0123456789")
	// Centre the digits' ink, not their line box, in the band.
	mid := fixed.I(band.Min.Y) + fixed.I(cv.labelH)/2
	baseline := mid - (digits.Min.Y+digits.Max.Y)/2
	for c := range cv.cfg.Cols {
		label := strconv.Itoa(c + 1)
		b, _ := font.BoundString(cv.labelFace, label)
		centre := fixed.I(cv.pad+c*cv.s) + fixed.I(cv.s)/2
		d.Dot = fixed.Point26_6{X: centre - (b.Min.X+b.Max.X)/2, Y: baseline}
		d.DrawString(label)
	}
	cv.q.convert(cv.out, dst, band)
}
