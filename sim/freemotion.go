package sim

import (
	"fmt"
	"github.com/stiction-sim/stiction/forces"
	"github.com/stiction-sim/stiction/multibody"
	"math"
	"slices"

	"github.com/stiction-sim/stiction/solver"
)

// freeMotion computes the free-motion velocities v* from m(v*) = 0 (SAP
// eq. 13–14) and fills the dynamics part of the problem: one clique per
// tree with A = M + δt² θq θvq K + δt θv D (eq. 15), diag(M) and v*.
// Explicit schemes (θq = θv = 0) need one solve with M(q0); implicit ones
// iterate Newton's method with A as the Jacobian of m (SAP Prop. 1: A is
// ∂m/∂v up to O(δt) and the terms dropped from K, D; see package forces).
func (sim *Simulator) freeMotion() error {
	w, s := &sim.ws, sim.State
	copy(w.q0, s.Q)
	copy(w.v0, s.V)
	copy(w.vstar, s.V)
	w.newton, w.conv = 0, true
	w.mj.rk4, w.mj.direct, w.mj.rows, w.mj.forces = false, false, false, false
	switch sim.scheme.Method {
	case ThetaMethod:
	case MuJoCoEulerRule:
		return sim.mujocoEulerVStar() // scheme_mujoco.go
	case RungeKutta4:
		return sim.rk4VStar() // scheme_mujoco.go
	case MuJoCoImplicitRule:
		return sim.mujocoImplicitVStar() // scheme_implicit.go
	default:
		return sim.notesFreeMotion() // scheme_notes.go
	}
	if sim.explicit {
		if err := sim.linearize(w.vstar); err != nil {
			return err
		}
		return sim.explicitVStar()
	}
	return sim.newtonVStar()
}

// explicitVStar sets v* = v0 + δt M(q0)⁻¹ k(q0, v0).
func (sim *Simulator) explicitVStar() error {
	return sim.explicitVStarBy(&sim.ws.factor)
}

// explicitVStarBy is explicitVStar with f the factor of the problem's A
// (mujocoMetricVStar's damped one). With no tree asleep it solves the
// cliques and then forms v* in one pass over the velocities, which the
// cliques, one per tree, tile (multibody.Model.layout): the per-clique
// slicing of the loop is not on the step.
func (sim *Simulator) explicitVStarBy(f *solver.CliqueFactor) error {
	w, p := &sim.ws, &sim.ws.problem
	if sim.sleep.any {
		sim.explicitVStarAsleep(f)
		return nil
	}
	for _, q := range p.Cliques {
		f.Solve(q, w.k[q.Offset:q.Offset+q.Size], 1) // M⁻¹ k, in place
	}
	n := len(p.VStar)
	stepVelocity(p.VStar, w.v0[:n], w.k[:n], sim.cfg.DT)
	return nil
}

// explicitVStarAsleep is explicitVStarBy clique by clique, when some
// tree sleeps: a tree that skips its free motion keeps its v* (0,
// freezeVStar). It is out of line, as the rarely taken part.
//
//go:noinline
func (sim *Simulator) explicitVStarAsleep(f *solver.CliqueFactor) {
	w, p := &sim.ws, &sim.ws.problem
	for c, q := range p.Cliques {
		if sim.sleep.skipping(c) {
			continue // v* = 0 (freezeVStar)
		}
		acc := w.k[q.Offset : q.Offset+q.Size]
		f.Solve(q, acc, 1) // M⁻¹ k, in place
		stepVelocity(p.VStar[q.Offset:][:len(acc)], w.v0[q.Offset:], acc, sim.cfg.DT)
	}
}

// stepVelocity sets vs = v0 + dt a, entry by entry, over a's length.
func stepVelocity(vs, v0, a []float64, dt float64) {
	// Cut to a's length, so that the loop runs without bounds checks.
	vs, v0 = vs[:len(a)], v0[:len(a)]
	for i, x := range a {
		vs[i] = v0[i] + dt*x
	}
}

// newtonVStar solves m(v) = M(q^θq)(v − v0) − δt k(q^θq, v^θv) = 0
// (eq. 14) by v ← v − A⁻¹ m(v), starting from v0.
func (sim *Simulator) newtonVStar() error {
	w, p, dt := &sim.ws, &sim.ws.problem, sim.cfg.DT
	tol, maxIt := sim.cfg.NewtonTolerance, sim.cfg.MaxNewtonIterations
	if tol == 0 {
		tol = 1e-12
	}
	if maxIt == 0 {
		maxIt = 50
	}
	w.conv = false
	for w.newton < maxIt {
		if err := sim.linearize(w.vstar); err != nil {
			return err
		}
		w.newton++
		step, size := 0.0, 0.0
		for _, q := range p.Cliques {
			r := w.res[q.Offset : q.Offset+q.Size]
			blk := w.mass[q.AOff : q.AOff+q.Size*q.Size]
			for i := range q.Size {
				sum := 0.0
				for j := range q.Size {
					sum += blk[i*q.Size+j] * (w.vstar[q.Offset+j] - w.v0[q.Offset+j])
				}
				r[i] = sum - dt*w.k[q.Offset+i]
			}
			w.factor.Solve(q, r, 1)
			for i := range q.Size {
				w.vstar[q.Offset+i] -= r[i]
				step = max(step, math.Abs(r[i]))
				size = max(size, math.Abs(w.vstar[q.Offset+i]))
			}
		}
		if math.IsNaN(step) {
			return fmt.Errorf("sim: step %d: free-motion Newton iteration diverged", sim.step+1)
		}
		if step <= tol*(1+size) {
			w.conv = true
			break
		}
	}
	copy(p.VStar, w.vstar)
	return nil
}

// midStepKinematics returns a workspace holding the kinematics at the
// mid-step point (q^θ, v^θ) of the last midStep (linearizeAt points the
// force context at it). For θq = θv = 0 (symplectic and explicit Euler) that point
// is (q0, v0), whose kinematics detectContacts has already computed in
// kin0; otherwise kin is updated (midStepUpdate). It is small enough to
// be inlined (advanceActivations).
func (sim *Simulator) midStepKinematics() *multibody.Workspace {
	kin := sim.ws.kin0
	if sim.ws.midKin {
		kin = sim.midStepUpdate()
	}
	return kin
}

// midStepUpdate updates kin at the mid-step point and returns it.
//
//go:noinline (inlined, it would make midStepKinematics too costly to inline)
func (sim *Simulator) midStepUpdate() *multibody.Workspace {
	w := &sim.ws
	w.kin.Update(w.qth, w.vth)
	return w.kin
}

// linearize evaluates, at the mid-step point of velocity v (eq. 11), the
// mass matrix, k and A (eq. 15), factors A clique by clique and fills the
// problem's cliques, A and diag(M).
func (sim *Simulator) linearize(v []float64) error {
	return sim.linearizeInto(v, &sim.ws.factor)
}

// linearizeInto is linearize with A factored into f (mujocoEulerVStar's
// metric steps factor it into the damped factor, mujocoMetricVStar).
func (sim *Simulator) linearizeInto(v []float64, f *solver.CliqueFactor) error {
	sim.midStep(v)
	lw := sim.linWeights()
	return sim.linearizeAt(sim.midStepKinematics(), sim.State.T+lw.tq, lw.cK, lw.cD, sim.dampingWeight(), &sim.ws.problem, f)
}

// linWeights are linearize's weights for the time step dt: cK and cD of
// A = M + cK K + cD D (Scheme.jacobianWeights) and the mid-step time's
// offset tq = θq δt. The scheme is fixed at New, so they change only with
// the time step (substeps change it); a step recomputes them only then,
// and the scheme's switch is not on the step.
type linWeights struct {
	dt, cK, cD, tq float64
	ok             bool // computed once (a zero dt is a time step too)
}

// linWeights returns linearize's weights for the current time step.
func (sim *Simulator) linWeights() *linWeights {
	lw := &sim.ws.lin
	if !lw.ok || math.Float64bits(lw.dt) != math.Float64bits(sim.cfg.DT) { // bits: −0 is not 0
		sim.linearizeWeights()
	}
	return lw
}

// linearizeWeights sets linearize's weights for the current time step,
// out of line: it runs at the first step and when the time step changes.
//
//go:noinline
func (sim *Simulator) linearizeWeights() {
	lw, dt := &sim.ws.lin, sim.cfg.DT
	lw.cK, lw.cD = sim.scheme.jacobianWeights(dt)
	lw.dt, lw.tq, lw.ok = dt, sim.scheme.ThetaQ*dt, true
}

// linearizeAt is linearize at the point (w.qth, w.vth) whose kinematics kin
// holds, at time tm, with A = M + cK K + cD D + cB B, into the dynamics
// part of p (which it resets) and its factor f. B is the diagonal of the
// joints' damping alone (MuJoCo's dof_damping; scheme_mujoco.go), which
// only MuJoCo's Euler weights (cB = δt), and only when it is not zero.
func (sim *Simulator) linearizeAt(kin *multibody.Workspace, tm, cK, cD, cB float64, p *solver.Problem, f *solver.CliqueFactor) error {
	m, w := sim.Model, &sim.ws
	kin.InverseDynamics(nil, w.k) // C − τ_g: the gravity element w.elems[0], and C, in one RNEA pass
	sim.resetForces(cK != 0 || cD != 0)
	if len(w.elems) > 1 { // else F stays 0
		sim.applyElements(kin, tm)
	}
	k := w.k[:len(w.fout.F)]
	for i, f := range w.fout.F {
		k[i] = f - k[i] // k = τ_g − C + F: (−x) + f is f − x, to the bit (BiasForces' negation and the sum in one pass)
	}
	p.Reset(m.NV)
	// The cliques, one per tree, are the same at every step: p holds the
	// workspace's in place rather than a copy appended at every step (a
	// Clique holds a slice: typedslicecopy and write barriers). Nothing
	// writes a problem's cliques in place, the full slice expression makes
	// an append to p's reallocate, and the one append after a Reset of a
	// problem linearizeAt fills (copyDynamics, an RK4 stage's) appends these
	// same values.
	p.Cliques = w.cliques[:len(w.cliques):len(w.cliques)]
	p.A = solver.Resize(p.A, len(w.mass))
	for ti := range w.cliques {
		q := &w.cliques[ti] // in place: the loop copied each 48-byte clique
		off, n := q.AOff, q.Size
		blk := w.mass[off : off+n*n]
		if !sim.heldMass(ti, p) { // a sleeping tree's M is its last one (sleep.go)
			kin.MassMatrix(ti, blk)
		}
		a := p.A[off : off+len(blk)]
		copy(a, blk)
		if w.fout.Jacobians {
			for i := range blk {
				a[i] += cK*w.fout.K[off+i] + cD*w.fout.D[off+i] // eq. 15
			}
		}
		// The diagonals, stepped by n+1 through slices cut once (p.MDiag
		// and the damping not reloaded at each entry), in one loop for
		// both cases (an undamped step reads no damping).
		md := p.MDiag[q.Offset:][:n]
		damped := cB != 0 && w.mj.damped
		dmp := md
		if damped {
			dmp = w.mj.damp[q.Offset:][:n]
		}
		for i, d := 0, 0; i < len(md); i, d = i+1, d+n+1 {
			md[i] = blk[d]
			if damped {
				a[d] += cB * dmp[i] // mj_Euler: M + h diag(B)
			}
		}
	}
	var err error
	if w.fout.Jacobians {
		err = f.Factor(p)
	} else { // A = M + cB B: each block a tree's M plus a diagonal
		err = f.FactorTreeMass(p)
	}
	if err != nil {
		return sim.factorError(err)
	}
	return nil
}

// factorError returns linearizeAt's error err in factoring A, out of line:
// its arguments, inlined, sat between linearizeAt's hot blocks.
//
//go:noinline
func (sim *Simulator) factorError(err error) error {
	return stepError(sim.step+1, "A = M + δt²θqθvq K + δt θv D", err)
}

// applyElements adds the force elements' F (and K, D, N for a pass with
// Jacobians) but gravity's at the point (w.qth, w.vth) whose kinematics kin
// holds, at time tm, to w.fout (linearizeAt). It is out of line: a model
// without such elements (a free body) does not run it.
//
//go:noinline
func (sim *Simulator) applyElements(kin *multibody.Workspace, tm float64) {
	w := &sim.ws
	w.ctx.WS = kin
	w.ctx.Q, w.ctx.V, w.ctx.T = w.qth, w.vth, tm
	for _, e := range w.elems[1:] {
		e.Apply(&w.ctx, w.fout)
	}
}

// stepError returns step n's error err in its stage what ("sim: step n:
// what: err"; "sim: step n: err" for no what). It is out of line: the
// formatting, inlined (fmt.Errorf boxes n and builds the arguments), would
// sit in a hot function between its hot blocks, as Go places only panics
// at a function's end.
//
//go:noinline
func stepError(n int, what string, err error) error {
	if what == "" {
		return fmt.Errorf("sim: step %d: %w", n, err)
	}
	return fmt.Errorf("sim: step %d: %s: %w", n, what, err)
}

// resetForces zeroes the force elements' output for a pass with
// Jacobians jac. Elements write K, D and N only with Jacobians set
// (forces.Element), so after a pass without it they still hold the zeros
// of the last full forces.Output.Reset and only F is cleared (K, D and N
// are a tree block each, 3 × 62² entries for humanoid_CMU).
func (sim *Simulator) resetForces(jac bool) {
	w := &sim.ws
	if w.foutKD {
		clearJacobians(w.fout)
	}
	clear(w.fout.F)
	w.fout.Jacobians, w.foutKD = jac, jac
}

// clearJacobians zeroes o's K, D and N (forces.Output.Reset but F). It is
// out of line: resetForces is inlined into linearizeAt, where these
// clears, which a step without K and D (MuJoCo's schemes) never runs, sat
// between its hot blocks (264 bytes on half_cheetah).
//
//go:noinline
func clearJacobians(o *forces.Output) {
	clear(o.K)
	clear(o.D)
	clear(o.N)
}

// midStep sets v^θv, v^θvq (eq. 11) for the end-of-step velocity v and
// q^θq = q0 + θq δt N(q^θq) v^θvq (eq. 11–12), by fixed-point iteration
// when q^θq enters N (quaternion joints).
//
// The weights are read once, not the scheme copied (its name is a string),
// and 1 − θ is the same number in the loop or before it.
func (sim *Simulator) midStep(v []float64) {
	w := &sim.ws
	tv, tvq := sim.scheme.ThetaV, sim.scheme.ThetaVQ
	cv, cvq := 1-tv, 1-tvq
	vth, vtq, v0 := w.vth[:len(v)], w.vtq[:len(v)], w.v0[:len(v)] // v's length: no bounds checks below
	for i, vi := range v {
		vth[i] = tv*vi + cv*v0[i]
		vtq[i] = tvq*vi + cvq*v0[i]
	}
	copy(w.qth, w.q0)
	if sim.scheme.ThetaQ != 0 {
		sim.midStepQ()
	}
}

// midStepQ sets q^θq = q0 + θq δt N(q^θq) v^θvq (eq. 11–12) by fixed-point
// iteration, for midStep with θq ≠ 0, out of line: MuJoCo's schemes and
// the explicit and symplectic Euler, θq = 0, do not run it.
//
//go:noinline
func (sim *Simulator) midStepQ() {
	w := &sim.ws
	for range 3 {
		sim.Model.IntegrateQ(w.q0, w.qth, w.vtq, sim.scheme.ThetaQ*sim.cfg.DT, w.qth)
	}
}

// metricVStarM turns p.VStar, v*_B, into v*_M = v0 + h M⁻¹ k with w.factor
// (M's), clique by clique, for the cliques c without same[c]: a tree whose
// damping B is zero (mujocoWork.undamped) has a block of M + h B with M's
// bits (M_ii + h·0 = M_ii but for M_ii = −0, which the factor of M + h B
// rejected), whose factor and solve then give v*_B's bits, and w.k's
// entries (M + h B)⁻¹ k there are M⁻¹ k's. A clique's k is put back from
// mw.k before its solve; a sleeping tree keeps its v* (explicitVStarBy).
func (sim *Simulator) metricVStarM(same []bool) {
	w, p, mw := &sim.ws, &sim.ws.problem, &sim.ws.mj
	for c, q := range p.Cliques {
		if c < len(same) && same[c] {
			continue
		}
		acc := w.k[q.Offset : q.Offset+q.Size]
		copy(acc, mw.k[q.Offset:])
		if sim.sleep.skipping(c) {
			continue // v* = 0 (freezeVStar)
		}
		w.factor.Solve(q, acc, 1) // M⁻¹ k, in place
		stepVelocity(p.VStar[q.Offset:][:len(acc)], w.v0[q.Offset:], acc, sim.cfg.DT)
	}
}

// undampedTrees returns, per tree of m, whether the damping B (per
// velocity, jointDamping) is zero on all its velocities; nil when no tree
// is (mujocoMetricVStar then keeps its plain path).
func undampedTrees(m *multibody.Model, damp []float64) []bool {
	out := make([]bool, len(m.Trees))
	for t, tr := range m.Trees {
		out[t] = !slices.ContainsFunc(damp[tr.VOffset:tr.VOffset+tr.NV], func(b float64) bool { return b != 0 })
	}
	if !slices.Contains(out, true) {
		return nil
	}
	return out
}
