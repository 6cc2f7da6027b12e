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
type Limit struct {
	Name         string
	Body, DOF    int // the joint of Body, its degree of freedom DOF
	Lower, Upper float64
	Compliance   Compliance
}

func (l *Limit) validate(m *multibody.Model) error {
	if _, _, err := scalarDOF(m, l.Body, l.DOF); err != nil {
		return err
	}
	if math.IsNaN(l.Lower) || math.IsNaN(l.Upper) || math.IsInf(l.Lower, 1) || math.IsInf(l.Upper, -1) || l.Lower > l.Upper {
		return errf("bounds [%v, %v] must satisfy −∞ ≤ lower ≤ upper ≤ ∞", l.Lower, l.Upper)
	}
	return l.Compliance.validate()
}

// limit appends the blocks of the limit's finite bounds.
func (a *Assembler) limit(c *asmCtx, l *Limit, i int) {
	qi, vi, _ := scalarDOF(c.m, l.Body, l.DOF)
	q := c.in.Q0[qi]
	e := entry{typ: TypeLimit, item: i, block: -1, bound: math.Inf(1), vec: -1}
	for side, bound := range [2]float64{l.Lower, l.Upper} {
		if math.IsInf(bound, 0) {
			continue
		}
		sign, g := 1.0, q-bound
		if side == 1 {
			sign, g = -1, bound-q
		}
		a.begin(1)
		a.addDOF(c, l.Body, vi, 0, sign)
		k, row := a.emit(c, solver.Interval, 0, math.Inf(1))
		a.setRow(c, row, 0, l.Compliance, g)
		if e.block < 0 {
			e.block = k
		}
		e.sign[e.nblocks] = sign
		e.nblocks++
		e.violation = math.Max(e.violation, -g)
	}
	a.add(e)
}

// ConeLimit bounds the rotation angle θ of a ball joint, θ ≤ Angle (MuJoCo's
// ball-joint range). With the joint's quaternion q = (cos θ/2, â sin θ/2)
// of M in F, θ̇ = âᵀω for the joint velocity ω (in F, and R â = â), so the
// constraint is one-sided on g = Angle − θ with J = −âᵀ on the three ball
// velocities, γ = clamp(y, 0, ∞) (solver.Interval).
type ConeLimit struct {
	Name       string
	Body       int // the body of the ball joint
	Angle      float64
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
	g := l.Angle - theta
	a.begin(1)
	for k := range 3 {
		a.addDOF(c, l.Body, bd.VOff+k, 0, -axis[k])
	}
	k, row := a.emit(c, solver.Interval, 0, math.Inf(1))
	a.setRow(c, row, 0, l.Compliance, g)
	a.add(entry{typ: TypeCone, item: i, block: k, nblocks: 1, violation: math.Max(0, -g), bound: math.Inf(1), vec: -1})
}
