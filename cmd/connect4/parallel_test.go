package main

import (
	"os"
	"testing"

	"github.com/connect4/connect4/sessions/storetest"
)

// TestMain runs this package's parallel tests up to 8 at once unless
// -parallel says otherwise: each runs a server in-process and spends its
// time waiting for a timer, a reconnect's backoff or a fake platform, not
// on the CPU.
func TestMain(m *testing.M) { os.Exit(storetest.RunParallel(m, 8)) }
