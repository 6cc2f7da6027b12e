//go:build !linux

package cputime

import "time"

// Thread is the process's CPU time (Process) on this platform, which has
// no per-thread usage in package syscall.
func Thread() time.Duration { return Process() }
