package geometry

import (
	"math"
	"testing"

	"github.com/stiction-sim/stiction/spatial"
)

// integrate returns the volume and the second moments ∫x², ∫y², ∫z² of the
// solid s by the midpoint rule on a grid of n³ cells over the positive
// octant of its bounding box (all four shapes are symmetric in each
// coordinate plane), using the independent signedDistance of
// witness_test.go as the indicator.
func integrate(s Shape, n int) (vol float64, m spatial.Vec3) {
	e := s.AABB(spatial.PoseIdentity()).Max
	h := e.Scale(1 / float64(n))
	cell := 8 * h[0] * h[1] * h[2] // ×8 for the eight octants
	for i := range n {
		x := (float64(i) + 0.5) * h[0]
		for j := range n {
			y := (float64(j) + 0.5) * h[1]
			for k := range n {
				z := (float64(k) + 0.5) * h[2]
				if signedDistance(s, spatial.PoseIdentity(), spatial.Vec3{x, y, z}) <= 0 {
					vol += cell
					m = m.Add(spatial.Vec3{x * x, y * y, z * z}.Scale(cell))
				}
			}
		}
	}
	return vol, m
}

// TestMassProperties compares Volume and UnitInertia with the grid
// integration (n = 100 per octant; the grid's relative error, measured at
// n = 80–160, stays below 4e-4 for curved shapes and 4e-5 for the box, so
// the tolerance is 1e-3, while a wrong hemisphere centroid in the capsule
// formula would be off by 5%). For a uniform solid of unit mass,
// I_xx = (∫y² + ∫z²)/V, and so on; products of inertia vanish by symmetry.
func TestMassProperties(t *testing.T) {
	shapes := []Shape{NewSphere(0.7), NewBox(spatial.Vec3{0.4, 1.0, 1.6}), NewCapsule(0.3, 1.1), NewCylinder(0.5, 0.6), NewCapsule(0.5, 0.2)}
	const tol = 1e-3
	for _, s := range shapes {
		vol, m := integrate(s, 100)
		if got := s.Volume(); math.Abs(got-vol) > tol*vol {
			t.Errorf("%v: Volume %.6g, integral %.6g", s.Kind, got, vol)
		}
		want := spatial.Diag3(spatial.Vec3{m[1] + m[2], m[0] + m[2], m[0] + m[1]}.Scale(1 / vol))
		got, err := s.UnitInertia()
		if err != nil {
			t.Fatalf("%v: %v", s.Kind, err)
		}
		for i := range 3 {
			for j := range 3 {
				if math.Abs(got[i][j]-want[i][j]) > tol*want[i][i] {
					t.Errorf("%v: inertia[%d][%d] = %.6g, integral %.6g", s.Kind, i, j, got[i][j], want[i][j])
				}
			}
		}
		if err := (spatial.SpatialInertia{Mass: 1, Icom: got}).Validate(); err != nil {
			t.Errorf("%v: %v", s.Kind, err)
		}
	}
}

// TestMassClosedForms pins the formulas exactly for simple dimensions.
func TestMassClosedForms(t *testing.T) {
	box, _ := NewBox(spatial.Vec3{1, 2, 3}).UnitInertia()
	if want := spatial.Diag3(spatial.Vec3{13.0 / 12, 10.0 / 12, 5.0 / 12}); box != want {
		t.Errorf("box inertia %v, want %v", box, want)
	}
	sph, _ := NewSphere(2).UnitInertia()
	if want := spatial.Diag3(spatial.Vec3{1.6, 1.6, 1.6}); sph != want {
		t.Errorf("sphere inertia %v, want %v", sph, want)
	}
	cyl, _ := NewCylinder(1, 2).UnitInertia() // r = 1, h = 2: (3r² + h²)/12 = 7/12, r²/2
	if want := (spatial.Vec3{7.0 / 12, 7.0 / 12, 0.5}); math.Abs(cyl[0][0]-want[0]) > 1e-15 || cyl[2][2] != want[2] {
		t.Errorf("cylinder inertia %v, want diag %v", cyl, want)
	}
	// A capsule with a vanishing cylinder is a sphere.
	cap0, _ := Shape{Kind: Capsule, Radius: 1, HalfLength: 1e-300}.UnitInertia()
	if math.Abs(cap0[0][0]-0.4) > 1e-12 || math.Abs(cap0[2][2]-0.4) > 1e-12 {
		t.Errorf("degenerate capsule inertia %v, want sphere 0.4", cap0)
	}
	for _, c := range []struct {
		s    Shape
		want float64
	}{
		{NewSphere(1), 4 * math.Pi / 3}, {NewBox(spatial.Vec3{1, 2, 3}), 6},
		{NewCylinder(1, 2), 2 * math.Pi}, {NewCapsule(1, 2), 2*math.Pi + 4*math.Pi/3},
		{NewHalfSpace(), math.Inf(1)},
	} {
		if got := c.s.Volume(); got != c.want && math.Abs(got-c.want) > 1e-14 {
			t.Errorf("%v volume %g, want %g", c.s.Kind, got, c.want)
		}
	}
	if _, err := NewHalfSpace().UnitInertia(); err == nil {
		t.Error("half-space inertia: no error")
	}
	if _, err := NewSphere(-1).UnitInertia(); err == nil {
		t.Error("invalid sphere inertia: no error")
	}
}
