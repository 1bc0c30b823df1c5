package storetest

import (
	"flag"
	"os"
	"testing"
)

// Main is a TestMain for packages whose parallel tests spend their time
// waiting on Redis servers (timers coming due, leases ending, servers
// starting), not on the CPU: it runs up to 8 of them at once unless
// -parallel says otherwise, where GOMAXPROCS (the default, 2 on a small
// machine) would make them wait in turn for nothing. It does not return.
func Main(m *testing.M) {
	flag.Parse()
	set := false
	flag.Visit(func(f *flag.Flag) { set = set || f.Name == "test.parallel" })
	if !set {
		_ = flag.Set("test.parallel", "8")
	}
	os.Exit(m.Run())
}
