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
// time; 8 at once on 2 busy cores once missed them, and Main ran 4, which
// left the Cluster tests queued behind the others for 4 s. They now hold
// with 8: three runs of sessions and bot under -race beside a busy core
// (go test -race -count=3, CI=true). It does not return.
func Main(m *testing.M) { os.Exit(RunParallel(m, 8)) }

// RunParallel runs m with up to parallel parallel tests at once unless
// -parallel is given, and returns its exit code, for a TestMain whose
// parallel tests wait (on servers, timers, backoffs, heartbeats) rather
// than compute: the default, GOMAXPROCS (2 on a small machine), would make
// them wait in turn for nothing.
func RunParallel(m *testing.M, parallel int) int {
	flag.Parse()
	set := false
	flag.Visit(func(f *flag.Flag) { set = set || f.Name == "test.parallel" })
	if !set {
		_ = flag.Set("test.parallel", strconv.Itoa(parallel))
	}
	mainRuns.Store(true)
	defer stopShared()
	return m.Run()
}
