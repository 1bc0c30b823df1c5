package render

import (
	"image"
	"image/color"
)

// blendLevels is the number of steps from one colour to the next in the
// colour table: the anti-aliased edge between two colours is drawn in one
// of blendLevels-1 mixtures of them. 16 keeps every table under 256
// colours, so that a board fits one paletted PNG or GIF.
const blendLevels = 16

// multiBlendLevels is blendLevels for 3 or 4 players: 14 colours and 20
// pairs of 11 mixtures each fit in 256.
const multiBlendLevels = 12

// colourTable returns the paletted colours of th for a game of players:
// each colour once, then the mixtures of every pair of colours that touch in
// a drawing (a disc's rim and the board, its face and its rim, ...),
// blendLevels-1 of each for two players and fewer for 3 or 4 so that the
// table stays under 256 colours. The table is built the same way each time,
// so images are deterministic; the two-player table is the same as before
// there were more players.
func colourTable(th theme, players int) color.Palette {
	base := []color.RGBA{th.board, th.hole, th.label, th.win, th.markFill, th.markEdge,
		th.face[0], th.rim[0], th.face[1], th.rim[1]}
	pairs := [][2]color.RGBA{
		{th.board, th.hole}, {th.board, th.label},
		{th.board, th.win},
		{th.board, th.rim[0]}, {th.board, th.rim[1]},
		{th.win, th.rim[0]}, {th.win, th.rim[1]},
		{th.rim[0], th.face[0]}, {th.rim[1], th.face[1]},
		{th.face[0], th.markEdge}, {th.face[1], th.markEdge},
		{th.markEdge, th.markFill},
	}
	levels := blendLevels
	for i := 2; i < players && i < len(th.face); i++ {
		base = append(base, th.face[i], th.rim[i])
		pairs = append(pairs, [2]color.RGBA{th.board, th.rim[i]}, [2]color.RGBA{th.win, th.rim[i]},
			[2]color.RGBA{th.rim[i], th.face[i]}, [2]color.RGBA{th.face[i], th.markEdge})
		levels = multiBlendLevels
	}
	seen := make(map[color.RGBA]bool, 256)
	pal := make(color.Palette, 0, 256)
	add := func(c color.RGBA) {
		if !seen[c] && len(pal) < 256 {
			seen[c] = true
			pal = append(pal, c)
		}
	}
	for _, c := range base {
		add(c)
	}
	for _, p := range pairs {
		for k := 1; k < levels; k++ {
			add(mix(p[0], p[1], k, levels))
		}
	}
	return pal
}

// mix returns a drawn at coverage k/n over b, rounded.
func mix(b, a color.RGBA, k, n int) color.RGBA {
	f := func(x, y uint8) uint8 { return uint8((int(x)*(n-k) + int(y)*k + n/2) / n) }
	return color.RGBA{R: f(b.R, a.R), G: f(b.G, a.G), B: f(b.B, a.B), A: 0xff}
}

// quantizer maps the opaque pixels of an RGBA drawing to the colours of a
// table. A pixel of a colour in the table gets that colour; any other (an
// edge blended more finely than the table's steps) gets the table's colour
// nearest to the middle of its 5-bit-per-channel bucket, so that the answer
// depends only on the colour, never on the order pixels are met in.
type quantizer struct {
	pal    color.Palette
	exact  map[uint32]uint8 // the table's colours
	bucket []uint16         // by bucket: its colour's index | known, and whether it holds one of exact
}

const (
	bucketKnown    = 1 << 8 // the low 8 bits hold the index of the colour nearest the bucket's middle
	bucketHasExact = 1 << 9 // a colour of the table falls in the bucket
)

func newQuantizer(pal color.Palette) *quantizer {
	q := &quantizer{pal: pal, exact: make(map[uint32]uint8, len(pal)), bucket: make([]uint16, 1<<15)}
	for i := len(pal) - 1; i >= 0; i-- { // the first of equal colours wins
		r, g, b, _ := pal[i].RGBA()
		c := color.RGBA{R: uint8(r >> 8), G: uint8(g >> 8), B: uint8(b >> 8)}
		q.exact[key(c.R, c.G, c.B)] = uint8(i)
		q.bucket[bucketOf(c)] |= bucketHasExact
	}
	return q
}

func key(r, g, b uint8) uint32 { return uint32(r)<<16 | uint32(g)<<8 | uint32(b) }

func bucketOf(c color.RGBA) int { return int(c.R>>3)<<10 | int(c.G>>3)<<5 | int(c.B>>3) }

// nearest returns the index of the table's colour for c.
func (q *quantizer) nearest(c color.RGBA) uint8 {
	b := bucketOf(c)
	v := q.bucket[b]
	if v&bucketHasExact != 0 {
		if i, ok := q.exact[key(c.R, c.G, c.B)]; ok {
			return i
		}
	}
	if v&bucketKnown == 0 {
		mid := color.RGBA{R: c.R&^7 | 4, G: c.G&^7 | 4, B: c.B&^7 | 4, A: 0xff}
		v |= bucketKnown | uint16(q.pal.Index(mid))
		q.bucket[b] = v
	}
	return uint8(v)
}

// convert sets the pixels of dst in r to the table's colours for those of
// src. dst must use q's table, and both must contain r.
func (q *quantizer) convert(dst *image.Paletted, src *image.RGBA, r image.Rectangle) {
	lastKey, lastIdx := ^uint32(0), uint8(0) // no pixel has key ^0
	for y := r.Min.Y; y < r.Max.Y; y++ {
		s := src.Pix[src.PixOffset(r.Min.X, y):src.PixOffset(r.Max.X, y)]
		d := dst.Pix[dst.PixOffset(r.Min.X, y):dst.PixOffset(r.Max.X, y)]
		for x := range d {
			p := s[4*x : 4*x+3 : 4*x+3]
			if k := key(p[0], p[1], p[2]); k != lastKey {
				lastKey, lastIdx = k, q.nearest(color.RGBA{R: p[0], G: p[1], B: p[2], A: 0xff})
			}
			d[x] = lastIdx
		}
	}
}
