package render

import (
	"fmt"
	"image"
	"image/color"
	"image/gif"
	"io"
	"time"

	"github.com/connect4/connect4/engine"
)

// GIF writes to w an animated replay of g, drawn as Image draws it: the
// empty board, then one frame per move, each shown for o.Delay, the last
// (the final position with its winning line) held for o.FinalDelay, looping
// forever. A game still in progress replays the moves so far.
//
// All frames share one colour table of under 256 colours, and every frame
// after the first holds only the rectangle of cells that changed (the new
// disc, the last move's dot moving on, the winning line) drawn over the
// frame before, so a 42-move game stays small. It returns an *OptionError
// if o is out of range, or the error writing to w.
func GIF(w io.Writer, g *engine.Game, o ImageOptions) error {
	o, err := o.withDefaults()
	if err != nil {
		return err
	}
	cv, err := newCanvas(g.Config(), o)
	if err != nil {
		return err
	}
	cv.drawAll(make([]look, g.Config().Cells()))
	return encodeGIF(w, cv, g, o)
}

// encodeGIF writes the replay of g drawn on cv, whose picture shows the
// empty board, and o with its defaults filled in.
func encodeGIF(w io.Writer, cv *canvas, g *engine.Game, o ImageOptions) error {
	anim, err := replay(cv, g, o)
	if err != nil {
		return err
	}
	if err := gif.EncodeAll(w, anim); err != nil {
		return fmt.Errorf("render: encode gif: %w", err)
	}
	return nil
}

// replay returns the frames of GIF, drawn on cv.
func replay(cv *canvas, g *engine.Game, o ImageOptions) (*gif.GIF, error) {
	cfg := g.Config()
	pos, err := engine.New(cfg)
	if err != nil {
		return nil, fmt.Errorf("render: replay: %w", err)
	}
	history := g.History()
	// The frames' table: the canvas's colours, and one more that is
	// transparent, for the pixels a frame leaves as they were.
	pal := append(cv.out.Palette[:len(cv.out.Palette):len(cv.out.Palette)], color.RGBA{})
	clear := uint8(len(pal) - 1)
	anim := &gif.GIF{
		Image:    make([]*image.Paletted, 0, len(history)+1),
		Delay:    make([]int, 0, len(history)+1),
		Disposal: make([]byte, 0, len(history)+1),
		Config:   image.Config{ColorModel: pal, Width: cv.out.Rect.Dx(), Height: cv.out.Rect.Dy()},
	}
	add := func(m *image.Paletted) {
		anim.Image = append(anim.Image, m)
		anim.Delay = append(anim.Delay, centiseconds(o.Delay))
		anim.Disposal = append(anim.Disposal, gif.DisposalNone)
	}
	shown := looks(pos)
	first := image.NewPaletted(cv.out.Rect, pal)
	copy(first.Pix, cv.out.Pix)
	add(first)
	var changed []image.Rectangle
	for k, col := range history {
		if err := pos.Play(pos.Turn(), col); err != nil {
			return nil, fmt.Errorf("render: replay move %d: %w", k+1, err)
		}
		next := looks(pos)
		changed = changed[:0]
		var bounds image.Rectangle
		for i := range next {
			if next[i] == shown[i] {
				continue
			}
			r, c := i/cfg.Cols, i%cfg.Cols
			cv.drawCell(r, c, next[i])
			sq := cv.cell(r, c)
			changed = append(changed, sq)
			bounds = bounds.Union(sq)
		}
		shown = next
		m := image.NewPaletted(bounds, pal)
		for i := range m.Pix {
			m.Pix[i] = clear
		}
		for _, sq := range changed {
			for y := sq.Min.Y; y < sq.Max.Y; y++ {
				copy(m.Pix[m.PixOffset(sq.Min.X, y):m.PixOffset(sq.Max.X, y)],
					cv.out.Pix[cv.out.PixOffset(sq.Min.X, y):cv.out.PixOffset(sq.Max.X, y)])
			}
		}
		add(m)
	}
	anim.Delay[len(anim.Delay)-1] = centiseconds(o.FinalDelay)
	return anim, nil
}

// centiseconds returns d in the GIF's unit, rounded.
func centiseconds(d time.Duration) int {
	return int((d + 5*time.Millisecond) / (10 * time.Millisecond))
}
