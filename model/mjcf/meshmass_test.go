package mjcf

import (
	"math"
	"testing"

	"github.com/stiction-sim/stiction/spatial"
)

// mjBoxVerts is the 8-point box of MuJoCo's collision_convex test models
// (<mesh vertex>), in the file's order.
var mjBoxVerts = []spatial.Vec3{{-1, -1, -1}, {1, -1, -1}, {1, 1, -1}, {1, 1, 1}, {1, -1, 1}, {-1, 1, -1}, {-1, 1, 1}, {-1, -1, 1}}

// TestMeshMassMuJoCo checks mujocoMeshMass against MuJoCo 2.2.2's own
// masses and principal moments (mj_loadXML; body_mass, body_inertia) for
// two meshes given by their points. The triangles are the ones MuJoCo's
// qhull made (mesh_face), because the single-precision sums depend on
// the triangulation: with Stiction's own hull the same meshes differ by
// 4e-9 (long box) and 1.1e-8 (pentagonal prism) relative.
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
			[][3]int32{{3, 4, 2}, {2, 4, 1}, {5, 2, 1}, {5, 1, 0}, {4, 7, 1}, {1, 7, 0}, {6, 3, 2}, {5, 6, 2}, {6, 4, 3}, {6, 7, 4}, {6, 5, 0}, {7, 6, 0}},
			4.320000677704867, [3]float64{0.0025920006973744456, 0.5196961280218504, 0.5196961280218504}, 8 * .6 * .03 * .03},
		{"multiple_objects.xml pentaprism", penta, spatial.Vec3{.2, .2, .1},
			[][3]int32{{4, 3, 0}, {1, 3, 2}, {3, 1, 0}, {3, 7, 2}, {7, 3, 8}, {9, 4, 0}, {5, 9, 0}, {9, 3, 4}, {3, 9, 8}, {6, 7, 8}, {9, 6, 8}, {6, 9, 5}, {1, 6, 0}, {6, 5, 0}, {6, 1, 2}, {7, 6, 2}},
			9.236462794546409, [3]float64{0.07878854424971161, 0.07879263914717537, 0.14218707977718617}, 0.09510972 * 0.1},
	}
	for _, c := range cases {
		p, err := mujocoMeshMass(mujocoMeshVerts(c.verts, c.scale), c.tris, false)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		m := 1000 * p.Volume
		if e := math.Abs(m-c.mass) / c.mass; e > 1e-13 {
			t.Errorf("%s: mass %.17g, MuJoCo %.17g (%.2g relative)", c.name, m, c.mass, e)
		}
		ev, _ := spatial.EigSym3(p.Unit.Scale(m))
		for i := range 3 {
			if e := math.Abs(ev[i]-c.inertia[i]) / c.inertia[2]; e > 1e-13 {
				t.Errorf("%s: principal moment %d %.17g, MuJoCo %.17g (%.2g relative)", c.name, i, ev[i], c.inertia[i], e)
			}
		}
		// The exact solid weighs more than its inertia box unless it is a
		// box: the pentagonal prism 2.9 % more.
		exact, err := mujocoMeshMass(mujocoMeshVerts(c.verts, c.scale), c.tris, true)
		if err != nil {
			t.Fatal(err)
		}
		if e := math.Abs(exact.Volume-c.solidVol) / c.solidVol; e > 1e-6 {
			t.Errorf("%s: exactmeshinertia volume %.9g, solid %.9g", c.name, exact.Volume, c.solidVol)
		}
		t.Logf("%s: mass %.17g (MuJoCo %.17g); exact solid's volume / box volume %.6f", c.name, m, c.mass, exact.Volume/p.Volume)
	}
}
