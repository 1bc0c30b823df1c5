package web

import (
	"context"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/connect4/connect4/bot/match"
	"github.com/connect4/connect4/engine"
)

// drawnGame returns the columns of a 7 × 6 game that fills the board
// without a winner: the largest page of the standard board. It plays
// seeded random games until one is a draw.
func drawnGame(tb testing.TB) []int {
	rng := rand.New(rand.NewPCG(1, 2))
	for range 100000 {
		g, _ := engine.New(engine.DefaultConfig())
		for !g.State().Over() {
			cols := g.LegalColumns()
			if err := g.Play(g.Turn(), cols[rng.IntN(len(cols))]); err != nil {
				tb.Fatal(err)
			}
		}
		if g.State() == engine.Draw {
			return g.History()
		}
	}
	tb.Fatal("no drawn game in 100000")
	return nil
}

// BenchmarkGamePage draws the page of a finished 7 × 6 game without the
// cache: the store read, the view and the template (the server's CPU of
// a first visit). It reports the page's size.
func BenchmarkGamePage(b *testing.B) {
	f := newFixture(b)
	r := f.play([]match.Player{hostileAlice, hostileBob}, "", drawnGame(b))
	tok := strings.TrimPrefix(linkOf(b, r), f.web.base+"pages/")
	l, err := f.web.signer.Parse(tok, f.clock.Now())
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	var size int
	for b.Loop() {
		p, err := f.web.view(ctx, l, tok)
		if err != nil {
			b.Fatal(err)
		}
		var out strings.Builder
		if err := f.web.assets.pages[p.Lang].Execute(&out, p); err != nil {
			b.Fatal(err)
		}
		size = out.Len()
	}
	b.ReportMetric(float64(size), "bytes/page")
}

// BenchmarkGamePageCached is a later visit of the same page: the store
// read and the cache.
func BenchmarkGamePageCached(b *testing.B) {
	f := newFixture(b)
	r := f.play([]match.Player{hostileAlice, hostileBob}, "", drawnGame(b))
	tok := strings.TrimPrefix(linkOf(b, r), f.web.base+"pages/")
	l, _ := f.web.signer.Parse(tok, f.clock.Now())
	ctx := context.Background()
	for b.Loop() {
		if _, err := f.web.Page(ctx, l, tok); err != nil {
			b.Fatal(err)
		}
	}
}
