package sessions_test

import (
	"testing"

	"github.com/connect4/connect4/sessions/storetest"
)

// TestMain runs the parallel tests, which mostly wait on Redis, up to 4 at
// once (see storetest.Main).
func TestMain(m *testing.M) { storetest.Main(m) }
