package discord

import (
	"crypto/ed25519"
	"crypto/sha512"
	"crypto/subtle"
	"hash"
	"sync"

	"filippo.io/edwards25519"
)

// verifier checks Discord's Ed25519 signatures with the application's
// public key decoded once, and its multiples a check adds up tabled once
// (see fixedMul): crypto/ed25519.Verify decodes the key's point on every
// call (a square root in the field, a sixteenth of a signature check),
// tables the key's multiples again, doubles 253 times where fixedMul
// doubles 32, and needs the timestamp and the body copied into one
// message. Its checks are crypto/ed25519's (RFC 8032 without a context, a
// canonical S, the cofactorless equation), which TestVerifierAgrees holds
// it to. It is safe for concurrent use: it is only read.
type verifier struct {
	pub [ed25519.PublicKeySize]byte
	// minusA is the fixedTable of -A, nil for a key that is no point:
	// nothing verifies.
	minusA *fixedTable
	base   *fixedTable // the generator's
	// hashes keeps the *hashing of finished checks: a new SHA-512 state
	// was an allocation of 200 bytes on every request, and the signature,
	// the timestamp copied into bytes and the digest three more.
	hashes sync.Pool
}

// hashing is a SHA-512 state and room for what is written to it and read
// from it, which through the hash.Hash interface would otherwise escape to
// the heap: R (the signature's first half), the timestamp's bytes (a
// timestamp of seconds has at most 19 digits) and the digest.
type hashing struct {
	h   hash.Hash
	buf [sha512.Size]byte
}

// newVerifier returns the verifier of pub, a key of ed25519.PublicKeySize
// bytes.
func newVerifier(pub ed25519.PublicKey) *verifier {
	v := &verifier{}
	copy(v.pub[:], pub)
	if a, err := new(edwards25519.Point).SetBytes(pub); err == nil && len(pub) == ed25519.PublicKeySize {
		v.minusA = newFixedTable(new(edwards25519.Point).Negate(a))
		v.base = baseTable()
	}
	return v
}

// verify reports whether sig is a valid signature of ts followed by body,
// as ed25519.Verify(pub, ts+body, sig) does.
func (v *verifier) verify(sig []byte, ts string, body []byte) bool {
	if v.minusA == nil || len(sig) != ed25519.SignatureSize || sig[63]&224 != 0 {
		return false
	}
	hs, ok := v.hashes.Get().(*hashing)
	if !ok {
		hs = &hashing{h: sha512.New()}
	}
	defer v.hashes.Put(hs)
	h := hs.h
	h.Reset()
	h.Write(append(hs.buf[:0], sig[:32]...))
	h.Write(v.pub[:])
	h.Write(append(hs.buf[:0], ts...))
	h.Write(body)
	k, err := edwards25519.NewScalar().SetUniformBytes(h.Sum(hs.buf[:0]))
	if err != nil { // 64 bytes are always uniform bytes
		return false
	}
	s, err := edwards25519.NewScalar().SetCanonicalBytes(sig[32:])
	if err != nil {
		return false
	}
	// [S]B = R + [k]A, so R = [k](-A) + [S]B.
	r := fixedMul(k, v.minusA, s, v.base)
	return subtle.ConstantTimeCompare(sig[:32], r[:]) == 1
}
