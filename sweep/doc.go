// Package sweep runs many simulations of one scene with different
// parameters through a NATS JetStream work queue: parameter grids and
// seeded random samples over any --set path (Parse, Spec.Jobs), an
// embedded NATS server or an external one (Queue), any number of workers
// in this process or others (Work), and a coordinator (Run) that gathers one
// row per job into a results table written as CSV and Parquet, with a
// progress bar. A job is acknowledged only after its result is stored in
// JetStream; the coordinator appends every result to a synced log before it
// acknowledges it, and a sweep started again skips the jobs in that log.
// docs/SWEEPS.md describes the spec file and how to spread a sweep over
// machines.
package sweep
