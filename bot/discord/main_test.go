package discord

import (
	"flag"
	"os"
	"testing"
)

// TestMain runs up to 8 parallel tests at once unless -parallel is given:
// the parallel tests wait on timeouts (a hung store, a slow Discord), not on
// the CPU.
func TestMain(m *testing.M) {
	flag.Parse()
	set := false
	flag.Visit(func(f *flag.Flag) { set = set || f.Name == "test.parallel" })
	if !set {
		_ = flag.Set("test.parallel", "8")
	}
	os.Exit(m.Run())
}
