package multibody

import (
	"math"

	"github.com/stiction-sim/stiction/spatial"
)

// IntegrateQExp sets q = q0 ⊕ δt v, MuJoCo's mj_integratePos (engine_support.c,
// MuJoCo 2.2.2): the coordinates of hinge, slide, planar and universal
// joints, of compound joints' revolute and prismatic parts, and the
// position of a free joint's origin move by δt v, as in IntegrateQ; the
// quaternion of a free or ball joint or a compound joint's ball part turns
// by the exact rotation of angle δt‖ω‖ about ω (mju_quatIntegrate),
// instead of IntegrateQ's first-order q0 + δt q̇ renormalised. q may alias
// q0.
func (m *Model) IntegrateQExp(q0, v []float64, dt float64, q []float64) {
	if m.linearCoordinates() {
		integrateLinear(q0, v, dt, q[:m.NQ])
		return
	}
	m.integrateExpJoints(q0, v, dt, q)
}

// integrateExpJoints is IntegrateQExp joint by joint.
func (m *Model) integrateExpJoints(q0, v []float64, dt float64, q []float64) {
	for i := range m.Bodies {
		b := &m.Bodies[i]
		if b.Tree < 0 || b.Joint.Type == JointWeld {
			continue
		}
		switch o := b.QOff; b.Joint.Type {
		case JointFree: // integrateExp's (integrate's) cases in line, on arrays
			integrateExpFree((*[7]float64)(q0[o:]), (*[6]float64)(v[b.VOff:]), dt, (*[7]float64)(q[o:]))
		case JointRevolute, JointPrismatic:
			q[o] = q0[o] + dt*v[b.VOff]
		default:
			b.Joint.integrateExp(q0[o:], v[b.VOff:], dt, q[o:])
		}
	}
}

// integrateExp is IntegrateQExp for one joint.
func (j *Joint) integrateExp(q0, v []float64, dt float64, q []float64) {
	switch j.Type {
	case JointFree:
		integrateExpFree((*[7]float64)(q0), (*[6]float64)(v), dt, (*[7]float64)(q))
	case JointBall:
		turnExp(q0, v, dt, q)
	case JointCompound:
		qi, vi := 0, 0
		for k := range j.Parts {
			p := &j.Parts[k]
			if p.Type == JointBall {
				turnExp(q0[qi:], v[vi:], dt, q[qi:])
			} else {
				q[qi] = q0[qi] + dt*v[vi]
			}
			qi += p.Type.NQ()
			vi += p.Type.NV()
		}
	default:
		j.integrate(q0, q0, v, dt, q)
	}
}

// integrateExpFree is integrateExp for a free joint, on arrays (no bounds
// checks), with turnExp's product exp(δt ω) ⊗ q0 written out as Quat.Mul's
// expression tree, so the same bits. q may alias q0: q0 is read before any
// store.
func integrateExpFree(q0 *[7]float64, v *[6]float64, dt float64, q *[7]float64) {
	e := ExpRotation(spatial.Vec3{v[0], v[1], v[2]}, dt)
	rw, rx, ry, rz := q0[0], q0[1], q0[2], q0[3]
	x0, x1, x2 := q0[4], q0[5], q0[6]
	rn := spatial.Quat{
		W: e.W*rw - (e.X*rx + e.Y*ry + e.Z*rz),
		X: (e.W*rx + rw*e.X) + (e.Y*rz - e.Z*ry),
		Y: (e.W*ry + rw*e.Y) + (e.Z*rx - e.X*rz),
		Z: (e.W*rz + rw*e.Z) + (e.X*ry - e.Y*rx),
	}.Normalize()
	q[0], q[1], q[2], q[3] = rn.W, rn.X, rn.Y, rn.Z
	q[4] = x0 + dt*v[3]
	q[5] = x1 + dt*v[4]
	q[6] = x2 + dt*v[5]
}

// turnExp sets the unit quaternion q[0:4] = exp(δt ω) ⊗ q0[0:4], normalised,
// with ω = v[0:3]. q may alias q0.
func turnExp(q0, v []float64, dt float64, q []float64) {
	r0 := spatial.Quat{W: q0[0], X: q0[1], Y: q0[2], Z: q0[3]}
	rn := ExpRotation(spatial.Vec3{v[0], v[1], v[2]}, dt).Mul(r0).Normalize()
	q[0], q[1], q[2], q[3] = rn.W, rn.X, rn.Y, rn.Z
}

// ExpRotation returns exp(δt ω) as a unit quaternion: the rotation of angle
// θ = δt‖ω‖ about ω/‖ω‖, (cos θ/2, sin θ/2 ω/‖ω‖); the identity for ω = 0.
// MuJoCo's mju_quatIntegrate applies it on the right, q ⊗ exp(δt ω_B), with
// ω_B in the moving frame; our ω is in the fixed frame F (ω_F = R ω_B),
// so we apply it on the left, exp(δt ω_F) ⊗ q = q ⊗ exp(δt ω_B).
func ExpRotation(w spatial.Vec3, dt float64) spatial.Quat {
	n := w.Norm()
	if n == 0 {
		return spatial.QuatIdentity()
	}
	s, c := math.Sincos(dt * n / 2)
	s /= n
	return spatial.Quat{W: c, X: s * w[0], Y: s * w[1], Z: s * w[2]}
}

// LocalVelocity writes u = L(q) v: v with the angular velocity of every
// free and ball joint turned from F (the world, for a free joint) into the
// joint's moving frame M, ω_M = R_FMᵀ ω_F, MuJoCo's qvel convention for
// those joints; the other velocities are copied. The time derivatives
// transform alike: d/dt ω_F = R_FM d/dt ω_M, as Ṙ_FM ω_M = ω_F × ω_F = 0.
// out may alias v.
func (m *Model) LocalVelocity(q, v []float64, out []float64) { m.turnAngular(q, v, out, true) }

// WorldVelocity is the inverse of LocalVelocity: ω_F = R_FM ω_M.
func (m *Model) WorldVelocity(q, u []float64, out []float64) { m.turnAngular(q, u, out, false) }

// turnAngular turns the angular velocities of v's free and ball joints,
// and of compound joints' ball parts, by R_FMᵀ (local) or R_FM into out. A
// ball part's ω is in the frame before it (multibody.JointPart), and its
// local ω in the frame after it.
func (m *Model) turnAngular(q, v []float64, out []float64, local bool) {
	copy(out[:m.NV], v[:m.NV])
	if !m.linearCoordinates() { // else no quaternion: nothing to turn
		m.turnJoints(q, v, out, local)
	}
}

// turnJoints is turnAngular's turn of each free and ball joint and ball
// part, after the copy.
func (m *Model) turnJoints(q, v []float64, out []float64, local bool) {
	for i := range m.Bodies {
		b := &m.Bodies[i]
		if b.Tree < 0 {
			continue
		}
		switch b.Joint.Type {
		case JointFree, JointBall:
			turnVec(q[b.QOff:], v[b.VOff:], out[b.VOff:], local)
		case JointCompound:
			qi, vi := b.QOff, b.VOff
			for k := range b.Joint.Parts {
				p := &b.Joint.Parts[k]
				if p.Type == JointBall {
					turnVec(q[qi:], v[vi:], out[vi:], local)
				}
				qi += p.Type.NQ()
				vi += p.Type.NV()
			}
		}
	}
}

// turnVec writes R(r)ᵀ w (local) or R(r) w into out[0:3], for the unit
// quaternion r = q[0:4] and w = v[0:3]. out may alias v.
func turnVec(q, v, out []float64, local bool) {
	r := spatial.Quat{W: q[0], X: q[1], Y: q[2], Z: q[3]}
	if local {
		r = r.Conj()
	}
	w := r.Rotate(spatial.Vec3{v[0], v[1], v[2]})
	out[0], out[1], out[2] = w[0], w[1], w[2]
}

// linearCoordinates reports whether every coordinate of the model is a
// scalar one whose rate is its velocity (hinge, slide, planar, universal
// joints and compound joints without a ball part): NQ = NV. Each joint has
// NQ ≥ NV, with NQ = NV + 1 for each quaternion (free, ball, a compound
// joint's ball part), so the sums are equal only when no joint has a
// quaternion, and then every body's QOff equals its VOff (layout).
func (m *Model) linearCoordinates() bool { return m.NQ == m.NV }

// integrateLinear sets q = q0 + δt v entry by entry: what IntegrateQ and
// IntegrateQExp compute joint by joint for a model of linear coordinates
// (linearCoordinates), with the same operation per entry. q may alias q0.
func integrateLinear(q0, v []float64, dt float64, q []float64) {
	q0, v = q0[:len(q)], v[:len(q)]
	for i := range q {
		q[i] = q0[i] + dt*v[i]
	}
}
