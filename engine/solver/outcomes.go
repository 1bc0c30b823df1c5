package solver

import (
	_ "embed"
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"math/bits"
	"slices"
	"sync"
)

// An outcome table holds the outcome (win, draw or loss for the player to
// move) of early positions of the standard board, so that the analysis
// proves the opening of any game at once, where the solver needs seconds a
// position. It has two parts:
//
//   - every position with at most Full discs, in a canonical order that
//     needs no keys: level by level (0 discs, 1, ...), each level's
//     positions sorted by canonical key (the smaller of a position's key
//     and its mirror image's), leaving out the positions that are over (the
//     last mover connected) and those where the player to move connects at
//     once (won, and known without a table). The outcomes are packed in
//     base 3, five a byte, in that order;
//   - then, for positions with more discs, entries of their own: the
//     canonical key shifted left by 2, or'ed with the outcome code.
//
// The encoded form is a 16-byte header ("C4WDL", a version byte, Full,
// a spare byte, the number of extra entries as a uint32 and the CRC-32
// (IEEE) of the rest), the packed levels, and the extra entries as
// little-endian uint64s in increasing order. An outcome code is 0 for a
// loss, 1 a draw, 2 a win.
const (
	outcomesMagic   = "C4WDL"
	outcomesVersion = 1
	outcomesHeader  = 16
	// outcomesMaxFull bounds Full: the levels are enumerated when a table
	// is loaded, and 9 discs would be 0.6 million positions.
	outcomesMaxFull = 8
)

// Outcomes is a loaded outcome table. It is read-only, and safe for
// concurrent use.
type Outcomes struct {
	full   int
	levels [][]uint64 // per number of discs, the canonical keys in order
	packed [][]byte   // per level, the outcomes, base 3, five a byte
	extra  []uint64   // key<<2 | code, increasing
	// deepest is the most discs of any position held.
	deepest int
}

// Full returns the number of discs up to which the table holds every
// position.
func (o *Outcomes) Full() int { return o.full }

// Len returns the number of positions the table holds (those of the full
// levels and the extra entries).
func (o *Outcomes) Len() int {
	n := len(o.extra)
	for _, l := range o.levels {
		n += len(l)
	}
	return n
}

// Lookup returns the outcome of p for the player to move (1 win, 0 draw,
// -1 loss); ok is false when the table does not hold p. A position where
// the player to move connects at once is a win, held or not; a position
// already over (the last mover connected) is a loss.
func (o *Outcomes) Lookup(p Position) (outcome int, ok bool) {
	if p.lastMoverWon() {
		return -1, true
	}
	if p.CanWinNext() {
		return 1, true
	}
	return o.lookupKey(p)
}

// lookupKey is Lookup for a position that is not over and where the player
// to move cannot connect at once.
func (o *Outcomes) lookupKey(p Position) (outcome int, ok bool) {
	if o == nil || p.moves > o.deepest {
		return 0, false
	}
	k := canonical(p)
	if p.moves <= o.full {
		i, found := slices.BinarySearch(o.levels[p.moves], k)
		if !found {
			return 0, false
		}
		return int(unpack3(o.packed[p.moves], i)) - 1, true
	}
	i, found := slices.BinarySearchFunc(o.extra, k, func(e, k uint64) int {
		switch {
		case e>>2 < k:
			return -1
		case e>>2 > k:
			return 1
		}
		return 0
	})
	if !found {
		return 0, false
	}
	return int(o.extra[i]&3) - 1, true
}

// pow3 holds 3^0 .. 3^4.
var pow3 = [5]byte{1, 3, 9, 27, 81}

// unpack3 returns the i-th base-3 digit of packed, five a byte.
func unpack3(packed []byte, i int) byte { return packed[i/5] / pow3[i%5] % 3 }

// pack3 returns codes (each 0-2) packed in base 3, five a byte.
func pack3(codes []byte) []byte {
	out := make([]byte, (len(codes)+4)/5)
	for i, c := range codes {
		out[i/5] += c * pow3[i%5]
	}
	return out
}

// tableLevels returns, for 0 to full discs, the canonical keys of the
// positions an outcome table holds at each level, sorted: every position
// reachable in play, once per mirror pair, that is not over and where the
// player to move cannot connect at once.
func tableLevels(full int) [][]uint64 {
	levels := make([][]uint64, full+1)
	frontier := []Position{{}}
	for d := 0; d <= full; d++ {
		seen := make(map[uint64]bool, len(frontier))
		var next []Position
		for _, p := range frontier {
			k := canonical(p)
			if seen[k] {
				continue
			}
			seen[k] = true
			levels[d] = append(levels[d], k)
			if d == full {
				continue
			}
			for c := range Width {
				if !p.CanPlay(c) || p.IsWinningMove(c) {
					continue
				}
				q := p
				q.Play(c)
				if !q.CanWinNext() {
					next = append(next, q)
				}
			}
		}
		slices.Sort(levels[d])
		frontier = next
	}
	return levels
}

// positionOfKey returns the position whose key is key. Key is current +
// mask, and in a column of h discs mask is 2^h - 1: the column's part of
// the key, plus one, has its highest bit at h and current below it.
func positionOfKey(key uint64) Position {
	var p Position
	for c := range Width {
		col := key>>(c*stride)&(1<<stride-1) + 1
		h := bits.Len64(col) - 1
		p.mask |= (1<<h - 1) << (c * stride)
		p.current |= (col - 1<<h) << (c * stride)
		p.moves += h
	}
	return p
}

// MarshalBinary encodes o in the form LoadOutcomes reads. It never fails.
func (o *Outcomes) MarshalBinary() ([]byte, error) {
	out := make([]byte, outcomesHeader)
	copy(out, outcomesMagic)
	out[5], out[6] = outcomesVersion, byte(o.full)
	binary.LittleEndian.PutUint32(out[8:], uint32(len(o.extra)))
	for _, p := range o.packed {
		out = append(out, p...)
	}
	for _, e := range o.extra {
		out = binary.LittleEndian.AppendUint64(out, e)
	}
	binary.LittleEndian.PutUint32(out[12:], crc32.ChecksumIEEE(out[outcomesHeader:]))
	return out, nil
}

// LoadOutcomes decodes a table that MarshalBinary wrote, enumerating its
// full levels again (a few tens of milliseconds for 7 discs). It returns an
// error for anything else: a wrong magic or version, a full depth over 8, a
// length that disagrees with the levels and the count, a checksum mismatch,
// an outcome code over 2, extra keys out of order, repeated or of
// positions with no more discs than the full levels.
func LoadOutcomes(data []byte) (*Outcomes, error) {
	bad := func(what string) error { return fmt.Errorf("solver: bad outcome table: %s", what) }
	if len(data) < outcomesHeader || string(data[:5]) != outcomesMagic {
		return nil, bad("no header")
	}
	if data[5] != outcomesVersion {
		return nil, bad(fmt.Sprintf("version %d, want %d", data[5], outcomesVersion))
	}
	full := int(data[6])
	if full > outcomesMaxFull {
		return nil, bad(fmt.Sprintf("full depth %d, at most %d", full, outcomesMaxFull))
	}
	if crc32.ChecksumIEEE(data[outcomesHeader:]) != binary.LittleEndian.Uint32(data[12:]) {
		return nil, bad("checksum mismatch")
	}
	o := &Outcomes{full: full, levels: tableLevels(full), deepest: full}
	rest := data[outcomesHeader:]
	for _, l := range o.levels {
		n := (len(l) + 4) / 5
		if len(rest) < n {
			return nil, bad("levels cut short")
		}
		p := rest[:n:n]
		for i := range l {
			if unpack3(p, i) > 2 || p[i/5] >= 243 {
				return nil, bad("outcome code")
			}
		}
		o.packed = append(o.packed, p)
		rest = rest[n:]
	}
	n := binary.LittleEndian.Uint32(data[8:])
	if uint64(len(rest)) != 8*uint64(n) {
		return nil, bad(fmt.Sprintf("%d bytes for %d extra entries", len(rest), n))
	}
	o.extra = make([]uint64, n)
	for i := range o.extra {
		e := binary.LittleEndian.Uint64(rest[8*i:])
		moves := positionOfKey(e >> 2).moves
		if e&3 > 2 || (i > 0 && e>>2 <= o.extra[i-1]>>2) || moves <= full {
			return nil, bad(fmt.Sprintf("extra entry %d", i))
		}
		o.extra[i] = e
		o.deepest = max(o.deepest, moves)
	}
	return o, nil
}

// outcomesData is the embedded outcome table, rebuilt by `connect4 book
// -outcomes`.
//
//go:embed outcomes.bin
var outcomesData []byte

// EmbeddedOutcomes returns the outcome table embedded in the binary, checked
// (see LoadOutcomes). Each call decodes it afresh; the analysis uses the one
// embeddedOutcomes loads.
func EmbeddedOutcomes() (*Outcomes, error) { return LoadOutcomes(outcomesData) }

// embeddedOutcomes is the embedded outcome table, decoded once on first use
// and read only after that; nil if it does not load (which its test rules
// out).
var embeddedOutcomes = sync.OnceValue(func() *Outcomes {
	o, _ := EmbeddedOutcomes()
	return o
})

// newOutcomes returns the table with levels 0 to full of known (canonical
// key → outcome code, which must hold every position of those levels) and
// every other position of known as an extra entry; with full -1 every
// position is an extra entry.
func newOutcomes(full int, levels [][]uint64, known map[uint64]byte) *Outcomes {
	o := &Outcomes{full: full, levels: levels[:full+1], deepest: full}
	for _, l := range o.levels {
		codes := make([]byte, len(l))
		for i, k := range l {
			codes[i] = known[k]
		}
		o.packed = append(o.packed, pack3(codes))
	}
	for k, c := range known {
		if moves := positionOfKey(k).moves; moves > full {
			o.extra = append(o.extra, k<<2|uint64(c))
			o.deepest = max(o.deepest, moves)
		}
	}
	slices.Sort(o.extra)
	return o
}
