package render

import (
	"encoding/binary"
	"math/bits"
)

// lzwEncoder writes a GIF's LZW image data (least significant bits first,
// 8-bit literals) the way compress/lzw does, with one addition: a run of
// one colour, which most of a replay's pixels are (the transparent pixels
// around a frame's changed cells, the board and the holes), is matched
// against the codes for runs of that colour it has made, by length, instead
// of one hash lookup per pixel. The matching stays greedy, so the codes,
// and the bytes, are those compress/lzw writes.
type lzwEncoder struct {
	out          []byte
	bits         uint32
	nBits, width uint
	hi, overflow uint32
	table        [lzwTableSize]uint32 // key<<12 | code, as compress/lzw keeps it
	used         []uint16             // the slots of table in use, cleared one by one
	runs         [256][]uint16        // runs[x][k]: the code of k pixels of x, for k ≥ 2
}

const (
	lzwLitWidth  = 8
	lzwClear     = 1 << lzwLitWidth
	lzwEOF       = lzwClear + 1
	lzwMaxCode   = 1<<12 - 1
	lzwTableSize = 4 * 1 << 12
	lzwTableMask = lzwTableSize - 1
)

// reset readies e for a new image, keeping its buffers.
func (e *lzwEncoder) reset() {
	e.out = e.out[:0]
	e.bits, e.nBits = 0, 0
	e.clearTable()
}

func (e *lzwEncoder) clearTable() {
	e.width = lzwLitWidth + 1
	e.hi = lzwEOF
	e.overflow = lzwClear << 1
	// A table holds at most 4,096 codes in its 16,384 slots, and a frame
	// of a replay far fewer: clearing the slots used costs less than
	// clearing them all.
	for _, h := range e.used {
		e.table[h] = 0
	}
	e.used = e.used[:0]
	for i := range e.runs {
		e.runs[i] = e.runs[i][:0]
	}
}

func (e *lzwEncoder) write(c uint32) {
	e.bits |= c << e.nBits
	e.nBits += e.width
	for e.nBits >= 8 {
		e.out = append(e.out, uint8(e.bits))
		e.bits >>= 8
		e.nBits -= 8
	}
}

// incHi counts a new code and reports whether the table was full and has
// been cleared, as compress/lzw does: the new code is then not made.
func (e *lzwEncoder) incHi() bool {
	e.hi++
	if e.hi == e.overflow {
		e.width++
		e.overflow <<= 1
	}
	if e.hi == lzwMaxCode {
		e.write(lzwClear)
		e.clearTable()
		return true
	}
	return false
}

// runMax returns the longest run of x that has a code: 1, the literal, if
// none longer.
func (e *lzwEncoder) runMax(x byte) int { return max(1, len(e.runs[x])-1) }

func (e *lzwEncoder) runCode(x byte, k int) uint32 {
	if k == 1 {
		return uint32(x)
	}
	return uint32(e.runs[x][k])
}

// encode returns the LZW data of p, whole: a clear code, the codes and
// the end code. The slice is e's and valid until its next use.
func (e *lzwEncoder) encode(p []byte) []byte {
	e.reset()
	e.write(lzwClear)
	if len(p) == 0 {
		e.write(lzwEOF)
		return e.flush()
	}
	code := uint32(p[0])
	runSym, runLen := p[0], 1 // the current string is runLen pixels of runSym; 0: not a run
	for i := 1; i < len(p); {
		x := p[i]
		if runLen > 0 && x == runSym {
			j := runEnd(p, i+1, x)
			// Pixels i to j-1 are x: match them in pieces as long as the
			// run codes go, each piece making the next longer code.
			for {
				longest := e.runMax(x)
				if target := runLen + j - i; target <= longest {
					code, runLen, i = e.runCode(x, target), target, j
					break
				}
				i += longest - runLen
				// The longest run code and x have no code: write it, make
				// the code one pixel longer, start again from x.
				e.write(e.runCode(x, longest))
				if !e.incHi() {
					if len(e.runs[x]) == 0 {
						e.runs[x] = append(e.runs[x], 0, 0)
					}
					e.runs[x] = append(e.runs[x], uint16(e.hi))
				}
				code, runLen, i = uint32(x), 1, i+1
				if i == j {
					break
				}
			}
			continue
		}
		key := code<<8 | uint32(x)
		hash := (key>>12 ^ key) & lzwTableMask
		found := false
		for t := e.table[hash]; t != 0; t = e.table[hash] {
			if key == t>>12 {
				code, found = t&lzwMaxCode, true
				break
			}
			hash = (hash + 1) & lzwTableMask
		}
		i++
		if found {
			runLen = 0
			continue
		}
		e.write(code)
		if !e.incHi() {
			e.table[hash] = key<<12 | e.hi
			e.used = append(e.used, uint16(hash))
		}
		code, runSym, runLen = uint32(x), x, 1
	}
	e.write(code)
	e.incHi()
	e.write(lzwEOF)
	return e.flush()
}

// runEnd returns the index of the first byte of p from i on that is not
// x, or len(p), comparing eight bytes at a time.
func runEnd(p []byte, i int, x byte) int {
	xs := uint64(x) * 0x0101010101010101
	for ; i+8 <= len(p); i += 8 {
		if d := binary.LittleEndian.Uint64(p[i:]) ^ xs; d != 0 {
			return i + bits.TrailingZeros64(d)/8
		}
	}
	for i < len(p) && p[i] == x {
		i++
	}
	return i
}

func (e *lzwEncoder) flush() []byte {
	if e.nBits > 0 {
		e.out = append(e.out, uint8(e.bits))
		e.bits, e.nBits = 0, 0
	}
	return e.out
}
