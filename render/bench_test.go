package render

import (
	"bytes"
	"image/png"
	"io"
	"testing"

	"github.com/connect4/connect4/engine"
)

// BenchmarkPNG draws and encodes a 7 × 6 board in mid-game.
func BenchmarkPNG(b *testing.B) {
	g := game(b, engine.DefaultConfig(), midgame...)
	cpu0 := processCPU()
	for b.Loop() {
		if err := PNG(io.Discard, g, ImageOptions{}); err != nil {
			b.Fatal(err)
		}
	}
	reportCPU(b, cpu0)
}

// BenchmarkGIF replays a 42-move game (a draw: every cell filled).
func BenchmarkGIF(b *testing.B) {
	g := game(b, engine.DefaultConfig(), drawn...)
	cpu0 := processCPU()
	for b.Loop() {
		if err := GIF(io.Discard, g, ImageOptions{}); err != nil {
			b.Fatal(err)
		}
	}
	reportCPU(b, cpu0)
}

// positions returns every position of n seeded random 7 × 6 games, in the
// order they are played.
func positions(b *testing.B, n int) []*engine.Game {
	var out []*engine.Game
	for seed := range uint64(n) {
		out = append(out, prefixes(b, randomGame(b, engine.DefaultConfig(), seed))[1:]...)
	}
	return out
}

// BenchmarkPainterPNG draws the picture after each move of 200 random
// 7 × 6 games in the order of play, as a chat shows them: the cost of a
// move's picture in a game the Painter has not seen, with the bands of the
// games before it kept. After the 200 games it starts again on a new
// Painter, so that the figure does not depend on how many times the loop
// has seen them.
func BenchmarkPainterPNG(b *testing.B) {
	pos := positions(b, 200)
	var p *Painter
	var buf bytes.Buffer
	i := 0
	cpu0 := processCPU()
	for b.Loop() {
		if i%len(pos) == 0 {
			p = NewPainter(0)
		}
		buf.Reset()
		if err := p.PNG(&buf, pos[i%len(pos)], ImageOptions{}); err != nil {
			b.Fatal(err)
		}
		i++
	}
	reportCPU(b, cpu0)
	b.ReportMetric(float64(buf.Len()), "B/picture")
}

// BenchmarkPainterGIF replays a 42-move game on a Painter's kept canvas.
func BenchmarkPainterGIF(b *testing.B) {
	g := game(b, engine.DefaultConfig(), drawn...)
	p := NewPainter(0)
	cpu0 := processCPU()
	for b.Loop() {
		if err := p.GIF(io.Discard, g, ImageOptions{}); err != nil {
			b.Fatal(err)
		}
	}
	reportCPU(b, cpu0)
}

// BenchmarkPNGLevels encodes a mid-game 7 × 6 board at each compression
// level and reports the picture's size beside the time: the figures behind
// pngLevel.
func BenchmarkPNGLevels(b *testing.B) {
	img, err := Image(game(b, engine.DefaultConfig(), midgame...), ImageOptions{})
	if err != nil {
		b.Fatal(err)
	}
	for _, l := range []struct {
		name  string
		level png.CompressionLevel
	}{{"BestSpeed", png.BestSpeed}, {"Default", png.DefaultCompression}, {"Best", png.BestCompression}} {
		level := l.level
		b.Run(l.name, func(b *testing.B) {
			enc := png.Encoder{CompressionLevel: level, BufferPool: &bufferPool{}}
			var buf bytes.Buffer
			cpu0 := processCPU()
			for b.Loop() {
				buf.Reset()
				if err := enc.Encode(&buf, img); err != nil {
					b.Fatal(err)
				}
			}
			reportCPU(b, cpu0)
			b.ReportMetric(float64(buf.Len()), "B/picture")
		})
	}
}

// bufferPool keeps one png.EncoderBuffer, for a benchmark's one goroutine.
type bufferPool struct{ b *png.EncoderBuffer }

func (p *bufferPool) Get() *png.EncoderBuffer  { return p.b }
func (p *bufferPool) Put(b *png.EncoderBuffer) { p.b = b }
