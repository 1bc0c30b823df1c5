//go:build !unix

package ops

import "time"

// processCPU cannot read the process's CPU time here: Procs leaves
// GOMAXPROCS alone.
func processCPU() (time.Duration, bool) { return 0, false }
