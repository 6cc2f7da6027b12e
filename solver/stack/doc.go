// Package stack is the one place that builds a simulator's solver stack:
// the chosen contact solver (any registered one), the Lagged refiner around
// it (solver.LaggedRefiner) and, on request, the island solver around that
// (solver/island), with the engine's defaults for the refinement. The
// scene builder, the runner's --workers and the bench command describe the
// stack they want as a Spec and call Build.
package stack
