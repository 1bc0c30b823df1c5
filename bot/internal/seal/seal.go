// Package seal encrypts secrets at rest (AES-256-GCM) and signs short
// values (HMAC-SHA256) under the keys of CONNECT4_SECRET_KEY: one key, or
// two during a rotation, where new writes use the first and reads try
// both. It knows nothing of Slack, stores or configuration: the caller
// gives it the keys' text and the bytes to protect.
package seal

import (
	"bytes"
	"crypto/aes"
	"crypto/cipher"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"fmt"
	"strings"
)

// KeySize is the size of one key in bytes (AES-256).
const KeySize = 32

// version is the first byte of every sealed value, so that a later format
// can be told apart.
const version = 1

// idSize is the size of a key's id in a sealed value: the first bytes of
// the SHA-256 of the key, so that Open tries the right key first.
const idSize = 4

// ErrOpen is returned by Open for a value that no key opens: corrupt,
// sealed under a key that is no longer given, or for another context.
var ErrOpen = errors.New("seal: cannot open the sealed value")

// Keys are the keys values are sealed and signed with. It is safe for
// concurrent use; the zero value has no key and is not usable: use Parse.
type Keys struct {
	aeads []cipher.AEAD
	ids   [][idSize]byte
	raw   [][]byte
}

// Parse reads one or two base64 keys of 32 bytes each, separated by a
// comma (the first seals and signs; both open and verify). The error
// never contains the keys' text.
func Parse(s string) (*Keys, error) {
	parts := strings.Split(s, ",")
	if strings.TrimSpace(s) == "" {
		return nil, errors.New("seal: no key")
	}
	if len(parts) > 2 {
		return nil, fmt.Errorf("seal: %d keys, want one, or two during a rotation", len(parts))
	}
	k := &Keys{}
	for i, p := range parts {
		raw, err := decode(strings.TrimSpace(p))
		if err != nil || len(raw) != KeySize {
			return nil, fmt.Errorf("seal: key %d is not %d bytes of base64", i+1, KeySize)
		}
		block, err := aes.NewCipher(raw)
		if err != nil {
			return nil, fmt.Errorf("seal: key %d: %w", i+1, err)
		}
		aead, err := cipher.NewGCM(block)
		if err != nil {
			return nil, fmt.Errorf("seal: key %d: %w", i+1, err)
		}
		sum := sha256.Sum256(raw)
		k.aeads = append(k.aeads, aead)
		k.ids = append(k.ids, [idSize]byte(sum[:idSize]))
		k.raw = append(k.raw, raw)
	}
	if len(k.raw) == 2 && bytes.Equal(k.raw[0], k.raw[1]) {
		return nil, errors.New("seal: the two keys are the same")
	}
	return k, nil
}

// decode reads standard or URL-safe base64, padded or not.
func decode(s string) ([]byte, error) {
	for _, enc := range []*base64.Encoding{base64.StdEncoding, base64.RawStdEncoding, base64.URLEncoding, base64.RawURLEncoding} {
		if b, err := enc.DecodeString(s); err == nil {
			return b, nil
		}
	}
	return nil, errors.New("not base64")
}

// Seal encrypts plain under the first key, bound to context (which Open
// must be given again: a value sealed for one workspace does not open as
// another's). The result is version, key id, nonce and ciphertext.
func (k *Keys) Seal(plain, context []byte) []byte {
	aead := k.aeads[0]
	out := make([]byte, 1+idSize+aead.NonceSize(), 1+idSize+aead.NonceSize()+len(plain)+aead.Overhead())
	out[0] = version
	copy(out[1:], k.ids[0][:])
	rand.Read(out[1+idSize:]) // never fails (crypto/rand)
	return aead.Seal(out, out[1+idSize:], plain, context)
}

// Open decrypts a value Seal returned for context, with the key it names
// first and then the other; ErrOpen when none opens it.
func (k *Keys) Open(sealed, context []byte) ([]byte, error) {
	if len(sealed) < 1+idSize || sealed[0] != version {
		return nil, ErrOpen
	}
	id := sealed[1 : 1+idSize]
	order := make([]int, 0, len(k.aeads))
	for i := range k.aeads {
		if bytes.Equal(k.ids[i][:], id) {
			order = append([]int{i}, order...)
		} else {
			order = append(order, i)
		}
	}
	for _, i := range order {
		aead := k.aeads[i]
		body := sealed[1+idSize:]
		if len(body) < aead.NonceSize()+aead.Overhead() {
			return nil, ErrOpen
		}
		if plain, err := aead.Open(nil, body[:aead.NonceSize()], body[aead.NonceSize():], context); err == nil {
			return plain, nil
		}
	}
	return nil, ErrOpen
}

// Sign returns the HMAC-SHA256 of msg under a key derived from the first
// key for purpose, so that signatures for one purpose never pass as
// another's and never reveal the encryption key.
func (k *Keys) Sign(purpose string, msg []byte) []byte {
	return mac(k.raw[0], purpose, msg)
}

// Verify reports whether sig is Sign(purpose, msg) under either key, in
// constant time.
func (k *Keys) Verify(purpose string, msg, sig []byte) bool {
	ok := false
	for _, raw := range k.raw {
		ok = hmac.Equal(mac(raw, purpose, msg), sig) || ok
	}
	return ok
}

func mac(key []byte, purpose string, msg []byte) []byte {
	d := hmac.New(sha256.New, key)
	d.Write([]byte("connect4 seal: " + purpose))
	sub := d.Sum(nil)
	m := hmac.New(sha256.New, sub)
	m.Write(msg)
	return m.Sum(nil)
}
