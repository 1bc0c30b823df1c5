package storetest

import (
	"context"
	"errors"
	"sync"
	"testing"

	"github.com/connect4/connect4/bot/match"
)

// SettingsStore is what the settings tests need beyond Store.
type SettingsStore interface {
	Store
	Settings(ctx context.Context, k match.Key) (match.Settings, error)
	SetSettings(ctx context.Context, k match.Key, change match.Settings) (match.Settings, error)
}

// testSettings checks a channel's display settings: none at first, each
// change applied to its own field only and returned, kept apart per
// channel, the language set and cleared, refused whole when a value is
// unknown, and concurrent changes
// of the two fields both kept.
func testSettings(t *testing.T, s Store, _ *Clock) {
	ss, ok := s.(SettingsStore)
	if !ok {
		t.Fatalf("%T has no settings", s)
	}
	ctx := t.Context()
	other := match.Key{Platform: Channel.Platform, Workspace: Channel.Workspace, Channel: "C2"}
	check := func(k match.Key, want match.Settings) {
		t.Helper()
		got, err := ss.Settings(ctx, k)
		if err != nil || got != want {
			t.Fatalf("Settings(%s) = %+v, %v; want %+v", k, got, err, want)
		}
	}
	set := func(change, want match.Settings) {
		t.Helper()
		got, err := ss.SetSettings(ctx, Channel, change)
		if err != nil || got != want {
			t.Fatalf("SetSettings(%+v) = %+v, %v; want %+v", change, got, err, want)
		}
		check(Channel, want)
	}
	check(Channel, match.Settings{})
	set(match.Settings{Board: match.BoardEmoji}, match.Settings{Board: match.BoardEmoji})
	set(match.Settings{Palette: match.PaletteColourBlind}, match.Settings{Board: match.BoardEmoji, Palette: match.PaletteColourBlind})
	set(match.Settings{Board: match.BoardImage}, match.Settings{Board: match.BoardImage, Palette: match.PaletteColourBlind})
	set(match.Settings{}, match.Settings{Board: match.BoardImage, Palette: match.PaletteColourBlind})
	check(other, match.Settings{})

	// The language: set, kept beside the look, replaced, cleared by
	// LanguageDefault; a code of the wrong form is refused whole.
	look := match.Settings{Board: match.BoardImage, Palette: match.PaletteColourBlind}
	set(match.Settings{Language: "de"}, match.Settings{Board: look.Board, Palette: look.Palette, Language: "de"})
	set(match.Settings{Board: match.BoardImage}, match.Settings{Board: look.Board, Palette: look.Palette, Language: "de"})
	set(match.Settings{Language: "pt-BR"}, match.Settings{Board: look.Board, Palette: look.Palette, Language: "pt-BR"})
	set(match.Settings{Language: match.LanguageDefault}, look)
	if _, err := ss.SetSettings(ctx, Channel, match.Settings{Language: "de\"x"}); !errors.Is(err, match.ErrInvalid) {
		t.Fatalf("SetSettings with a malformed language: %v, want match.ErrInvalid", err)
	}
	check(Channel, look)

	before, _ := ss.Settings(ctx, Channel)
	if _, err := ss.SetSettings(ctx, Channel, match.Settings{Board: match.BoardEmoji, Palette: 200}); !errors.Is(err, match.ErrInvalid) {
		t.Fatalf("SetSettings with an unknown palette: %v, want match.ErrInvalid", err)
	}
	check(Channel, before)
	if _, err := ss.SetSettings(ctx, match.Key{Platform: "slack"}, match.Settings{Board: match.BoardEmoji}); err == nil {
		t.Fatal("SetSettings on an invalid key: no error")
	}

	// Two people changing the two settings at once: both changes stay.
	for i := range 20 {
		k := match.Key{Platform: "slack", Workspace: "T1", Channel: "race" + string(rune('a'+i))}
		var wg sync.WaitGroup
		for _, c := range []match.Settings{{Board: match.BoardEmoji}, {Palette: match.PaletteColourBlind}} {
			wg.Go(func() {
				if _, err := ss.SetSettings(ctx, k, c); err != nil {
					t.Errorf("SetSettings(%+v): %v", c, err)
				}
			})
		}
		wg.Wait()
		check(k, match.Settings{Board: match.BoardEmoji, Palette: match.PaletteColourBlind})
	}
}
