//go:build !unix

package ops

import "time"

// ProcessCPU cannot read the process's CPU time here (see procs_unix.go):
// Procs leaves GOMAXPROCS alone.
func ProcessCPU() (cpu time.Duration, ok bool) { return 0, false }
