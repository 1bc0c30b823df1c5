package render

import (
	"bytes"
	"compress/lzw"
	"io"
	"math/rand/v2"
	"testing"

	"github.com/connect4/connect4/engine"
)

// TestLZWRoundTrip encodes inputs of every kind (empty, one pixel, long
// runs of one or a few colours, noise, runs broken by noise, long enough
// to fill the code table many times) and decodes them with compress/lzw,
// which must give them back: the very bytes compress/lzw writes.
func TestLZWRoundTrip(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 2))
	runs := func(n, colours, maxRun int, noise float64) []byte {
		p := make([]byte, 0, n)
		for len(p) < n {
			c, k := byte(rng.IntN(colours)), 1+rng.IntN(maxRun)
			for range min(k, n-len(p)) {
				if rng.Float64() < noise {
					p = append(p, byte(rng.Uint32()))
				} else {
					p = append(p, c)
				}
			}
		}
		return p
	}
	inputs := map[string][]byte{
		"empty":      {},
		"one":        {7},
		"two equal":  {7, 7},
		"long run":   bytes.Repeat([]byte{200}, 300000),
		"noise":      runs(100000, 256, 1, 0),
		"runs":       runs(300000, 4, 200, 0),
		"noisy runs": runs(300000, 6, 64, 0.05),
		"short runs": runs(300000, 30, 5, 0.01),
	}
	img, err := Image(game(t, engine.DefaultConfig(), drawn...), ImageOptions{})
	if err != nil {
		t.Fatal(err)
	}
	inputs["board"] = img.Pix
	var e lzwEncoder
	for name, p := range inputs {
		t.Run(name, func(t *testing.T) {
			got := append([]byte(nil), e.encode(p)...)
			back, err := io.ReadAll(lzw.NewReader(bytes.NewReader(got), lzw.LSB, lzwLitWidth))
			if err != nil {
				t.Fatalf("decode: %v", err)
			}
			if !bytes.Equal(back, p) {
				t.Fatalf("decoded %d bytes that differ from the %d encoded", len(back), len(p))
			}
			var std bytes.Buffer
			w := lzw.NewWriter(&std, lzw.LSB, lzwLitWidth)
			w.Write(p)
			w.Close()
			// Greedy matching makes the same codes, so the same bytes.
			if !bytes.Equal(got, std.Bytes()) {
				t.Errorf("%d bytes, not the %d of compress/lzw", len(got), std.Len())
			}
		})
	}
}

// BenchmarkLZW encodes the pixels of a full 7 × 6 board, as a replay's
// first frame, with lzwEncoder and with compress/lzw.
func BenchmarkLZW(b *testing.B) {
	img, err := Image(game(b, engine.DefaultConfig(), drawn...), ImageOptions{})
	if err != nil {
		b.Fatal(err)
	}
	b.Run("runs", func(b *testing.B) {
		var e lzwEncoder
		for b.Loop() {
			e.encode(img.Pix)
		}
	})
	b.Run("compress", func(b *testing.B) {
		var buf bytes.Buffer
		for b.Loop() {
			buf.Reset()
			w := lzw.NewWriter(&buf, lzw.LSB, lzwLitWidth)
			w.Write(img.Pix)
			w.Close()
		}
	})
}
