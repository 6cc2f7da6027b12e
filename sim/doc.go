// Package sim is the time stepper: the two-stage scheme of SAP §II-D
// (Algorithm 1) with symplectic Euler (θq = θv = 0, θvq = 1). One Step
// detects contacts at q0, computes the free-motion velocities v*, assembles
// the contact problem, solves it with the configured contact solver (SAP by
// default), and updates the positions. Every step returns its statistics.
//
// The Simulator owns a Workspace of scratch memory that is reused from step
// to step; the Model is never modified and the State holds only (q, v, t).
package sim
