package geometry

import (
	"math"

	"github.com/stiction-sim/stiction/spatial"
)

// Face manifolds. Where a face of one shape (the reference face, or the
// plane of a half-space) meets a face of the other (the incident face),
// the incident polygon is clipped against the sides of the reference face
// (Sutherland–Hodgman), giving a convex polygon P of up to maxClipVerts
// corners with heights z above the reference plane (z is linear over P,
// which lies on the incident face). The manifold reports at most 5 points
// of P, chosen by a fixed rule so that a small change of pose never swaps
// which points exist and every point moves continuously:
//
//  1. Slots 0–3: in the reference face's in-plane frame (u, v), the point
//     of P nearest a target far away (slotReach incident-face widths) from
//     the incident face's centre along each of the fixed directions +u+v,
//     −u+v, −u−v, +u−v. That is the corner of P extreme along the
//     direction when one corner clearly is, and a point sliding along an
//     edge when the edge is nearly orthogonal to it, so it never jumps
//     between corners. A point within slotMergeTol·w (w the smaller face
//     width) of an earlier slot's point is not repeated. The frame of a box
//     face is along its edges; that of a hull face is chosen when the hull
//     is built to keep these directions away from its edge normals; for a
//     half-space, the frame of the incident face is used.
//  2. Slot 4: likewise (but with a target deepReach widths away) along the
//     direction of steepest descent of the incident face, only when the deepest corner of P is deeper than every
//     slot point by more than deepGap (min(deepTol·w, faceSlack·margin), and
//     no more than the corner's penetration),
//     so that a tilted face reports its deepest point while a nearly flat
//     one does not: the deepest reported Phi is within deepGap of the
//     deepest corner of P (exact at margin 0). Slot 4 is also reported
//     when P reaches within the margin but no slot point does.
//  3. Every chosen point is kept, whatever its height, up to
//     margin + keepSlope·w: a face tilted by less than about
//     atan(keepSlope) ≈ 2.9° keeps all its points when one of them is
//     within the margin, so a rocking box does not lose its far corners.
const (
	keepSlope    = 0.05
	keepMargins  = 1
	deepTol      = 0.01
	slotMergeTol = 1e-3
	maxClipVerts = 2*maxHullFaceVerts + 8
	numSlots     = 4
)

// faceAlignCos is the cosine of the angle (1°) within which a face of the
// first shape of the canonical pair stays the reference face although a
// face of the second (or an edge axis) would be the exact minimum, unless
// that is deeper by more than faceSlack·margin: for nearly parallel faces
// either describes the contact, and keeping one avoids swapping reference
// faces (and so every feature) from step to step.
var faceAlignCos = math.Cos(1 * math.Pi / 180)

// faceSlack times the margin is how much better (in depth) a nearly
// parallel face of the second shape, or a nearly parallel edge axis, must
// be to replace the first shape's face as the reference.
const faceSlack = 0.5

// faceAngleCos is the cosine of the largest angle (1°) between the contact
// normal of two polytopes (from GJK or EPA, or the direction of the closest
// points of separated boxes) and a face normal for the contact to be
// described by that face's manifold rather than by one point.
var faceAngleCos = faceAlignCos

// sideLine is the half-plane m·(x, y) ≤ off of a face's 2-D frame.
type sideLine struct {
	m   [2]float64
	off float64
}

// refFace is a reference face posed in the world: the plane through c
// with outward normal n (pointing towards the incident shape), the in-plane
// frame u, v, and the sides bounding the face in that frame (none for a
// half-space).
type refFace struct {
	c, n, u, v spatial.Vec3
	sides      []sideLine // not stored in the struct itself (it would escape)
	width      float64    // largest extent; +Inf for a half-space
}

// project adds to p the incident polygon inc (world points) in the frame
// of the reference face, (d·u, d·v, d·n) with d = w − c and each product
// summed in Vec3.Dot's order, and returns the centre of the incident face
// in the plane, the mean of the corners' (x, y) as the sum of x/len(inc)
// in order. Scalars rather than Vec3 values: the same bits, fewer copies.
func (r *refFace) project(inc []spatial.Vec3, p *clipPoly) [2]float64 {
	var c [2]float64
	for i := range inc {
		w := &inc[i]
		d0, d1, d2 := w[0]-r.c[0], w[1]-r.c[1], w[2]-r.c[2]
		x, y := d0*r.u[0]+d1*r.u[1]+d2*r.u[2], d0*r.v[0]+d1*r.v[1]+d2*r.v[2]
		p.add(spatial.Vec3{x, y, d0*r.n[0] + d1*r.n[1] + d2*r.n[2]})
		c[0] += x / float64(len(inc))
		c[1] += y / float64(len(inc))
	}
	return c
}

// world sets pt to the world point at the middle of the height q[2] above
// the point (q[0], q[1]) of the reference plane: c + q₀u + q₁v + (q₂/2)n,
// summed left to right as c.AddScaled(q₀, u).AddScaled(q₁, v).AddScaled(q₂/2, n)
// sums it, in scalars.
func (r *refFace) world(pt, q *spatial.Vec3) {
	z := q[2] / 2
	for i := range 3 {
		pt[i] = r.c[i] + q[0]*r.u[i] + q[1]*r.v[i] + z*r.n[i]
	}
}

// clipPoly is a convex polygon in the frame of a reference face: x, y in
// its plane, z the height above it. v[:n] are its corners; v is a buffer
// on the caller's stack, of room for the largest polygon the clipping can
// make (the incident polygon's corners plus the reference face's sides).
type clipPoly struct {
	v []spatial.Vec3
	n int
}

func (p *clipPoly) add(v spatial.Vec3) {
	if p.n < len(p.v) {
		p.v[p.n] = v
		p.n++
	}
}

// clipSide sets out to the part of in inside the half-plane s. Corners
// within tol outside count as inside, so a corner on the line up to
// rounding is kept once rather than replaced by two nearly equal crossings.
func clipSide(in, out *clipPoly, s sideLine, tol float64) {
	out.n = 0
	if in.n == 0 {
		return
	}
	// Corners read in place and written by index (the same sums as
	// prev.AddScaled(dp/(dp-dc), cur.Sub(prev)) and out.add), rather than
	// copied as Vec3 values.
	m0, m1, off := s.m[0], s.m[1], s.off
	v := in.v[:in.n]
	prev := &v[len(v)-1]
	dp := m0*prev[0] + m1*prev[1] - off
	for i := range v {
		cur := &v[i]
		dc := m0*cur[0] + m1*cur[1] - off
		if (dp <= tol) != (dc <= tol) && dp*dc < 0 && out.n < len(out.v) {
			f := dp / (dp - dc)
			out.v[out.n] = spatial.Vec3{prev[0] + f*(cur[0]-prev[0]), prev[1] + f*(cur[1]-prev[1]), prev[2] + f*(cur[2]-prev[2])}
			out.n++
		}
		if dc <= tol && out.n < len(out.v) {
			out.v[out.n] = *cur
			out.n++
		}
		prev, dp = cur, dc
	}
}

// faceManifold clips the incident polygon inc (world points, in order
// around the face) with outward unit normal incNormal and width incWidth
// against the reference face and
// appends the chosen points (see above) with normal ±n (negated when flip
// is set) and Feature base|slot. It returns out, the smallest height of
// the whole clipped polygon and false when the polygon is empty.
func faceManifold(out []Contact, margin float64, ref *refFace, inc []spatial.Vec3, incNormal spatial.Vec3, incWidth float64,
	base uint32, flip bool, tol float64) ([]Contact, float64, bool) {
	// Clipping buffers, each of room for the incident polygon's corners
	// plus the reference face's sides (clipping by a side adds at most one
	// corner): the smallest that fits, since Go clears every declared
	// array (a box's 4 + 4 need half of the hull faces' 16; BENCHMARKS.md,
	// seventy-sixth pass), and the largest on the heap.
	var pa, qa clipPoly
	switch n := len(inc) + len(ref.sides); {
	case n <= 8:
		var b [2][8]spatial.Vec3
		pa.v, qa.v = b[0][:], b[1][:]
	case n <= 16:
		var b [2][16]spatial.Vec3
		pa.v, qa.v = b[0][:], b[1][:]
	default:
		b := new([2][maxClipVerts]spatial.Vec3)
		pa.v, qa.v = b[0][:], b[1][:]
	}
	p, q := &pa, &qa
	// The incident polygon in the reference frame, and the centre c of the
	// incident face (which moves continuously with the pose) in the plane.
	c := ref.project(inc, p)
	for _, s := range ref.sides {
		clipSide(p, q, s, tol)
		p, q = q, p
	}
	if p.n == 0 {
		return out, math.Inf(1), false
	}
	out, zmin := facePoints(out, margin, ref, p, q.v, c, incNormal, incWidth, base, flip, tol)
	return out, zmin, true
}

// facePoints appends faceManifold's points of the clipped polygon p (not
// empty) in the frame of the reference face, c being the centre of the
// incident face in its plane (refFace.project), and returns out and the
// smallest height of p; buf is scratch room for p's edges. It is
// faceManifold after the clipping, which a half-space's face (no sides to
// clip by: halfSpaceBox) enters directly.
func facePoints(out []Contact, margin float64, ref *refFace, p *clipPoly, buf []spatial.Vec3, c [2]float64, incNormal spatial.Vec3,
	incWidth float64, base uint32, flip bool, tol float64) ([]Contact, float64) {
	w := min(ref.width, incWidth)
	// Slot targets: far points around the centre c of the incident face,
	// reach·w away along each slot direction; the slot point is the point
	// of the polygon nearest its target.
	reach := slotReach * incWidth
	var pts [numSlots + 1]spatial.Vec3
	var slotOf [numSlots + 1]uint32
	np := 0
	zslot := math.Inf(1)
	// The polygon's edges, formed once for the up to five searches, in buf
	// (of p's room: q's, free once the clipping is done), and the smallest
	// height zmin in the same pass.
	edges, zmin := polyEdgesZ(p, buf)
	merge := newRadius(slotMergeTol * w) // a slot point this near an earlier one is not repeated
	var slots [numSlots]nearSearch
	for k := range slots {
		sk, d := &slots[k], &slotDirs[k] // its other fields are the declaration's zeros
		sk.x, sk.y, sk.bk = c[0]+reach*d[0], c[1]+reach*d[1], -1
	}
	nearestInPolyN(p, edges, slots[:])
	// Each slot point formed in its place, pts[np] (np ≤ 3 here), kept (np
	// counts it) unless near an earlier one: no copy of it. Slot 0 has no
	// earlier one (nearPoints of none is false).
	slots[0].pointTo(p, &pts[0])
	slotOf[0], np = 0, 1
	zslot = minKeep(zslot, pts[0][2])
	for k := 1; k < len(slots); k++ {
		q := &pts[np]
		slots[k].pointTo(p, q)
		if !nearPoints(pts[:np], q, &merge) {
			slotOf[np] = uint32(k)
			np++
			zslot = minKeep(zslot, q[2])
		}
	}
	zpen := 1.0 // a penetrating corner is not looked at against a face (deepGap)
	if math.IsInf(ref.width, 1) {
		zpen = zmin
	}
	if zmin < zslot-deepGap(w, margin, zpen, tol) || zmin <= margin && zslot > margin {
		np = deepSlot(p, edges, ref, &incNormal, incWidth, c, &pts, &slotOf, np, &merge)
	}
	nc := ref.n
	if flip {
		nc = nc.Neg()
	}
	limit := keepLimit(margin, w)
	for j := range pts[:np] {
		q := &pts[j]
		if !(q[2] <= limit) {
			continue
		}
		if len(out) == cap(out) {
			out = growContacts(out)
		}
		out = out[:len(out)+1]
		o := &out[len(out)-1] // every field set in place, not built and copied
		ref.world(&o.Point, q)
		o.Normal, o.Phi, o.Feature = nc, q[2], base|slotOf[j]
	}
	return out, zmin
}

// deepSlot adds to the np points pts (slots slotOf) of facePoints its
// slot 4, the extreme point of p along the direction of steepest descent
// of the incident face over the reference plane, unless it is near one
// of them (merge), and returns their count: out of facePoints' line (a
// tilted face only).
//
//go:noinline
func deepSlot(p *clipPoly, edges []spatial.Vec3, ref *refFace, incNormal *spatial.Vec3, incWidth float64, c [2]float64,
	pts *[numSlots + 1]spatial.Vec3, slotOf *[numSlots + 1]uint32, np int, merge *radius) int {
	g := incNormal.Dot(ref.n)
	dx, dy := incNormal.Dot(ref.u)/g, incNormal.Dot(ref.v)/g // −∇z
	if l := math.Hypot(dx, dy); l > 0 {
		r4 := deepReach * incWidth
		q := nearestInPoly(p, edges, c[0]+r4*dx/l, c[1]+r4*dy/l)
		if !nearPoints(pts[:np], &q, merge) {
			pts[np], slotOf[np] = q, numSlots
			np++
		}
	}
	return np
}

// keepLimit is the largest Phi kept in a flat manifold of width w whose
// deepest point is within the margin: margin + min(keepSlope·w,
// keepMargins·margin).
func keepLimit(margin, w float64) float64 {
	return margin + min(keepSlope*w, keepMargins*max(margin, 0))
}

// slotReach sets how far (in widths of the incident face) the slot targets
// lie from its centre: far enough that the nearest point of a polygon is
// its corner whenever that corner is clearly the extreme one (the target
// is within 1/slotReach rad of the direction, seen from any corner), near
// enough that a point sliding along an edge moves at most about slotReach
// times as fast as the polygon. The target of slot 4 is further
// (deepReach), so that it is the deepest corner unless an edge at that
// corner is level to within about 1/deepReach rad.
const (
	slotReach = 10
	deepReach = 1000
)

// slotDirs are the slot directions +u+v, −u+v, −u−v, +u−v of
// faceManifold, of unit length (h = √½), read in place rather than built
// at every call.
var slotDirs = func() [numSlots][2]float64 {
	h := math.Sqrt(0.5)
	return [numSlots][2]float64{{h, h}, {-h, h}, {-h, -h}, {h, -h}}
}()

// polyEdges writes into buf (of room for p's corners) and returns, for
// each corner k of the polygon p, the edge from the corner before it,
// (e_x, e_y, e_x² + e_y²) with e = v_k − v_{k−1} in the plane: the terms
// of nearestInPoly that do not depend on its target.
func polyEdges(p *clipPoly, buf []spatial.Vec3) []spatial.Vec3 {
	e, _ := polyEdgesZ(p, buf)
	return e
}

// polyEdgesZ is polyEdges, returning too the smallest height of p's
// corners, minKeep's in their order from +Inf (facePoints' zmin).
func polyEdgesZ(p *clipPoly, buf []spatial.Vec3) ([]spatial.Vec3, float64) {
	v := p.v[:p.n]
	e := buf[:len(v)]
	zmin := math.Inf(1)
	if len(v) == 0 {
		return e, zmin
	}
	px, py := v[len(v)-1][0], v[len(v)-1][1]
	for k := range v {
		cx, cy := v[k][0], v[k][1]
		ex, ey := cx-px, cy-py
		e[k] = spatial.Vec3{ex, ey, ex*ex + ey*ey}
		zmin = minKeep(zmin, v[k][2])
		px, py = cx, cy
	}
	return e, zmin
}

// nearestInPoly returns the point of the convex polygon p (with its
// heights, interpolated along the edges) nearest the point (x, y) of the
// plane, which lies outside it; edges are p's edges as polyEdges forms
// them. It is a continuous function of the polygon and of (x, y): where
// an edge is orthogonal to the slot direction, the point slides along
// that edge instead of jumping between its corners.
func nearestInPoly(p *clipPoly, edges []spatial.Vec3, x, y float64) spatial.Vec3 {
	s := [1]nearSearch{{x: x, y: y, bk: -1}}
	nearestInPolyN(p, edges, s[:])
	return s[0].point(p)
}

// nearSearch is the state of one nearest-point search of nearestInPoly:
// the target (x, y) and the best point so far, on the edge ending at
// corner bk (−1 for none yet) at parameter bt, with offset (bdx, bdy)
// from the target, its squared norm bd2 and hypotLessSq's bounds on a
// rival's squared norm (bd2·(1 ∓ hypotMargin), when bd2 is in its range:
// bin), formed once when the best is set.
type nearSearch struct {
	x, y, bt, bdx, bdy, bd2, blo, bhi float64
	bk                                int
	bin                               bool
}

// nearestInPolyN runs the searches s (each set to its target with bk =
// −1) over the polygon p at once: one pass over the edges, each edge's
// terms loaded once for all of them (the four slots of faceManifold),
// each search the same steps in the same order as alone.
func nearestInPolyN(p *clipPoly, edges []spatial.Vec3, s []nearSearch) {
	v := p.v[:p.n]
	edges = edges[:len(v)]
	px, py := v[len(v)-1][0], v[len(v)-1][1]
	for k := range v {
		ex, ey, l2 := edges[k][0], edges[k][1], edges[k][2]
		for j := range s {
			b := &s[j]
			t := 0.0
			if l2 > 0 {
				t = clampUnit(((b.x-px)*ex + (b.y-py)*ey) / l2)
			}
			// q = prev + t (cur − prev), the plane coordinates first:
			// the whole point only for the one returned.
			dx, dy := (px+t*ex)-b.x, (py+t*ey)-b.y
			// The test of math.Hypot(dx, dy) < math.Hypot(bdx, bdy): with
			// no best yet any finite offset wins; after that an equal
			// offset (a corner reached from both of its edges) does not,
			// and hypotLessSq's squared-norm test decides, in line, the
			// near ties and the out-of-range norms by a call.
			var better bool
			if b.bk < 0 {
				better = dx-dx == 0 && dy-dy == 0
			} else if dx != b.bdx || dy != b.bdy {
				a2 := dx*dx + dy*dy
				if b.bin && a2 >= sqLo && a2 <= sqHi && (a2 < b.blo || a2 > b.bhi) {
					better = a2 < b.blo
				} else {
					better = hypotLessSq(dx, dy, a2, b.bdx, b.bdy, b.bd2)
				}
			}
			if better {
				bd2 := dx*dx + dy*dy
				b.bk, b.bt, b.bdx, b.bdy, b.bd2 = k, t, dx, dy, bd2
				b.bin, b.blo, b.bhi = bd2 >= sqLo && bd2 <= sqHi, bd2*(1-hypotMargin), bd2*(1+hypotMargin)
			}
		}
		px, py = v[k][0], v[k][1]
	}
}

// point is the best point found, with its height (p.v[0] when no offset
// was finite).
func (s *nearSearch) point(p *clipPoly) spatial.Vec3 {
	var q spatial.Vec3
	s.pointTo(p, &q)
	return q
}

// pointTo sets *q to point's point, in place (facePoints' slots: a Vec3
// result is returned through memory and copied).
func (s *nearSearch) pointTo(p *clipPoly, q *spatial.Vec3) {
	if s.bk < 0 {
		*q = p.v[0]
		return
	}
	j := s.bk - 1 // the corner before bk, (bk + n − 1) mod n without the division
	if j < 0 {
		j = p.n - 1
	}
	prev, cur := &p.v[j], &p.v[s.bk]
	bt := s.bt
	// prev.AddScaled(bt, cur.Sub(prev)), in scalars.
	q[0], q[1], q[2] = prev[0]+bt*(cur[0]-prev[0]), prev[1]+bt*(cur[1]-prev[1]), prev[2]+bt*(cur[2]-prev[2])
}

// clampUnit is clamp(x, 0, 1) in compares and branches rather than the
// built-in min and max's NaN and signed-zero handling: x inside (0, 1), 1
// from 1 up, +0 from +0 down (clamp's max(0, −0) is +0). A NaN gives a NaN
// either way (the payload may differ; nearestInPoly never keeps a point
// with a NaN offset).
func clampUnit(x float64) float64 {
	if x > 0 {
		if x < 1 {
			return x
		}
		return 1
	}
	if x <= 0 {
		return 0
	}
	return x
}

// hypotLessSq reports whether math.Hypot(ax, ay) < math.Hypot(bx, by),
// given the squared norms a2 = ax·ax + ay·ay and b2 = bx·bx + by·by, formed
// by the caller by those expressions. The squared norms decide when they
// differ by far more than the rounding of either (hypotMargin, both in the
// range where squaring neither overflows nor loses relative precision);
// math.Hypot decides the near ties and the rest, so the answer is always
// the one math.Hypot's comparison gives.
func hypotLessSq(ax, ay, a2, bx, by, b2 float64) bool {
	if a2 >= sqLo && a2 <= sqHi && b2 >= sqLo && b2 <= sqHi {
		if a2 < b2*(1-hypotMargin) {
			return true
		}
		if a2 > b2*(1+hypotMargin) {
			return false
		}
	}
	return math.Hypot(ax, ay) < math.Hypot(bx, by)
}

// radius is a distance d for the test math.Hypot(ax, ay) <= d, with the
// squared norm deciding away from the tie as in hypotLess, and the terms
// of the test that do not depend on the offset formed once: whether d > 0 and d² is in the
// squared norms' range, and the bounds d²·(1 ∓ hypotMargin).
type radius struct {
	d, lo, hi float64
	in        bool
}

func newRadius(d float64) radius {
	d2 := d * d
	return radius{d: d, lo: d2 * (1 - hypotMargin), hi: d2 * (1 + hypotMargin), in: d > 0 && d2 >= sqLo && d2 <= sqHi}
}

// hypotWithin reports whether math.Hypot(ax, ay) <= d: the near ties and
// out-of-range norms of nearPoints' test, out of its loop.
//
//go:noinline
func hypotWithin(ax, ay, d float64) bool {
	return math.Hypot(ax, ay) <= d
}

// hypotMargin is the relative gap between two squared norms beyond which
// their order is that of their math.Hypot values: the rounding of a sum of
// two squares and of math.Hypot are a few ulps (1e-15), far below it.
// sqLo and sqHi bound the squared norms whose rounding is that small (no
// underflow into subnormals, no overflow).
const (
	hypotMargin = 1e-9
	sqLo, sqHi  = 1e-280, 1e280
)

// nearPoints reports whether q is within the distance r (in the plane) of
// one of pts: math.Hypot(a) <= r.d for the offset a = pts[i] − q, which
// the squared norm decides in line away from the tie (radius), the near
// ties and the out-of-range norms by a call (hypotWithin); a test in line
// rather than a method call for each point (facePoints: 6 a box face).
func nearPoints(pts []spatial.Vec3, q *spatial.Vec3, r *radius) bool {
	qx, qy := q[0], q[1]
	for i := range pts {
		ax, ay := pts[i][0]-qx, pts[i][1]-qy
		if a2 := ax*ax + ay*ay; r.in && a2 >= sqLo && a2 <= sqHi && (a2 < r.lo || a2 > r.hi) {
			if a2 < r.lo {
				return true
			}
		} else if hypotWithin(ax, ay, r.d) {
			return true
		}
	}
	return false
}

// deepGap is how much deeper than every slot point the deepest corner of
// a face of width w must be to be reported too: min(deepTol·w,
// faceSlack·margin), at least the rounding tolerance tol, and, on a
// half-space (zmin is then the corner's depth; a positive value for other
// pairs), no more than half the corner's penetration −zmin. A corner that
// penetrates a half-space is thus reported when it is more than twice as
// deep as every slot point (always when no slot point penetrates): with
// the first two terms alone, a large speculative margin let a 200 kg hull
// tipping onto a nearly flat face sink its deepest corner 2 mm under the
// ground for six steps unseen (example-robot-data's BlueVolta, margin
// about 5 mm). A resting face's corners all sit near its resting depth and
// keep their slots. Face against face (boxes and hulls on each other) keeps
// the first two terms: the third made clutter-40's first second follow
// another path at the solver's tolerance (sim's
// TestStickPredictionTrajectory).
func deepGap(w, margin, zmin, tol float64) float64 {
	g := min(deepTol*w, faceSlack*margin)
	if zmin < 0 {
		g = min(g, -zmin/2)
	}
	return max(tol, g)
}

// Features. Contact.Feature identifies a point within its pair's manifold,
// in the canonical order of the pair (see Collide):
//
//	face manifold:  1<<31 | refSecond<<30 | refFace<<16 | incFace<<3 | slot
//	edge–edge:      1<<28 | edgeA<<14 | edgeB
//	hull vertex:    1<<27 | vertex (a hull on a half-space, tipping)
//	other points:   a small index fixed by the pair type (0 for one point)
//
// Face and edge indices are taken modulo 2^13 and 2^14.
const (
	featFace   = 1 << 31
	featSecond = 1 << 30
	featEdge   = 1 << 28
	featVert   = 1 << 27 // a hull vertex off the incident face (tippingVerts)
)

func faceFeature(refSecond bool, ref, inc int) uint32 {
	f := uint32(featFace) | uint32(ref&0x1fff)<<16 | uint32(inc&0x1fff)<<3
	if refSecond {
		f |= featSecond
	}
	return f
}

func edgeFeature(ea, eb int) uint32 { return featEdge | uint32(ea&0x3fff)<<14 | uint32(eb&0x3fff) }
