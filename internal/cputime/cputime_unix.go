//go:build unix && !linux

package cputime

import (
	"syscall"
	"time"
)

// Process returns the user and system CPU time of the process so far, 0
// if it cannot be read.
func Process() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
