//go:build unix

package discord

import (
	"syscall"
	"time"
)

// processCPU returns the user and system CPU time of the process so far,
// which a busy machine does not stretch as it stretches the wall time.
func processCPU() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
