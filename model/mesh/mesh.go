package mesh

import (
	"errors"
	"fmt"
	"math"

	"github.com/stiction-sim/stiction/spatial"
)

// MaxTriangles bounds the size of a mesh file (10⁷ triangles, 500 MB of
// binary STL), so that a corrupt count cannot ask for unbounded memory.
const MaxTriangles = 10_000_000

// Mesh is a triangle mesh: vertices and counter-clockwise (seen from
// outside) triangles of vertex indices. Exactly equal vertices are merged by
// the readers.
type Mesh struct {
	Vertices  []spatial.Vec3
	Triangles [][3]int32
	// Color is the mesh's own base colour (RGBA in [0, 1]) where the file
	// gives one (glTF materials), else nil.
	Color *[4]float64
}

// Validate reports an error for a mesh that cannot be used: no triangles,
// an index out of range, a non-finite vertex, or vertices that are all on
// one line (a degenerate mesh: no triangle has an area).
func (m *Mesh) Validate() error {
	if len(m.Triangles) == 0 || len(m.Vertices) < 3 {
		return errors.New("empty mesh: no triangles")
	}
	for i, v := range m.Vertices {
		if !v.IsFinite() {
			return fmt.Errorf("vertex %d %v is not finite", i, v)
		}
	}
	n := int32(len(m.Vertices))
	for i, t := range m.Triangles {
		for _, k := range t {
			if k < 0 || k >= n {
				return fmt.Errorf("triangle %d: vertex index %d out of range [0, %d)", i, k, n)
			}
		}
	}
	if m.collinear() {
		return errors.New("degenerate mesh: all vertices lie on one line (or coincide)")
	}
	return nil
}

// collinear reports whether every vertex lies on the line through the two
// vertices furthest apart along the first non-zero extent, to a tolerance
// of 1e-12 times the mesh size.
func (m *Mesh) collinear() bool {
	a := m.Vertices[0]
	far, d := a, 0.0
	for _, v := range m.Vertices {
		if l := v.Sub(a).Norm(); l > d {
			far, d = v, l
		}
	}
	if d == 0 {
		return true
	}
	u, _ := far.Sub(a).Normalize()
	for _, v := range m.Vertices {
		if v.Sub(a).Cross(u).Norm() > 1e-12*d {
			return false
		}
	}
	return true
}

// Bounds returns the smallest and largest coordinates of the vertices.
func (m *Mesh) Bounds() (lo, hi spatial.Vec3) {
	lo = spatial.Vec3{math.Inf(1), math.Inf(1), math.Inf(1)}
	hi = lo.Neg()
	for _, v := range m.Vertices {
		lo, hi = lo.Min(v), hi.Max(v)
	}
	return lo, hi
}

// Transformed returns a copy of the mesh scaled per axis by s, then moved by
// the pose x. A scale with an odd number of negative factors mirrors the
// mesh, so the triangles' winding is reversed to keep them facing out.
func (m *Mesh) Transformed(s spatial.Vec3, x spatial.Pose) *Mesh {
	out := &Mesh{Vertices: make([]spatial.Vec3, len(m.Vertices)), Triangles: make([][3]int32, len(m.Triangles)), Color: m.Color}
	for i, v := range m.Vertices {
		out.Vertices[i] = x.Apply(v.Mul(s))
	}
	flip := s[0]*s[1]*s[2] < 0
	for i, t := range m.Triangles {
		if flip {
			t[1], t[2] = t[2], t[1]
		}
		out.Triangles[i] = t
	}
	return out
}

// welder merges exactly equal vertices as a mesh is read.
type welder struct {
	m     *Mesh
	index map[spatial.Vec3]int32
}

func newWelder() *welder { return &welder{m: &Mesh{}, index: map[spatial.Vec3]int32{}} }

// add returns the index of vertex v, adding it if it is new. −0 and +0 are
// the same vertex.
func (w *welder) add(v spatial.Vec3) int32 {
	for i := range v {
		if v[i] == 0 {
			v[i] = 0
		}
	}
	if i, ok := w.index[v]; ok {
		return i
	}
	i := int32(len(w.m.Vertices))
	w.m.Vertices = append(w.m.Vertices, v)
	w.index[v] = i
	return i
}

// triangle adds a triangle, dropping those with a repeated vertex (zero area
// by construction; they carry nothing for drawing, hulls or volumes).
func (w *welder) triangle(a, b, c int32) {
	if a == b || b == c || a == c {
		return
	}
	w.m.Triangles = append(w.m.Triangles, [3]int32{a, b, c})
}
