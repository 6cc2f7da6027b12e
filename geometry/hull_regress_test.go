package geometry

import (
	"bufio"
	"math"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/stiction-sim/stiction/spatial"
)

// readPoints reads the "v x y z" lines of an OBJ file.
func readPoints(t testing.TB, path string) []spatial.Vec3 {
	t.Helper()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var pts []spatial.Vec3
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		fs := strings.Fields(sc.Text())
		if len(fs) != 4 || fs[0] != "v" {
			continue
		}
		var p spatial.Vec3
		for k := range 3 {
			if p[k], err = strconv.ParseFloat(fs[k+1], 64); err != nil {
				t.Fatal(err)
			}
		}
		pts = append(pts, p)
	}
	return pts
}

// TestHullLink6 is the regression test of Drake's iiwa14 link 6 collision
// mesh (testdata/iiwa14_link_6), whose hull once failed with "a face lost
// its vertices": every input point lies inside the hull, the surface is a
// closed convex polyhedron, and its flat cap (the points at the largest
// y, more than maxHullFaceVerts of them on its outline) is covered by
// faces in that plane of at most maxHullFaceVerts vertices whose area is
// that of the cap points' 2-D hull.
func TestHullLink6(t *testing.T) {
	pts := readPoints(t, "testdata/iiwa14_link_6/link_6_points.obj")
	if len(pts) != 1644 {
		t.Fatalf("%d points", len(pts))
	}
	s := mustHull(t, pts)
	checkHullInvariants(t, s, pts)
	h := s.Hull
	ymax := math.Inf(-1)
	for _, p := range pts {
		ymax = max(ymax, p[1])
	}
	var capVerts int
	var capArea float64
	for _, f := range h.Faces() {
		if f.Normal[1] < 1-1e-12 {
			continue
		}
		capVerts += len(f.Vertices)
		if len(f.Vertices) > maxHullFaceVerts {
			t.Errorf("a cap face has %d vertices", len(f.Vertices))
		}
		for k := 1; k+1 < len(f.Vertices); k++ {
			a, b, c := h.Vertex(f.Vertices[0]), h.Vertex(f.Vertices[k]), h.Vertex(f.Vertices[k+1])
			capArea += b.Sub(a).Cross(c.Sub(a)).Dot(f.Normal) / 2
		}
		if math.Abs(f.Offset-ymax) > 1e-15 {
			t.Errorf("cap face at y = %g, want %g", f.Offset, ymax)
		}
	}
	// The cap is the polygon of the input points at y = ymax: its area is
	// that of their 2-D convex hull (gift wrapping, independent of Quickhull).
	var ring [][2]float64
	for _, p := range pts {
		if p[1] == ymax {
			ring = append(ring, [2]float64{p[2], p[0]})
		}
	}
	want := convexArea2D(ring)
	t.Logf("hull: %d vertices, %d faces; cap: %d face vertices, area %.9g (2-D hull of the %d cap points: %.9g)",
		h.NumVertices(), h.NumFaces(), capVerts, capArea, len(ring), want)
	if math.Abs(capArea-want) > 1e-6*want {
		t.Errorf("cap area %.12g, want %.12g", capArea, want)
	}
}

// convexArea2D returns the area of the convex hull of 2-D points (gift
// wrapping).
func convexArea2D(p [][2]float64) float64 {
	start := 0
	for i := range p {
		if p[i][0] < p[start][0] || (p[i][0] == p[start][0] && p[i][1] < p[start][1]) {
			start = i
		}
	}
	cross := func(o, a, b [2]float64) float64 {
		return (a[0]-o[0])*(b[1]-o[1]) - (a[1]-o[1])*(b[0]-o[0])
	}
	var area float64
	cur := start
	for range len(p) + 1 {
		next := (cur + 1) % len(p)
		for i := range p {
			if cross(p[cur], p[next], p[i]) < 0 {
				next = i
			}
		}
		area += p[cur][0]*p[next][1] - p[next][0]*p[cur][1]
		cur = next
		if cur == start {
			break
		}
	}
	return math.Abs(area) / 2
}

// dPrism returns the corners of a prism of height 2h over a "D": a
// half-circle of radius 1 through na+1 points and a straight side x = 0
// with nf−1 points between its ends, bulging out to x = −eps (a
// parabola), as single-precision meshes and CAD tessellations do.
func dPrism(na, nf int, eps, h float64) (pts []spatial.Vec3, outline [][2]float64) {
	for i := 0; i <= na; i++ {
		a := -math.Pi/2 + math.Pi*float64(i)/float64(na)
		outline = append(outline, [2]float64{math.Cos(a), math.Sin(a)})
	}
	for i := 1; i < nf; i++ {
		y := 1 - 2*float64(i)/float64(nf)
		outline = append(outline, [2]float64{-eps * (1 - y*y), y})
	}
	for _, z := range []float64{-h, h} {
		for _, r := range outline {
			pts = append(pts, spatial.Vec3{r[0], r[1], z})
		}
	}
	return pts, outline
}

// TestHullLargeFlatFace: prisms over a D whose caps have up to 201
// vertices (more than maxHullFaceVerts) and whose flat side bulges by
// 0 to 1e-7 (below the merge tolerance 1e-6 of the size, above the
// outside tolerance 1e-10): the hull is valid, its volume is the
// outline's area times the height (to 1e-12; with the bulge, between the
// straight and the bulging outline's), and each cap is cut into
// coplanar pieces of at most maxHullFaceVerts vertices. Before the fix
// every case with more than 63 cap vertices and a bulge failed ("a face
// lost its vertices").
func TestHullLargeFlatFace(t *testing.T) {
	for _, na := range []int{20, 62, 70, 100, 200} {
		for _, eps := range []float64{0, 1e-9, 1e-8, 1e-7} {
			pts, outline := dPrism(na, 6, eps, 0.5)
			s, err := NewConvexHull(pts)
			if err != nil {
				t.Fatalf("na %d eps %g: %v", na, eps, err)
			}
			checkHullInvariants(t, s, pts)
			// Merging absorbs the bulge (it is within the merge
			// tolerance): the volume lies between the straight D's and
			// the bulging outline's (height 1).
			_, straight := dPrism(na, 6, 0, 0.5)
			lo, hi := polygonArea(straight), polygonArea(outline)
			if v := s.Volume(); v < lo*(1-1e-12) || v > hi*(1+1e-12) {
				t.Errorf("na %d eps %g: volume %.15g, want in [%.15g, %.15g]", na, eps, v, lo, hi)
			}
			for _, f := range s.Hull.Faces() {
				if len(f.Vertices) > maxHullFaceVerts {
					t.Errorf("na %d eps %g: a face with %d vertices", na, eps, len(f.Vertices))
				}
			}
		}
	}
}

// TestDropEdgeVertices: a unit cube whose top face is the quadrilateral
// (4, 5, 7, 6) and whose +x side carries a point m (index 8) on its top
// edge, with the sliver triangle (7, 5, 8) between them, as merging
// produces when m lies within the tolerance of that edge. m is in two
// faces only: it is dropped, the sliver goes, and the cube's six faces
// remain.
func TestDropEdgeVertices(t *testing.T) {
	// Corners: index = x + 2y + 4z.
	loops := [][]int32{
		{0, 2, 3, 1},    // z = 0
		{4, 5, 7, 6},    // z = 1
		{0, 1, 5, 4},    // y = 0
		{2, 6, 7, 3},    // y = 1
		{0, 4, 6, 2},    // x = 0
		{1, 3, 7, 8, 5}, // x = 1, with m between 7 and 5
		{7, 5, 8},       // the sliver
	}
	got, err := dropEdgeVertices(loops)
	if err != nil {
		t.Fatal(err)
	}
	want := [][]int32{{0, 2, 3, 1}, {4, 5, 7, 6}, {0, 1, 5, 4}, {2, 6, 7, 3}, {0, 4, 6, 2}, {1, 3, 7, 5}}
	if !slices.EqualFunc(got, want, slices.Equal) {
		t.Fatalf("got %v, want %v", got, want)
	}
	if _, err := dropEdgeVertices([][]int32{{0, 1, 2}, {2, 1, 0}}); err == nil {
		t.Error("two faces: no error")
	}
}

// TestSplitLoop: long loops are cut into fans of at most maxHullFaceVerts
// vertices that cover every edge of the loop once.
func TestSplitLoop(t *testing.T) {
	for _, n := range []int{3, 63, 64, 65, 66, 127, 128, 200} {
		loop := make([]int32, n)
		for i := range loop {
			loop[i] = int32(i)
		}
		pieces := splitLoop(loop)
		edges := map[[2]int32]int{}
		for _, p := range pieces {
			if len(p) < 3 || len(p) > maxHullFaceVerts {
				t.Fatalf("n %d: piece of %d vertices", n, len(p))
			}
			for k := range p {
				edges[[2]int32{p[k], p[(k+1)%len(p)]}]++
			}
		}
		for i := range n { // every loop edge once, every chord both ways
			if edges[[2]int32{int32(i), int32((i + 1) % n)}] != 1 {
				t.Fatalf("n %d: loop edge %d used %d times", n, i, edges[[2]int32{int32(i), int32((i + 1) % n)}])
			}
		}
		for e, c := range edges {
			if d := (e[1] - e[0] + int32(n)) % int32(n); d != 1 && (c != 1 || edges[[2]int32{e[1], e[0]}] != 1) {
				t.Fatalf("n %d: chord %v unmatched", n, e)
			}
		}
	}
}

// polygonArea returns the area of a counter-clockwise polygon (shoelace).
func polygonArea(p [][2]float64) float64 {
	var a float64
	for i := range p {
		u, w := p[i], p[(i+1)%len(p)]
		a += u[0]*w[1] - w[0]*u[1]
	}
	return a / 2
}
