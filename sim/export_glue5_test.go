package sim

import (
	"github.com/stiction-sim/stiction/geometry"
	"github.com/stiction-sim/stiction/spatial"
)

// CurvatureErrorCheck returns curvatureError for geometry g at the last
// step's start and the same error computed afresh from the geometry, the
// form before the constants were kept per geometry (curvTerms), for
// glue5_test.go.
func CurvatureErrorCheck(s *Simulator, g int) (got, want float64) {
	b := s.Model.Geometries[g].Body
	got = s.curvatureError(g, b)
	if b < 0 || s.Model.Bodies[b].Tree < 0 {
		return got, 0
	}
	geo := &s.Model.Geometries[g]
	w, _ := s.ws.kin0.Velocity(b)
	d := geo.Pose.P.Norm()
	rho := s.ws.reach[g] - d
	wp := w
	switch geo.Shape.Kind {
	case geometry.Sphere:
		wp = spatial.Vec3{}
	case geometry.Cylinder, geometry.Capsule:
		axis := s.ws.kin0.Pose(b).R.Rotate(geo.Pose.R.Rotate(spatial.Vec3{0, 0, 1}))
		wp = w.Sub(axis.Scale(w.Dot(axis)))
	}
	dt := s.cfg.DT
	return got, dt * dt / 2 * (d*w.Dot(w) + rho*wp.Dot(wp))
}
