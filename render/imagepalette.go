package render

import (
	"errors"
	"fmt"
	"image/color"
	"strings"

	"github.com/connect4/connect4/engine"
)

// ImagePalette chooses the colours of the board images (Image, PNG, GIF)
// and the colour words of AltText. The zero value, ImagePaletteUnknown,
// draws as ImageStandard.
type ImagePalette uint8

// The image palettes. New ones are only ever appended, so stored values keep
// their meaning.
const (
	// ImagePaletteUnknown is the zero value: no choice made. It draws as
	// ImageStandard.
	ImagePaletteUnknown ImagePalette = iota
	// ImageStandard draws red and yellow discs on a blue board.
	ImageStandard
	// ImageColourBlind draws blue and orange discs on a grey board, safe for
	// red–green colour blindness, and marks the second player's (yellow's)
	// discs with an inner ring so that they can be told apart without
	// colour at all.
	ImageColourBlind
)

// ErrUnknownPalette is the error a *PaletteError unwraps to.
var ErrUnknownPalette = errors.New("render: unknown image palette")

// PaletteError reports a palette name that ParseImagePalette does not know.
// It unwraps to ErrUnknownPalette.
type PaletteError struct {
	Name string // the name as given
}

// Error names the palette and the names that are known.
func (e *PaletteError) Error() string {
	return fmt.Sprintf("render: unknown image palette %q (want standard or colourblind)", e.Name)
}

// Unwrap returns ErrUnknownPalette.
func (e *PaletteError) Unwrap() error { return ErrUnknownPalette }

// String returns the palette's name as ParseImagePalette reads it:
// "standard" or "colourblind", and "unknown" for the zero value or a value
// out of range.
func (p ImagePalette) String() string {
	switch p {
	case ImageStandard:
		return "standard"
	case ImageColourBlind:
		return "colourblind"
	}
	return "unknown"
}

// ParseImagePalette returns the palette named s: "standard", or
// "colourblind" (also spelled "colorblind", "colour-blind" or
// "color-blind"), in any case and with surrounding space ignored. Any other
// name returns ImagePaletteUnknown and a *PaletteError.
func ParseImagePalette(s string) (ImagePalette, error) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "standard":
		return ImageStandard, nil
	case "colourblind", "colorblind", "colour-blind", "color-blind":
		return ImageColourBlind, nil
	}
	return ImagePaletteUnknown, &PaletteError{Name: s}
}

// MarshalText returns the palette's String, so that it is stored by name.
// It returns a *PaletteError for a palette that has no name.
func (p ImagePalette) MarshalText() ([]byte, error) {
	if !p.valid() {
		return nil, &PaletteError{Name: p.String()}
	}
	return []byte(p.String()), nil
}

// UnmarshalText sets p to the palette named by text, as ParseImagePalette
// reads it; on error p is unchanged.
func (p *ImagePalette) UnmarshalText(text []byte) error {
	q, err := ParseImagePalette(string(text))
	if err != nil {
		return err
	}
	*p = q
	return nil
}

func (p ImagePalette) valid() bool { return p == ImageStandard || p == ImageColourBlind }

// orStandard maps the zero value to the palette it draws as.
func (p ImagePalette) orStandard() ImagePalette {
	if p == ImagePaletteUnknown {
		return ImageStandard
	}
	return p
}

// PlayerColour returns the word for pl's discs in p, as AltText uses it:
// "red", "yellow", "green" and "blue" in ImageStandard (and the zero
// value), "blue", "orange", "green" and "pink" in ImageColourBlind;
// pl.String() for anything else.
func (p ImagePalette) PlayerColour(pl engine.Player) string {
	if p == ImageColourBlind {
		switch pl {
		case engine.Red:
			return "blue"
		case engine.Yellow:
			return "orange"
		case engine.Blue:
			return "pink"
		}
	}
	return pl.String()
}

// theme is the set of colours an image is drawn with. Every colour is
// opaque.
type theme struct {
	board, hole, label  color.RGBA
	face, rim           [4]color.RGBA // by player: [0] red's, [1] yellow's, [2] green's, [3] blue's
	win                 color.RGBA    // the ring around a winning disc
	markFill, markEdge  color.RGBA    // the dot on the last move
	secondPlayerHasRing bool          // the shape cue: yellow's discs carry an inner ring of their rim colour
}

func rgb(v uint32) color.RGBA {
	return color.RGBA{R: uint8(v >> 16), G: uint8(v >> 8), B: uint8(v), A: 0xff}
}

// theme returns the colours of p; the zero value and unknown values get the
// standard ones.
func (p ImagePalette) theme() theme {
	if p == ImageColourBlind {
		// Blue and orange after Okabe & Ito's palette, on a neutral grey
		// that neither blue nor orange is confused with.
		return theme{
			board: rgb(0x4a4f58), hole: rgb(0xeceef1), label: rgb(0xeceef1),
			// The third and fourth players: Okabe & Ito's bluish green
			// and reddish purple.
			face:     [4]color.RGBA{rgb(0x2a7fd4), rgb(0xf0a202), rgb(0x009e73), rgb(0xcc79a7)},
			rim:      [4]color.RGBA{rgb(0x0d4f8f), rgb(0x9c6400), rgb(0x00664a), rgb(0x8a4470)},
			win:      rgb(0xffffff),
			markFill: rgb(0xffffff), markEdge: rgb(0x111111),
			secondPlayerHasRing: true,
		}
	}
	return theme{
		board: rgb(0x1f4fa8), hole: rgb(0xe8eef7), label: rgb(0xe8eef7),
		// Green, and a light blue that stands out from the board.
		face:     [4]color.RGBA{rgb(0xdf2a3a), rgb(0xf7c933), rgb(0x2fb05a), rgb(0x6fd0f6)},
		rim:      [4]color.RGBA{rgb(0x9b1622), rgb(0xc0920a), rgb(0x1a6e36), rgb(0x1c82b0)},
		win:      rgb(0xffffff),
		markFill: rgb(0xffffff), markEdge: rgb(0x111111),
	}
}
