package render

import (
	"fmt"
	"image"
	"image/color"
	"io"
	"slices"
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
	b, err := appendGIF(nil, cv, g, o, &gifWriter{}, nil)
	if err != nil {
		return err
	}
	return writeGIF(w, b)
}

// writeGIF writes a replay's bytes to w.
func writeGIF(w io.Writer, b []byte) error {
	if _, err := w.Write(b); err != nil {
		return fmt.Errorf("render: encode gif: %w", err)
	}
	return nil
}

// appendGIF appends to b the replay of g drawn with cv's tiles, whose
// picture shows the empty board, and o with its defaults filled in, with
// enc's buffers, and returns the extended slice. Each frame is copied from
// the tiles of the cells that changed, encoded and dropped in turn; the
// first is cv.emptyLZW when cv has it. cv is only read: a frozen canvas
// can be shared. With frames (nil: none) a frame's LZW data is looked up
// there before it is encoded, and kept there after.
func appendGIF(b []byte, cv *canvas, g *engine.Game, o ImageOptions, enc *gifWriter, frames frameStore) ([]byte, error) {
	cfg := g.Config()
	pos, err := engine.New(cfg)
	if err != nil {
		return b, fmt.Errorf("render: replay: %w", err)
	}
	history := g.History()
	// The frames' table: the canvas's colours, and one more that is
	// transparent, for the pixels a frame leaves as they were.
	pal := append(cv.out.Palette[:len(cv.out.Palette):len(cv.out.Palette)], color.RGBA{})
	clear := uint8(len(pal) - 1)
	delay := func(k int) int { // of frame k, 0 the empty board
		if k == len(history) {
			return centiseconds(o.FinalDelay)
		}
		return centiseconds(o.Delay)
	}
	enc.transparent = clear
	first := cv.emptyLZW
	if first == nil {
		first = enc.lzw.encode(cv.out.Pix)
	}
	b = slices.Grow(b, gifSize(len(first), len(history)))
	b = enc.header(b, pal, cv.out.Rect.Dx(), cv.out.Rect.Dy(), len(history)+1)
	b = enc.frame(b, cv.out.Rect, first, delay(0))
	shown := looks(pos)
	var changed []cellLook
	for k, col := range history {
		if err := pos.Play(pos.Turn(), col); err != nil {
			return b, fmt.Errorf("render: replay move %d: %w", k+1, err)
		}
		next := looks(pos)
		changed = changed[:0]
		var bounds image.Rectangle
		for i := range next {
			if next[i] == shown[i] {
				continue
			}
			sq := cv.cell(i/cfg.Cols, i%cfg.Cols)
			changed = append(changed, cellLook{sq, next[i]})
			bounds = bounds.Union(sq)
		}
		shown = next
		var key string
		if frames != nil {
			key = frames.frameKey(changed)
			if data, ok := frames.frame(key); ok {
				b = enc.frame(b, bounds, data, delay(k+1))
				continue
			}
		}
		stride := bounds.Dx()
		pix := enc.pix
		if n := stride * bounds.Dy(); cap(pix) < n {
			pix = make([]byte, n, max(n, 2*cap(pix))) // frames differ in size: grow by doubling
		} else {
			pix = pix[:n]
		}
		enc.pix = pix
		pix[0] = clear
		for i := 1; i < len(pix); i *= 2 {
			copy(pix[i:], pix[:i])
		}
		// The cell's square is its tile, as drawCell draws it.
		for _, ch := range changed {
			t := cv.tile(ch.l)
			for y := range cv.s {
				at := (ch.sq.Min.Y+y-bounds.Min.Y)*stride + ch.sq.Min.X - bounds.Min.X
				copy(pix[at:at+cv.s], t.Pix[y*t.Stride:y*t.Stride+cv.s])
			}
		}
		data := enc.lzw.encode(pix)
		if frames != nil {
			frames.keepFrame(key, data)
		}
		b = enc.frame(b, bounds, data, delay(k+1))
	}
	return append(b, 0x3b), nil // the trailer
}

// gifSize is the room a replay of moves moves, whose first frame's LZW
// data is first bytes long, gets at first.
func gifSize(first, moves int) int { return first + gifHeaderSize + moves*gifMoveSize }

// Room a replay's bytes get at first: the header with its colour table,
// and for each move a frame of one or two cells, which a 7 × 6 board at
// the default size compresses to about 2 KB. A larger replay grows once.
const (
	gifHeaderSize = 1 << 10
	gifMoveSize   = 5 << 9
)

// frameStore keeps the LZW data of a replay's frames drawn on one canvas.
// A frame after the first is the changed cells' tiles on transparent
// pixels within their bounds, so the cells and their looks name its data:
// a move in one game makes the frame of the same move in many others.
type frameStore interface {
	// frameKey returns the key of the frame showing changed.
	frameKey(changed []cellLook) string
	// frame returns the data kept for key, which the caller must not
	// change.
	frame(key string) ([]byte, bool)
	// keepFrame keeps a copy of data for key.
	keepFrame(key string, data []byte)
}

// cellLook is a cell's square in the picture and what it shows.
type cellLook struct {
	sq image.Rectangle
	l  look
}

// gifWriter writes the GIF file of a replay: one global colour table, a
// loop forever, and frames that each name the table's transparent colour
// and are left in place (no disposal), as gif.EncodeAll writes such a
// replay, with lzwEncoder's LZW. Its buffers (the LZW tables, a frame's
// pixels) serve one replay after another: a Painter keeps a few.
type gifWriter struct {
	lzw         lzwEncoder
	pix         []byte
	transparent uint8
}

func le16(b []byte, v int) []byte { return append(b, byte(v), byte(v>>8)) }

// header appends the file's header, screen, colour table of pal (under
// 257 colours) and, for more than one frame, the loop.
func (*gifWriter) header(b []byte, pal color.Palette, width, height, frames int) []byte {
	bits := 1
	for 1<<bits < len(pal) {
		bits++
	}
	b = append(b, "GIF89a"...)
	b = le16(b, width)
	b = le16(b, height)
	b = append(b, 0x80|0x70|byte(bits-1), 0, 0) // a global table of 2^bits colours, 8 bits a channel
	for i := range 1 << bits {
		var r, g, bl uint32
		if i < len(pal) {
			r, g, bl, _ = pal[i].RGBA()
		}
		b = append(b, byte(r>>8), byte(g>>8), byte(bl>>8))
	}
	if frames > 1 {
		b = append(b, 0x21, 0xff, 0x0b)
		b = append(b, "NETSCAPE2.0"...)
		b = append(b, 0x03, 0x01, 0, 0, 0) // loop forever
	}
	return b
}

// frame appends a frame covering r, its pixels already LZW encoded as
// data, shown for delay hundredths of a second.
func (e *gifWriter) frame(b []byte, r image.Rectangle, data []byte, delay int) []byte {
	b = append(b, 0x21, 0xf9, 0x04, 1<<2|1) // graphic control: left in place (disposal 1), a transparent colour
	b = le16(b, delay)
	b = append(b, e.transparent, 0, 0x2c)
	for _, v := range []int{r.Min.X, r.Min.Y, r.Dx(), r.Dy()} {
		b = le16(b, v)
	}
	b = append(b, 0, lzwLitWidth)
	for len(data) > 0 {
		n := min(len(data), 255)
		b = append(b, byte(n))
		b = append(b, data[:n]...)
		data = data[n:]
	}
	return append(b, 0)
}

// centiseconds returns d in the GIF's unit, rounded.
func centiseconds(d time.Duration) int {
	return int((d + 5*time.Millisecond) / (10 * time.Millisecond))
}
