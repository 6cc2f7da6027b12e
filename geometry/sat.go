package geometry

import (
	"math"

	"github.com/stiction-sim/stiction/spatial"
)

// satResult is the outcome of a separating axis test.
type satResult struct {
	u       spatial.Vec3 // best axis, unit, oriented from the first shape towards the second
	overlap float64      // overlap along u (negative when separated along u)
	sep     float64      // largest separation over all axes (≤ 0 when overlapping)
	face    int          // face axis index, or −1 for an edge axis
	edge    int          // edge axis index when face < 0
}

// Axis selection bias of the box–box separating axis test: a face of B
// replaces the best face of A, and an edge axis the best face, only if its
// overlap is smaller by more than axisBias (relative) plus tieTol times the
// scale. This settles rounding-level ties in favour of face manifolds
// without moving the reported depth measurably away from the minimum.
// Besides, a face of B or an edge axis within 1° of the best face so far
// (faceAlignCos) must beat it by a further slack (faceSlack times the
// margin): for nearly parallel faces the face of A (the first of the
// canonical pair) stays the reference face, so its manifold's features do
// not change when the faces tilt slightly, at the cost of a depth at most
// the slack (and at most sin 1° times the boxes' size) above the minimum.
const axisBias = 1e-6

// segmentBoxSAT tests the face normals of the box and the cross products of
// the segment direction with the box edges. Overlap along an axis u is
// Σ h_k|u_k| + e|u·d| − |u·c|.
func segmentBoxSAT(h spatial.Vec3, sg segment, scale float64) satResult {
	res := satResult{overlap: math.Inf(1), sep: math.Inf(-1), face: -1}
	consider := func(u spatial.Vec3, face, edge int) {
		o := h[0]*math.Abs(u[0]) + h[1]*math.Abs(u[1]) + h[2]*math.Abs(u[2]) + sg.e*math.Abs(u.Dot(sg.d)) - math.Abs(u.Dot(sg.c))
		res.sep = max(res.sep, -o)
		if o < res.overlap-tieTol*scale { // ties go to the earlier axis, faces first
			if u.Dot(sg.c) < 0 {
				u = u.Neg()
			}
			res.u, res.overlap, res.face, res.edge = u, o, face, edge
		}
	}
	for i := range 3 {
		var u spatial.Vec3
		u[i] = 1
		consider(u, i, -1)
	}
	for i := range 3 {
		var e spatial.Vec3
		e[i] = 1
		if c := sg.d.Cross(e); c.Norm() > 1e-9 {
			consider(c.Scale(1/c.Norm()), -1, i)
		}
	}
	return res
}

// boxBoxSAT evaluates the 15 axes in A's frame: the face normals of A
// (face 0–2), of B (face 3–5) and the cross products of their edge
// directions (edge 3i+j for A's axis i and B's axis j).
func boxBoxSAT(a, b *posed, slack float64) satResult {
	rab := a.rot.T().Mul(b.rot) // column j: B's axis j in A's frame
	t := a.toLocal(b.pos)
	bp := boxPairFrame{ha: a.s.HalfExtents, hb: b.s.HalfExtents, t: t}
	cols := &bp.cols
	for j := range 3 {
		cols[j] = rab.Col(j)
	}
	tol := tieTol * (a.size() + b.size())
	res := satResult{overlap: math.Inf(1), sep: math.Inf(-1), face: -1}
	take := func(u spatial.Vec3, o float64, face, edge int) {
		if u.Dot(t) < 0 {
			u = u.Neg()
		}
		res.u, res.overlap, res.face, res.edge = u, o, face, edge
	}
	for i := range 6 { // faces of A, then of B
		var u spatial.Vec3
		if i < 3 {
			u[i] = 1
		} else {
			u = cols[i-3]
		}
		o := bp.overlap(&u)
		res.sep = max(res.sep, -o)
		bias := biasOf(res.face < 3 && i >= 3, tol, res.overlap)
		if i >= 3 && res.face < 3 && math.Abs(u.Dot(res.u)) >= faceAlignCos {
			bias += slack // nearly parallel to A's best face
		}
		if res.face < 0 || o < res.overlap-bias {
			take(u, o, i, -1)
		}
	}
	for i := range 3 {
		for j := range 3 {
			var e spatial.Vec3
			e[i] = 1
			c := e.Cross(cols[j])
			l := c.Norm()
			if l < 1e-6 { // parallel edges: covered by the face axes
				continue
			}
			u := c.Scale(1 / l)
			o := bp.overlap(&u)
			res.sep = max(res.sep, -o)
			bias := biasOf(res.face >= 0, tol, res.overlap)
			if res.face >= 0 && math.Abs(u.Dot(res.u)) >= faceAlignCos {
				bias += slack // nearly parallel to the best face
			}
			if o < res.overlap-bias {
				take(u, o, -1, 3*i+j)
			}
		}
	}
	res.u = a.rot.MulVec(res.u)
	return res
}

// boxPairFrame holds the box–box test's data in A's frame: the half
// extents, B's axes (cols[j] is B's axis j) and B's centre t.
type boxPairFrame struct {
	ha, hb spatial.Vec3
	cols   [3]spatial.Vec3
	t      spatial.Vec3
}

// overlap returns the boxes' overlap along the unit axis u (in A's frame):
// Σ ha_k|u_k| + Σ hb_j|u·b_j| − |u·t| (the projected radii minus the
// projected distance of the centres).
func (p *boxPairFrame) overlap(u *spatial.Vec3) float64 {
	ha, hb, c := &p.ha, &p.hb, &p.cols
	ra := ha[0]*math.Abs(u[0]) + ha[1]*math.Abs(u[1]) + ha[2]*math.Abs(u[2])
	rb := hb[0]*math.Abs(u.Dot(c[0])) + hb[1]*math.Abs(u.Dot(c[1])) + hb[2]*math.Abs(u.Dot(c[2]))
	return ra + rb - math.Abs(u.Dot(p.t))
}

// biasOf returns the margin by which a challenger must beat the incumbent
// overlap o: axisBias·|o| + tol when the bias applies, else nothing.
func biasOf(applies bool, tol, o float64) float64 {
	if applies {
		return axisBias*math.Abs(o) + tol
	}
	return 0
}
