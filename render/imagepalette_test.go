package render

import (
	"errors"
	"image/color"
	"testing"

	"github.com/connect4/connect4/engine"
)

func TestParseImagePalette(t *testing.T) {
	tests := []struct {
		in   string
		want ImagePalette
		ok   bool
	}{
		{"standard", ImageStandard, true},
		{" Standard\n", ImageStandard, true},
		{"colourblind", ImageColourBlind, true},
		{"ColorBlind", ImageColourBlind, true},
		{"colour-blind", ImageColourBlind, true},
		{"COLOR-BLIND", ImageColourBlind, true},
		{"", ImagePaletteUnknown, false},
		{"unknown", ImagePaletteUnknown, false},
		{"colour blind", ImagePaletteUnknown, false},
		{"red", ImagePaletteUnknown, false},
	}
	for _, tt := range tests {
		got, err := ParseImagePalette(tt.in)
		var pe *PaletteError
		switch {
		case got != tt.want:
			t.Errorf("ParseImagePalette(%q) = %v, want %v", tt.in, got, tt.want)
		case tt.ok && err != nil:
			t.Errorf("ParseImagePalette(%q) error %v, want none", tt.in, err)
		case !tt.ok && (!errors.As(err, &pe) || pe.Name != tt.in || !errors.Is(err, ErrUnknownPalette)):
			t.Errorf("ParseImagePalette(%q) error %v, want a *PaletteError for it, unwrapping to ErrUnknownPalette", tt.in, err)
		}
	}
}

func TestImagePaletteText(t *testing.T) {
	for _, p := range []ImagePalette{ImageStandard, ImageColourBlind} {
		b, err := p.MarshalText()
		if err != nil {
			t.Fatalf("%v.MarshalText: %v", p, err)
		}
		var q ImagePalette
		if err := q.UnmarshalText(b); err != nil || q != p {
			t.Errorf("UnmarshalText(%q) = %v, %v; want %v", b, q, err, p)
		}
	}
	for _, p := range []ImagePalette{ImagePaletteUnknown, ImageColourBlind + 1} {
		if b, err := p.MarshalText(); !errors.Is(err, ErrUnknownPalette) {
			t.Errorf("ImagePalette(%d).MarshalText() = %q, %v; want ErrUnknownPalette", p, b, err)
		}
		if s := p.String(); s != "unknown" {
			t.Errorf("ImagePalette(%d).String() = %q, want unknown", p, s)
		}
	}
	q := ImageColourBlind
	if err := q.UnmarshalText([]byte("sepia")); err == nil || q != ImageColourBlind {
		t.Errorf("UnmarshalText(sepia) = %v and set %v, want an error and no change", err, q)
	}
}

func TestPlayerColour(t *testing.T) {
	tests := []struct {
		p    ImagePalette
		pl   engine.Player
		want string
	}{
		{ImageStandard, engine.Red, "red"},
		{ImageStandard, engine.Yellow, "yellow"},
		{ImagePaletteUnknown, engine.Yellow, "yellow"},
		{ImageColourBlind, engine.Red, "blue"},
		{ImageColourBlind, engine.Yellow, "orange"},
		{ImageColourBlind, engine.NoPlayer, "none"},
	}
	for _, tt := range tests {
		if got := tt.p.PlayerColour(tt.pl); got != tt.want {
			t.Errorf("%v.PlayerColour(%v) = %q, want %q", tt.p, tt.pl, got, tt.want)
		}
	}
}

// TestColourTable checks that each palette's table fits a GIF with room
// for the transparent colour, and holds every colour a board is drawn
// with exactly.
func TestColourTable(t *testing.T) {
	for _, p := range []ImagePalette{ImageStandard, ImageColourBlind} {
		th := p.theme()
		pal := colourTable(th, 2)
		if len(pal) > 255 {
			t.Errorf("%v: %d colours, want at most 255", p, len(pal))
		}
		for _, c := range []color.RGBA{th.board, th.hole, th.label, th.win, th.markFill, th.markEdge, th.face[0], th.face[1], th.rim[0], th.rim[1]} {
			if i := pal.Index(c); !same(pal[i], c) {
				t.Errorf("%v: %v is not in the table", p, c)
			}
		}
	}
}

func FuzzParseImagePalette(f *testing.F) {
	for _, s := range []string{"standard", "colourblind", "Color-Blind", "", "x"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		p, err := ParseImagePalette(s)
		if err != nil {
			if p != ImagePaletteUnknown || !errors.Is(err, ErrUnknownPalette) {
				t.Fatalf("ParseImagePalette(%q) = %v, %v", s, p, err)
			}
			return
		}
		if q, err := ParseImagePalette(p.String()); err != nil || q != p {
			t.Fatalf("ParseImagePalette(%q) = %v, but its String %q parses as %v, %v", s, p, p.String(), q, err)
		}
	})
}
