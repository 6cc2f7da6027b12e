package constraint

import (
	"github.com/stiction-sim/stiction/multibody"
	"github.com/stiction-sim/stiction/solver"
	"github.com/stiction-sim/stiction/spatial"
)

// FrictionSigma is σ_f of joint friction's regularization R = σ_f w. It is
// smaller than SAP's contact σ = 10⁻³ (eq. 30): a joint's friction is a
// single row on a single inertia, so a stiff regularization costs the
// Newton iteration nothing (its Hessian entry 1/R is 1/σ_f of the joint's
// inertia), and the stiction creep v = σ_f w τ δt stays below 10⁻⁷ rad/s
// for loads τ/I up to 10 rad/s² at δt = 10 ms.
const FrictionSigma = 1e-5

// JointFriction is dry friction on degree of freedom DOF of Body's joint
// (MuJoCo's frictionloss): the friction torque (or force) τ satisfies
// |τ| ≤ Force and opposes the motion; the joint sticks while the torque it
// needs to stay is below Force. In the convex problem it is the impulse
// bound C = [−Force δt, Force δt] on v_c = v_dof with v̂ = 0
// (solver.Interval) and, like SAP's tangential regularization (eq. 30),
// R = σ_f w with w the joint's Delassus estimate and σ_f = FrictionSigma:
// while sticking the joint creeps at v = R τ δt = σ_f w τ δt under a load τ
// (with I = 1 kg·m², τ = 1 N·m and δt = 1 ms, 10⁻⁸ rad/s).
// Any joint but free and weld; a ball joint's degrees of freedom are the
// components of its angular velocity in its child frame M (MuJoCo's ball
// qvel and its per-dof frictionloss rows), ω_M = R(q)ᵀ ω_F, so that the
// bound applies per axis of the moving body, as in MuJoCo.
//
// With Compliance.SolRef set it is instead MuJoCo's soft friction loss
// (its solreffriction, solimpfriction): R = (1 − d)/d · w with d the
// impedance at distance 0 and v̂ = (1 − δt B) J v0 (Compliance.soft with
// g0 = 0), so that, as in MuJoCo, a load below Force makes the joint
// creep at v = R τ/B rather than stick.
type JointFriction struct {
	Name       string
	Body, DOF  int
	Force      float64 // N·m or N, ≥ 0
	Compliance Compliance
}

func (jf *JointFriction) validate(m *multibody.Model) error {
	if err := body(m, jf.Body, false); err != nil {
		return err
	}
	t := m.Bodies[jf.Body].Joint.Type
	if t == multibody.JointFree || t == multibody.JointWeld || m.Bodies[jf.Body].Tree < 0 {
		return errf("body %q has a %s joint; joint friction needs a revolute, prismatic, planar, universal, ball or compound joint", m.Bodies[jf.Body].Name, t)
	}
	if jf.DOF < 0 || jf.DOF >= m.Bodies[jf.Body].Joint.NV() {
		return errf("dof %d is not a degree of freedom of the %s joint", jf.DOF, t)
	}
	if !(jf.Force >= 0) || !finite(jf.Force) {
		return errf("friction %v must be finite and ≥ 0", jf.Force)
	}
	if jf.Compliance.mujoco() {
		return jf.Compliance.validate()
	}
	return nil
}

// friction appends the joint friction's block.
func (a *Assembler) friction(c *asmCtx, jf *JointFriction, i int) {
	bd := &c.m.Bodies[jf.Body]
	vi := bd.VOff + jf.DOF
	b := jf.Force * c.in.DT
	a.begin(1)
	var jv0 float64
	if bd.Joint.Type == multibody.JointBall {
		jv0 = a.ballFrictionRow(c, jf)
	} else {
		a.addDOF(c, jf.Body, vi, 0, 1)
		jv0 = elem(c.in.V0, vi)
	}
	k, row := a.emit(c, solver.Interval, -b, b)
	if cp := jf.Compliance; cp.mujoco() {
		c.p.R[row], c.p.VHat[row] = cp.soft(a.softWeight(c, cp.Weight, 0), 0, jv0, c.prm.Beta, c.in.DT)
	} else {
		c.p.R[row] = FrictionSigma * a.weight(c, 0)
	}
	a.addItem(TypeFriction, i, k, 0, b)
}

// ballFrictionRow adds the row of a ball joint's friction on axis DOF of
// its child frame M: ω_M[i] = Σ_j R_ji ω_F[j] with R = R(q) the rotation
// of M in F (column i of R), and returns the row's velocity at the step's
// start.
func (a *Assembler) ballFrictionRow(c *asmCtx, jf *JointFriction) float64 {
	bd := &c.m.Bodies[jf.Body]
	q := spatial.Quat{W: c.q[bd.QOff], X: c.q[bd.QOff+1], Y: c.q[bd.QOff+2], Z: c.q[bd.QOff+3]}.Normalize()
	var e spatial.Vec3
	e[jf.DOF] = 1
	col := q.Rotate(e) // R e_i, column i of R
	var jv0 float64
	for j := range 3 {
		a.addDOF(c, jf.Body, bd.VOff+j, 0, col[j])
		jv0 += col[j] * elem(c.in.V0, bd.VOff+j)
	}
	return jv0
}
