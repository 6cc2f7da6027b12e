// Package experiment holds the measurements that both the tests and
// `stiction validate` run: scenes built by code or loaded from the embedded
// ones, the runs that measure orders of convergence, energy bands and
// stability, and the least-squares fits that turn them into numbers. A
// function here returns what it measured; the caller decides what passes.
package experiment
