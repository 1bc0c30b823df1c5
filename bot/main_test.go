package bot

import (
	"testing"

	"github.com/connect4/connect4/sessions/storetest"
)

// TestMain runs up to 4 parallel tests at once unless -parallel is given:
// most of them wait on Redis, the schedule's worker and timers coming due,
// not on the CPU (see storetest.Main).
func TestMain(m *testing.M) { storetest.Main(m) }
