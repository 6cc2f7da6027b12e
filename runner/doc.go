// Package runner runs a built scene from its first step (or from a
// checkpoint) to its last: it records the run with package record, stops
// at the first divergence (record.Guard), at a cancelled context (Ctrl-C)
// or at a step that cannot be taken, and always leaves a summary with the
// run's status. It writes checkpoints that Resume continues from, so that a
// resumed run's files are byte-identical to those of a run that was never
// stopped. "stiction run", "stiction resume" and the sweep workers use it.
package runner
