package discord

import (
	"bytes"
	"crypto/ed25519"
	"encoding/hex"
	"strings"
	"testing"
)

// FuzzDecodeHex: the signature header's decoder agrees with
// hex.DecodeString on any input, for a signature's length.
func FuzzDecodeHex(f *testing.F) {
	sig := strings.Repeat("0123456789abcdefABCDEF", 6)[:2*ed25519.SignatureSize]
	for _, s := range []string{"", sig, sig[:127], sig + "0", strings.ToUpper(sig), sig[:126] + "g0", sig[:126] + "0G", sig[:126] + "\xff0", " " + sig[1:]} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		var got [ed25519.SignatureSize]byte
		ok := decodeHex(got[:], s)
		want, err := hex.DecodeString(s)
		wantOK := err == nil && len(want) == ed25519.SignatureSize
		if ok != wantOK || ok && !bytes.Equal(got[:], want) {
			t.Errorf("decodeHex(%q) = %x, %v; hex.DecodeString = %x, %v", s, got, ok, want, err)
		}
	})
}
