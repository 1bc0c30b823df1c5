package render

import (
	"bytes"
	"image/png"
	"regexp"
	"testing"

	"github.com/connect4/connect4/engine"
)

// TestEmojiPNG: every emoji in both palettes is a 128×128 PNG under
// Discord's 256 KiB, named as Discord's emoji names must be, each name
// once; its centre shows the disc's face colour (or the hole's) of its
// palette, so the colour-blind set differs from the standard one; and the
// bytes are the same every time.
func TestEmojiPNG(t *testing.T) {
	valid := regexp.MustCompile(`^[a-z0-9_]{2,32}$`)
	seen := map[string]bool{}
	for _, p := range []ImagePalette{ImageStandard, ImageColourBlind} {
		th := p.theme()
		for _, e := range Emojis() {
			name := e.Name(p)
			if !valid.MatchString(name) || seen[name] {
				t.Errorf("name %q: invalid or taken twice", name)
			}
			seen[name] = true
			b, err := EmojiPNG(e, p)
			if err != nil {
				t.Fatalf("EmojiPNG(%s): %v", name, err)
			}
			if len(b) > 256<<10 {
				t.Errorf("%s: %d bytes, over 256 KiB", name, len(b))
			}
			img, err := png.Decode(bytes.NewReader(b))
			if err != nil {
				t.Fatalf("%s: not a PNG: %v", name, err)
			}
			if r := img.Bounds(); r.Dx() != EmojiSize || r.Dy() != EmojiSize {
				t.Errorf("%s: %v, want %d×%d", name, r, EmojiSize, EmojiSize)
			}
			want := th.hole
			if e.Disc.Valid() {
				want = th.face[e.Disc-1]
				if th.secondPlayerHasRing && e.Disc == engine.Yellow {
					want = th.face[e.Disc-1] // the cue's inner circle is the face again
				}
			}
			if e.Disc == engine.Blue || e.Disc == engine.Green {
				want = th.rim[e.Disc-1] // the shape cue covers the centre
			}
			r, g, bl, _ := img.At(EmojiSize/2, EmojiSize/2).RGBA()
			if uint8(r>>8) != want.R || uint8(g>>8) != want.G || uint8(bl>>8) != want.B {
				t.Errorf("%s: centre %02x%02x%02x, want %02x%02x%02x", name, r>>8, g>>8, bl>>8, want.R, want.G, want.B)
			}
			again, _ := EmojiPNG(e, p)
			if !bytes.Equal(b, again) {
				t.Errorf("%s: two calls gave different bytes", name)
			}
		}
	}
	if len(seen) != 2*len(Emojis()) {
		t.Errorf("%d names, want %d", len(seen), 2*len(Emojis()))
	}
	if _, err := EmojiPNG(Emoji{Disc: engine.Red}, ImagePalette(9)); err == nil {
		t.Error("a palette out of range gave no error")
	}
}
