package web

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"strings"
	"time"

	"github.com/connect4/connect4/bot/match"
)

// Why a link is refused.
var (
	// ErrTampered: the token is malformed, its signature does not match,
	// or it was signed for a platform this server holds no secret of (a
	// foreign token).
	ErrTampered = errors.New("web: bad link")
	// ErrExpired: the token was signed here, but its time is up.
	ErrExpired = errors.New("web: link expired")
)

// Kind is what a link shows. The zero value is no page.
type Kind uint8

// The kinds of page.
const (
	KindNone    Kind = iota
	KindGame         // one game: Link.ID is its id
	KindChannel      // a channel's leaderboard, seasons and games
	KindPlayer       // a player in a channel: Link.ID is their user id
)

var kindNames = [...]string{"none", "game", "channel", "player"}

// String returns "game", "channel", "player" or "none".
func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return "none"
}

// Link names one page of one channel until it expires.
type Link struct {
	Kind    Kind
	Key     match.Key
	ID      string // the game's id, the player's user id, or "" for a channel
	Expires time.Time
}

// Signer signs and checks links with a key per platform, each derived
// from that platform's secret (the same on every replica), so that a link
// is valid on every replica and a link of one platform's channel cannot
// be made with another's secret. It is safe for concurrent use.
type Signer struct{ keys map[string][]byte }

// NewSigner returns a Signer with a key for each platform of secrets
// (platform name to secret); an empty secret gives the platform no key.
func NewSigner(secrets map[string]string) *Signer {
	s := &Signer{keys: map[string][]byte{}}
	for platform, secret := range secrets {
		if secret == "" {
			continue
		}
		m := hmac.New(sha256.New, []byte(secret))
		m.Write([]byte("connect4 web page links v1\x00" + platform))
		s.keys[platform] = m.Sum(nil)
	}
	return s
}

// Signs reports whether s holds a key for platform.
func (s *Signer) Signs(platform string) bool { return s.keys[platform] != nil }

// wire is the signed payload.
type wire struct {
	T uint8  `json:"t"`
	P string `json:"p"`
	W string `json:"w"`
	C string `json:"c"`
	I string `json:"i,omitempty"`
	E int64  `json:"e"`
}

// sigLen is the length of a signature in bytes: 128 bits.
const sigLen = 16

// MaxToken is the longest token Parse reads.
const MaxToken = 1024

// Token returns the signed token of l (URL-safe), or "" when s holds no
// key for l's platform.
func (s *Signer) Token(l Link) string {
	key := s.keys[l.Key.Platform]
	if key == nil {
		return ""
	}
	p, _ := json.Marshal(wire{T: uint8(l.Kind), P: l.Key.Platform, W: l.Key.Workspace, C: l.Key.Channel, I: l.ID, E: l.Expires.Unix()}) // strings and numbers: never fails
	payload := base64.RawURLEncoding.EncodeToString(p)
	return payload + "." + sign(key, payload)
}

func sign(key []byte, payload string) string {
	m := hmac.New(sha256.New, key)
	m.Write([]byte(payload))
	return base64.RawURLEncoding.EncodeToString(m.Sum(nil)[:sigLen])
}

// Parse checks token at now and returns the link it names: ErrTampered
// for anything s did not sign (malformed, altered, another platform's or
// another server's), ErrExpired for a link of s past its expiry.
func (s *Signer) Parse(token string, now time.Time) (Link, error) {
	if len(token) > MaxToken {
		return Link{}, ErrTampered
	}
	payload, sig, ok := strings.Cut(token, ".")
	if !ok {
		return Link{}, ErrTampered
	}
	raw, err := base64.RawURLEncoding.DecodeString(payload)
	if err != nil {
		return Link{}, ErrTampered
	}
	var w wire
	if err := json.Unmarshal(raw, &w); err != nil {
		return Link{}, ErrTampered
	}
	key := s.keys[w.P]
	if key == nil || !hmac.Equal([]byte(sign(key, payload)), []byte(sig)) {
		return Link{}, ErrTampered
	}
	l := Link{Kind: Kind(w.T), Key: match.Key{Platform: w.P, Workspace: w.W, Channel: w.C}, ID: w.I, Expires: time.Unix(w.E, 0).UTC()}
	switch {
	case l.Key.Validate() != nil:
		return Link{}, ErrTampered
	case l.Kind == KindGame && !match.ValidGameID(l.ID),
		l.Kind == KindPlayer && (l.ID == "" || len(l.ID) > match.MaxIDLen),
		l.Kind == KindChannel && l.ID != "",
		l.Kind != KindGame && l.Kind != KindPlayer && l.Kind != KindChannel:
		return Link{}, ErrTampered
	}
	if !now.Before(l.Expires) {
		return Link{}, ErrExpired
	}
	return l, nil
}
