package main

import (
	"fmt"
	"io"
	"slices"
	"sort"
	"strings"
	"time"
)

// report is what a load test measured.
type report struct {
	Games     int           // games played to the end
	Abandoned int           // games given up after an error
	Moves     int           // column clicks answered with the updated board
	Requests  int           // interactions sent, the PING excluded
	Elapsed   time.Duration // from the first challenge to the last answer
	Latencies []time.Duration

	Errors   int // all of the below
	HTTP     int // transport failures and non-2xx answers
	Refused  int // ephemeral notes where a board was expected
	Protocol int // answers without the expected buttons, game or move

	// Deferred counts moves answered with a deferred update (type 6): the
	// server took longer than its deferral threshold and would edit the
	// message through Discord's REST API. The game goes on from the
	// board that /connect4 board posts. Not an error.
	Deferred int
	Boards   int // /connect4 board requests after deferred moves

	// Delivered counts moves whose board came through the fake REST API
	// (-pictures): the move's latency runs until that message arrived.
	Delivered int
	// InPlace counts moves answered with their picture in the answer
	// itself (a multipart update, type 7), with -pictures.
	InPlace int
	// API counts what the fake REST API received, with -pictures, and
	// the pictures that came in answers.
	API *apiStats

	// ServerCPU is the CPU time the server spent during the run, from its
	// process_cpu_seconds_total, when HaveCPU (it serves /metrics). It
	// counts all of the server's work, challenges and accepts included.
	ServerCPU float64
	HaveCPU   bool

	// Redis's counters, the difference over the run, when options.Redis
	// is set. They count every client of that Redis, so run the test where
	// the server is its only other client.
	RedisCalls      int64            // commands but our own INFO, those run by scripts included (INFO commandstats)
	RedisCommands   map[string]int64 // calls by command
	RedisRoundTrips int64            // replies written to clients (INFO stats total_writes_processed)
	RedisCPU        float64          // Redis's CPU seconds (INFO cpu used_cpu_sys + used_cpu_user), with RedisCommands
	RedisCPUSys     float64          // the kernel's share of RedisCPU (used_cpu_sys): reading, writing and waiting on sockets, mostly
	Samples         []string         // the first few error descriptions

	// RedisScriptTime and RedisCommandTime are the microseconds Redis
	// spent in scripts (their commands included) and in commands other
	// than scripts (those scripts run included), by INFO commandstats
	// usec. They are wall-clock times, so a Redis preempted in the middle
	// of a command counts the wait too. What RedisCPU holds beyond
	// RedisScriptTime is mostly the cost of the round trips themselves.
	RedisScriptTime, RedisCommandTime int64
}

// percentile returns the nearest-rank p-th percentile (0 < p ≤ 100) of
// sorted, or 0 for none.
func percentile(sorted []time.Duration, p float64) time.Duration {
	if len(sorted) == 0 {
		return 0
	}
	i := int(float64(len(sorted))*p/100+0.999999) - 1
	return sorted[max(0, min(i, len(sorted)-1))]
}

// per returns n/d, or 0 when d is 0.
func per(n float64, d int) float64 {
	if d == 0 {
		return 0
	}
	return n / float64(d)
}

// print writes the report.
func (r report) print(w io.Writer) {
	lat := slices.Clone(r.Latencies)
	slices.Sort(lat)
	rate := 0.0
	if r.Elapsed > 0 {
		rate = float64(r.Moves) / r.Elapsed.Seconds()
	}
	ms := func(d time.Duration) string { return fmt.Sprintf("%.2fms", float64(d)/float64(time.Millisecond)) }
	fmt.Fprintf(w, "games      %d finished, %d abandoned\n", r.Games, r.Abandoned)
	fmt.Fprintf(w, "moves      %d in %.2fs: %.1f moves/s (%d requests)\n", r.Moves, r.Elapsed.Seconds(), rate, r.Requests)
	fmt.Fprintf(w, "errors     %d (http %d, refused %d, protocol %d); %d moves deferred\n", r.Errors, r.HTTP, r.Refused, r.Protocol, r.Deferred)
	fmt.Fprintf(w, "latency    move p50 %s  p95 %s  p99 %s  max %s\n",
		ms(percentile(lat, 50)), ms(percentile(lat, 95)), ms(percentile(lat, 99)), ms(percentile(lat, 100)))
	if r.HaveCPU {
		fmt.Fprintf(w, "server cpu %.3fs: %.0fµs per move, %.0fµs per request (process_cpu_seconds_total)\n",
			r.ServerCPU, per(r.ServerCPU*1e6, r.Moves), per(r.ServerCPU*1e6, r.Requests))
	}
	if a := r.API; a != nil {
		fmt.Fprintf(w, "pictures   %d moves answered with their picture, %d delivered through the REST API; %d PNGs, %.1f KB each; %d GIF replays, %.1f KB each (%d edits, %d follow-ups, %d other requests, %d bad)\n",
			r.InPlace, r.Delivered, a.Pictures, per(float64(a.Bytes)/1e3, int(a.Pictures)), a.Replays, per(float64(a.GIFs)/1e3, int(a.Replays)),
			a.Edits, a.FollowUps, a.Other, a.Bad)
	}
	if r.RedisCommands == nil {
		return
	}
	cmds := make([]string, 0, len(r.RedisCommands))
	for c := range r.RedisCommands {
		cmds = append(cmds, c)
	}
	sort.Slice(cmds, func(i, j int) bool {
		if r.RedisCommands[cmds[i]] != r.RedisCommands[cmds[j]] {
			return r.RedisCommands[cmds[i]] > r.RedisCommands[cmds[j]]
		}
		return cmds[i] < cmds[j]
	})
	var parts []string
	for _, c := range cmds {
		parts = append(parts, fmt.Sprintf("%s %d", c, r.RedisCommands[c]))
	}
	fmt.Fprintf(w, "redis      %d round trips: %.2f per move, %.2f per request (challenges and accepts included)\n",
		r.RedisRoundTrips, per(float64(r.RedisRoundTrips), r.Moves), per(float64(r.RedisRoundTrips), r.Requests))
	fmt.Fprintf(w, "redis      %d calls (commands run by scripts included): %.2f per move [%s]\n",
		r.RedisCalls, per(float64(r.RedisCalls), r.Moves), strings.Join(parts, ", "))
	fmt.Fprintf(w, "redis cpu  %.3fs: %.0fµs per move (INFO cpu, used_cpu_sys + used_cpu_user), %.0fµs of it sys\n",
		r.RedisCPU, per(r.RedisCPU*1e6, r.Moves), per(r.RedisCPUSys*1e6, r.Moves))
	fmt.Fprintf(w, "redis time %.0fµs per move in scripts, their commands included; %.0fµs in commands (INFO commandstats usec, wall clock)\n",
		per(float64(r.RedisScriptTime), r.Moves), per(float64(r.RedisCommandTime), r.Moves))
}
