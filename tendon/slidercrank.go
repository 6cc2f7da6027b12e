package tendon

import (
	"fmt"
	"math"

	"github.com/stiction-sim/stiction/multibody"
	"github.com/stiction-sim/stiction/spatial"
)

// Transmission is a scalar length L(q) with its Jacobian G = ∂L/∂q̇ that an
// actuator drives: a spatial tendon's Path or a SliderCrank.
type Transmission interface {
	// Jacobian writes G (length m.NV) into g and returns L at the
	// kinematics of ws; local is scratch of length ≥ 3 NV.
	Jacobian(m *multibody.Model, ws *multibody.Workspace, g, local []float64) float64
	// Validate checks the transmission against model m.
	Validate(m *multibody.Model) error
	// Bodies lists the bodies whose motion enters G (−1: the world).
	Bodies() []int
}

// Bodies lists the bodies of the path's sites and wraps.
func (p *Path) Bodies() []int {
	var out []int
	for _, s := range p.Sites {
		out = append(out, s.Body)
	}
	for _, w := range p.Wraps {
		if w != nil {
			out = append(out, w.Body)
		}
	}
	return out
}

// SliderCrank is MuJoCo's slider-crank transmission (mj_transmission,
// mjTRN_SLIDERCRANK): a rod of length Rod joins the crank site to a point
// that slides along the slider site's axis a (its frame's z axis; Axis in
// the slider body's frame). With v = x_crank − x_slider, the actuator
// length is L = a·v − √det, det = (a·v)² + Rod² − v·v, and
// ∂L/∂v = a (1 − a·v/√det) + v/√det, ∂L/∂a = v (1 − a·v/√det); G chains
// them with the Jacobians of v (the crank and slider points) and of a
// (ȧ = ω × a, ω the slider body's angular velocity). When det ≤ 0 (the rod
// is too short: the crank is "broken") MuJoCo takes L = a·v, ∂L/∂v = a and
// ∂L/∂a = v; so here.
type SliderCrank struct {
	Crank, Slider Site
	Axis          spatial.Vec3 // unit
	Rod           float64
}

// Bodies lists the crank's and the slider's bodies.
func (s *SliderCrank) Bodies() []int { return []int{s.Crank.Body, s.Slider.Body} }

// Validate checks the bodies, a unit axis and a positive rod length.
func (s *SliderCrank) Validate(m *multibody.Model) error {
	for _, b := range s.Bodies() {
		if b < -1 || b >= len(m.Bodies) {
			return fmt.Errorf("slider-crank: body %d out of range", b)
		}
	}
	if math.Abs(s.Axis.Norm()-1) > 1e-9 {
		return fmt.Errorf("slider-crank: axis %v is not a unit vector", s.Axis)
	}
	if !(s.Rod > 0) || math.IsInf(s.Rod, 0) {
		return fmt.Errorf("slider-crank: rod length %v must be positive and finite", s.Rod)
	}
	return nil
}

// geometry returns the world crank point xc, slider point xs, axis a,
// v = xc − xs, a·v and det = (a·v)² + Rod² − v·v at the kinematics of ws.
func (s *SliderCrank) geometry(ws *multibody.Workspace) (xc, xs, a, v spatial.Vec3, av, det float64) {
	xc, xs = position(ws, s.Crank), position(ws, s.Slider)
	a = s.Axis
	if s.Slider.Body >= 0 {
		a = ws.Pose(s.Slider.Body).R.Rotate(a)
	}
	v = xc.Sub(xs)
	av = a.Dot(v)
	return xc, xs, a, v, av, av*av + s.Rod*s.Rod - v.Dot(v)
}

// Reaches reports whether the rod reaches the slider's axis (det > 0) at
// the kinematics of ws: where L is differentiable and G is its gradient.
func (s *SliderCrank) Reaches(ws *multibody.Workspace) bool {
	_, _, _, _, _, det := s.geometry(ws)
	return det > 0
}

// Jacobian writes G into g and returns L (Transmission).
func (s *SliderCrank) Jacobian(m *multibody.Model, ws *multibody.Workspace, g, local []float64) float64 {
	clear(g[:m.NV])
	xc, xs, a, v, av, det := s.geometry(ws)
	l, dldv, dlda := av, a, v
	if det > 0 {
		sd := math.Sqrt(det)
		l = av - sd
		dldv = a.Scale(1 - av/sd).Add(v.Scale(1 / sd))
		dlda = v.Scale(1 - av/sd)
	}
	addPoint(m, ws, g, local, s.Crank.Body, &xc, &dldv)
	neg := dldv.Neg()
	addPoint(m, ws, g, local, s.Slider.Body, &xs, &neg)
	// ∂L/∂a · (ω × a) = (a × ∂L/∂a) · ω
	addRotation(m, ws, g, local, s.Slider.Body, a.Cross(dlda))
	return l
}
