//go:build linux

package cputime

import (
	"time"

	"golang.org/x/sys/unix"
)

// Process returns the CPU time of the process so far, all its threads
// (clock_gettime's CLOCK_PROCESS_CPUTIME_ID, to the nanosecond, as MuJoCo's
// timing tool reads its own), 0 if it cannot be read.
func Process() time.Duration { return clock(unix.CLOCK_PROCESS_CPUTIME_ID) }

// Thread returns the CPU time of the calling OS thread so far
// (CLOCK_THREAD_CPUTIME_ID), 0 if it cannot be read. The caller pins its
// goroutine to the thread with runtime.LockOSThread around the interval it
// measures; the work of other threads (the garbage collector's background
// workers, the scheduler's spinning threads) is not counted, unlike
// Process.
func Thread() time.Duration { return clock(unix.CLOCK_THREAD_CPUTIME_ID) }

// clock reads the CPU-time clock c.
func clock(c int32) time.Duration {
	var ts unix.Timespec
	if err := unix.ClockGettime(c, &ts); err != nil {
		return 0
	}
	return time.Duration(ts.Nano())
}
