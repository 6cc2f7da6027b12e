package mjccd

import (
	"math"
	"testing"
)

// TestPlaneCylinderClosedForm: a cylinder (radius r, half-length h) with
// its axis along the floor's normal, d₀ above it less depth δ, has
// mjc_PlaneCylinder's 3 contacts of depth δ on its lower rim, 120° apart
// (an equilateral triangle of side r√3 about the axis), each midway
// between the rim and the plane; lying on its side it has 2, one at each
// cap's rim under the axis; above the margin, none.
func TestPlaneCylinderClosedForm(t *testing.T) {
	const r, h, depth = 0.1, 0.04, 1e-3
	p := &Geom{Type: Plane, Mat: identity}
	c := &Geom{Type: Cylinder, Size: [3]float64{r, h}, Pos: [3]float64{0.3, -0.2, h - depth}, Mat: identity}
	got := PlaneCylinder(p, c, 0, nil)
	if len(got) != 3 {
		t.Fatalf("flat: %d contacts, want 3", len(got))
	}
	for i, k := range got {
		dx, dy := k.Pos[0]-c.Pos[0], k.Pos[1]-c.Pos[1]
		if math.Abs(k.Dist+depth) > 1e-15 || math.Abs(math.Hypot(dx, dy)-r) > 1e-15 || math.Abs(k.Pos[2]+depth/2) > 1e-15 || k.Normal != [3]float64{0, 0, 1} {
			t.Errorf("flat contact %d: %+v", i, k)
		}
	}
	for i := range 3 {
		a, b := got[i].Pos, got[(i+1)%3].Pos
		if s := math.Hypot(a[0]-b[0], a[1]-b[1]); math.Abs(s-r*math.Sqrt(3)) > 1e-15 {
			t.Errorf("flat: side %d of the triangle %.17g, want r√3", i, s)
		}
	}
	// On its side: the axis along y (a quarter turn about x).
	c.Mat = [9]float64{1, 0, 0, 0, 0, -1, 0, 1, 0}
	c.Pos = [3]float64{0, 0, r - depth}
	got = PlaneCylinder(p, c, 0, nil)
	if len(got) != 2 {
		t.Fatalf("side: %d contacts, want 2", len(got))
	}
	for i, k := range got {
		if math.Abs(k.Dist+depth) > 1e-15 || math.Abs(math.Abs(k.Pos[1])-h) > 1e-15 || math.Abs(k.Pos[0]) > 1e-15 {
			t.Errorf("side contact %d: %+v", i, k)
		}
	}
	c.Pos[2] = r + 1e-3
	if got = PlaneCylinder(p, c, 0, nil); len(got) != 0 {
		t.Errorf("1 mm above: %d contacts", len(got))
	}
	if got = PlaneCylinder(p, c, 2e-3, nil); len(got) != 2 || math.Abs(got[0].Dist-1e-3) > 1e-15 {
		t.Errorf("1 mm above, margin 2 mm: %+v, want 2 contacts at distance 1e-3", got)
	}
}

// TestPlaneConvexClosedForm: an ellipsoid of semi-axes a turned by a
// quarter turn about x rests on its y semi-axis: one contact of depth
// a_y − height; a box mesh (no graph) square on the floor has its first
// lowest vertex (index order) and then the next two lowest vertices that
// are farther than 0.3·rbound from it, all of depth δ.
func TestPlaneConvexClosedForm(t *testing.T) {
	p := &Geom{Type: Plane, Mat: identity}
	e := &Geom{Type: Ellipsoid, Size: [3]float64{0.1, 0.07, 0.05}, Pos: [3]float64{1, 2, 0.069}, Mat: [9]float64{1, 0, 0, 0, 0, -1, 0, 1, 0}}
	got := PlaneConvex(p, e, 0, nil)
	if len(got) != 1 || math.Abs(got[0].Dist+1e-3) > 1e-15 || math.Abs(got[0].Pos[0]-1) > 1e-15 || math.Abs(got[0].Pos[1]-2) > 1e-15 {
		t.Errorf("ellipsoid: %+v, want one contact of depth 1e-3 under its centre", got)
	}
	const depth = 2e-3
	const f32 = 1e-8 // the vertices are float32: 0.1 is 0.10000000149
	m := &Geom{Type: Mesh, Mesh: cubeMesh([3]float32{0.1, 0.1, 0.1}), Pos: [3]float64{0, 0, 0.1 - depth}, Mat: identity}
	m.RBound = math.Sqrt(3) * 0.1
	got = PlaneConvex(p, m, 0, nil)
	if len(got) != MaxPlaneConvex {
		t.Fatalf("box mesh: %d contacts, want %d", len(got), MaxPlaneConvex)
	}
	for i, k := range got {
		if math.Abs(k.Dist+depth) > f32 || math.Abs(math.Abs(k.Pos[0])-0.1) > f32 || math.Abs(math.Abs(k.Pos[1])-0.1) > f32 {
			t.Errorf("box mesh contact %d: %+v", i, k)
		}
	}
	if got[0].Pos == got[1].Pos || got[1].Pos == got[2].Pos || got[0].Pos == got[2].Pos {
		t.Errorf("box mesh: repeated corner: %+v", got)
	}
	m.Pos[2] = 0.1 + 1e-3
	if got = PlaneConvex(p, m, 0, nil); len(got) != 0 {
		t.Errorf("box mesh 1 mm above: %d contacts", len(got))
	}
}
