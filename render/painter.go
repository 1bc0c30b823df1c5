package render

import (
	"bytes"
	"container/list"
	"encoding/binary"
	"fmt"
	"hash/adler32"
	"hash/crc32"
	"io"
	"slices"
	"sync"

	"github.com/klauspost/compress/flate"

	"github.com/connect4/connect4/engine"
)

// DefaultPainterBudget is a Painter's budget when NewPainter is given 0:
// room for the canvases of a few board shapes and sizes, the bands of
// tens of thousands of rows of cells and the frames of the replays. On
// the pictures of 3,000 random 7 × 6 games, 16 MB took 1.8 times the time
// of 32 MB, and an unbounded Painter kept 48 MB for little more gain.
const DefaultPainterBudget = 32 << 20

// Painter draws the same pictures as PNG and GIF, pixel for pixel, but
// keeps what it has drawn so that the next picture costs only what
// changed: one canvas per board shape, cell size and palette (the tiles of
// every look a cell can take and the empty board with its column numbers,
// drawn and quantized once), and the compressed pixel rows of every band
// of cells (one row of the board) it has encoded, keyed by what the band
// shows. A move changes one or two bands (the new disc, the last move's
// dot moving on; a win adds the rows of its line), so the picture after a
// move compresses those and copies the rest. It keeps as well the LZW
// data of the replays' frames, keyed by the cells each frame shows.
//
// What a Painter keeps is bounded: Size never exceeds the budget given to
// NewPainter after a call returns; the least recently used canvas or band
// goes first. A Painter is safe for concurrent use; the zero value is not
// ready, use NewPainter.
type Painter struct {
	budget int64
	mu     sync.Mutex
	used   int64
	lru    list.List // of *kept, most recently used first
	kept   map[string]*list.Element
	flate  sync.Pool // of *bandWriter
	gifs   sync.Pool // of *gifWriter
}

// kept is one canvas, one compressed band or one replay frame's LZW
// data, as the LRU holds it.
type kept struct {
	key   string
	bytes int64
	cv    *canvas // a canvas, or nil
	band  band
	frame []byte
}

// band is a run of a PNG's filtered pixel rows, compressed as a
// self-contained part of a deflate stream: it refers to no byte before it
// and ends on a byte boundary (a sync flush), so that bands concatenate.
type band struct {
	deflated []byte
	adler    uint32 // the Adler-32 of the raw rows
	raw      int    // their length
}

// NewPainter returns a Painter that keeps at most budget bytes of
// drawings; 0 means DefaultPainterBudget. A budget smaller than one canvas
// (about 250 KB for a 7 × 6 board at the default size) still draws every
// picture, only without keeping it.
func NewPainter(budget int64) *Painter {
	if budget <= 0 {
		budget = DefaultPainterBudget
	}
	p := &Painter{budget: budget, kept: make(map[string]*list.Element)}
	p.flate.New = func() any { return newBandWriter() }
	return p
}

// Size returns the bytes the Painter keeps now: its canvases' pixels and
// its compressed bands, with their keys.
func (p *Painter) Size() int64 {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.used
}

// Budget returns the most bytes the Painter keeps.
func (p *Painter) Budget() int64 { return p.budget }

// PNG writes g's board to w as a PNG with the same pixels as the package's
// PNG. It returns an *OptionError if o is out of range, or the error
// writing to w.
func (p *Painter) PNG(w io.Writer, g *engine.Game, o ImageOptions) error {
	b, err := p.AppendPNG(nil, g, o)
	if err != nil {
		return err
	}
	if _, err := w.Write(b); err != nil {
		return fmt.Errorf("render: encode png: %w", err)
	}
	return nil
}

// AppendPNG appends to b the PNG that PNG writes, and returns the
// extended slice: a caller building a message around the picture (a
// multipart body) holds it in one buffer, without copies. It returns b
// and an *OptionError if o is out of range.
func (p *Painter) AppendPNG(b []byte, g *engine.Game, o ImageOptions) ([]byte, error) {
	o, err := o.withDefaults()
	if err != nil {
		return b, err
	}
	cfg := g.Config()
	cv, ckey, err := p.canvas(cfg, o)
	if err != nil {
		return b, err
	}
	ls := looks(g)
	n := cfg.Rows + 2 // the top margin, a band per row of cells from the top, the labels
	bands := make([]band, n)
	var missing []int
	keys := make([]string, n)
	for i := range n {
		keys[i] = bandKey(ckey, i, cfg, ls, cv.sameRows)
	}
	p.mu.Lock()
	for i := range n {
		if e, ok := p.kept[keys[i]]; ok {
			p.lru.MoveToFront(e)
			bands[i] = e.Value.(*kept).band
		} else {
			missing = append(missing, i)
		}
	}
	p.mu.Unlock()
	if len(missing) > 0 {
		bw := p.flate.Get().(*bandWriter)
		for _, i := range missing {
			bw.raw = cv.appendBandRows(bw.raw[:0], i, ls)
			bands[i] = bw.deflate(bw.raw)
		}
		p.flate.Put(bw)
		p.mu.Lock()
		for _, i := range missing {
			if _, ok := p.kept[keys[i]]; !ok {
				b := bands[i]
				p.keep(&kept{key: keys[i], bytes: int64(len(keys[i]) + cap(b.deflated) + keptOverhead), band: b})
			}
		}
		p.mu.Unlock()
	}
	return appendPNG(b, cv, bands), nil
}

// GIF writes to w the replay of g that the package's GIF writes, from a
// kept canvas's tiles. It returns an *OptionError if o is out of range, or the
// error writing to w.
func (p *Painter) GIF(w io.Writer, g *engine.Game, o ImageOptions) error {
	b, err := p.AppendGIF(nil, g, o)
	if err != nil {
		return err
	}
	return writeGIF(w, b)
}

// AppendGIF appends to b the replay that GIF writes, and returns the
// extended slice, as AppendPNG does. It returns b and an *OptionError if o
// is out of range.
func (p *Painter) AppendGIF(b []byte, g *engine.Game, o ImageOptions) ([]byte, error) {
	o, err := o.withDefaults()
	if err != nil {
		return b, err
	}
	cv, ckey, err := p.canvas(g.Config(), o)
	if err != nil {
		return b, err
	}
	enc, _ := p.gifs.Get().(*gifWriter)
	if enc == nil {
		enc = &gifWriter{}
	}
	defer p.gifs.Put(enc)
	return appendGIF(b, cv, g, o, enc, painterFrames{p, ckey})
}

// painterFrames keeps a replay's frames drawn on the canvas ckey among
// the Painter's drawings, within its budget: the LZW encoding was most of
// a replay's cost (0.9 ms for a 7 × 6 game), and a game's frames are
// mostly frames other games have shown.
type painterFrames struct {
	p    *Painter
	ckey string
}

func (f painterFrames) frameKey(changed []cellLook) string {
	b := make([]byte, 0, len(f.ckey)+5*len(changed))
	b = append(b, f.ckey...)
	b[0] = 'f'
	for _, c := range changed {
		b = binary.LittleEndian.AppendUint16(b, uint16(c.sq.Min.X))
		b = binary.LittleEndian.AppendUint16(b, uint16(c.sq.Min.Y))
		b = append(b, c.l.byte())
	}
	return string(b)
}

func (f painterFrames) frame(key string) ([]byte, bool) {
	f.p.mu.Lock()
	defer f.p.mu.Unlock()
	e, ok := f.p.kept[key]
	if !ok {
		return nil, false
	}
	f.p.lru.MoveToFront(e)
	return e.Value.(*kept).frame, true
}

func (f painterFrames) keepFrame(key string, data []byte) {
	f.p.mu.Lock()
	defer f.p.mu.Unlock()
	if _, ok := f.p.kept[key]; !ok {
		f.p.keep(&kept{key: key, bytes: int64(len(key) + len(data) + keptOverhead), frame: slices.Clone(data)})
	}
}

// GIFSize returns room for the replay of g at the default size, for a
// buffer that will hold it: a little more than most replays take (about
// 10 KB and 2 KB a move); a larger one grows the buffer once.
func GIFSize(g *engine.Game) int { return gifSize(16<<10, len(g.History())) }

// keptOverhead is what one kept entry costs beside its key and bytes: the
// list element, the map entry and the kept struct, rounded up.
const keptOverhead = 160

// canvas returns the kept canvas for cfg and o, drawing it first if need
// be, and its key.
func (p *Painter) canvas(cfg engine.Config, o ImageOptions) (*canvas, string, error) {
	key := string([]byte{'c', byte(cfg.Rows), byte(cfg.Cols), byte(cfg.NumPlayers()), byte(o.CellSize), byte(o.Palette)})
	p.mu.Lock()
	if e, ok := p.kept[key]; ok {
		p.lru.MoveToFront(e)
		cv := e.Value.(*kept).cv
		p.mu.Unlock()
		return cv, key, nil
	}
	p.mu.Unlock()
	// Two callers may draw the same canvas at once; both are the same
	// pixels and the second is kept.
	cv, err := newCanvas(cfg, o)
	if err != nil {
		return nil, "", err
	}
	cv.freeze()
	p.mu.Lock()
	if e, ok := p.kept[key]; ok {
		p.lru.Remove(e)
		p.used -= e.Value.(*kept).bytes
		delete(p.kept, key)
	}
	p.keep(&kept{key: key, bytes: cv.bytes() + int64(len(key)+keptOverhead), cv: cv})
	p.mu.Unlock()
	return cv, key, nil
}

// keep adds k as the most recently used and drops the least recently used
// until the Painter is within its budget (k too, if it alone is over).
// p.mu must be held.
func (p *Painter) keep(k *kept) {
	p.kept[k.key] = p.lru.PushFront(k)
	p.used += k.bytes
	for p.used > p.budget {
		e := p.lru.Back()
		old := e.Value.(*kept)
		p.lru.Remove(e)
		delete(p.kept, old.key)
		p.used -= old.bytes
	}
}

// bandKey returns the key of band i of a board of cfg showing ls on the
// canvas ckey: the margins' bands are the same on every board of a canvas,
// a row of cells is keyed by the looks of its cells, and by its place only
// when the canvas's rows are not all the same pixels (sameRows false).
func bandKey(ckey string, i int, cfg engine.Config, ls []look, sameRows bool) string {
	b := make([]byte, 0, len(ckey)+1+cfg.Cols)
	b = append(b, ckey...)
	b[0] = 'b'
	if i >= 1 && i <= cfg.Rows && sameRows {
		b = append(b, 0xff) // any row: no band index is this large
	} else {
		b = append(b, byte(i))
	}
	if i >= 1 && i <= cfg.Rows {
		r := cfg.Rows - i // the board's row, 0 at the bottom
		for _, l := range ls[r*cfg.Cols : (r+1)*cfg.Cols] {
			b = append(b, l.byte())
		}
	}
	return string(b)
}

// byte packs l in one byte.
func (l look) byte() byte {
	b := byte(l.disc)
	if l.last {
		b |= 1 << 4
	}
	if l.win {
		b |= 1 << 5
	}
	return b
}

// freeze draws every tile cv can need, the empty board and the LZW data
// of a replay's first frame (the empty board), then drops what
// only drawing needs (the font, the masks, the RGBA scratch and the
// quantizer), so that cv is only read from then on and can be shared.
func (cv *canvas) freeze() {
	for d := engine.Player(0); int(d) <= cv.cfg.NumPlayers(); d++ {
		for _, last := range []bool{false, true} {
			for _, win := range []bool{false, true} {
				cv.tile(look{disc: d, last: last, win: win})
			}
		}
	}
	empty := make([]look, cv.cfg.Rows*cv.cfg.Cols)
	cv.drawAll(empty)
	var e lzwEncoder
	cv.emptyLZW = append([]byte(nil), e.encode(cv.out.Pix)...)
	// A band of cells is its row of the empty board with the cells' tiles
	// over it: rows that are the same empty are the same with the same
	// tiles.
	first := cv.appendBandRows(nil, 1, empty)
	cv.sameRows = true
	for i := 2; i <= cv.cfg.Rows && cv.sameRows; i++ {
		cv.sameRows = bytes.Equal(cv.appendBandRows(nil, i, empty), first)
	}
	cv.labelFace, cv.scratch, cv.q, cv.masks = nil, nil, nil, masks{}
}

// bytes returns the size of a frozen canvas's pixels.
func (cv *canvas) bytes() int64 {
	n := int64(len(cv.out.Pix) + 4*len(cv.out.Palette) + len(cv.emptyLZW))
	for _, t := range cv.tiles {
		n += int64(len(t.Pix)) + 64
	}
	return n
}

// appendBandRows appends to raw the filtered PNG rows of band i of a
// frozen canvas showing ls: each pixel row is a filter byte (0, none) and
// the row's palette indices. Band 0 is the top margin, 1 to Rows the rows
// of cells from the top, Rows+1 the labels and the bottom margin.
func (cv *canvas) appendBandRows(raw []byte, i int, ls []look) []byte {
	w := cv.out.Rect.Dx()
	y0, y1 := 0, cv.pad
	switch {
	case i > cv.cfg.Rows:
		y0, y1 = cv.pad+cv.cfg.Rows*cv.s, cv.out.Rect.Dy()
	case i >= 1:
		y0 = cv.pad + (i-1)*cv.s
		y1 = y0 + cv.s
	}
	raw = slices.Grow(raw, (y1-y0)*(w+1))
	base := len(raw)
	for y := y0; y < y1; y++ {
		raw = append(raw, 0) // filter: none
		raw = append(raw, cv.out.Pix[y*cv.out.Stride:y*cv.out.Stride+w]...)
	}
	if i < 1 || i > cv.cfg.Rows {
		return raw
	}
	r := cv.cfg.Rows - i
	for c, l := range ls[r*cv.cfg.Cols : (r+1)*cv.cfg.Cols] {
		t := cv.tiles[l]
		x := base + 1 + cv.pad + c*cv.s
		for y := range cv.s {
			copy(raw[y*(w+1)+x:y*(w+1)+x+cv.s], t.Pix[y*t.Stride:])
		}
	}
	return raw
}

// pngLevel is the deflate level of the bands. Measured by
// BenchmarkPNGLevels on a mid-game 7 × 6 board: best speed takes a third
// of the default level's CPU (0.33 against 0.99 ms) for a picture half as
// large again (7.5 against 5.0 KB), and the best level 18 ms for 4.7 KB.
// Discord and Slack fetch a picture once, and the time is the move's.
const pngLevel = 1

// bandWriter compresses bands with klauspost/compress's deflate: the same
// format as compress/flate, a third less CPU on these bands
// (BenchmarkPainterPNG: 0.10 against 0.15 ms a picture) for the same
// size. It is reused, since a compressor allocates its tables.
type bandWriter struct {
	buf bytesBuffer
	zw  *flate.Writer
	raw []byte // the rows of the band being compressed
}

func newBandWriter() *bandWriter {
	bw := &bandWriter{}
	bw.zw, _ = flate.NewWriter(&bw.buf, pngLevel) // pngLevel is a valid level
	return bw
}

// deflate compresses raw as one band.
func (bw *bandWriter) deflate(raw []byte) band {
	bw.buf.b = bw.buf.b[:0]
	bw.zw.Reset(&bw.buf)
	bw.zw.Write(raw) // writes to bw.buf cannot fail
	bw.zw.Flush()
	return band{deflated: append([]byte(nil), bw.buf.b...), adler: adler32.Checksum(raw), raw: len(raw)}
}

// bytesBuffer is an io.Writer that appends to b.
type bytesBuffer struct{ b []byte }

func (w *bytesBuffer) Write(p []byte) (int, error) {
	w.b = append(w.b, p...)
	return len(p), nil
}

// adlerCombine returns the Adler-32 of a followed by b, given a's
// checksum, b's and b's length.
func adlerCombine(a, b uint32, lenB int) uint32 {
	const mod = 65521
	a1, b1 := uint64(a&0xffff), uint64(a>>16)
	a2, b2 := uint64(b&0xffff), uint64(b>>16)
	s1 := (a1 + a2 + mod - 1) % mod
	s2 := (b1 + b2 + uint64(lenB%mod)*((a1+mod-1)%mod)) % mod
	return uint32(s2<<16 | s1)
}

// appendPNG appends to out the PNG of cv's size and palette whose pixel
// rows are bands, in order: an 8-bit paletted image, one IDAT chunk
// holding a zlib stream of the bands' deflate parts and a final empty
// block.
func appendPNG(out []byte, cv *canvas, bands []band) []byte {
	size := 0
	for _, b := range bands {
		size += len(b.deflated)
	}
	pal := cv.out.Palette
	out = slices.Grow(out, 8+25+12+3*len(pal)+12+2+size+2+4+12)
	out = append(out, "\x89PNG\r\n\x1a\n"...)
	var ihdr [13]byte
	binary.BigEndian.PutUint32(ihdr[0:], uint32(cv.out.Rect.Dx()))
	binary.BigEndian.PutUint32(ihdr[4:], uint32(cv.out.Rect.Dy()))
	ihdr[8], ihdr[9] = 8, 3 // 8 bits, paletted; deflate, filter set 0, no interlace
	out = chunk(out, "IHDR", ihdr[:])
	plte := make([]byte, 0, 3*len(pal))
	for _, c := range pal {
		r, g, b, _ := c.RGBA()
		plte = append(plte, byte(r>>8), byte(g>>8), byte(b>>8))
	}
	out = chunk(out, "PLTE", plte)
	// The IDAT chunk, written in place: its length, then its type and data.
	start := len(out)
	out = append(out, 0, 0, 0, 0)
	out = append(out, "IDAT"...)
	out = append(out, 0x78, 0x01) // zlib: deflate, 32 KB window, fastest
	adler := uint32(1)
	for _, b := range bands {
		out = append(out, b.deflated...)
		adler = adlerCombine(adler, b.adler, b.raw)
	}
	out = append(out, 0x03, 0x00) // the final block: empty, fixed codes
	out = binary.BigEndian.AppendUint32(out, adler)
	binary.BigEndian.PutUint32(out[start:], uint32(len(out)-start-8))
	out = binary.BigEndian.AppendUint32(out, crc32.ChecksumIEEE(out[start+4:]))
	return chunk(out, "IEND", nil)
}

// chunk appends a PNG chunk of type typ holding data to out.
func chunk(out []byte, typ string, data []byte) []byte {
	out = binary.BigEndian.AppendUint32(out, uint32(len(data)))
	start := len(out)
	out = append(out, typ...)
	out = append(out, data...)
	return binary.BigEndian.AppendUint32(out, crc32.ChecksumIEEE(out[start:]))
}
