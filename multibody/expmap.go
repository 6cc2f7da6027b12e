package multibody

import (
	"math"

	"github.com/stiction-sim/stiction/spatial"
)

// IntegrateQExp sets q = q0 ⊕ δt v, MuJoCo's mj_integratePos (engine_support.c,
// MuJoCo 2.2.2): the coordinates of hinge, slide, planar and universal
// joints and the position of a free joint's origin move by δt v, as in
// IntegrateQ; the quaternion of a free or ball joint turns by the exact
// rotation of angle δt‖ω‖ about ω (mju_quatIntegrate), instead of
// IntegrateQ's first-order q0 + δt q̇ renormalised. q may alias q0.
func (m *Model) IntegrateQExp(q0, v []float64, dt float64, q []float64) {
	for i := range m.Bodies {
		b := &m.Bodies[i]
		if b.Tree < 0 || b.Joint.Type == JointWeld {
			continue
		}
		b.Joint.integrateExp(q0[b.QOff:], v[b.VOff:], dt, q[b.QOff:])
	}
}

// integrateExp is IntegrateQExp for one joint.
func (j *Joint) integrateExp(q0, v []float64, dt float64, q []float64) {
	switch j.Type {
	case JointFree, JointBall:
		r0 := spatial.Quat{W: q0[0], X: q0[1], Y: q0[2], Z: q0[3]}
		rn := ExpRotation(spatial.Vec3{v[0], v[1], v[2]}, dt).Mul(r0).Normalize()
		if j.Type == JointFree {
			for i := range 3 {
				q[4+i] = q0[4+i] + dt*v[3+i]
			}
		}
		q[0], q[1], q[2], q[3] = rn.W, rn.X, rn.Y, rn.Z
	default:
		j.integrate(q0, q0, v, dt, q)
	}
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

// turnAngular turns the free and ball joints' angular velocities of v by
// R_FMᵀ (local) or R_FM into out.
func (m *Model) turnAngular(q, v []float64, out []float64, local bool) {
	copy(out[:m.NV], v[:m.NV])
	for i := range m.Bodies {
		b := &m.Bodies[i]
		if b.Tree < 0 || (b.Joint.Type != JointFree && b.Joint.Type != JointBall) {
			continue
		}
		r := spatial.Quat{W: q[b.QOff], X: q[b.QOff+1], Y: q[b.QOff+2], Z: q[b.QOff+3]}
		if local {
			r = r.Conj()
		}
		w := r.Rotate(spatial.Vec3{v[b.VOff], v[b.VOff+1], v[b.VOff+2]})
		out[b.VOff], out[b.VOff+1], out[b.VOff+2] = w[0], w[1], w[2]
	}
}
