package gatewayfake

import (
	"flag"
	"os"
	"testing"
)

// TestMain runs this package's parallel tests up to 8 at once unless
// -parallel says otherwise: they spend their time waiting for a
// reconnect's backoff or a heartbeat, not on the CPU, so GOMAXPROCS (the
// default, 2 here) would make them wait in turn for nothing.
func TestMain(m *testing.M) {
	flag.Parse()
	set := false
	flag.Visit(func(f *flag.Flag) { set = set || f.Name == "test.parallel" })
	if !set {
		_ = flag.Set("test.parallel", "8")
	}
	os.Exit(m.Run())
}
