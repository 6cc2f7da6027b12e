// Package sim is the time stepper: the two-stage scheme of SAP §II-D
// (Algorithm 1) over the θ-method of §II-C (Scheme: explicit Euler,
// symplectic Euler — the default —, implicit Euler, midpoint). One Step
// detects contacts at q0, computes the free-motion velocities v* from
// m(v*) = 0 (eq. 13–14: one solve for explicit schemes, Newton iterations
// for implicit ones) and A = M + δt² θq θvq K + δt θv D (eq. 15) with the
// stiffness and damping of the force elements (package forces), assembles
// the contact problem, solves it with the configured contact solver (SAP by
// default), and updates the positions q = q0 + δt N(q^θq) v^θvq. Every step
// returns its statistics, including kinetic and potential (gravity and
// springs) energy. Advance takes the same step without gathering them, and
// Stats gathers them when they are read (the energies are their costly
// part).
//
// The Simulator owns a Workspace of scratch memory that is reused from step
// to step; the Model is never modified and the State holds only (q, v, t).
package sim
