// Package record writes what a run produces: per-step statistics
// (steps.csv), body trajectories (trajectory.csv) and a run summary
// (summary.json), all documented in docs/OUTPUT.md. Numbers are written with
// the shortest representation that round-trips (strconv 'g', -1), so two
// identical runs give byte-identical files.
package record
