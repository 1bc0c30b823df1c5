// Package boardurl makes and checks the signed, expiring names of board
// pictures that the bot serves itself (GET /boards/<token>.png): the
// channel, the game, the move the picture shows, the palette and the
// expiry, signed with HMAC-SHA256 so that nobody can name a picture the
// bot did not hand out, or keep using one after it expires. It knows
// nothing of chat platforms or stores.
package boardurl

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/connect4/connect4/bot/match"
	"github.com/connect4/connect4/engine"
)

// Why a token is refused.
var (
	// ErrTampered: the token is malformed or its signature does not match.
	ErrTampered = errors.New("boardurl: bad token")
	// ErrExpired: the token was signed, but its time is up.
	ErrExpired = errors.New("boardurl: token expired")
)

// The kinds of picture.
const (
	PNG = "png" // the board after Move moves
	GIF = "gif" // the replay of the game up to Move
)

// Board names one picture.
type Board struct {
	Key     match.Key
	GameID  string
	Move    int
	Palette match.Palette
	Kind    string // PNG or GIF
	// Game is the Fingerprint of the game the picture shows, so that a
	// record that has moved on (a takeback, the next round of a match)
	// is not shown under an old message's URL.
	Game    string
	Expires time.Time
}

// CacheKey identifies the picture b shows, whatever its expiry.
func (b Board) CacheKey() string {
	return strings.Join([]string{b.Key.String(), b.GameID, itoa(b.Move), b.Palette.String(), b.Kind, b.Game}, "\x00")
}

// Fingerprint is a short digest of everything a picture of g shows: its
// size, its moves and how it stands (a resignation included).
func Fingerprint(g *engine.Game) string {
	h := sha256.New()
	fmt.Fprintf(h, "%+v|%v|%d|%d|", g.Config(), g.History(), g.State(), g.Winner())
	return base64.RawURLEncoding.EncodeToString(h.Sum(nil)[:12])
}

func itoa(n int) string {
	b, _ := json.Marshal(n)
	return string(b)
}

// Signer signs and checks tokens with one key. It is safe for concurrent
// use.
type Signer struct{ key []byte }

// NewSigner returns a Signer whose key is derived from secret (a secret
// every replica shares, such as the Slack signing secret), so that the
// tokens of one purpose cannot be confused with anything else signed with
// it.
func NewSigner(secret string) *Signer {
	m := hmac.New(sha256.New, []byte(secret))
	m.Write([]byte("connect4 board picture URLs v1"))
	return &Signer{key: m.Sum(nil)}
}

// wire is the signed payload.
type wire struct {
	P, W, C, G string
	M          int
	Pal        uint8
	K, H       string
	E          int64
}

// Token returns the signed token of b: URL-safe, ending in "." + b.Kind.
func (s *Signer) Token(b Board) string {
	p, _ := json.Marshal(wire{P: b.Key.Platform, W: b.Key.Workspace, C: b.Key.Channel, G: b.GameID,
		M: b.Move, Pal: uint8(b.Palette), K: b.Kind, H: b.Game, E: b.Expires.Unix()})
	payload := base64.RawURLEncoding.EncodeToString(p)
	return payload + "." + s.sign(payload) + "." + b.Kind
}

func (s *Signer) sign(payload string) string {
	m := hmac.New(sha256.New, s.key)
	m.Write([]byte(payload))
	return base64.RawURLEncoding.EncodeToString(m.Sum(nil))
}

// MaxToken is the longest token Parse reads.
const MaxToken = 1024

// Parse checks token at now and returns the picture it names:
// ErrTampered for anything not signed by s (or malformed), ErrExpired for
// a signed token past its expiry.
func (s *Signer) Parse(token string, now time.Time) (Board, error) {
	if len(token) > MaxToken {
		return Board{}, ErrTampered
	}
	parts := strings.Split(token, ".")
	if len(parts) != 3 {
		return Board{}, ErrTampered
	}
	if !hmac.Equal([]byte(s.sign(parts[0])), []byte(parts[1])) {
		return Board{}, ErrTampered
	}
	raw, err := base64.RawURLEncoding.DecodeString(parts[0])
	if err != nil {
		return Board{}, ErrTampered
	}
	var w wire
	if err := json.Unmarshal(raw, &w); err != nil {
		return Board{}, ErrTampered
	}
	b := Board{Key: match.Key{Platform: w.P, Workspace: w.W, Channel: w.C}, GameID: w.G, Move: w.M,
		Palette: match.Palette(w.Pal), Kind: w.K, Game: w.H, Expires: time.Unix(w.E, 0).UTC()}
	if b.Kind != parts[2] || (b.Kind != PNG && b.Kind != GIF) || b.Key.Validate() != nil ||
		!match.ValidGameID(b.GameID) || b.Move < 0 || b.Palette > match.PaletteColourBlind || len(b.Game) > 64 {
		return Board{}, ErrTampered
	}
	if !now.Before(b.Expires) {
		return Board{}, ErrExpired
	}
	return b, nil
}
