//go:build unix

package ops

import (
	"syscall"
	"time"
)

// ProcessCPU returns the user and system CPU time of the process so far,
// which a busy machine does not stretch as it stretches the wall time; ok
// is false where it cannot be read.
func ProcessCPU() (cpu time.Duration, ok bool) {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0, false
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano()), true
}
