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
// directions (edge 3i+j for A's axis i and B's axis j). scale is the
// pair's a.size() + b.size(). Each edge axis is formed (edgeAxis) and
// tested in turn, read through pointers rather than copied.
func boxBoxSAT(a, b *posed, slack, scale float64) satResult {
	var bp boxPairFrame
	bp.set(a, b)
	tol := tieTol * scale
	res := satResult{overlap: math.Inf(1), sep: math.Inf(-1), face: -1}
	var oa [3]float64
	bp.faceOverlapsA(&oa)
	for i := range 6 { // faces of A, then of B
		var u spatial.Vec3
		var o float64
		if i < 3 {
			u[i], o = 1, oa[i]
		} else {
			u = bp.cols[i-3]
			o = bp.overlap(&u)
		}
		res.sep = maxKeep(res.sep, -o)
		bias := biasOf(res.face < 3 && i >= 3, tol, res.overlap)
		if i >= 3 && res.face < 3 && math.Abs(dotp(&u, &res.u)) >= faceAlignCos {
			bias += slack // nearly parallel to A's best face
		}
		if res.face < 0 || o < res.overlap-bias {
			res.take(&u, &bp.t, o, i, -1)
		}
	}
	for k := range 9 { // edge 3i+j: A's axis i, B's axis j
		var u spatial.Vec3
		if !bp.edgeAxis(&u, k/3, k%3) { // parallel edges: covered by the face axes
			continue
		}
		o := bp.overlap(&u)
		res.sep = maxKeep(res.sep, -o)
		bias := biasOf(res.face >= 0, tol, res.overlap)
		if res.face >= 0 && math.Abs(dotp(&u, &res.u)) >= faceAlignCos {
			bias += slack // nearly parallel to the best face
		}
		if o < res.overlap-bias {
			res.take(&u, &bp.t, o, -1, k)
		}
	}
	res.u = a.rot.MulVec(res.u)
	return res
}

// take makes u (oriented towards t: negated when u·t < 0) with overlap o
// the best axis so far.
func (r *satResult) take(u, t *spatial.Vec3, o float64, face, edge int) {
	r.u = *u
	if dotp(u, t) < 0 {
		r.u = spatial.Vec3{-u[0], -u[1], -u[2]}
	}
	r.overlap, r.face, r.edge = o, face, edge
}

// dotp is a·b as Vec3.Dot sums it, read through pointers (Vec3.Dot's value
// receiver and argument are copied to the stack where it is inlined).
func dotp(a, b *spatial.Vec3) float64 { return a[0]*b[0] + a[1]*b[1] + a[2]*b[2] }

// boxPairFrame holds the box–box test's data in A's frame: the half
// extents, B's axes (cols[j] is B's axis j) and B's centre t.
type boxPairFrame struct {
	ha, hb spatial.Vec3
	cols   [3]spatial.Vec3
	t      spatial.Vec3
}

// set sets p to boxes a and b: cols[j][i] = (a.rotᵀ b.rot)[i][j] and
// t = a.toLocal(b.pos), each sum in the order of Mat3.Mul and
// Mat3.MulTVec, read in place rather than through Mat3 values.
func (p *boxPairFrame) set(a, b *posed) {
	ra, rb := &a.rot, &b.rot
	for j := range 3 {
		for i := range 3 {
			p.cols[j][i] = ra[0][i]*rb[0][j] + ra[1][i]*rb[1][j] + ra[2][i]*rb[2][j]
		}
	}
	d0, d1, d2 := b.pos[0]-a.pos[0], b.pos[1]-a.pos[1], b.pos[2]-a.pos[2]
	for i := range 3 {
		p.t[i] = ra[0][i]*d0 + ra[1][i]*d1 + ra[2][i]*d2
	}
	p.ha, p.hb = a.s.HalfExtents, b.s.HalfExtents
}

// overlap returns the boxes' overlap along the unit axis u (in A's frame):
// Σ ha_k|u_k| + Σ hb_j|u·b_j| − |u·t| (the projected radii minus the
// projected distance of the centres).
func (p *boxPairFrame) overlap(u *spatial.Vec3) float64 {
	ha, hb, c := &p.ha, &p.hb, &p.cols
	ra := ha[0]*math.Abs(u[0]) + ha[1]*math.Abs(u[1]) + ha[2]*math.Abs(u[2])
	rb := hb[0]*math.Abs(dotp(u, &c[0])) + hb[1]*math.Abs(dotp(u, &c[1])) + hb[2]*math.Abs(dotp(u, &c[2]))
	return ra + rb - math.Abs(dotp(u, &p.t))
}

// faceOverlapsA sets o[i] to overlap(e_i), the overlap along A's face
// axis i, without its dot products when B's axes and centre are finite.
// For finite x, e_i·x (Vec3.Dot: e₀x₀ + e₁x₁ + e₂x₂) is x_i or, when x_i
// is a zero, a zero: e_i's 1 gives x_i exactly, its zeros give zeros, and
// adding a zero to a nonzero x_i gives x_i exactly. So |e_i·x| = |x_i| to
// the bit, and overlap(e_i) = ra + Σ hb_j|cols[j][i]| − |t_i|, with ra
// (the half extents against e_i's components) as overlap forms it. An
// infinite component makes 0·∞ a NaN in the dot product, so then (or on
// a NaN) overlap itself is called (TestCubecollide3FaceOverlapsA).
func (p *boxPairFrame) faceOverlapsA(o *[3]float64) {
	ha, hb, c, t := &p.ha, &p.hb, &p.cols, &p.t
	var s float64 // finite, unless a component is not (or the sum overflows)
	for j := range 3 {
		s += c[j][0] + c[j][1] + c[j][2]
	}
	if s += t[0] + t[1] + t[2]; s-s != 0 {
		for i := range 3 {
			var u spatial.Vec3
			u[i] = 1
			o[i] = p.overlap(&u)
		}
		return
	}
	for i := range 3 {
		var e [3]float64
		e[i] = 1 // |e_k|, as overlap reads them
		ra := ha[0]*e[0] + ha[1]*e[1] + ha[2]*e[2]
		rb := hb[0]*math.Abs(c[0][i]) + hb[1]*math.Abs(c[1][i]) + hb[2]*math.Abs(c[2][i])
		o[i] = ra + rb - math.Abs(t[i])
	}
}

// edgeAxis sets u to the unit edge axis e_i × b_j / ‖e_i × b_j‖ (e_i × b_j
// as Vec3.Cross forms it, its norm as Vec3.Norm, the scaling as Vec3.Scale
// by 1/‖·‖) and reports true, or reports false when the edges are parallel
// (norm below 1e-6).
func (p *boxPairFrame) edgeAxis(u *spatial.Vec3, i, j int) bool {
	e0, e1, e2 := 0.0, 0.0, 0.0 // e_i in scalars, not an array indexed by i
	switch i {
	case 0:
		e0 = 1
	case 1:
		e1 = 1
	default:
		e2 = 1
	}
	c := &p.cols[j]
	x, y, z := e1*c[2]-e2*c[1], e2*c[0]-e0*c[2], e0*c[1]-e1*c[0]
	l := math.Sqrt(x*x + y*y + z*z)
	if l < 1e-6 {
		return false
	}
	s := 1 / l
	*u = spatial.Vec3{s * x, s * y, s * z}
	return true
}

// maxKeep is max(a, b), with the common case b < a (neither a NaN, and
// not a zero against a zero: −0 < +0 is false) decided by one compare,
// the built-in's NaN and signed-zero handling only for the rest.
func maxKeep(a, b float64) float64 {
	if b < a {
		return a
	}
	return max(a, b)
}

// minKeep is min(a, b), with the common case b > a decided by one compare
// (as maxKeep).
func minKeep(a, b float64) float64 {
	if b > a {
		return a
	}
	return min(a, b)
}

// biasOf returns the margin by which a challenger must beat the incumbent
// overlap o: axisBias·|o| + tol when the bias applies, else nothing.
func biasOf(applies bool, tol, o float64) float64 {
	if applies {
		return axisBias*math.Abs(o) + tol
	}
	return 0
}
