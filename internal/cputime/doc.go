// Package cputime reads the CPU time of the running process, for
// benchmarks that report CPU time beside wall time (the machine may be
// shared, and CPU time is less inflated by other processes' load).
package cputime
