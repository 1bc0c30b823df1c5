package discord

import (
	"bytes"
	"crypto/ed25519"
	"encoding/hex"
	"math/rand/v2"
	"testing"
)

// TestVerifierAgrees: the verifier accepts and refuses what
// crypto/ed25519.Verify does, on signatures made right and on every way of
// spoiling one (a bit of R, of S, a non-canonical S, the high bits of the
// last byte, another key, another message), and for keys that are no
// point.
func TestVerifierAgrees(t *testing.T) {
	rnd := rand.New(rand.NewPCG(1, 2))
	seed := func() []byte {
		b := make([]byte, ed25519.SeedSize)
		for i := range b {
			b[i] = byte(rnd.Uint32())
		}
		return b
	}
	// l is the group order, little-endian: S + l is S's non-canonical twin.
	l, _ := hex.DecodeString("edd3f55c1a631258d69cf7a2def9de1400000000000000000000000000000010")
	addL := func(s []byte) []byte {
		out := make([]byte, 32)
		carry := 0
		for i := range 32 {
			v := int(s[i]) + int(l[i]) + carry
			out[i], carry = byte(v), v>>8
		}
		return out
	}
	check := func(name string, pub ed25519.PublicKey, sig []byte, ts string, body []byte) {
		t.Helper()
		want := ed25519.Verify(pub, append([]byte(ts), body...), sig)
		if got := newVerifier(pub).verify(sig, ts, body); got != want {
			t.Errorf("%s: verify = %v, ed25519.Verify = %v (key %x, sig %x)", name, got, want, pub, sig)
		}
	}
	valid := 0
	for i := range 200 {
		key := ed25519.NewKeyFromSeed(seed())
		pub := key.Public().(ed25519.PublicKey)
		ts, body := "1700000000", []byte(`{"type":3,"id":"`+hex.EncodeToString(seed()[:i%32])+`"}`)
		sig := ed25519.Sign(key, append([]byte(ts), body...))
		check("signed", pub, sig, ts, body)
		if newVerifier(pub).verify(sig, ts, body) {
			valid++
		}
		spoil := func(f func(s []byte)) []byte {
			s := append([]byte(nil), sig...)
			f(s)
			return s
		}
		check("a bit of R", pub, spoil(func(s []byte) { s[rnd.IntN(32)] ^= 1 << rnd.IntN(8) }), ts, body)
		check("a bit of S", pub, spoil(func(s []byte) { s[32+rnd.IntN(31)] ^= 1 << rnd.IntN(8) }), ts, body)
		check("S + l", pub, spoil(func(s []byte) { copy(s[32:], addL(s[32:])) }), ts, body)
		check("high bits", pub, spoil(func(s []byte) { s[63] |= 0x80 }), ts, body)
		check("the timestamp moved into the body", pub, sig, ts[:5], append([]byte(ts[5:]), body...))
		check("another message", pub, sig, ts, append(body, ' '))
		other := ed25519.NewKeyFromSeed(seed()).Public().(ed25519.PublicKey)
		check("another key", other, sig, ts, body)
		check("short", pub, sig[:63], ts, body)
		noPoint := append(ed25519.PublicKey(nil), pub...)
		noPoint[0] ^= byte(1 + rnd.IntN(255)) // about half of the 2^255 encodings are no point
		check("a key that may be no point", noPoint, sig, ts, body)
	}
	if valid != 200 {
		t.Errorf("%d of 200 good signatures verified, want all", valid)
	}
	// The identity and a point of small order, as keys, with a signature
	// that is all zeros but for R: the cofactorless check refuses or
	// accepts these as crypto/ed25519 does.
	for _, k := range []string{
		"0100000000000000000000000000000000000000000000000000000000000000",
		"c7176a703d4dd84fba3c0b760d10670f2a2053fa2c39ccc64ec7fd7792ac037a",
		"ecffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff7f",
	} {
		pub, _ := hex.DecodeString(k)
		for _, r := range []string{k, "0100000000000000000000000000000000000000000000000000000000000000"} {
			sig, _ := hex.DecodeString(r + "0000000000000000000000000000000000000000000000000000000000000000")
			check("small order "+k[:8]+" R "+r[:8], pub, sig, "1", []byte("x"))
		}
	}
}

// FuzzVerifier: on any key, signature, timestamp and body, the verifier
// says what crypto/ed25519.Verify says.
func FuzzVerifier(f *testing.F) {
	key := ed25519.NewKeyFromSeed(make([]byte, ed25519.SeedSize))
	sig := ed25519.Sign(key, []byte("1700000000{}"))
	f.Add([]byte(key.Public().(ed25519.PublicKey)), sig, "1700000000", []byte("{}"))
	f.Add(make([]byte, 32), make([]byte, 64), "", []byte(nil))
	f.Fuzz(func(t *testing.T, pub, sig []byte, ts string, body []byte) {
		if len(pub) != ed25519.PublicKeySize {
			return // the adapter takes only keys of this size
		}
		want := ed25519.Verify(pub, append([]byte(ts), body...), sig)
		if got := newVerifier(pub).verify(sig, ts, body); got != want {
			t.Errorf("verify = %v, ed25519.Verify = %v (key %x, sig %x, ts %q, body %q)", got, want, pub, sig, ts, body)
		}
	})
}

// BenchmarkVerify is the signature check of a click's body (about 1 KB),
// its key's tables made beforehand, as the adapter makes them once.
func BenchmarkVerify(b *testing.B) {
	key := ed25519.NewKeyFromSeed(make([]byte, ed25519.SeedSize))
	ts, body := "1700000000", bytes.Repeat([]byte(`{"type":3,"id":"1234567890"}`), 36)
	sig := ed25519.Sign(key, append([]byte(ts), body...))
	v := newVerifier(key.Public().(ed25519.PublicKey))
	for b.Loop() {
		if !v.verify(sig, ts, body) {
			b.Fatal("a good signature refused")
		}
	}
}
