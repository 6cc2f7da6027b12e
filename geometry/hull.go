package geometry

import (
	"math"

	"github.com/stiction-sim/stiction/spatial"
)

// Hull is the immutable data of a convex polyhedron, built once by
// NewConvexHull and shared by pointer between every copy of its Shape.
// Its vertices are in the shape frame (the frame of the input points; the
// hull is not re-centred). Faces are convex polygons: coplanar triangles
// of the hull are merged, so a box's hull has 6 quadrilateral faces.
type Hull struct {
	verts []spatial.Vec3
	faces []hullFace
	edges []hullEdge
	// vertFaces[vertFaceStart[v]:vertFaceStart[v+1]] are the faces around
	// vertex v, in increasing order.
	vertFaces     []int32
	vertFaceStart []int32

	volume   float64
	centroid spatial.Vec3
	unitI    spatial.Mat3 // inertia per unit mass about the centroid
	radius   float64      // largest distance of a vertex from the frame origin
	size     float64      // diagonal of the bounding box of the input points
	maxFace  int          // largest number of vertices of a face

	// adj[adjStart[v]:adjStart[v+1]] are the neighbours of vertex v, and
	// extreme the vertices furthest along ±x, ±y, ±z (hullsupport.go).
	adj      []int32
	adjStart []int32
	extreme  [6]int32

	// mujoco is MuJoCo's compiled mesh (SetMuJoCo), nil unless an MJCF
	// import attached it.
	mujoco *MuJoCoMesh
}

// hullFace is one face: its vertices counter-clockwise seen from outside,
// its outward unit normal and plane offset (n·x = d on the face), and the
// in-plane frame (u, v = n × u) whose diagonals ±u±v pick the face's
// contact slots (see slots.go), and its diameter.
type hullFace struct {
	verts []int32
	n     spatial.Vec3
	d     float64
	u     spatial.Vec3
	width float64
	// sides bound the face in its frame (u, n × u) with origin at its
	// first vertex: the reference face's sides for clipping.
	sides []sideLine
}

// hullEdge is an edge between vertices a and b, with the face on each side:
// left has the edge a→b counter-clockwise, right has b→a.
type hullEdge struct {
	a, b        int32
	left, right int32
}

// HullFace describes one face of a hull for rendering and inspection.
type HullFace struct {
	Vertices []int        // indices into Vertices(), counter-clockwise seen from outside
	Normal   spatial.Vec3 // outward unit normal in the shape frame
	Offset   float64      // Normal·x = Offset for every point x of the face plane
}

// NumVertices returns the number of vertices of the hull.
func (h *Hull) NumVertices() int { return len(h.verts) }

// NumFaces returns the number of (polygonal) faces of the hull.
func (h *Hull) NumFaces() int { return len(h.faces) }

// NumEdges returns the number of edges of the hull.
func (h *Hull) NumEdges() int { return len(h.edges) }

// Vertex returns vertex i in the shape frame.
func (h *Hull) Vertex(i int) spatial.Vec3 { return h.verts[i] }

// Vertices returns a copy of the hull's vertices, in the shape frame.
func (h *Hull) Vertices() []spatial.Vec3 { return append([]spatial.Vec3(nil), h.verts...) }

// Faces returns a copy of the hull's faces.
func (h *Hull) Faces() []HullFace {
	out := make([]HullFace, len(h.faces))
	for i, f := range h.faces {
		vs := make([]int, len(f.verts))
		for k, v := range f.verts {
			vs[k] = int(v)
		}
		out[i] = HullFace{Vertices: vs, Normal: f.n, Offset: f.d}
	}
	return out
}

// Triangles returns the faces split into triangles (fans from each face's
// first vertex), counter-clockwise seen from outside, for rendering.
func (h *Hull) Triangles() [][3]int {
	var out [][3]int
	for _, f := range h.faces {
		for k := 1; k+1 < len(f.verts); k++ {
			out = append(out, [3]int{int(f.verts[0]), int(f.verts[k]), int(f.verts[k+1])})
		}
	}
	return out
}

// Volume returns the volume of the hull.
func (h *Hull) Volume() float64 { return h.volume }

// Centroid returns the centroid of the solid hull in the shape frame.
func (h *Hull) Centroid() spatial.Vec3 { return h.centroid }

// facesAround returns the faces around vertex v.
func (h *Hull) facesAround(v int) []int32 {
	return h.vertFaces[h.vertFaceStart[v]:h.vertFaceStart[v+1]]
}

// incidentFace returns the face of the hull whose outward normal is most
// opposed to the local unit direction n, among the faces around the vertex
// furthest along −n (so that the face holds the deepest vertex). Ties go to
// the lower face index.
func (h *Hull) incidentFace(n spatial.Vec3) int {
	v := h.support(n.Neg())
	best, bv := -1, math.Inf(1)
	for _, f := range h.facesAround(v) {
		if c := h.faces[f].n.Dot(n); c < bv {
			best, bv = int(f), c
		}
	}
	return best
}

// nearestSupport returns the point nearest p (local) of the hull's support
// set along the local direction d: a face when d is within about 1e-6 rad
// of its normal (tolerance tol relative to ‖d‖), else an edge when d is
// that close to the edge's normal cone boundary, else the support vertex.
func (h *Hull) nearestSupport(d, p spatial.Vec3, tol float64) spatial.Vec3 {
	vi := h.support(d)
	dn := d.Norm()
	if !(dn > 0) {
		return h.verts[vi]
	}
	best := h.verts[vi]
	bestD := best.Sub(p).Norm2()
	for _, fi := range h.facesAround(vi) {
		f := &h.faces[fi]
		if f.n.Dot(d) < dn-tol { // tol = flatSupportTol·‖d‖: about 1e-6 rad
			continue
		}
		q := h.closestOnFace(f, p)
		if dq := q.Sub(p).Norm2(); dq < bestD {
			best, bestD = q, dq
		}
	}
	if bestD > 0 {
		// An edge at vi whose direction is orthogonal to d (to the same
		// angle) is in the support set too.
		for _, fi := range h.facesAround(vi) {
			f := &h.faces[fi]
			m := len(f.verts)
			for k, v := range f.verts {
				if int(v) != vi {
					continue
				}
				for _, w := range [2]int32{f.verts[(k+1)%m], f.verts[(k+m-1)%m]} {
					e := h.verts[w].Sub(h.verts[vi])
					if math.Abs(e.Dot(d)) > tol*e.Norm() {
						continue
					}
					q := closestOnAB(p, h.verts[vi], h.verts[w])
					if dq := q.Sub(p).Norm2(); dq < bestD {
						best, bestD = q, dq
					}
				}
			}
		}
	}
	return best
}

// closestOnFace returns the point of face f nearest p: its projection onto
// the plane when that lies inside the polygon, else the nearest point of
// its boundary.
func (h *Hull) closestOnFace(f *hullFace, p spatial.Vec3) spatial.Vec3 {
	q := p.AddScaled(f.d-f.n.Dot(p), f.n)
	m := len(f.verts)
	inside := true
	best, bestD := q, math.Inf(1)
	for k, v := range f.verts {
		a, b := h.verts[v], h.verts[f.verts[(k+1)%m]]
		if b.Sub(a).Cross(q.Sub(a)).Dot(f.n) < 0 {
			inside = false
		}
		c := closestOnAB(q, a, b)
		if dc := c.Sub(q).Norm2(); dc < bestD {
			best, bestD = c, dc
		}
	}
	if inside {
		return q
	}
	return best
}

// closestOnAB returns the point of the segment from a to b nearest p.
func closestOnAB(p, a, b spatial.Vec3) spatial.Vec3 {
	e := b.Sub(a)
	l := e.Norm2()
	if !(l > 0) {
		return a
	}
	return a.AddScaled(clamp(p.Sub(a).Dot(e)/l, 0, 1), e)
}
