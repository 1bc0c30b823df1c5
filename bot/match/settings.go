package match

import (
	"fmt"
	"strings"
)

// BoardStyle is how a channel's game messages show the board. The zero
// value BoardDefault means the channel has not chosen: a picture wherever
// the adapter can post one, else emoji.
type BoardStyle uint8

// The board styles. New styles are only ever appended.
const (
	BoardDefault BoardStyle = iota
	// BoardImage shows the board as a PNG picture (emoji where the
	// platform cannot take one, or the upload fails).
	BoardImage
	// BoardEmoji shows the board as emoji text, as every adapter can.
	BoardEmoji
)

// String returns "default", "image" or "emoji" (the stored and typed
// forms).
func (b BoardStyle) String() string {
	switch b {
	case BoardImage:
		return "image"
	case BoardEmoji:
		return "emoji"
	}
	return "default"
}

// ParseBoardStyle returns the style named s ("image" or "emoji", in any
// case; also "picture" and "text"), or an error naming s.
func ParseBoardStyle(s string) (BoardStyle, error) {
	switch strings.ToLower(s) {
	case "image", "picture", "png":
		return BoardImage, nil
	case "emoji", "text":
		return BoardEmoji, nil
	}
	return BoardDefault, fmt.Errorf("match: unknown board style %.40q (want image or emoji)", s)
}

// Palette is the colours a channel's board pictures are drawn in. The zero
// value PaletteDefault means the channel has not chosen: the standard one.
type Palette uint8

// The palettes. New palettes are only ever appended.
const (
	PaletteDefault Palette = iota
	// PaletteStandard is red and yellow discs.
	PaletteStandard
	// PaletteColourBlind is blue and orange discs, the second player's
	// with a ring, safe for red–green colour blindness.
	PaletteColourBlind
)

// String returns "default", "standard" or "colourblind" (the stored and
// typed forms).
func (p Palette) String() string {
	switch p {
	case PaletteStandard:
		return "standard"
	case PaletteColourBlind:
		return "colourblind"
	}
	return "default"
}

// ParsePalette returns the palette named s ("standard" or "colourblind",
// in any case; also "colorblind", "colour-blind" and "color-blind"), or an
// error naming s.
func ParsePalette(s string) (Palette, error) {
	switch strings.ToLower(s) {
	case "standard", "default", "red-yellow":
		return PaletteStandard, nil
	case "colourblind", "colorblind", "colour-blind", "color-blind", "cb":
		return PaletteColourBlind, nil
	}
	return PaletteDefault, fmt.Errorf("match: unknown palette %.40q (want standard or colourblind)", s)
}

// Settings are a channel's display choices. They are kept per channel
// without expiry; the zero value is a channel that has chosen nothing.
type Settings struct {
	Board   BoardStyle
	Palette Palette
	// Language is the code of the language the channel's messages are
	// in ("de", "pt-BR"), or "" for the platform's choice. In a change,
	// LanguageDefault clears it. Package match checks only its form (see
	// ValidLanguage); the bot checks it is a language it speaks.
	Language string
}

// LanguageDefault, as the Language of a change, clears a channel's
// language: its messages go back to the platform's locale.
const LanguageDefault = "default"

// maxLanguage bounds a stored language code: BCP 47 codes the bot speaks
// are at most 5 characters, and no code people use needs more than 16.
const maxLanguage = 16

// ValidLanguage reports whether code has the form of a language code:
// 1 to 16 ASCII letters, digits and hyphens, starting with a letter. It
// does not say whether the bot speaks it.
func ValidLanguage(code string) bool {
	if code == "" || len(code) > maxLanguage {
		return false
	}
	for i, c := range code {
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z':
		case i > 0 && (c == '-' || c >= '0' && c <= '9'):
		default:
			return false
		}
	}
	return true
}

// With returns s with the non-zero fields of change applied.
func (s Settings) With(change Settings) Settings {
	if change.Board != BoardDefault {
		s.Board = change.Board
	}
	if change.Palette != PaletteDefault {
		s.Palette = change.Palette
	}
	switch change.Language {
	case "":
	case LanguageDefault:
		s.Language = ""
	default:
		s.Language = change.Language
	}
	return s
}

// Valid reports whether every field of s is one of the known values.
func (s Settings) Valid() bool {
	return s.Board <= BoardEmoji && s.Palette <= PaletteColourBlind &&
		(s.Language == "" || ValidLanguage(s.Language))
}

// ParseSetting reads one stored field of a channel's settings into s: the
// field "board" or "palette" with its String form, or "language" with a
// code ("" for none). Unknown fields, and
// values this version does not know (written by a newer one), are left
// out, so that they read as the default; it reports whether it used them.
func (s *Settings) ParseSetting(field, value string) bool {
	switch field {
	case "board":
		if b, err := ParseBoardStyle(value); err == nil {
			s.Board = b
			return true
		}
	case "palette":
		if p, err := ParsePalette(value); err == nil {
			s.Palette = p
			return true
		}
	case "language":
		if value == "" || ValidLanguage(value) && value != LanguageDefault {
			s.Language = value
			return true
		}
	}
	return false
}

// Fields returns the stored fields of the non-zero settings of s, as
// field, value pairs: the form ParseSetting reads.
func (s Settings) Fields() []string {
	var f []string
	if s.Board != BoardDefault {
		f = append(f, "board", s.Board.String())
	}
	if s.Palette != PaletteDefault {
		f = append(f, "palette", s.Palette.String())
	}
	switch s.Language {
	case "":
	case LanguageDefault:
		f = append(f, "language", "") // cleared: read as none
	default:
		f = append(f, "language", s.Language)
	}
	return f
}
