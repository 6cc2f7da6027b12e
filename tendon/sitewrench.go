package tendon

import (
	"fmt"
	"math"

	"github.com/stiction-sim/stiction/multibody"
	"github.com/stiction-sim/stiction/spatial"
)

// SiteWrench is MuJoCo's site transmission without a reference site
// (mj_transmission, mjTRN_SITE): the actuator's force f applies the wrench
// (f·Force, f·Torque) at the site, Force and Torque given in the site's
// body frame (MuJoCo's 6-value gear in the site's frame, rotated into the
// body's by the importer). Its moment is G = Force_wᵀ J_p + Torque_wᵀ J_ω
// (the world-frame vectors, the site point's translational and the body's
// rotational Jacobian), and, as in MuJoCo, its length is 0: only G (and
// the rate G v) is meaningful.
type SiteWrench struct {
	Site          Site
	Force, Torque spatial.Vec3
}

// Bodies lists the site's body.
func (s *SiteWrench) Bodies() []int { return []int{s.Site.Body} }

// Validate checks the body and a finite, non-zero wrench.
func (s *SiteWrench) Validate(m *multibody.Model) error {
	if b := s.Site.Body; b < -1 || b >= len(m.Bodies) {
		return fmt.Errorf("site wrench: body %d out of range", b)
	}
	n := s.Force.Norm() + s.Torque.Norm()
	if !(n > 0) || math.IsInf(n, 0) {
		return fmt.Errorf("site wrench: force %v, torque %v: need finite values, not both zero", s.Force, s.Torque)
	}
	return nil
}

// Jacobian writes G into g and returns the length 0 (Transmission).
func (s *SiteWrench) Jacobian(m *multibody.Model, ws *multibody.Workspace, g, local []float64) float64 {
	clear(g[:m.NV])
	b := s.Site.Body
	if b < 0 {
		return 0
	}
	r := ws.Pose(b).R
	addPoint(m, ws, g, local, b, position(ws, s.Site), r.Rotate(s.Force))
	addAngular(m, ws, g, local, b, r.Rotate(s.Torque))
	return 0
}

// addAngular adds dᵀ J_ω(b) to g, J_ω body b's rotational Jacobian.
func addAngular(m *multibody.Model, ws *multibody.Workspace, g, local []float64, b int, d spatial.Vec3) {
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
