package mjcf

import (
	"math"
	"testing"

	"github.com/stiction-sim/stiction/spatial"
)

// mjBoxVerts is the 8-point box of MuJoCo's collision_convex test models
// (<mesh vertex>), in the file's order.
var mjBoxVerts = []spatial.Vec3{{-1, -1, -1}, {1, -1, -1}, {1, 1, -1}, {1, 1, 1}, {1, -1, 1}, {-1, 1, -1}, {-1, 1, 1}, {-1, -1, 1}}

// mjBoxTris are MuJoCo 2.2.2's triangles of mjBoxVerts (mesh_face, qhull
// with option Qt), the same at every scale of the collision_convex
// models; boxoidVerts is multiple_objects.xml's "boxoid".
var (
	mjBoxTris   = [][3]int32{{3, 4, 2}, {2, 4, 1}, {5, 2, 1}, {5, 1, 0}, {4, 7, 1}, {1, 7, 0}, {6, 3, 2}, {5, 6, 2}, {6, 4, 3}, {6, 7, 4}, {6, 5, 0}, {7, 6, 0}}
	boxoidVerts = []spatial.Vec3{{-1, -1, -1}, {1, -1, -1}, {1, 1, -1}, {1, 1, 1}, {1, -1, 1}, {-1, 1, -1}, {-1, 1, .5}, {-1, -1, 2}}
)

// TestMeshMassMuJoCo checks mujocoMeshMass against MuJoCo 2.2.2's own
// masses and principal moments (mj_loadXML; body_mass, body_inertia) for
// the four meshes of the collision_convex models, given by their points.
// The triangles are the ones MuJoCo's qhull made (mesh_face), because the
// single-precision sums depend on the triangulation: with another hull's
// triangles the same meshes differed by 4.1e-9 to 1.1e-8 relative, and
// qhullTriangles makes MuJoCo's (TestQhullTriangles; internal/mjref
// TestMeshMassTriangulation). The masses are MuJoCo's to
// the last bit; the principal moments to 1e-14, with MuJoCo's Jacobi
// eigen-solver (mjEig3): with an exact one the cube of stacked_boxes.xml,
// whose float-rounded inertia has off-diagonal entries below mju_eig3's
// 1e-12, was 4.7e-11 off.
func TestMeshMassMuJoCo(t *testing.T) {
	penta := []spatial.Vec3{{1, 0, 0}, {0.309, 0.951, 0}, {-0.809, 0.588, 0}, {-0.809, -0.588, 0}, {0.309, -0.951, 0},
		{1, 0, 1}, {0.309, 0.951, 1}, {-0.809, 0.588, 1}, {-0.809, -0.588, 1}, {0.309, -0.951, 1}}
	cases := []struct {
		name     string
		verts    []spatial.Vec3
		scale    spatial.Vec3
		tris     [][3]int32
		mass     float64    // MuJoCo's, density 1000
		inertia  [3]float64 // principal moments, ascending
		solidVol float64    // the exact solid's volume
	}{
		{"long_box.xml", mjBoxVerts, spatial.Vec3{.6, .03, .03},
			mjBoxTris, 4.320000677704867, [3]float64{0.0025920006973744456, 0.5196961280218504, 0.5196961280218504}, 8 * .6 * .03 * .03},
		{"multiple_objects.xml pentaprism", penta, spatial.Vec3{.2, .2, .1},
			[][3]int32{{4, 3, 0}, {1, 3, 2}, {3, 1, 0}, {3, 7, 2}, {7, 3, 8}, {9, 4, 0}, {5, 9, 0}, {9, 3, 4}, {3, 9, 8}, {6, 7, 8}, {9, 6, 8}, {6, 9, 5}, {1, 6, 0}, {6, 5, 0}, {6, 1, 2}, {7, 6, 2}},
			9.236462794546409, [3]float64{0.07878854424971161, 0.07879263914717537, 0.14218707977718617}, 0.09510972 * 0.1},
		{"multiple_objects.xml boxoid", boxoidVerts, spatial.Vec3{.3, .2, .1},
			[][3]int32{{4, 3, 7}, {3, 6, 7}, {5, 2, 1}, {5, 1, 0}, {1, 4, 0}, {4, 7, 0}, {2, 4, 1}, {3, 4, 2}, {6, 5, 0}, {7, 6, 0}, {5, 6, 2}, {6, 3, 2}},
			54.140280319434346, [3]float64{0.94297235893736886, 1.8340794916535954, 2.2961814038208455}, 0},
		{"stacked_boxes.xml", mjBoxVerts, spatial.Vec3{.05, .05, .05}, mjBoxTris,
			0.99999989196658334, [3]float64{0.0016666663601157124, 0.0016666663647428017, 0.0016666663748630467}, 0.001},
	}
	for _, c := range cases {
		p, err := mujocoMeshMass(mujocoMeshVerts(c.verts, c.scale), c.tris, false, 1000)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		m := 1000 * p.Volume
		if e := math.Abs(m-c.mass) / c.mass; e > 1e-15 {
			t.Errorf("%s: mass %.17g, MuJoCo %.17g (%.2g relative)", c.name, m, c.mass, e)
		}
		ev, _ := spatial.EigSym3(p.Unit.Scale(m))
		var worst float64
		for i := range 3 {
			e := math.Abs(ev[i]-c.inertia[i]) / c.inertia[2]
			if worst = math.Max(worst, e); e > 1e-14 {
				t.Errorf("%s: principal moment %d %.17g, MuJoCo %.17g (%.2g relative)", c.name, i, ev[i], c.inertia[i], e)
			}
		}
		// The exact solid weighs more than its inertia box unless it is a
		// box: the pentagonal prism 2.9 % more.
		exact, err := mujocoMeshMass(mujocoMeshVerts(c.verts, c.scale), c.tris, true, 1000)
		if err != nil {
			t.Fatal(err)
		}
		if e := math.Abs(exact.Volume-c.solidVol) / c.solidVol; c.solidVol > 0 && e > 1e-6 {
			t.Errorf("%s: exactmeshinertia volume %.9g, solid %.9g", c.name, exact.Volume, c.solidVol)
		}
		t.Logf("%s: mass %.17g (MuJoCo %.17g); principal moments %.2g relative; exact solid's volume / box volume %.6f", c.name, m, c.mass, worst, exact.Volume/p.Volume)
	}
}

// TestMjEig3: mjEig3 is MuJoCo 2.2.2's mju_eig3 bit for bit (the
// eigenvalues and quaternions below are libmujoco's, called from C on the
// same matrices). Its Jacobi iteration stops once a rotation's cosine is
// within 1e-12 of 1, so on a general matrix R diag(eig) Rᵀ misses a by
// about 3e-9 (checked ≤ 1e-8, eig decreasing), and it keeps the diagonal
// of a matrix whose off-diagonal entries are below 1e-12, where an exact
// solver moves the eigenvalues by about those entries.
func TestMjEig3(t *testing.T) {
	a := [9]float64{2, 0.3, -0.1, 0.3, 1, 0.2, -0.1, 0.2, 0.5}
	near := [9]float64{1.6666663e-3, 4e-13, 0, 4e-13, 1.6666663e-3 + 1e-14, 3e-13, 0, 3e-13, 1.6666663e-3 + 2e-14}
	for _, c := range []struct {
		a  [9]float64
		ev [3]float64
		q  mjQuat
	}{
		{a, [3]float64{2.0842926214149036, 1.0108475649940678, 0.40485981359103229}, mjQuat{0.97129626778797618, 0.19734783681876411, 0.040060959355560435, 0.1266195522801086}},
		{near, [3]float64{0.00166666630002, 0.0016666663000099999, 0.0016666662999999999}, mjQuat{0, 0.70710678118654757, 0, 0.70710678118654757}},
	} {
		ev, q := mjEig3(c.a)
		if ev != c.ev || q != c.q {
			t.Errorf("mjEig3(%v) = %.17g, %.17g; MuJoCo %.17g, %.17g", c.a, ev, q, c.ev, c.q)
		}
		R := quat2Mat(q)
		var worst float64
		for i := range 3 {
			for j := range 3 {
				var s float64
				for k := range 3 {
					s += R[3*i+k] * ev[k] * R[3*j+k]
				}
				worst = math.Max(worst, math.Abs(s-c.a[3*i+j]))
			}
		}
		if worst > 1e-8 || !(ev[0] >= ev[1] && ev[1] >= ev[2]) {
			t.Errorf("mjEig3(%v): R diag Rᵀ off by %.2g, eigenvalues %v", c.a, worst, ev)
		}
		exact, _ := spatial.EigSym3(spatial.Mat3{{c.a[0], c.a[1], c.a[2]}, {c.a[3], c.a[4], c.a[5]}, {c.a[6], c.a[7], c.a[8]}})
		t.Logf("mju_eig3 %.17g, R diag Rᵀ off by %.2g; exact eigenvalues %.17g", ev, worst, exact)
	}
}
