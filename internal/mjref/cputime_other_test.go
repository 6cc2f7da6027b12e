//go:build !unix

package mjref

import "time"

// cpuTime is not measured on this platform (cpu-ns/op reads 0).
func cpuTime() time.Duration { return 0 }
