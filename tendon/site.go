package tendon

import (
	"fmt"
	"math"

	"github.com/stiction-sim/stiction/multibody"
	"github.com/stiction-sim/stiction/spatial"
)

// SiteFrame is a frame fixed in a body (Body −1: the world): MuJoCo's
// site, Frame its pose in the body.
type SiteFrame struct {
	Body  int
	Frame spatial.Pose
}

// world returns the frame's pose in the world at the kinematics of ws.
func (s SiteFrame) world(ws *multibody.Workspace) spatial.Pose {
	if s.Body < 0 {
		return s.Frame
	}
	return ws.Pose(s.Body).Compose(s.Frame)
}

// worldQuat is the site's orientation as MuJoCo 2.2.2's mj_transmission
// composes it for a reference site: mju_mulQuat(site_quat, xquat), the
// site's local rotation first (engine_core_smooth.c).
func (s SiteFrame) worldQuat(ws *multibody.Workspace) spatial.Quat {
	if s.Body < 0 {
		return s.Frame.R
	}
	return s.Frame.R.Mul(ws.Pose(s.Body).R)
}

// SiteTransmission is MuJoCo 2.2.2's site transmission (mj_transmission,
// mjTRN_SITE): Gear = (f, τ) is a wrench on the site. Without a reference
// site (Ref nil) the wrench is expressed in the site's frame, the length
// is 0 and the moment is G = J_pᵀ R f + J_ωᵀ R τ (J_p the Jacobian of the
// site's point, J_ω its body's rotational Jacobian, R the site's world
// rotation). With a reference site the length is the site's position in
// the reference frame along f, R_refᵀ (x − x_ref)·f, plus the rotation
// from the reference to the site as MuJoCo's mju_subQuat gives it (the
// axis-angle of q_ref⁻¹ q, the angle wrapped into (−π, π]) along τ; the
// moment is (J_p − J_p,ref)ᵀ R_ref f + (J_ω − J_ω,ref)ᵀ R_ref τ, MuJoCo's
// Jacobians projected on the gear in the reference frame (not the exact
// gradient of the rotational length, as in MuJoCo).
type SiteTransmission struct {
	Site SiteFrame
	Ref  *SiteFrame
	Gear [6]float64
}

// Bodies lists the site's body and the reference site's.
func (s *SiteTransmission) Bodies() []int {
	if s.Ref == nil {
		return []int{s.Site.Body}
	}
	return []int{s.Site.Body, s.Ref.Body}
}

// Validate checks the bodies, finite frames and gear.
func (s *SiteTransmission) Validate(m *multibody.Model) error {
	for _, b := range s.Bodies() {
		if b < -1 || b >= len(m.Bodies) {
			return fmt.Errorf("site transmission: body %d out of range", b)
		}
	}
	return finiteGear("site transmission", s.Gear)
}

// finiteGear checks that a transmission's gear is finite.
func finiteGear(what string, gear [6]float64) error {
	for _, g := range gear {
		if math.IsNaN(g) || math.IsInf(g, 0) {
			return fmt.Errorf("%s: gear %v is not finite", what, gear)
		}
	}
	return nil
}

// Jacobian writes G into g and returns the length (Transmission).
func (s *SiteTransmission) Jacobian(m *multibody.Model, ws *multibody.Workspace, g, local []float64) float64 {
	clear(g[:m.NV])
	f := spatial.Vec3{s.Gear[0], s.Gear[1], s.Gear[2]}
	tau := spatial.Vec3{s.Gear[3], s.Gear[4], s.Gear[5]}
	x := s.Site.world(ws)
	if s.Ref == nil {
		w := x.R.Rotate(f)
		addPoint(m, ws, g, local, s.Site.Body, &x.P, &w)
		addRotation(m, ws, g, local, s.Site.Body, x.R.Rotate(tau))
		return 0
	}
	ref := s.Ref.world(ws)
	l := 0.0
	if f != (spatial.Vec3{}) {
		l += ref.ApplyInv(x.P).Dot(f)
		w := ref.R.Rotate(f)
		addPoint(m, ws, g, local, s.Site.Body, &x.P, &w)
		w = w.Neg()
		addPoint(m, ws, g, local, s.Ref.Body, &ref.P, &w)
	}
	if tau != (spatial.Vec3{}) {
		l += subQuat(s.Site.worldQuat(ws), s.Ref.worldQuat(ws)).Dot(tau)
		w := ref.R.Rotate(tau)
		addRotation(m, ws, g, local, s.Site.Body, w)
		addRotation(m, ws, g, local, s.Ref.Body, w.Neg())
	}
	return l
}

// addRotation adds dᵀ J_ω of body b (its rotational Jacobian) to g.
func addRotation(m *multibody.Model, ws *multibody.Workspace, g, local []float64, b int, d spatial.Vec3) {
	if b < 0 {
		return
	}
	t := ws.AngularJacobian(b, local)
	if t < 0 {
		return
	}
	tr := &m.Trees[t]
	n := tr.NV
	for j := range n {
		g[tr.VOffset+j] += d[0]*local[j] + d[1]*local[n+j] + d[2]*local[2*n+j]
	}
}

// subQuat is MuJoCo 2.2.2's mju_subQuat(qa, qb): the rotation vector of
// qb⁻¹ qa (mju_quat2Vel with dt 1, spatial.Quat.RotationVector).
func subQuat(qa, qb spatial.Quat) spatial.Vec3 {
	return qb.Conj().Mul(qa).RotationVector()
}
