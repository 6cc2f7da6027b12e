package mjcf

import (
	"github.com/stiction-sim/stiction/scene"
	"slices"
	"testing"

	"github.com/stiction-sim/stiction/spatial"
)

// TestQhullTriangles: qhullTriangles gives MuJoCo 2.2.2's own triangles
// (mesh_face, the same triples, vertex order included) for the meshes of
// the collision_convex test models, given by their unscaled points as
// MuJoCo hands them to qhull.
func TestQhullTriangles(t *testing.T) {
	penta := []spatial.Vec3{{1, 0, 0}, {0.309, 0.951, 0}, {-0.809, 0.588, 0}, {-0.809, -0.588, 0}, {0.309, -0.951, 0},
		{1, 0, 1}, {0.309, 0.951, 1}, {-0.809, 0.588, 1}, {-0.809, -0.588, 1}, {0.309, -0.951, 1}}
	for _, c := range []struct {
		name  string
		verts []spatial.Vec3
		tris  [][3]int32
	}{
		{"box", mjBoxVerts, mjBoxTris},
		{"boxoid", boxoidVerts, [][3]int32{{4, 3, 7}, {3, 6, 7}, {5, 2, 1}, {5, 1, 0}, {1, 4, 0}, {4, 7, 0}, {2, 4, 1}, {3, 4, 2}, {6, 5, 0}, {7, 6, 0}, {5, 6, 2}, {6, 3, 2}}},
		{"pentaprism", penta, [][3]int32{{4, 3, 0}, {1, 3, 2}, {3, 1, 0}, {3, 7, 2}, {7, 3, 8}, {9, 4, 0}, {5, 9, 0}, {9, 3, 4}, {3, 9, 8}, {6, 7, 8}, {9, 6, 8}, {6, 9, 5}, {1, 6, 0}, {6, 5, 0}, {6, 1, 2}, {7, 6, 2}}},
	} {
		pts := make([]spatial.Vec3, len(c.verts))
		for i, v := range c.verts {
			for k := range 3 {
				pts[i][k] = float64(float32(v[k]))
			}
		}
		got, err := qhullTriangles(pts)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if len(got) != len(c.tris) {
			t.Errorf("%s: %d triangles, MuJoCo %d", c.name, len(got), len(c.tris))
		}
		for _, tr := range c.tris {
			if !slices.Contains(got, tr) {
				t.Errorf("%s: MuJoCo's triangle %v missing from %v", c.name, tr, got)
			}
		}
	}
}

// TestMujocoVertexMeshSolid: whatever the triangulation, a vertex-only
// mesh's triangles close the hull of its points: for every mesh of
// qhullCases (scaled by 0.3, 0.2, 0.1), mujocoVertexMesh's triangles form
// a closed surface of the hull's volume, and qhullTriangles alone closes
// the hull of every one (none falls back to our own hull's triangles).
func TestMujocoVertexMeshSolid(t *testing.T) {
	scale := spatial.Vec3{0.3, 0.2, 0.1}
	fallback := 0
	for i, c := range qhullCases() {
		pts := make([]scene.Vec, len(c.pts))
		for j, p := range c.pts {
			pts[j] = scene.Vec(p)
		}
		v, tris, _, err := mujocoVertexMesh(pts, scale)
		if err != nil {
			t.Fatalf("mesh %d (%s): %v", i, c.family, err)
		}
		rounded := make([]scene.Vec, len(pts))
		for j, p := range mujocoMeshVerts(c.pts, scale) {
			rounded[j] = scene.Vec{float64(p[0]), float64(p[1]), float64(p[2])}
		}
		hull, err := scene.VertexMesh(&scene.Shape{Type: "mesh", Vertices: rounded})
		if err != nil {
			t.Fatal(err)
		}
		hv := make([]f32Vec, len(hull.Vertices))
		for j, p := range hull.Vertices {
			hv[j] = f32Vec{float32(p[0]), float32(p[1]), float32(p[2])}
		}
		if !closedSurface(tris) || !sameVolume(v, tris, hv, hull.Triangles) {
			t.Errorf("mesh %d (%s): not a closed surface of the hull's volume", i, c.family)
		}
		unscaled := make([]spatial.Vec3, len(pts))
		for j, p := range c.pts {
			unscaled[j] = spatial.Vec3{float64(float32(p[0])), float64(float32(p[1])), float64(float32(p[2]))}
		}
		if q, err := qhullTriangles(unscaled); err != nil || !closedSurface(q) || !sameVolume(mujocoMeshVerts(c.pts, scale), q, hv, hull.Triangles) {
			t.Logf("mesh %d (%s): our own hull's triangles", i, c.family)
			fallback++
			t.Errorf("mesh %d (%s): qhullTriangles does not close the hull", i, c.family)
		}
	}
	t.Logf("%d of %d meshes fell back to our own hull's triangles", fallback, len(qhullCases()))
}
