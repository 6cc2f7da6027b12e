package forces

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stiction-sim/stiction/spatial"
)

// TestEllipsoidDampingMatchesFD: the ellipsoid fluid model's velocity
// derivative (MuJoCo's mjd_ellipsoidFluid, in Output.N; D untouched) equals
// −∂F/∂v by central differences in every within-tree block, at random
// states, for ellipsoids, a sphere and a thin plate at random poses on
// the free body, a ball-jointed and a planar body, in a wind.
func TestEllipsoidDampingMatchesFD(t *testing.T) {
	r := rand.New(rand.NewPCG(11, 12))
	worst := 0.0
	for range 3 {
		m, s := system(r)
		f := NewFluid(m, 1.2, 0.02, rv(r))
		for _, g := range []struct {
			body int
			semi spatial.Vec3
		}{{1, spatial.Vec3{0.3, 0.1, 0.05}}, {1, spatial.Vec3{0.1, 0.1, 0.1}}, {3, spatial.Vec3{0.2, 0.15, 0.001}}, {4, spatial.Vec3{0.05, 0.3, 0.1}}} {
			f.AddEllipsoid(m, g.body, rpose(r), g.semi, EllipsoidCoefs{0.5, 0.25, 1.5, 1, 1})
		}
		out := eval(m, f, s.Q, s.V, 0)
		_, D := fdJacobians(m, f, s.Q, s.V)
		for i := range m.NV {
			for j := range m.NV {
				d, same := block(m, out, out.D, i, j)
				if !same {
					continue
				}
				n, _ := block(m, out, out.N, i, j)
				x := d + n
				e := math.Abs(x - D[i][j])
				worst = math.Max(worst, e/(1+math.Abs(x)))
				if e > 1e-6*(1+math.Abs(x)) {
					t.Fatalf("(D+N)[%d][%d] = %.10g, FD %.10g", i, j, x, D[i][j])
				}
			}
		}
	}
	t.Logf("max |D + N − FD|/(1+|D+N|) = %.2g", worst)
}

// TestEllipsoidDisablesBox: a body with an ellipsoid geom feels no
// inertia-box force, and its other bodies keep theirs (MuJoCo's rule).
func TestEllipsoidDisablesBox(t *testing.T) {
	r := rand.New(rand.NewPCG(13, 14))
	m, _ := system(r)
	f := NewFluid(m, 1.2, 0.02, spatial.Vec3{})
	before := len(f.bodies)
	f.AddEllipsoid(m, 1, spatial.PoseIdentity(), spatial.Vec3{0.1, 0.2, 0.3}, DefaultEllipsoidCoefs)
	f.SetBox(1, m.Bodies[1].Inertia)
	if f.hasEllipsoid(1) != true || len(f.bodies) != before-1 {
		t.Fatalf("boxes %d → %d; want body 1's removed and not restored", before, len(f.bodies))
	}
	for _, b := range f.bodies {
		if b.body == 1 {
			t.Fatal("body 1 keeps its box")
		}
	}
}

// TestVirtualInertiaSphere: for a sphere the potential-flow coefficients
// are κ = 2/3 and the virtual mass is half the displaced volume
// (Lamb, Hydrodynamics §92); MuJoCo's quadrature reaches 1e-6 of it, and
// its virtual moment of inertia is 0 (a sphere turning displaces no
// fluid).
func TestVirtualInertiaSphere(t *testing.T) {
	vm, vi := virtualInertia(spatial.Vec3{0.2, 0.2, 0.2})
	vol := 4.0 / 3.0 * math.Pi * 0.008
	for k := range 3 {
		if e := math.Abs(vm[k]-vol/2) / (vol / 2); e > 1e-6 {
			t.Errorf("virtual mass %d: %.9g, want V/2 = %.9g (%.2g relative)", k, vm[k], vol/2, e)
		}
		if vi[k] != 0 {
			t.Errorf("virtual inertia %d: %g, want 0", k, vi[k])
		}
	}
	if k := addedMassKappa(0.2, 0.2, 0.2); math.Abs(k-2.0/3.0) > 1e-6 {
		t.Errorf("κ = %.9g, want 2/3", k)
	}
}
