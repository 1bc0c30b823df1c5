package main

import (
	"flag"
	"os"
	"testing"
)

// TestMain runs this package's parallel tests up to 8 at once unless
// -parallel says otherwise: each runs a server in-process and spends its
// time waiting for a timer, a reconnect's backoff or a fake platform, not
// on the CPU, so GOMAXPROCS (the default, 2 here) would make them wait in
// turn for nothing.
func TestMain(m *testing.M) {
	flag.Parse()
	set := false
	flag.Visit(func(f *flag.Flag) { set = set || f.Name == "test.parallel" })
	if !set {
		_ = flag.Set("test.parallel", "8")
	}
	os.Exit(m.Run())
}
