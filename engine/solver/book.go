package solver

import (
	"bufio"
	"context"
	_ "embed"
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"io"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"
)

// An opening book holds, for the positions of the standard board that the
// hard AI can meet in the opening, a best move and the exact value, so that
// it plays perfectly where the solver would take too long. It is built by
// BuildBook with this package's own solver and embedded in the binary.
//
// The encoded form is a 16-byte header, then one little-endian uint64 per
// position, in increasing order: the header is "C4BOOK", a version byte
// (bookVersion), the depth (positions with fewer discs are covered), the
// number of entries (uint32) and the CRC-32 (IEEE) of the entries' bytes.
// An entry is, from the low bit, the value + 32 (6 bits), the column (3
// bits) and the canonical key of the position (the smaller of its key and
// its mirror image's, 49 bits); the column is the one for that orientation.
const (
	bookMagic   = "C4BOOK"
	bookVersion = 1
	bookHeader  = 16
)

// Book is a loaded opening book. It is read-only, and safe for concurrent use.
type Book struct {
	depth   int
	entries []uint64
}

// Depth returns the number of discs from which the book has no entries:
// it covers positions with fewer.
func (b *Book) Depth() int { return b.depth }

// Len returns the number of positions in the book.
func (b *Book) Len() int { return len(b.entries) }

// packEntry returns the entry of the position with canonical key key.
func packEntry(key uint64, col, value int) uint64 {
	return key<<9 | uint64(col)<<6 | uint64(value+32)
}

// Lookup returns the book's best column (0-based) for p and its exact value
// (as Solve gives it); ok is false when p is not in the book.
func (b *Book) Lookup(p Position) (col, value int, ok bool) {
	if b == nil || p.moves >= b.depth {
		return -1, 0, false
	}
	key, mirrored := p.Key(), false
	if m := mirror(p).Key(); m < key {
		key, mirrored = m, true
	}
	i, found := slices.BinarySearchFunc(b.entries, key, func(e, k uint64) int {
		switch {
		case e>>9 < k:
			return -1
		case e>>9 > k:
			return 1
		}
		return 0
	})
	if !found {
		return -1, 0, false
	}
	e := b.entries[i]
	col, value = int(e>>6&7), int(e&63)-32
	if mirrored {
		col = Width - 1 - col
	}
	return col, value, true
}

// MarshalBinary encodes b in the form LoadBook reads. It never fails.
func (b *Book) MarshalBinary() ([]byte, error) {
	out := make([]byte, bookHeader, bookHeader+8*len(b.entries))
	copy(out, bookMagic)
	out[6], out[7] = bookVersion, byte(b.depth)
	binary.LittleEndian.PutUint32(out[8:], uint32(len(b.entries)))
	for _, e := range b.entries {
		out = binary.LittleEndian.AppendUint64(out, e)
	}
	binary.LittleEndian.PutUint32(out[12:], crc32.ChecksumIEEE(out[bookHeader:]))
	return out, nil
}

// LoadBook decodes a book that MarshalBinary wrote. It returns an error for
// anything else: a wrong magic or version, a length that disagrees with the
// count, a checksum mismatch, keys out of order or repeated, a column or a
// value no position can have.
func LoadBook(data []byte) (*Book, error) {
	bad := func(what string) error { return fmt.Errorf("solver: bad opening book: %s", what) }
	if len(data) < bookHeader || string(data[:6]) != bookMagic {
		return nil, bad("no header")
	}
	if data[6] != bookVersion {
		return nil, bad(fmt.Sprintf("version %d, want %d", data[6], bookVersion))
	}
	n := binary.LittleEndian.Uint32(data[8:])
	if uint64(len(data)) != bookHeader+8*uint64(n) {
		return nil, bad(fmt.Sprintf("%d bytes for %d entries", len(data), n))
	}
	if crc32.ChecksumIEEE(data[bookHeader:]) != binary.LittleEndian.Uint32(data[12:]) {
		return nil, bad("checksum mismatch")
	}
	b := &Book{depth: int(data[7]), entries: make([]uint64, n)}
	if b.depth > cells {
		return nil, bad(fmt.Sprintf("depth %d", b.depth))
	}
	for i := range b.entries {
		e := binary.LittleEndian.Uint64(data[bookHeader+8*i:])
		col, v := int(e>>6&7), int(e&63)-32
		if col >= Width || v < minScore-3 || v > maxScore+3 || (i > 0 && e>>9 <= b.entries[i-1]>>9) {
			return nil, bad(fmt.Sprintf("entry %d", i))
		}
		b.entries[i] = e
	}
	return b, nil
}

// bookData is the embedded book, rebuilt by `connect4 book`.
//
//go:embed book.bin
var bookData []byte

// EmbeddedBook returns the book embedded in the binary, checked (see
// LoadBook). Each call decodes it afresh; the AI and the analysis share the
// one embeddedBook loads.
func EmbeddedBook() (*Book, error) { return LoadBook(bookData) }

// embeddedBook is the embedded book, decoded once on first use and read
// only after that; nil if it does not load (which its test rules out). Its
// moves and exact values serve hard's opening and spare the analysis the
// solving of the early positions it holds.
var embeddedBook = sync.OnceValue(func() *Book {
	b, _ := EmbeddedBook()
	return b
})

// BookProgress is where BuildBook keeps what it has solved, so that an
// interrupted build goes on where it stopped: one line per position, the
// entry in hexadecimal.
type BookProgress interface {
	io.Reader
	io.Writer
}

// BuildBook builds the book of every position with fewer than depth discs
// that the hard AI can meet when it plays the book's moves, as either
// colour, against any replies: the empty board, the seven first moves, and
// from each position the AI's best move followed by every reply. Each
// position is solved exactly (BestMove) with workers solvers in parallel,
// depth by depth; an entry is kept only when the value of the move it names,
// solved again, is the position's value. Entries already in progress (from
// an earlier run) are not solved again, and each new one is appended to it
// at once. log gets a line per depth with counts and times, and save (when
// not nil) the book as far as it is complete after each depth, so that a
// build cut short still leaves the deepest book it finished. It returns the
// book, or ctx's error (the progress kept), a progress read or write error,
// or save's error.
func BuildBook(ctx context.Context, depth, workers int, progress BookProgress, log io.Writer, save func(*Book) error) (*Book, error) {
	if depth < 1 || depth > cells {
		return nil, fmt.Errorf("solver: book depth %d, want 1-%d", depth, cells)
	}
	workers = max(1, workers)
	known := map[uint64]uint64{} // canonical key → entry
	err := readProgress(progress, "book", func(e uint64) bool {
		known[e>>9] = e
		return true
	})
	if err != nil {
		return nil, err
	}
	solvers := make(chan *Solver, workers)
	for range workers {
		solvers <- newSolver(defaultNearLog, 24, defaultSplit)
	}

	return buildFrom(ctx, Position{}, depth, solvers, progress, known, log, save)
}

// buildFrom is BuildBook from root (the empty board for the real book):
// the AI moves in root, and in each of its children when it plays the other
// colour.
func buildFrom(ctx context.Context, root Position, depth int, solvers chan *Solver, progress io.Writer, known map[uint64]uint64, log io.Writer, save func(*Book) error) (*Book, error) {
	levels := make([][]Position, depth+2)
	levels[root.moves] = []Position{root}
	seen := map[uint64]bool{canonical(root): true}
	for c := range Width {
		if !root.CanPlay(c) || root.IsWinningMove(c) {
			continue
		}
		p := root
		p.Play(c)
		if k := canonical(p); !seen[k] && p.moves < depth {
			seen[k] = true
			levels[p.moves] = append(levels[p.moves], p)
		}
	}
	lv := &bookLevel{solvers: solvers, progress: progress, known: known}
	var entries []uint64
	for d := root.moves; d < depth; d++ {
		start := time.Now()
		out, solved, err := lv.solve(ctx, levels[d])
		if err != nil {
			return nil, err
		}
		entries = append(entries, out...)
		if d+2 < depth {
			levels[d+2] = append(levels[d+2], replies(levels[d], out, seen)...)
		}
		if log != nil {
			fmt.Fprintf(log, "depth %2d: %5d positions (%d solved now) in %v\n", d, len(levels[d]), solved, time.Since(start).Round(time.Millisecond))
		}
		if save != nil {
			if err := save(newBook(d+1, entries)); err != nil {
				return nil, err
			}
		}
	}
	return newBook(depth, entries), nil
}

// bookLevel solves the positions of one depth of the book on the solvers
// it is given, appending each new entry to progress.
type bookLevel struct {
	solvers  chan *Solver
	mu       sync.Mutex // guards progress and known
	progress io.Writer
	known    map[uint64]uint64 // entries already solved, by canonical key
}

// solve returns the entries of positions, in their order, and how many it
// had to solve (the rest were known). It returns the first error of a
// solve or of writing progress.
func (l *bookLevel) solve(ctx context.Context, positions []Position) ([]uint64, int, error) {
	solved := 0
	out := make([]uint64, len(positions))
	errs := make(chan error, len(positions))
	var wg sync.WaitGroup
	for i, p := range positions {
		k := canonical(p)
		l.mu.Lock()
		e, ok := l.known[k]
		l.mu.Unlock()
		if ok {
			out[i] = e
			continue
		}
		sv := <-l.solvers
		solved++
		wg.Add(1)
		go func() {
			defer wg.Done()
			defer func() { l.solvers <- sv }()
			e, err := bookEntry(ctx, sv, p)
			if err != nil {
				errs <- err
				return
			}
			l.mu.Lock()
			defer l.mu.Unlock()
			l.known[k] = e
			if _, err := fmt.Fprintf(l.progress, "%x\n", e); err != nil {
				errs <- fmt.Errorf("solver: write book progress: %w", err)
				return
			}
			out[i] = e
		}()
	}
	wg.Wait()
	close(errs)
	if err := <-errs; err != nil {
		return nil, 0, err
	}
	return out, solved, nil
}

// replies returns the positions two plies after positions not seen yet:
// the AI plays its book move (from entries), the opponent any reply that
// does not win at once.
func replies(positions []Position, entries []uint64, seen map[uint64]bool) []Position {
	var next []Position
	for i, p := range positions {
		col := entryColumn(entries[i], p)
		if p.IsWinningMove(col) {
			continue
		}
		q := p
		q.Play(col)
		for r := range Width {
			if !q.CanPlay(r) || q.IsWinningMove(r) {
				continue
			}
			n := q
			n.Play(r)
			if k := canonical(n); !seen[k] && n.moves < cells {
				seen[k] = true
				next = append(next, n)
			}
		}
	}
	return next
}

// newBook returns the book of depth with a sorted copy of entries, each
// position once.
func newBook(depth int, entries []uint64) *Book {
	e := slices.Clone(entries)
	slices.Sort(e)
	e = slices.CompactFunc(e, func(a, b uint64) bool { return a>>9 == b>>9 })
	return &Book{depth: depth, entries: e}
}

// entryColumn returns the column of entry e for p's orientation.
func entryColumn(e uint64, p Position) int {
	col := int(e >> 6 & 7)
	if mirror(p).Key() < p.Key() {
		col = Width - 1 - col
	}
	return col
}

// bookEntry solves p and returns its entry, after checking the move: the
// child it leads to, solved again, must give p's value.
func bookEntry(ctx context.Context, sv *Solver, p Position) (uint64, error) {
	sv.limited, sv.deadline, sv.done, sv.aborted = true, time.Time{}, ctx.Done(), false
	col, v, ok := sv.bestMove(p, false)
	if !ok {
		return 0, ctx.Err()
	}
	if col < 0 {
		return 0, fmt.Errorf("solver: book position %s has no move", p)
	}
	check := (cells + 1 - p.moves) / 2 // an immediate win
	if !p.IsWinningMove(col) {
		q := p
		q.Play(col)
		c, ok := sv.solveUntil(q, time.Time{}, ctx.Done())
		if !ok {
			return 0, ctx.Err()
		}
		check = -c
	}
	if check != v {
		return 0, fmt.Errorf("solver: book position %s: column %d gives %d, the position is worth %d", p, col+1, check, v)
	}
	key := p.Key()
	if m := mirror(p); m.Key() < key {
		key, col = m.Key(), Width-1-col
	}
	return packEntry(key, col, v), nil
}

// readProgress calls add with each entry of a build's progress (what, "book"
// or "outcome", names it in errors): one entry a line, in hexadecimal, blank
// lines skipped. It returns the first read error, or an error for a line
// that is not hexadecimal or that add refuses.
func readProgress(r io.Reader, what string, add func(uint64) bool) error {
	sc := bufio.NewScanner(r)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		if line == "" {
			continue
		}
		e, err := strconv.ParseUint(line, 16, 64)
		if err != nil || !add(e) {
			return fmt.Errorf("solver: %s progress line %q: bad entry", what, line)
		}
	}
	if err := sc.Err(); err != nil {
		return fmt.Errorf("solver: read %s progress: %w", what, err)
	}
	return nil
}
