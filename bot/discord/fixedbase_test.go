package discord

import (
	"bytes"
	"crypto/sha512"
	"encoding/binary"
	"encoding/hex"
	"math/big"
	"math/rand/v2"
	"slices"
	"testing"

	"filippo.io/edwards25519"
)

// TestFixedMulAgrees: fixedMul's [a]P + [b]B is edwards25519's
// VarTimeDoubleScalarBaseMult, for random points and scalars and for the
// scalars at the edges of the pieces (0, 1, 2^32-1, 2^32, 2^64, l-1, ...),
// and for points of small order.
func TestFixedMulAgrees(t *testing.T) {
	rnd := rand.New(rand.NewPCG(3, 4))
	random := func() *edwards25519.Scalar {
		var b [64]byte
		for i := range b {
			b[i] = byte(rnd.Uint32())
		}
		s, _ := edwards25519.NewScalar().SetUniformBytes(b[:])
		return s
	}
	// small sets the scalar of the little-endian words w (below l).
	small := func(w ...uint64) *edwards25519.Scalar {
		var b [32]byte
		for i, x := range w {
			binary.LittleEndian.PutUint64(b[8*i:], x)
		}
		s, err := edwards25519.NewScalar().SetCanonicalBytes(b[:])
		if err != nil {
			t.Fatalf("scalar %x: %v", w, err)
		}
		return s
	}
	minusOne := edwards25519.NewScalar().Subtract(edwards25519.NewScalar(), small(1)) // l - 1
	edges := []*edwards25519.Scalar{small(), small(1), small(2), small(1<<32 - 1), small(1 << 32), small(1<<63 - 1), small(1<<64 - 1),
		small(1<<64-1, 1<<32-1), small(0, 1),
		small(1<<64-1, 1<<64-1), small(0, 0, 1), small(0, 0, 0, 1), small(1<<64-1, 1<<64-1, 1<<64-1, 1<<59), minusOne}
	points := []*edwards25519.Point{edwards25519.NewGeneratorPoint(), edwards25519.NewIdentityPoint()}
	for range 6 {
		points = append(points, new(edwards25519.Point).ScalarBaseMult(random()))
	}
	for _, enc := range []string{
		"c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac037a", // order 8
		"ecffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f", // order 2
	} {
		b, _ := hex.DecodeString(enc)
		p, err := new(edwards25519.Point).SetBytes(b)
		if err != nil {
			t.Fatalf("point %s: %v", enc, err)
		}
		// A key with a small-order part: A + a point of order 8 or 2.
		points = append(points, p, new(edwards25519.Point).Add(p, points[2]))
	}
	base := baseTable()
	for pi, p := range points {
		table := newFixedTable(p)
		check := func(a, b *edwards25519.Scalar) {
			t.Helper()
			want := new(edwards25519.Point).VarTimeDoubleScalarBaseMult(a, p, b).Bytes()
			if got := fixedMul(a, table, b, base); !bytes.Equal(got[:], want) {
				t.Errorf("point %d, a %x, b %x: fixedMul = %x, want %x", pi, a.Bytes(), b.Bytes(), got, want)
			}
		}
		for _, a := range edges {
			for _, b := range edges {
				check(a, b)
			}
			check(a, random())
			check(random(), a)
		}
		for range 50 {
			check(random(), random())
		}
	}
}

// TestNonAdjacentForm: the digits add up to the scalar, are odd or zero,
// below 2^(nafWidth-1) in magnitude and nafWidth apart.
func TestNonAdjacentForm(t *testing.T) {
	rnd := rand.New(rand.NewPCG(5, 6))
	for range 200 {
		var b [64]byte
		for i := range b {
			b[i] = byte(rnd.Uint32())
		}
		sum := sha512.Sum512(b[:])
		s, _ := edwards25519.NewScalar().SetUniformBytes(sum[:])
		naf := nonAdjacentForm(s.Bytes())
		sum2, last := new(big.Int), -nafWidth
		for i := 255; i >= 0; i-- {
			sum2.Lsh(sum2, 1)
			d := int(naf[i])
			if d == 0 {
				continue
			}
			if d%2 == 0 || d >= 1<<(nafWidth-1) || d <= -(1<<(nafWidth-1)) {
				t.Fatalf("%x: digit %d at %d", s.Bytes(), d, i)
			}
			if last >= 0 && last-i < nafWidth {
				t.Fatalf("%x: digits at %d and %d", s.Bytes(), last, i)
			}
			last = i
			sum2.Add(sum2, big.NewInt(int64(d)))
		}
		be := s.Bytes()
		slices.Reverse(be)
		if want := new(big.Int).SetBytes(be); sum2.Cmp(want) != 0 {
			t.Errorf("naf of %x adds up to %x, want %x", s.Bytes(), sum2, want)
		}
	}
}
