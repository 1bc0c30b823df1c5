package seal

import (
	"bytes"
	"crypto/rand"
	"encoding/base64"
	"errors"
	"strings"
	"testing"
)

func newKey(t *testing.T) string {
	t.Helper()
	b := make([]byte, KeySize)
	rand.Read(b)
	return base64.StdEncoding.EncodeToString(b)
}

func TestParse(t *testing.T) {
	k1, k2 := newKey(t), newKey(t)
	short := base64.StdEncoding.EncodeToString(make([]byte, 16))
	tests := []struct {
		in   string
		want string // "" for success, else a part of the error
	}{
		{k1, ""},
		{k1 + "," + k2, ""},
		{" " + k1 + " , " + k2 + " ", ""},
		{strings.TrimRight(k1, "="), ""},
		{"", "no key"},
		{short, "key 1 is not 32 bytes"},
		{k1 + "," + short, "key 2 is not 32 bytes"},
		{k1 + "," + k1, "the same"},
		{k1 + "," + k2 + "," + k1, "3 keys"},
		{"not base64!", "key 1"},
	}
	for _, tt := range tests {
		_, err := Parse(tt.in)
		switch {
		case tt.want == "" && err != nil:
			t.Errorf("Parse(%.12q…) = %v, want success", tt.in, err)
		case tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want)):
			t.Errorf("Parse(%.12q…) = %v, want an error with %q", tt.in, err, tt.want)
		case err != nil && (strings.Contains(err.Error(), k1[:10]) || strings.Contains(err.Error(), k2[:10])):
			t.Errorf("Parse's error %q shows a key", err)
		}
	}
}

func TestSealOpen(t *testing.T) {
	k, err := Parse(newKey(t))
	if err != nil {
		t.Fatal(err)
	}
	plain := []byte("xoxb-secret-token")
	sealed := k.Seal(plain, []byte("T1"))
	if bytes.Contains(sealed, plain) {
		t.Fatal("the sealed value holds the plain text")
	}
	if again := k.Seal(plain, []byte("T1")); bytes.Equal(again, sealed) {
		t.Error("two seals of the same value are equal: the nonce is not fresh")
	}
	got, err := k.Open(sealed, []byte("T1"))
	if err != nil || !bytes.Equal(got, plain) {
		t.Fatalf("Open = %q, %v, want %q", got, err, plain)
	}
	for name, bad := range map[string][]byte{
		"other context": nil, "flipped byte": nil, "truncated": sealed[:10], "empty": {}, "other version": append([]byte{9}, sealed[1:]...),
	} {
		ctx := []byte("T1")
		switch name {
		case "other context":
			bad, ctx = sealed, []byte("T2")
		case "flipped byte":
			bad = bytes.Clone(sealed)
			bad[len(bad)-1] ^= 1
		}
		if _, err := k.Open(bad, ctx); !errors.Is(err, ErrOpen) {
			t.Errorf("%s: Open = %v, want ErrOpen", name, err)
		}
	}
}

// TestRotation: a value sealed under the old key opens once the new key is
// added in front; new seals use the new key, which the old key alone
// cannot open; signatures follow the same rule.
func TestRotation(t *testing.T) {
	oldKey, newKey := newKey(t), newKey(t)
	old, _ := Parse(oldKey)
	both, err := Parse(newKey + "," + oldKey)
	if err != nil {
		t.Fatal(err)
	}
	sealed := old.Seal([]byte("token"), []byte("T1"))
	if got, err := both.Open(sealed, []byte("T1")); err != nil || string(got) != "token" {
		t.Fatalf("after rotation Open(old value) = %q, %v", got, err)
	}
	fresh := both.Seal([]byte("token2"), []byte("T1"))
	if _, err := old.Open(fresh, []byte("T1")); !errors.Is(err, ErrOpen) {
		t.Errorf("a value sealed after rotation opens with the old key alone: %v", err)
	}
	sig := old.Sign("state", []byte("m"))
	if !both.Verify("state", []byte("m"), sig) {
		t.Error("a signature of the old key is refused after rotation")
	}
	if both.Verify("other", []byte("m"), sig) || both.Verify("state", []byte("n"), sig) {
		t.Error("a signature passes for another purpose or message")
	}
	if old.Verify("state", []byte("m"), both.Sign("state", []byte("m"))) {
		t.Error("the old key alone verifies a signature of the new key")
	}
}
