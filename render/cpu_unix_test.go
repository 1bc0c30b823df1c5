//go:build unix

package render

import (
	"syscall"
	"testing"
	"time"
)

// reportCPU reports the process's CPU time per iteration since start
// (from getrusage), beside the wall time that a busy machine stretches.
func reportCPU(b *testing.B, start time.Duration) {
	if n := b.N; n > 0 {
		b.ReportMetric(float64(processCPU()-start)/float64(n), "cpu-ns/op")
	}
}

// processCPU returns the user and system CPU time of the process so far.
func processCPU() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
