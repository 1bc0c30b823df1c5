package sessions_test

import (
	"testing"

	"github.com/connect4/connect4/bot/match"

	"github.com/connect4/connect4/engine"
	"github.com/connect4/connect4/sessions"
	"github.com/connect4/connect4/sessions/storetest"
)

// benchmarkMove measures one move through s: Update loads the record,
// decodes the game, plays, encodes and writes. When a game fills up it is
// started again, in the same kind of Update. On Redis it also reports the
// round trips per move, counted by a hook.
func benchmarkMove(b *testing.B, s storetest.Store, rt *roundTrips) {
	k := storetest.Channel
	rec := storetest.Playing(b, k)
	if err := s.Create(b.Context(), rec); err != nil {
		b.Fatal(err)
	}
	// Columns in rotation; a finished game starts again.
	move := func(r *match.Record) (match.Tally, error) {
		g := r.Game
		if g.State().Over() {
			g, _ = engine.New(r.Config())
			r.Game = g
		}
		for i := range 7 {
			if col := (g.Moves() + i) % 7; g.CanPlay(col) {
				if err := g.Play(g.Turn(), col); err != nil {
					return match.Tally{}, err
				}
				break
			}
		}
		return match.Tally{}, nil
	}
	if _, err := s.Update(b.Context(), k, rec.ID, move); err != nil { // warm the script cache
		b.Fatal(err)
	}
	var start int64
	if rt != nil {
		start = rt.n.Load()
	}
	b.ReportAllocs()
	n := 0
	for b.Loop() {
		if _, err := s.Update(b.Context(), k, rec.ID, move); err != nil {
			b.Fatal(err)
		}
		n++
	}
	if rt != nil {
		b.ReportMetric(float64(rt.n.Load()-start)/float64(n), "roundtrips/op")
	}
}

func BenchmarkMove(b *testing.B) {
	b.Run("memory", func(b *testing.B) {
		benchmarkMove(b, storetest.NewMemory(b, sessions.Options{}), nil)
	})
	b.Run("redis", func(b *testing.B) {
		c := storetest.Redis(b)
		rt := &roundTrips{}
		c.AddHook(rt)
		benchmarkMove(b, storetest.NewRedis(b, c, sessions.Options{Prefix: storetest.Prefix(b, c)}), rt)
	})
}
