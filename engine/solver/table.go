package solver

const (
	defaultNearLog = 16 // 512 KiB: stays in a core's own L2 cache
	defaultFarLog  = 22 // 32 MiB
	defaultSplit   = 15 // positions with fewer discs use the far table

	// A search that has taken widenAfter nodes since the Reset is a big one:
	// positions with fewer than wideSplit discs then use the far table, where
	// their entries last. On the first position of Test_L1_R3 (a begin-hard
	// one, about 100 M nodes) that takes 25 % fewer nodes and a third less
	// time; a small search would pay the far table's cache misses for
	// nothing (twice the time on Test_L1_R1 with wideSplit from the start).
	widenAfter = 1 << 20
	wideSplit  = 21
)

// table is the transposition table: a bound on the value of each position seen,
// and the move that produced it, in one packed uint64 per slot.
//
// A slot's index is the top bits of a multiplicative hash of the position key;
// the remaining bits of that hash are stored as the tag. The hash is a bijection
// on uint64 (odd multiplier), so index and tag together identify the key exactly:
// a hit is never a different position.
//
// Clearing is O(1): every entry carries the generation it was written in, and
// reset starts a new generation. The slots are wiped only when the generation
// counter wraps.
//
// Entry layout, from the low bit: 6 bits value+valueOffset, 1 bit "lower bound"
// (otherwise upper bound), 3 bits move (column+1, 0 = none), then the generation,
// then the tag in the top 64-logSize bits.
type table struct {
	slots   []uint64
	logSize uint
	gen     uint64
	maxGen  uint64
}

const (
	hashMul     = 0x9E3779B97F4A7C15 // 2^64 / golden ratio, odd
	valueBits   = 6
	lowerFlag   = 1 << valueBits
	moveShift   = valueBits + 1
	genShift    = moveShift + 3
	minLogSize  = 14
	maxLogSize  = 26
	valueMask   = 1<<valueBits - 1
	valueOffset = 32 // values stored are in -32..31; windows may reach ±21
	moveMask    = 7
)

func newTable(logSize uint) *table {
	logSize = max(minLogSize, min(maxLogSize, logSize))
	t := &table{
		logSize: logSize,
		gen:     1,
		maxGen:  1<<(logSize-genShift) - 1,
	}
	t.slots = allocSlots(1 << logSize)
	// Fault the pages in now rather than during the first searches, whose
	// timings they would distort.
	for i := 0; i < len(t.slots); i += 512 {
		t.slots[i] = 0
	}
	return t
}

// reset forgets every entry.
func (t *table) reset() {
	t.gen++
	if t.gen > t.maxGen {
		clear(t.slots)
		t.gen = 1
	}
}

// get returns the stored entry for key: its bound, whether it is a lower bound,
// and the move (column+1, 0 for none). ok is false when key has no entry.
func (t *table) get(key uint64) (value int, lower bool, move int, ok bool) {
	h := key * hashMul
	e := t.slots[h>>(64-t.logSize)]
	low := uint64(1)<<t.logSize - 1
	if e&^low != h<<t.logSize || (e&low)>>genShift != t.gen {
		return 0, false, 0, false
	}
	return int(e&valueMask) - valueOffset, e&lowerFlag != 0, int(e>>moveShift) & moveMask, true
}

// put stores a bound on the value of key, replacing whatever the slot held.
func (t *table) put(key uint64, value int, lower bool, move int) {
	h := key * hashMul
	e := h<<t.logSize | t.gen<<genShift | uint64(move)<<moveShift | uint64(value+valueOffset)
	if lower {
		e |= lowerFlag
	}
	t.slots[h>>(64-t.logSize)] = e
}
