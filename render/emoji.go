package render

import (
	"bytes"
	"fmt"
	"image/png"

	"github.com/connect4/connect4/engine"
)

// EmojiSize is the side of an emoji picture in pixels: Discord shows
// custom emoji at up to 128 pixels.
const EmojiSize = MaxCellSize

// Emoji is one of the pictures a chat app can upload as its own emoji, so
// that an emoji board looks the same on every device: a disc (Disc a
// player, or NoPlayer for an empty hole), ringed when Win.
type Emoji struct {
	Disc engine.Player
	Win  bool
}

// Emojis returns every emoji an emoji board may show: the empty hole, then
// each of the four players' discs, plain and in a winning line.
func Emojis() []Emoji {
	es := []Emoji{{Disc: engine.NoPlayer}}
	for _, p := range []engine.Player{engine.Red, engine.Yellow, engine.Green, engine.Blue} {
		es = append(es, Emoji{Disc: p}, Emoji{Disc: p, Win: true})
	}
	return es
}

// Name returns e's name in palette p, made of lower-case letters, digits
// and underscores (as Discord's emoji names are): "c4_red", "c4_red_win",
// "c4_empty", with "cb" after "c4" in ImageColourBlind.
func (e Emoji) Name(p ImagePalette) string {
	prefix := "c4_"
	if p == ImageColourBlind {
		prefix = "c4cb_"
	}
	if !e.Disc.Valid() {
		return prefix + "empty"
	}
	name := prefix + e.Disc.String()
	if e.Win {
		name += "_win"
	}
	return name
}

// EmojiPNG returns e drawn in palette p as an EmojiSize × EmojiSize PNG:
// one cell of the board picture (Image) showing e, the same colours and
// shape cues, so that an emoji board reads like the picture. The same
// arguments always give the same bytes; it is safe for concurrent use. It
// returns an *OptionError for a palette out of range.
func EmojiPNG(e Emoji, p ImagePalette) ([]byte, error) {
	o, err := ImageOptions{Palette: p, CellSize: EmojiSize}.withDefaults()
	if err != nil {
		return nil, err
	}
	cv, err := newCanvas(engine.Config{Rows: 6, Cols: 7, Connect: 4, Players: 4}, o)
	if err != nil {
		return nil, err
	}
	var buf bytes.Buffer
	enc := png.Encoder{CompressionLevel: png.BestCompression}
	if err := enc.Encode(&buf, cv.tile(look{disc: e.Disc, win: e.Win})); err != nil {
		return nil, fmt.Errorf("render: encode emoji %s: %w", e.Name(p), err)
	}
	return buf.Bytes(), nil
}
