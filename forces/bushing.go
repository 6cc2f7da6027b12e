package forces

import (
	"math"

	"github.com/stiction-sim/stiction/spatial"
)

// FrameSpring is a bushing between frame 1 (pose Frame1 on body Body1) and
// frame 2 (Frame2 on Body2), mechanics notes §0.22 with isotropic stiffness
// and damping: the force on frame 2's origin is −k_t Δx − d_t Δẋ (Δx = x₂ − x₁),
// the torque on body 2 is −k_r φu − d_r Δω, with φu the rotation vector of
// R₂R₁ᵀ (world frame), and body 1 gets the opposite force (at x₁) and torque
// (eq. 0.37–0.40 for isotropic gains). A body index −1 is the world.
//
// With J_t = J_{x₂} − J_{x₁} (point Jacobians) and J_r = J_{ω₂} − J_{ω₁},
// D = d_t J_tᵀJ_t + d_r J_rᵀJ_r is exact and K = k_t J_tᵀJ_t + k_r J_rᵀJ_r
// drops the geometric term (∂J/∂q) f and the inverse Jacobian of the
// rotation logarithm (exact when the frames coincide).
type FrameSpring struct {
	Body1, Body2   int
	Frame1, Frame2 spatial.Pose
	KT, KR         float64 // N/m, N·m/rad
	DT, DR         float64 // N·s/m, N·m·s/rad
}

// state returns the frames' relative position, velocity, rotation vector and
// angular velocity, and their world origins.
func (e *FrameSpring) state(c *Context) (dx, dv, rot, dw, x1, x2 spatial.Vec3) {
	X1, w1, v1 := frameState(c, e.Body1, e.Frame1)
	X2, w2, v2 := frameState(c, e.Body2, e.Frame2)
	q := X2.R.Mul(X1.R.Conj())
	if q.W < 0 {
		q = q.Scale(-1)
	}
	s := q.Vec().Norm()
	angle := 2 * math.Atan2(s, q.W)
	if s > 1e-300 {
		rot = q.Vec().Scale(angle / s)
	}
	return X2.P.Sub(X1.P), v2.Sub(v1), rot, w2.Sub(w1), X1.P, X2.P
}

// frameState returns the world pose, angular velocity and origin velocity of
// frame f on body b.
func frameState(c *Context, b int, f spatial.Pose) (spatial.Pose, spatial.Vec3, spatial.Vec3) {
	if b < 0 {
		return f, spatial.Vec3{}, spatial.Vec3{}
	}
	X := c.WS.Pose(b).Compose(f)
	w, vo := c.WS.Velocity(b)
	return X, w, vo.Add(w.Cross(X.P.Sub(c.WS.Pose(b).P)))
}

// Apply adds the generalized force and, if asked, K and D.
func (e *FrameSpring) Apply(c *Context, out *Output) {
	dx, dv, rot, dw, x1, x2 := e.state(c)
	f := dx.Scale(-e.KT).Sub(dv.Scale(e.DT))  // on frame 2
	t := rot.Scale(-e.KR).Sub(dw.Scale(e.DR)) // on body 2
	jt, jr := out.jac[0], out.ang[0]
	e.relative(c, out, x1, x2, jt, jr)
	out.addJtF(jt, f)
	out.addJtF(jr, t)
	if out.Jacobians {
		I := spatial.Identity3()
		out.addJtXJ(out.K, jt, I, e.KT)
		out.addJtXJ(out.K, jr, I, e.KR)
		out.addJtXJ(out.D, jt, I, e.DT)
		out.addJtXJ(out.D, jr, I, e.DR)
	}
}

// relative writes J_t = J_{x₂} − J_{x₁} and J_r = J_{ω₂} − J_{ω₁}.
func (e *FrameSpring) relative(c *Context, out *Output, x1, x2 spatial.Vec3, jt, jr []float64) {
	clear(jt)
	clear(jr)
	tmp := out.jac[1]
	for side, b := range [2]int{e.Body1, e.Body2} {
		if b < 0 {
			continue
		}
		s, x := -1.0, x1
		if side == 1 {
			s, x = 1, x2
		}
		out.pointJacobian(c, b, x, tmp)
		for i := range jt {
			jt[i] += s * tmp[i]
		}
		out.angularJacobian(c, b, tmp)
		for i := range jr {
			jr[i] += s * tmp[i]
		}
	}
}

// PotentialEnergy returns ½ k_t |Δx|² + ½ k_r φ².
func (e *FrameSpring) PotentialEnergy(c *Context) float64 {
	dx, _, rot, _, _, _ := e.state(c)
	return 0.5*e.KT*dx.Norm2() + 0.5*e.KR*rot.Norm2()
}
