// Package cputime reads the CPU time of the running process (Process) and
// of the calling OS thread (Thread), for benchmarks that report CPU time
// beside wall time (the machine may be shared, and CPU time is less
// inflated by other processes' load). A single-threaded step's cost is
// its thread's time: the process's time also counts the Go runtime's
// other threads, such as the garbage collector's background workers.
package cputime
