package mesh

import (
	"testing"

	"github.com/stiction-sim/stiction/geometry"
	"github.com/stiction-sim/stiction/model/embedded"
	"github.com/stiction-sim/stiction/spatial"
)

// TestAgainstHull checks MassProperties of convex meshes against package
// geometry's convex hull of the same vertices: a rotated off-centre box, a
// tessellated sphere, and the surface of the hull of Drake's iiwa link-7
// collision polytope. The polytope file itself is not exactly convex: a few
// of its quadrilaterals are split along the diagonal that folds inward, so
// its volume is 1.5e-6 (relative) below its hull's; that case is checked to
// 1e-5.
func TestAgainstHull(t *testing.T) {
	R := spatial.QuatFromAxisAngle(spatial.Vec3{1, -2, 0.5}, 1.1)
	meshes := map[string]*Mesh{
		"box":    boxMesh(spatial.Vec3{0.3, 0.5, 1.1}, spatial.Vec3{}).Transformed(spatial.Vec3{1, 1, 1}, spatial.Pose{R: R, P: spatial.Vec3{1, 2, 3}}),
		"sphere": uvSphere(0.2, 24),
	}
	poly, err := embedded.Path("embedded://drake_models/iiwa_description/meshes/iiwa14/collision/link_7_polytope.obj")
	if err != nil {
		t.Fatal(err)
	}
	m, err := Load(poly)
	if err != nil {
		t.Fatal(err)
	}
	meshes["polytope file"] = m
	h, err := geometry.NewConvexHull(m.Vertices)
	if err != nil {
		t.Fatal(err)
	}
	hm := &Mesh{Vertices: h.Hull.Vertices()}
	for _, tr := range h.Hull.Triangles() {
		hm.Triangles = append(hm.Triangles, [3]int32{int32(tr[0]), int32(tr[1]), int32(tr[2])})
	}
	meshes["polytope hull"] = hm
	for name, m := range meshes {
		p, err := m.MassProperties()
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		h, err := geometry.NewConvexHull(m.Vertices)
		if err != nil {
			t.Fatalf("%s: hull: %v", name, err)
		}
		unit, err := h.UnitInertia()
		if err != nil {
			t.Fatal(err)
		}
		hv, hc, hI := h.Volume(), h.Centroid(), unit.Scale(h.Volume())
		scale := p.I.FrobeniusNorm()
		tol := 1e-12
		if name == "polytope file" {
			tol = 1e-5
		}
		if !near(p.Volume, hv, tol) || p.COM.Sub(hc).Norm() > tol*(1+hc.Norm()) || p.I.Sub(hI).FrobeniusNorm() > 10*tol*scale {
			t.Errorf("%s: mesh V %v com %v I %v; hull V %v com %v I %v", name, p.Volume, p.COM, p.I, hv, hc, hI)
		}
		t.Logf("%s: volume %.12g (hull %.12g), |ΔI|/|I| = %.2g", name, p.Volume, hv, p.I.Sub(hI).FrobeniusNorm()/scale)
	}
}
