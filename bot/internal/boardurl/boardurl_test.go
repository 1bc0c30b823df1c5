package boardurl

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/connect4/connect4/bot/match"
)

var (
	key   = match.Key{Platform: "slack", Workspace: "T1", Channel: "C1"}
	start = time.Date(2026, 12, 1, 12, 0, 0, 0, time.UTC)
)

func TestTokenRoundTrip(t *testing.T) {
	s := NewSigner("secret")
	for _, b := range []Board{
		{Key: key, GameID: "g1", Move: 0, Kind: PNG, Expires: start.Add(time.Hour)},
		{Key: key, GameID: "abc-DEF_123", Move: 42, Palette: match.PaletteColourBlind, Kind: GIF, Expires: start.Add(time.Minute)},
		{Key: match.Key{Platform: "discord", Workspace: "dm", Channel: "7000"}, GameID: "x", Move: 100, Palette: match.PaletteStandard, Kind: PNG, Expires: start.Add(time.Second)},
	} {
		tok := s.Token(b)
		if !strings.HasSuffix(tok, "."+b.Kind) || strings.ContainsAny(tok, "/?#%+= ") {
			t.Errorf("Token(%+v) = %q: want URL-safe, ending in .%s", b, tok, b.Kind)
		}
		got, err := s.Parse(tok, start)
		if err != nil || got != b {
			t.Errorf("Parse(Token(%+v)) = %+v, %v", b, got, err)
		}
		if _, err := s.Parse(tok, b.Expires); !errors.Is(err, ErrExpired) {
			t.Errorf("Parse at its expiry: %v, want ErrExpired", err)
		}
		if _, err := NewSigner("other secret").Parse(tok, start); !errors.Is(err, ErrTampered) {
			t.Errorf("Parse with another secret: %v, want ErrTampered", err)
		}
	}
}

func TestParseRefusesTampering(t *testing.T) {
	s := NewSigner("secret")
	b := Board{Key: key, GameID: "g1", Move: 3, Kind: PNG, Expires: start.Add(time.Hour)}
	tok := s.Token(b)
	parts := strings.Split(tok, ".")
	// A token for another move, signed by someone else, with our signature.
	forged := NewSigner("attacker").Token(Board{Key: key, GameID: "g1", Move: 4, Kind: PNG, Expires: start.Add(time.Hour)})
	for name, bad := range map[string]string{
		"empty":            "",
		"no dots":          "abc",
		"kind swapped":     parts[0] + "." + parts[1] + ".gif",
		"signature cut":    parts[0] + "." + parts[1][:len(parts[1])-1] + ".png",
		"payload changed":  "A" + parts[0][1:] + "." + parts[1] + ".png",
		"other payload":    strings.Split(forged, ".")[0] + "." + parts[1] + ".png",
		"too long":         strings.Repeat("a", MaxToken+1),
		"four parts":       tok + ".png",
		"signed bad board": s.Token(Board{Key: match.Key{}, GameID: "g1", Kind: PNG, Expires: start.Add(time.Hour)}),
		"signed bad kind":  s.Token(Board{Key: key, GameID: "g1", Kind: "svg", Expires: start.Add(time.Hour)}),
		"signed bad move":  s.Token(Board{Key: key, GameID: "g1", Move: -1, Kind: PNG, Expires: start.Add(time.Hour)}),
		"signed bad id":    s.Token(Board{Key: key, GameID: "../etc", Kind: PNG, Expires: start.Add(time.Hour)}),
	} {
		if _, err := s.Parse(bad, start); !errors.Is(err, ErrTampered) {
			t.Errorf("%s: Parse(%q) = %v, want ErrTampered", name, bad, err)
		}
	}
}

// FuzzParse checks that Parse never panics and accepts only what Token
// made: anything it accepts signs back to itself.
func FuzzParse(f *testing.F) {
	s := NewSigner("secret")
	f.Add(s.Token(Board{Key: key, GameID: "g1", Move: 3, Kind: PNG, Expires: start.Add(time.Hour)}))
	f.Add("a.b.png")
	f.Add("..")
	f.Fuzz(func(t *testing.T, tok string) {
		b, err := s.Parse(tok, start)
		if err != nil {
			return
		}
		if again, err := s.Parse(s.Token(b), start); err != nil || again != b {
			t.Fatalf("Parse(%q) = %+v, which does not sign back: %+v, %v", tok, b, again, err)
		}
	})
}
