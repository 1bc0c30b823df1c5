package sessions_test

import (
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/redis/go-redis/v9"

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
	move := func(r *match.Record) (match.Tally, error) { return match.Tally{}, playNext(r) }
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

// playNext plays the turn's disc in the first column from a rotating
// start that has room; a finished game starts again.
func playNext(r *match.Record) error {
	g := r.Game
	if g.State().Over() {
		g, _ = engine.New(r.Config())
		r.Game = g
	}
	for i := range 7 {
		if col := (g.Moves() + i) % 7; g.CanPlay(col) {
			return g.Play(g.Turn(), col)
		}
	}
	return nil
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

// BenchmarkMoveScript measures the move script as the bot runs it, on a
// private redis-server so that INFO commandstats counts its commands only:
// each Update plays a disc, moves the turn's reminder and timeout timers
// (so the schedule's entries and the bucket's hint are written) and
// carries a request's nonce. It reports the Redis commands run per move
// (scripts' own commands; EVALSHA and the benchmark's INFO left out) and
// the server's time in the script per move, both from INFO commandstats,
// and the server's CPU time per move (INFO cpu), beside its CPU time per
// PING, a round trip that runs no script.
func BenchmarkMoveScript(b *testing.B) {
	srv := storetest.StartServer(b)
	c := srv.Client(b)
	s := storetest.NewRedis(b, c, sessions.Options{})
	ctx := b.Context()
	k := storetest.Channel
	rec := storetest.Playing(b, k)
	if err := s.Create(ctx, rec); err != nil {
		b.Fatal(err)
	}
	// Each move puts the timers off by a second more than the last, as a
	// move of a real game does (however fast the loop runs).
	start := time.Now()
	n := 0
	move := func(r *match.Record) (match.Tally, error) {
		due := start.Add(time.Duration(n) * time.Second)
		r.Timers = []match.Timer{{Kind: match.TimerRemind, Due: due.Add(time.Hour)}, {Kind: match.TimerTimeout, Due: due.Add(2 * time.Hour)}}
		return match.Tally{}, playNext(r)
	}
	play := func() {
		n++
		if _, err := s.Update(match.WithNonce(ctx, fmt.Sprintf("bench-%d", n)), k, rec.ID, move); err != nil {
			b.Fatal(err)
		}
	}
	play() // loads the script
	cpu0 := serverCPU(b, c)
	before := commandStats(b, c)
	n0 := n
	b.ReportAllocs()
	for b.Loop() {
		play()
	}
	after := commandStats(b, c)
	cpu := serverCPU(b, c) - cpu0
	moves := float64(n - n0)
	var cmds int64
	for name, st := range after {
		if !strings.HasPrefix(name, "eval") && name != "info" {
			cmds += st.calls - before[name].calls
		}
	}
	b.ReportMetric(float64(cmds)/moves, "cmds/op")
	b.ReportMetric(float64(after["evalsha"].usec-before["evalsha"].usec)/moves, "script-us/op")
	b.ReportMetric(cpu*1e6/moves, "redis-cpu-us/op")
	// What a bare round trip costs the server, measured on the same
	// connection right after the moves, so that redis-cpu-us/op can be
	// read as the round trip's share and the script's own.
	pings := min(n-n0, 20000)
	cpu0 = serverCPU(b, c)
	for range pings {
		if err := c.Ping(ctx).Err(); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric((serverCPU(b, c)-cpu0)*1e6/float64(pings), "redis-cpu-us/ping")
}

// serverCPU returns the server's CPU seconds so far, used_cpu_sys +
// used_cpu_user of INFO cpu.
func serverCPU(b *testing.B, c *redis.Client) float64 {
	b.Helper()
	info, err := c.Info(b.Context(), "cpu").Result()
	if err != nil {
		b.Fatal(err)
	}
	var sum float64
	for line := range strings.Lines(info) {
		name, v, _ := strings.Cut(strings.TrimSpace(line), ":")
		if name == "used_cpu_sys" || name == "used_cpu_user" {
			f, _ := strconv.ParseFloat(v, 64)
			sum += f
		}
	}
	return sum
}

// cmdStat is one command's line of INFO commandstats.
type cmdStat struct{ calls, usec int64 }

// commandStats reads INFO commandstats: lines like
// "cmdstat_get:calls=21,usec=175,usec_per_call=8.33,..." by command.
func commandStats(b *testing.B, c *redis.Client) map[string]cmdStat {
	b.Helper()
	info, err := c.Info(b.Context(), "commandstats").Result()
	if err != nil {
		b.Fatal(err)
	}
	out := map[string]cmdStat{}
	for line := range strings.Lines(info) {
		name, rest, ok := strings.Cut(strings.TrimSpace(line), ":")
		if !ok || !strings.HasPrefix(name, "cmdstat_") {
			continue
		}
		var st cmdStat
		for f := range strings.SplitSeq(rest, ",") {
			if v, ok := strings.CutPrefix(f, "calls="); ok {
				st.calls, _ = strconv.ParseInt(v, 10, 64)
			}
			if v, ok := strings.CutPrefix(f, "usec="); ok {
				st.usec, _ = strconv.ParseInt(v, 10, 64)
			}
		}
		out[strings.TrimPrefix(name, "cmdstat_")] = st
	}
	return out
}
