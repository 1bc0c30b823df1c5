package web

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/connect4/connect4/bot/match"
)

func TestTokenRoundTrip(t *testing.T) {
	s := NewSigner(map[string]string{"slack": "a", "discord": "b", "empty": ""})
	now := time.Unix(1_800_000_000, 0)
	k := match.Key{Platform: "slack", Workspace: "T1", Channel: "C1"}
	links := []Link{
		{Kind: KindGame, Key: k, ID: "g1-_x", Expires: now.Add(time.Hour)},
		{Kind: KindChannel, Key: k, Expires: now.Add(time.Hour)},
		{Kind: KindPlayer, Key: match.Key{Platform: "discord", Workspace: "G", Channel: "9"}, ID: "U<1>", Expires: now.Add(time.Second)},
	}
	for _, l := range links {
		tok := s.Token(l)
		got, err := s.Parse(tok, now)
		if err != nil || got != (Link{Kind: l.Kind, Key: l.Key, ID: l.ID, Expires: l.Expires.UTC()}) {
			t.Errorf("Parse(Token(%+v)) = %+v, %v", l, got, err)
		}
		if strings.ContainsAny(tok, "/?#%+ =") {
			t.Errorf("token %q is not URL-safe", tok)
		}
		if _, err := s.Parse(tok, l.Expires); !errors.Is(err, ErrExpired) {
			t.Errorf("Parse at expiry: %v, want ErrExpired", err)
		}
		if _, err := NewSigner(map[string]string{l.Key.Platform: "other"}).Parse(tok, now); !errors.Is(err, ErrTampered) {
			t.Errorf("Parse with another secret: %v, want ErrTampered", err)
		}
	}
	if tok := s.Token(Link{Kind: KindChannel, Key: match.Key{Platform: "empty", Workspace: "a", Channel: "b"}}); tok != "" {
		t.Errorf("a platform with an empty secret signs %q", tok)
	}
	for _, bad := range []Link{
		{Kind: KindGame, Key: k, ID: "bad id!", Expires: now.Add(time.Hour)},
		{Kind: KindPlayer, Key: k, Expires: now.Add(time.Hour)},
		{Kind: KindChannel, Key: k, ID: "x", Expires: now.Add(time.Hour)},
		{Kind: Kind(9), Key: k, Expires: now.Add(time.Hour)},
		{Kind: KindChannel, Key: match.Key{Platform: "slack", Workspace: "a:b", Channel: "c"}, Expires: now.Add(time.Hour)},
	} {
		if got, err := s.Parse(s.Token(bad), now); !errors.Is(err, ErrTampered) {
			t.Errorf("Parse of a signed but invalid %+v = %+v, %v, want ErrTampered", bad, got, err)
		}
	}
}

// FuzzParse: no input makes Parse panic, and whatever it accepts, it
// signed.
func FuzzParse(f *testing.F) {
	s := NewSigner(map[string]string{"slack": "a"})
	now := time.Unix(1_800_000_000, 0)
	f.Add(s.Token(Link{Kind: KindChannel, Key: match.Key{Platform: "slack", Workspace: "T", Channel: "C"}, Expires: now.Add(time.Hour)}))
	f.Add("")
	f.Add(".")
	f.Add("e30.AAAA")
	f.Fuzz(func(t *testing.T, tok string) {
		l, err := s.Parse(tok, now)
		if err == nil && s.Token(l) != tok {
			t.Errorf("Parse accepted %q, which is not the token of %+v", tok, l)
		}
	})
}
