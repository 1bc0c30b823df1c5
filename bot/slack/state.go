package slack

import (
	"crypto/rand"
	"encoding/base64"
	"errors"
	"strconv"
	"strings"
	"time"
)

// stateTTL is how long an OAuth state (an install's start) is accepted.
const stateTTL = 10 * time.Minute

// statePurpose names the OAuth state's signatures (see seal.Keys.Sign).
const statePurpose = "slack oauth state"

// The ways a state is refused.
var (
	errStateForged  = errors.New("slack: oauth state not signed by this app")
	errStateExpired = errors.New("slack: oauth state expired")
)

// newState returns a fresh OAuth state: a random nonce and its expiry,
// signed, "<nonce>.<unix expiry>.<signature>", all URL-safe.
func (ws *workspaces) newState(now time.Time) string {
	var nonce [16]byte
	rand.Read(nonce[:]) // never fails (crypto/rand)
	msg := base64.RawURLEncoding.EncodeToString(nonce[:]) + "." + strconv.FormatInt(now.Add(stateTTL).Unix(), 10)
	return msg + "." + base64.RawURLEncoding.EncodeToString(ws.keys.Sign(statePurpose, []byte(msg)))
}

// checkState checks a state's signature and expiry and returns its nonce
// and how long it has left. It does not mark it used: the caller does,
// with the store, once.
func (ws *workspaces) checkState(s string, now time.Time) (nonce string, left time.Duration, err error) {
	if len(s) > 200 {
		return "", 0, errStateForged
	}
	i := strings.LastIndexByte(s, '.')
	if i < 0 {
		return "", 0, errStateForged
	}
	msg, sig := s[:i], s[i+1:]
	raw, err := base64.RawURLEncoding.DecodeString(sig)
	if err != nil || !ws.keys.Verify(statePurpose, []byte(msg), raw) {
		return "", 0, errStateForged
	}
	nonce, exp, ok := strings.Cut(msg, ".")
	secs, err := strconv.ParseInt(exp, 10, 64)
	if !ok || err != nil || nonce == "" {
		return "", 0, errStateForged
	}
	left = time.Unix(secs, 0).Sub(now)
	if left <= 0 {
		return "", 0, errStateExpired
	}
	return nonce, left, nil
}
