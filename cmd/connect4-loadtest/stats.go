package main

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"math"
	"net/http"
	"regexp"
	"strconv"
	"strings"

	"github.com/redis/go-redis/v9"
)

// redisStats are the counters of one INFO reply.
type redisStats struct {
	calls  map[string]int64 // by command, from commandstats
	usec   map[string]int64 // microseconds spent in each command, from commandstats
	writes int64            // total_writes_processed: replies written to clients
	// The server's CPU time in microseconds, as INFO cpu gives it (seconds
	// with six decimals): used_cpu_sys + used_cpu_user, and used_cpu_sys
	// alone, the kernel's share. Whole microseconds, so that differences
	// of readings keep sys within cpu, which float seconds did not always.
	cpuUS, sysUS int64
}

// readRedisStats reads the command counts, the replies written and the
// CPU time from Redis's INFO commandstats, stats and cpu, in one command.
func readRedisStats(ctx context.Context, c *redis.Client) (redisStats, error) {
	s, err := c.Info(ctx, "commandstats", "stats", "cpu").Result()
	if err != nil {
		return redisStats{}, fmt.Errorf("redis INFO commandstats stats cpu: %w", err)
	}
	return parseRedisStats(s), nil
}

// parseRedisStats reads the counters of an INFO commandstats, stats and
// cpu reply.
func parseRedisStats(s string) redisStats {
	calls, usec := parseCommandStats(s)
	st := redisStats{calls: calls, usec: usec}
	sc := bufio.NewScanner(strings.NewReader(s))
	for sc.Scan() {
		name, v, _ := strings.Cut(strings.TrimSpace(sc.Text()), ":")
		switch name {
		case "total_writes_processed":
			st.writes, _ = strconv.ParseInt(v, 10, 64)
		case "used_cpu_sys", "used_cpu_user":
			f, _ := strconv.ParseFloat(v, 64)
			us := int64(math.Round(f * 1e6))
			st.cpuUS += us
			if name == "used_cpu_sys" {
				st.sysUS = us
			}
		}
	}
	return st
}

// parseCommandStats reads lines like
// "cmdstat_get:calls=21,usec=175,usec_per_call=8.33,..." into calls and
// microseconds by command ("get"; subcommands as "client|setname").
func parseCommandStats(s string) (calls, usec map[string]int64) {
	calls, usec = map[string]int64{}, map[string]int64{}
	sc := bufio.NewScanner(strings.NewReader(s))
	for sc.Scan() {
		name, rest, ok := strings.Cut(strings.TrimSpace(sc.Text()), ":")
		if !ok || !strings.HasPrefix(name, "cmdstat_") {
			continue
		}
		cmd := strings.TrimPrefix(name, "cmdstat_")
		for f := range strings.SplitSeq(rest, ",") {
			key, v, _ := strings.Cut(f, "=")
			n, err := strconv.ParseInt(v, 10, 64)
			switch {
			case err != nil:
			case key == "calls":
				calls[cmd] = n
			case key == "usec":
				usec[cmd] = n
			}
		}
	}
	return calls, usec
}

// isScript reports whether a command of commandstats runs a script or a
// function, whose usec includes the commands it runs.
func isScript(cmd string) bool {
	switch cmd {
	case "eval", "evalsha", "eval_ro", "evalsha_ro", "fcall", "fcall_ro":
		return true
	}
	return false
}

// cpuMetric is the Prometheus process collector's CPU time, which
// connect4 serve exposes on /metrics.
const cpuMetric = "process_cpu_seconds_total"

// errNoMetric is returned by serverCPU when /metrics lacks cpuMetric.
var errNoMetric = errors.New("no " + cpuMetric + " in /metrics")

// serverCPU returns the server's CPU seconds so far, from base/metrics.
func serverCPU(ctx context.Context, c *http.Client, base string) (float64, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, base+"/metrics", nil)
	if err != nil {
		return 0, err
	}
	resp, err := c.Do(req)
	if err != nil {
		return 0, err
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return 0, fmt.Errorf("GET /metrics: HTTP %d", resp.StatusCode)
	}
	body, err := io.ReadAll(io.LimitReader(resp.Body, 4<<20))
	if err != nil {
		return 0, fmt.Errorf("GET /metrics: %w", err)
	}
	return parseMetric(string(body), cpuMetric)
}

// parseMetric returns the value of the unlabelled sample name in a
// Prometheus text exposition.
func parseMetric(text, name string) (float64, error) {
	for line := range strings.Lines(text) {
		v, ok := strings.CutPrefix(strings.TrimSpace(line), name+" ")
		if !ok {
			continue
		}
		f, err := strconv.ParseFloat(strings.Fields(v)[0], 64)
		if err != nil {
			return 0, fmt.Errorf("%s: %q is not a number", name, v)
		}
		return f, nil
	}
	return 0, errNoMetric
}

var urlCredentials = regexp.MustCompile(`://[^/@\s]*@`)

// redactErr returns err's text with any credentials of a URL in it
// removed: a URL parse error quotes the whole URL, password and all.
func redactErr(err error) string {
	return urlCredentials.ReplaceAllString(err.Error(), "://xxxxx@")
}
