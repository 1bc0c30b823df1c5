package render

import (
	"io"
	"testing"

	"github.com/connect4/connect4/engine"
)

// BenchmarkPNG draws and encodes a 7 × 6 board in mid-game.
func BenchmarkPNG(b *testing.B) {
	g := game(b, engine.DefaultConfig(), midgame...)
	for b.Loop() {
		if err := PNG(io.Discard, g, ImageOptions{}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkGIF replays a 42-move game (a draw: every cell filled).
func BenchmarkGIF(b *testing.B) {
	g := game(b, engine.DefaultConfig(), drawn...)
	for b.Loop() {
		if err := GIF(io.Discard, g, ImageOptions{}); err != nil {
			b.Fatal(err)
		}
	}
}
