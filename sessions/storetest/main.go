package storetest

import (
	"flag"
	"os"
	"strconv"
	"testing"
)

// Main is a TestMain for packages whose parallel tests spend their time
// waiting on Redis servers (timers coming due, leases ending, servers
// starting), not on the CPU: it runs up to 8 of them at once (see
// RunParallel), as the adapters' packages do. Their deadlines (a Claim on
// time, a refusal within 300 ms of Redis going down) are measured in real
// time, and hold with 8 under -race beside a busy core.
//
// The packages that run Main (sessions, bot) share SharedCluster among
// many tests, and a run of all their tests (no -run) starts it at once, in
// the background, rather than when the first of those tests asks: a
// cluster takes 2 s or more to start (Redis turns a master writable no
// sooner), which the package's sequential tests cover. It does not
// return.
func Main(m *testing.M) { os.Exit(runParallel(m, 8, true)) }

// RunParallel runs m with up to parallel parallel tests at once unless
// -parallel is given, and returns its exit code, for a TestMain whose
// parallel tests wait (on servers, timers, backoffs, heartbeats) rather
// than compute: the default, GOMAXPROCS (2 on a small machine), would make
// them wait in turn for nothing.
func RunParallel(m *testing.M, parallel int) int { return runParallel(m, parallel, false) }

// runParallel is RunParallel, which with cluster set starts the shared
// cluster in the background when every test of the package runs.
func runParallel(m *testing.M, parallel int, cluster bool) int {
	flag.Parse()
	set := false
	flag.Visit(func(f *flag.Flag) { set = set || f.Name == "test.parallel" })
	if !set {
		_ = flag.Set("test.parallel", strconv.Itoa(parallel))
	}
	mainRuns.Store(true)
	defer stopShared()
	if f := flag.Lookup("test.run"); cluster && f != nil && f.Value.String() == "" && HaveRedisServer() {
		go shared.once.Do(startShared)
	}
	return m.Run()
}
