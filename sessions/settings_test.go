package sessions_test

import (
	"errors"
	"testing"

	"github.com/connect4/connect4/bot/match"
	"github.com/connect4/connect4/sessions"
	"github.com/connect4/connect4/sessions/storetest"
)

// TestRedisSettingsDamaged checks what Redis does with a settings key
// written by someone else: a value this version does not know reads as the
// default, a key of the wrong type is reported as corrupt, and a settings
// change replaces it.
func TestRedisSettingsDamaged(t *testing.T) {
	c := storetest.Redis(t)
	prefix := storetest.Prefix(t, c)
	s := storetest.NewRedis(t, c, sessions.Options{Prefix: prefix})
	ctx := t.Context()
	k := storetest.Channel
	key := prefix + "{" + k.String() + "}:settings"

	c.HSet(ctx, key, "board", "hologram", "palette", "colourblind", "extra", "x")
	got, err := s.Settings(ctx, k)
	if want := (match.Settings{Palette: match.PaletteColourBlind}); err != nil || got != want {
		t.Fatalf("Settings with an unknown board = %+v, %v; want %+v", got, err, want)
	}

	c.Del(ctx, key)
	c.Set(ctx, key, "not a hash", 0)
	if _, err := s.Settings(ctx, k); !errors.Is(err, match.ErrCorrupt) {
		t.Fatalf("Settings of a string key: %v, want match.ErrCorrupt", err)
	}
	got, err = s.SetSettings(ctx, k, match.Settings{Board: match.BoardEmoji})
	if want := (match.Settings{Board: match.BoardEmoji}); err != nil || got != want {
		t.Fatalf("SetSettings over a string key = %+v, %v; want %+v", got, err, want)
	}
	if typ := c.Type(ctx, key).Val(); typ != "hash" {
		t.Fatalf("settings key is a %s after the change, want a hash", typ)
	}
	if ttl := c.TTL(ctx, key).Val(); ttl >= 0 {
		t.Fatalf("settings key TTL %v, want none", ttl)
	}
}
