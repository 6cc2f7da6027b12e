// Package record writes what a run produces: per-step statistics
// (steps.csv), body trajectories (trajectory.csv), a run summary
// (summary.json), and for the viewer the bodies and their shapes
// (scene.json) and the contact points, impulses and forces (contacts.csv),
// all documented in docs/OUTPUT.md. Numbers are written with the shortest
// representation that round-trips (strconv 'g', -1), so two identical runs
// give byte-identical files. ReadRun reads a run directory back.
package record
