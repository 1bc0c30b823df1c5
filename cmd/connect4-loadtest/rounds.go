package main

import (
	"context"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
)

// side is one of the servers that playRounds loads: the flag that named
// it, and the options of its runs.
type side struct {
	flag string // "-url" or "-compare"
	opt  options
}

// playRounds loads opt's server rounds times and prints each run's report;
// with cmp it loads the server at cmp too, in every round, the two in
// turn (cmp's first in odd rounds, opt's first in even ones, so that a
// drift of the machine's speed falls on both alike), and ends with both
// servers' CPU per move by round and the ratio of opt's to cmp's in each
// round, with the least and the median. cmp's runs never ask for
// pictures (the baseline draws emoji). It returns an error after any
// failed request, once every run has been reported.
func playRounds(ctx context.Context, opt options, cmp string, rounds int, apiAddr string, generated bool, stdout, stderr io.Writer) error {
	var api *fakeAPI
	if opt.Pictures {
		api = newFakeAPI()
		stopAPI, err := serveAPI(ctx, apiAddr, api, stderr)
		if err != nil {
			return err
		}
		defer stopAPI()
	}
	sides := []side{{"-url", opt}}
	if cmp != "" {
		o := opt
		o.URL, o.Pictures = cmp, false
		sides = append(sides, side{"-compare", o})
	}
	many := rounds > 1 || cmp != ""
	cpu := make([][]float64, len(sides)) // µs a move, by side and round; NaN without a reading
	var rds [][]redisRound               // with -redis: Redis's work a move, by side and round
	if opt.Redis != "" {
		rds = make([][]redisRound, len(sides))
	}
	errs := 0
	for r := range rounds {
		order := []int{0}
		if cmp != "" {
			order = []int{1, 0}
			if r%2 == 1 {
				order = []int{0, 1}
			}
		}
		for _, i := range order {
			s := sides[i]
			lt := newLoadtester(s.opt)
			if s.opt.Pictures {
				lt.api = api // one fake REST API for every round
			}
			if err := lt.waitReady(ctx, generated, stderr); err != nil {
				return err
			}
			rep, err := lt.run(ctx)
			if err != nil {
				return err
			}
			if many {
				fmt.Fprintf(stdout, "== round %d of %d: %s %s\n", r+1, rounds, s.flag, s.opt.URL)
			}
			rep.print(stdout)
			for _, smp := range rep.Samples {
				fmt.Fprintln(stderr, "connect4-loadtest: error:", smp)
			}
			errs += rep.Errors
			// A counter that did not move is no reading: it counts in
			// ticks of 10 ms, which a short run can fall within.
			v := math.NaN()
			if rep.HaveCPU && rep.Moves > 0 && rep.ServerCPU > 0 {
				v = rep.ServerCPU * 1e6 / float64(rep.Moves)
			}
			cpu[i] = append(cpu[i], v)
			if rds != nil {
				rds[i] = append(rds[i], redisPerMove(rep))
			}
		}
	}
	if many {
		printRounds(stdout, sides, cpu)
		if rds != nil {
			printRedisRounds(stdout, sides, rds)
		}
	}
	if errs > 0 {
		return fmt.Errorf("%d errors", errs)
	}
	return nil
}

// printRounds writes the CPU per move of each side by round and, for two
// sides, the ratio of the first's to the second's in each round.
func printRounds(w io.Writer, sides []side, cpu [][]float64) {
	fmt.Fprintln(w, "== CPU per move by round (process_cpu_seconds_total)")
	for i, s := range sides {
		fmt.Fprintf(w, "%-10s %s µs\n", s.flag, joinFloats(cpu[i], 0))
	}
	if len(sides) < 2 {
		return
	}
	var ratios []float64
	for r := range cpu[0] {
		ratios = append(ratios, cpu[0][r]/cpu[1][r])
	}
	least, mid := leastMedian(ratios)
	if math.IsNaN(mid) {
		fmt.Fprintln(w, "ratio      no CPU reading from a server's /metrics")
		return
	}
	fmt.Fprintf(w, "ratio      %s: least %.2f, median %.2f (-url's over -compare's, each from one round)\n", joinFloats(ratios, 2), least, mid)
}

// redisRound is Redis's work a move in one run: its CPU in µs (INFO cpu)
// and the commands it ran, those run by scripts included (INFO
// commandstats), NaN for a run without moves.
type redisRound struct{ cpu, cmds float64 }

// redisPerMove returns rep's Redis work a move.
func redisPerMove(rep report) redisRound {
	if rep.Moves == 0 {
		return redisRound{math.NaN(), math.NaN()}
	}
	n := float64(rep.Moves)
	return redisRound{rep.RedisCPU * 1e6 / n, float64(rep.RedisCalls) / n}
}

// printRedisRounds writes Redis's CPU and commands a move of each side by
// round, with the least and the median of each: the figures the runs
// above print one by one. A side that keeps no game in that Redis (the
// baseline without -redis) reads what Redis did meanwhile for no one.
func printRedisRounds(w io.Writer, sides []side, rds [][]redisRound) {
	fmt.Fprintln(w, "== Redis per move by round (INFO cpu, INFO commandstats)")
	for i, s := range sides {
		var cpu, cmds []float64
		for _, r := range rds[i] {
			cpu, cmds = append(cpu, r.cpu), append(cmds, r.cmds)
		}
		cl, cm := leastMedian(cpu)
		nl, nm := leastMedian(cmds)
		fmt.Fprintf(w, "%-10s cpu %s µs: least %.0f, median %.0f; commands %s: least %.2f, median %.2f\n",
			s.flag, joinFloats(cpu, 0), cl, cm, joinFloats(cmds, 2), nl, nm)
	}
}

// joinFloats formats vs with prec decimals, "-" for NaN, space separated.
func joinFloats(vs []float64, prec int) string {
	parts := make([]string, len(vs))
	for i, v := range vs {
		parts[i] = "-"
		if !math.IsNaN(v) {
			parts[i] = strconv.FormatFloat(v, 'f', prec, 64)
		}
	}
	return strings.Join(parts, " ")
}

// leastMedian returns the least and the median of vs (the mean of the two
// middle ones for an even count), or NaNs when any is NaN or vs is empty.
func leastMedian(vs []float64) (least, median float64) {
	if len(vs) == 0 || slices.ContainsFunc(vs, math.IsNaN) {
		return math.NaN(), math.NaN()
	}
	s := slices.Sorted(slices.Values(vs))
	n := len(s)
	if n%2 == 1 {
		return s[0], s[n/2]
	}
	return s[0], (s[n/2-1] + s[n/2]) / 2
}
