package constraint

import (
	"math"

	"github.com/stiction-sim/stiction/multibody"
	"github.com/stiction-sim/stiction/solver"
	"github.com/stiction-sim/stiction/spatial"
)

// Limit bounds one coordinate q of a revolute, prismatic, planar or
// universal joint: Lower ≤ q ≤ Upper (−Inf and +Inf for no bound). Each
// bound is a one-sided constraint on its distance to the bound (Drake's
// SapLimitConstraint): for the lower bound g = q − Lower ≥ 0, J = +1 on the
// degree of freedom; for the upper bound g = Upper − q, J = −1; the impulse
// is γ = clamp(y, 0, ∞) (solver.Interval), R and v̂ from the compliance.
//
// Margin (m or rad, default 0) is MuJoCo's joint margin: a bound acts
// within Margin of it, on g − Margin (MuJoCo 2.2.2, engine_core_constraint.c:
// mj_instantiateLimit makes a row when dist < margin, and getimpedance and
// the reference acceleration aref = −B v − K d (dist − margin) take
// dist − margin).
type Limit struct {
	Name         string
	Body, DOF    int // the joint of Body, its degree of freedom DOF
	Lower, Upper float64
	Margin       float64
	Compliance   Compliance
}

func (l *Limit) validate(m *multibody.Model) error {
	if _, _, err := scalarDOF(m, l.Body, l.DOF); err != nil {
		return err
	}
	if math.IsNaN(l.Lower) || math.IsNaN(l.Upper) || math.IsInf(l.Lower, 1) || math.IsInf(l.Upper, -1) || l.Lower > l.Upper {
		return errf("bounds [%v, %v] must satisfy −∞ ≤ lower ≤ upper ≤ ∞", l.Lower, l.Upper)
	}
	if err := validMargin(l.Margin); err != nil {
		return err
	}
	return l.Compliance.validate()
}

// validMargin checks a limit's margin: finite.
func validMargin(margin float64) error {
	if math.IsNaN(margin) || math.IsInf(margin, 0) {
		return errf("margin %v must be finite", margin)
	}
	return nil
}

// limit appends the blocks of the limit's finite bounds (limitSides) and
// its entry; a limit within its range (limitIdle) has the entry alone.
func (a *Assembler) limit(c *asmCtx, l *Limit, i int) {
	qi, vi, ok := a.limitDOFs.kept(c.m, i, l.Body, l.DOF) // dofAt's, kept across steps
	if !ok {
		qi, vi = a.limitDOFs.find(c.m, i, l.Body, l.DOF)
	}
	q := c.in.Q0[qi]
	if a.limitIdle(c, l, q) { // no row on either side: the entry alone
		e := a.next() // in place, not addItem: a robot's idle limits then run one helper, not two
		e.typ, e.item, e.block, e.bound, e.vec = TypeLimit, int32(i), -1, math.Inf(1), -1
		return
	}
	a.limitSides(c, l, i, vi, q)
}

// limitSides appends the rows of the i-th limit's bounds at the
// coordinate q (vi its velocity) and its entry.
func (a *Assembler) limitSides(c *asmCtx, l *Limit, i, vi int, q float64) {
	e := a.next() // filled in place: nothing below adds an entry
	e.typ, e.item, e.block, e.bound, e.vec = TypeLimit, int32(i), -1, math.Inf(1), -1
	for side, bound := range [2]float64{l.Lower, l.Upper} {
		if math.IsInf(bound, 0) {
			continue
		}
		sign, g := 1.0, q-bound-l.Margin
		if side == 1 {
			sign, g = -1, bound-q-l.Margin
		}
		if a.noRow(c, &l.Compliance, g) {
			continue
		}
		a.begin(1)
		a.addDOF(c, l.Body, vi, 0, sign)
		k, row := a.emit(c, solver.Interval, 0, math.Inf(1))
		a.limitRow(c, row, &l.Compliance, g, sign*elem(c.in.V0, vi), sign*elem(c.p.VStar, vi))
		e.addSigned(k, sign)
		e.violation = max(e.violation, -g)
	}
}

// limitIdle reports whether neither bound of l makes a row at the
// coordinate q (noRow on both sides), the common case of a MuJoCo limit
// within its range (BENCHMARKS.md, the seventy-third pass: Gymnasium
// pusher's 11 limits). The gaps are limit's own, q − Lower − Margin and
// Upper − q − Margin; an infinite bound's gap is +Inf (Margin is finite),
// and a NaN gap answers false, leaving it to limit's loop.
func (a *Assembler) limitIdle(c *asmCtx, l *Limit, q float64) bool {
	return c.prm.MuJoCoLimits && l.Compliance.SolRef[0] != 0 && q-l.Lower-l.Margin >= 0 && l.Upper-q-l.Margin >= 0
}

// limitRow sets R and v̂ of a limit's row (the block just emitted) for the
// distance g0 to its bound (cp its compliance, by pointer: eleven words
// not copied per row), the velocity jv0 = J v0 at the start of the
// step and jvs = J v* of the free motion. Within its bound (g0 ≥ 0) the row
// is SAP's (setRow; with MuJoCo's compliance and Params.MuJoCoLimits there
// is no row, noRow): a near-rigid
// limit is reached without passing it. Violated (g0 < 0), it is brought
// back over a time constant and never launched:
//   - with MuJoCo's solref and solimp (Compliance.SolRef), as MuJoCo's
//     soft constraint (Compliance.soft);
//   - near-rigid, SAP's v̂ = −g0/δt would undo any violation in one step
//     (a joint started 0.1 rad past its bound at δt = 10 ms leaves at
//     10 rad/s); v̂ is capped at max(V, v_mj), v_mj = (1 − d) jvs + d v̂_mj
//     the velocity that MuJoCo's default limit (solref 0.02 1, solimp 0.9
//     0.95 0.001 0.5 2: critically damped, time constant max(0.02 s, 2δt))
//     reaches in the step when it acts alone (its R = (1 − d)/d w gives
//     v_c = (R jvs + w v̂_mj)/(w + R)), and V the recovery
//     speed floor Params.MaxRecoverySpeed, below which a violation is
//     undone in one step as before (the near-rigid rest penetration
//     β²τδt²/(4π²I) of a loaded limit needs v̂ = −g0/δt);
//   - compliant (Stiffness > 0): SAP's spring–damper, as set.
func (a *Assembler) limitRow(c *asmCtx, row int, cp *Compliance, g0, jv0, jvs float64) {
	switch {
	case g0 < 0 && cp.mujoco():
		c.p.R[row], c.p.VHat[row] = cp.soft(a.softWeight(c, cp.Weight, 0), g0, jv0, c.prm.Beta, c.in.DT)
		return
	case g0 < 0 && cp.rigid() && c.prm.MaxRecoverySpeed > 0:
		a.setRow(c, row, 0, cp, g0)
		dc := Compliance{SolRef: DefaultSolRef, SolImp: DefaultSolImp}
		_, vref := dc.soft(a.weight(c, 0), g0, jv0, c.prm.Beta, c.in.DT)
		d := ImpedanceOf(&DefaultSolImp, g0)
		c.p.VHat[row] = min(c.p.VHat[row], max(c.prm.MaxRecoverySpeed, (1-d)*jvs+d*vref))
	default:
		a.setRow(c, row, 0, cp, g0)
	}
}

// noRow reports whether a limit side at gap g0 with compliance cp has no
// row: MuJoCo's compliance within its bound with Params.MuJoCoLimits, as
// MuJoCo 2.2.2's mj_instantiateLimit makes none for dist ≥ margin.
func (a *Assembler) noRow(c *asmCtx, cp *Compliance, g0 float64) bool {
	return g0 >= 0 && c.prm.MuJoCoLimits && cp.SolRef[0] != 0 // cp.mujoco(), without copying cp
}

// elem returns v[i], or 0 when v is not given (callers that assemble
// without velocities: a state at rest).
func elem(v []float64, i int) float64 {
	if i < len(v) {
		return v[i]
	}
	return 0
}

// ConeLimit bounds the rotation angle θ of a ball joint, θ ≤ Angle (MuJoCo's
// ball-joint range). With the joint's quaternion q = (cos θ/2, â sin θ/2)
// of M in F, θ̇ = âᵀω for the joint velocity ω (in F, and R â = â), so the
// constraint is one-sided on g = Angle − θ with J = −âᵀ on the three ball
// velocities, γ = clamp(y, 0, ∞) (solver.Interval).
//
// Margin (rad, default 0) is MuJoCo's joint margin, as Limit's: the limit
// acts on g − Margin.
type ConeLimit struct {
	Name       string
	Body       int // the body of the ball joint
	Angle      float64
	Margin     float64
	Compliance Compliance
}

func (l *ConeLimit) validate(m *multibody.Model) error {
	if err := body(m, l.Body, false); err != nil {
		return err
	}
	if t := m.Bodies[l.Body].Joint.Type; t != multibody.JointBall {
		return errf("body %q has a %s joint; a cone limit needs a ball joint", m.Bodies[l.Body].Name, t)
	}
	if !(l.Angle > 0 && l.Angle <= math.Pi) {
		return errf("angle %v must be in (0, π]", l.Angle)
	}
	if err := validMargin(l.Margin); err != nil {
		return err
	}
	return l.Compliance.validate()
}

// BallAngle returns the rotation angle θ ∈ [0, π] and unit axis â of the
// quaternion q (w, x, y, z); the axis is x when θ = 0.
func BallAngle(q []float64) (float64, spatial.Vec3) {
	return quatAngle(spatial.Quat{W: q[0], X: q[1], Y: q[2], Z: q[3]})
}

// quatAngle returns the rotation angle θ ∈ [0, π] and unit axis of the unit
// quaternion q (axis x when θ = 0).
func quatAngle(q spatial.Quat) (float64, spatial.Vec3) {
	w, v := q.W, q.Vec()
	if w < 0 {
		w, v = -w, v.Neg()
	}
	axis, s := v.Normalize()
	if !(s > 0) {
		return 0, spatial.Vec3{1, 0, 0}
	}
	return 2 * math.Atan2(s, w), axis
}

// cone appends the cone limit's block.
func (a *Assembler) cone(c *asmCtx, l *ConeLimit, i int) {
	bd := &c.m.Bodies[l.Body]
	theta, axis := BallAngle(c.in.Q0[bd.QOff : bd.QOff+4])
	g := l.Angle - theta - l.Margin
	if a.noRow(c, &l.Compliance, g) {
		a.addItem(TypeCone, i, -1, 0, math.Inf(1))
		return
	}
	a.begin(1)
	for k := range 3 {
		a.addDOF(c, l.Body, bd.VOff+k, 0, -axis[k])
	}
	k, row := a.emit(c, solver.Interval, 0, math.Inf(1))
	jv0, jvs := 0.0, 0.0
	for k := range 3 {
		jv0 -= axis[k] * elem(c.in.V0, bd.VOff+k)
		jvs -= axis[k] * elem(c.p.VStar, bd.VOff+k)
	}
	a.limitRow(c, row, &l.Compliance, g, jv0, jvs)
	a.addItem(TypeCone, i, k, max(0, -g), math.Inf(1))
}
