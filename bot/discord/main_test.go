package discord

import (
	"os"
	"testing"

	"github.com/connect4/connect4/sessions/storetest"
)

// TestMain runs up to 8 parallel tests at once unless -parallel is given:
// they wait (a hung store, a hanging upload, a stalled body), not compute.
func TestMain(m *testing.M) { os.Exit(storetest.RunParallel(m, 8)) }
