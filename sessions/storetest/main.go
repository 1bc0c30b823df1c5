package storetest

import (
	"flag"
	"os"
	"testing"
)

// Main is a TestMain for packages whose parallel tests spend their time
// waiting on Redis servers (timers coming due, leases ending, servers
// starting), not on the CPU: it runs up to 4 of them at once unless
// -parallel says otherwise, where GOMAXPROCS (the default, 2 on a small
// machine) would make them wait in turn for nothing. Not more: their
// deadlines (a Claim on time, a refusal within 300 ms of Redis going down)
// are measured in real time, and 8 at once on 2 busy cores missed them.
// It does not return.
func Main(m *testing.M) {
	flag.Parse()
	set := false
	flag.Visit(func(f *flag.Flag) { set = set || f.Name == "test.parallel" })
	if !set {
		_ = flag.Set("test.parallel", "4")
	}
	os.Exit(m.Run())
}
