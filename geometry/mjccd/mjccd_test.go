package mjccd

import (
	"math"
	"testing"
)

var identity = [9]float64{1, 0, 0, 0, 1, 0, 0, 0, 1}

// TestTable: the pairs MuJoCo 2.2.2's mjCOLLISIONFUNC sends to mjc_Convex,
// entry by entry from engine_collision_driver.c.
func TestTable(t *testing.T) {
	// Rows and columns: plane, hfield, sphere, capsule, ellipsoid,
	// cylinder, box, mesh (upper triangle; the table is symmetric).
	convex := [8][8]bool{
		2: {4: true, 5: true, 7: true},
		3: {4: true, 5: true, 7: true},
		4: {4: true, 5: true, 6: true, 7: true},
		5: {5: true, 6: true, 7: true},
		6: {7: true},
		7: {7: true},
	}
	for a := range Type(8) {
		for b := a; b < 8; b++ {
			if got := Table(a, b); got != convex[a][b] || Table(b, a) != got {
				t.Errorf("Table(%d, %d) = %v, MuJoCo %v", a, b, got, convex[a][b])
			}
		}
	}
}

// cubeMesh is a box of half-sizes h as a mesh (8 vertices, no graph).
func cubeMesh(h [3]float32) *MeshData {
	var v []float32
	for i := range 8 {
		for k := range 3 {
			s := float32(1)
			if i>>k&1 == 0 {
				s = -1
			}
			v = append(v, s*h[k])
		}
	}
	return &MeshData{Vert: v}
}

// TestBoxFaceDepth: a cylinder, a box and a box mesh pressed flat by
// depth d into a large box's top face: MPR's first contact has distance
// −d (the mesh's single-precision half-height taken as stored) and the
// face normal, from geom 1 to geom 2 (closed form); with
// multiccd, five distinct contacts of that distance whose normals are
// within 2e-3 rad of it (the perturbation is 1e-3 rad per geom).
func TestBoxFaceDepth(t *testing.T) {
	const d = 0.01
	floor := Geom{Type: Box, Size: [3]float64{1, 1, 0.3}, Pos: [3]float64{0, 0, -0.3}, Mat: identity}
	floor.RBound = RBound(&floor)
	shapes := []Geom{
		{Type: Cylinder, Size: [3]float64{0.4, 0.03}},
		{Type: Mesh, Mesh: cubeMesh([3]float32{0.25, 0.125, 0.03}), RBound: 0.28},
	}
	for _, g := range shapes {
		g.Pos, g.Mat = [3]float64{0.01, -0.02, 0.03 - d}, identity
		half := 0.03
		if g.Mesh != nil {
			half = math.Abs(float64(g.Mesh.Vert[5]))
		}
		want := g.Pos[2] - half
		g.RBound = RBound(&g)
		g1, g2, sign := &g, &floor, -1.0
		if g.Type > Box {
			g1, g2, sign = &floor, &g, 1
		}
		for _, multi := range []bool{false, true} {
			out := Convex(g1, g2, 0, Options{Tolerance: 1e-6, Iterations: 50, MultiCCD: multi}, nil)
			n := 1
			if multi {
				n = 5
			}
			if len(out) != n {
				t.Fatalf("type %d, multiccd %v: %d contacts, want %d", g.Type, multi, len(out), n)
			}
			for i, c := range out {
				tilt := math.Acos(math.Min(1, sign*c.Normal[2]))
				if math.Abs(c.Dist-want) > 1e-12 || (i == 0 && tilt > 1e-12) || tilt > 2.0001e-3 {
					t.Errorf("type %d, multiccd %v, contact %d: dist %.17g (want %.17g), normal %v", g.Type, multi, i, c.Dist, want, c.Normal)
				}
			}
		}
	}
}

// TestSeparated: geoms apart have no contact.
func TestSeparated(t *testing.T) {
	a := Geom{Type: Cylinder, Size: [3]float64{0.1, 0.1}, Mat: identity}
	b := Geom{Type: Box, Size: [3]float64{0.1, 0.1, 0.1}, Pos: [3]float64{0.3, 0.01, 0}, Mat: identity}
	if out := Convex(&a, &b, 0, Options{Tolerance: 1e-6, Iterations: 50, MultiCCD: true}, nil); len(out) != 0 {
		t.Errorf("separated pair gave %d contacts: %+v", len(out), out)
	}
}

// TestDegenerate: degenerate and non-finite input (coincident centres,
// zero sizes, an empty or flat mesh, a malformed or cyclic graph, NaN
// poses) returns without panicking or looping, and never a non-finite
// contact.
func TestDegenerate(t *testing.T) {
	flat := &MeshData{Vert: []float32{0, 0, 0, 1, 0, 0, 0, 1, 0, 1, 1, 0}}
	bad := &MeshData{Vert: cubeMesh([3]float32{1, 1, 1}).Vert, Graph: []int32{8, 12, 0, 0, 0, 0, 0, 0, 0, 0, 9, -3, 2, 1, 5, 0, 7, 6, 1, 0, 1, 0, -1}}
	cyc := &MeshData{Vert: cubeMesh([3]float32{1, 1, 1}).Vert, Graph: []int32{2, 0, 0, 2, 0, 1, 1, -1, 0, -1}}
	nan := math.NaN()
	geoms := []Geom{
		{Type: Box, Mat: identity},
		{Type: Cylinder, Mat: identity},
		{Type: Ellipsoid, Mat: identity},
		{Type: Mesh, Mesh: &MeshData{}, Mat: identity},
		{Type: Mesh, Mesh: flat, Mat: identity},
		{Type: Mesh, Mesh: bad, Mat: identity},
		{Type: Mesh, Mesh: cyc, Mat: identity},
		{Type: Box, Size: [3]float64{1, 1, 1}, Pos: [3]float64{nan, 0, 0}, Mat: identity},
		{Type: Capsule, Size: [3]float64{1, 1}, Mat: [9]float64{nan}},
		{Type: Box, Size: [3]float64{1, 1, 1}, Mat: identity},
		{Type: Cylinder, Size: [3]float64{1, 1}, Pos: [3]float64{math.Inf(1), 0, 0}, Mat: identity},
	}
	for i := range geoms {
		for j := range geoms {
			out := Convex(&geoms[i], &geoms[j], 0, Options{Tolerance: 1e-6, Iterations: 50, MultiCCD: true}, nil)
			for _, c := range out {
				for _, x := range append(append([]float64{c.Dist}, c.Pos[:]...), c.Normal[:]...) {
					if math.IsNaN(x) || math.IsInf(x, 0) {
						t.Errorf("geoms %d, %d: non-finite contact %+v", i, j, c)
					}
				}
			}
		}
	}
}

// TestConvexAllocatesNothing: Convex appends into the caller's buffer.
func TestConvexAllocatesNothing(t *testing.T) {
	a := Geom{Type: Cylinder, Size: [3]float64{0.4, 0.03}, Pos: [3]float64{0, 0, 0.02}, Mat: identity, RBound: 0.4}
	b := Geom{Type: Box, Size: [3]float64{1, 1, 0.3}, Pos: [3]float64{0, 0, -0.3}, Mat: identity, RBound: 1.4}
	buf := make([]Contact, 0, MaxContacts)
	opt := Options{Tolerance: 1e-6, Iterations: 50, MultiCCD: true}
	if n := testing.AllocsPerRun(100, func() { buf = Convex(&a, &b, 0, opt, buf[:0]) }); n != 0 {
		t.Errorf("Convex allocates %v times per call", n)
	}
	if len(buf) != 5 {
		t.Errorf("%d contacts, want 5", len(buf))
	}
}
