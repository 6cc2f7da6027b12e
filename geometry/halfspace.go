package geometry

import (
	"math"
	"slices"

	"github.com/stiction-sim/stiction/spatial"
)

// Contacts against a half-space A. The normal is always A's outward normal
// n, and a point v of B at height h = n·(v − o) above the boundary plane
// through o gives the contact (witness v − h n on the plane, v on B, Phi = h).

// capCos is the cosine of the largest tilt (45°) of a cylinder's axis from
// the plane normal for which a cap (rather than the side) faces the plane.
var capCos = math.Sqrt(0.5)

func halfSpaceSphere(a, b *posed, margin float64, out []Contact) []Contact {
	n := a.axis(2)
	c := b.pos
	h := n.Dot(c.Sub(a.pos))
	return appendContact(out, margin, c.AddScaled(-h, n), c.AddScaled(-b.s.Radius, n), n, h-b.s.Radius)
}

// halfSpaceCapsule reports both ends of the capsule's axis (slot 0 for
// the end at local −z, 1 for +z) whose Phi is within the margin (a
// capsule's line contact is not kept beyond the margin like a face).
//
// It appends the contacts itself, as appendKept appends its candidates
// of width 0, without forming the candidates first: appendKept keeps
// them when math.Min of their Phi is within the margin, each up to
// keepLimit(margin, 0), which is margin + 0 (a number) or NaN, and so
// compares as margin does once the smallest Phi (math.Min: −Inf before
// NaN) is within it.
func halfSpaceCapsule(a, b *posed, margin float64, out []Contact) []Contact {
	// In scalars, read in place, the same operations as
	// e = b.pos ∓ b.axis(2).Scale(b.s.HalfLength), h = n·(e − a.pos),
	// wa = e.AddScaled(−h, n), wb = e.AddScaled(−r, n) and the point
	// (wa + wb)/2: the vector forms copied each Vec3 several times (some
	// 400 instructions a call).
	if cap(out)-len(out) < 2 {
		out = growContactsBy(out, 2) // before the values below: no call among them
	}
	ra, rb := &a.rot, &b.rot
	n0, n1, n2 := ra[0][2], ra[1][2], ra[2][2]
	hl, r := b.s.HalfLength, b.s.Radius
	x0, x1, x2 := hl*rb[0][2], hl*rb[1][2], hl*rb[2][2]
	p0, p1, p2 := b.pos[0], b.pos[1], b.pos[2]
	o := &a.pos
	h0 := n0*((p0-x0)-o[0]) + n1*((p1-x1)-o[1]) + n2*((p2-x2)-o[2])
	h1 := n0*((p0+x0)-o[0]) + n1*((p1+x1)-o[1]) + n2*((p2+x2)-o[2])
	if !minWithin(h0-r, h1-r, margin) {
		return out
	}
	for k := range 2 {
		// End k, its height and gap: the same operations as above.
		e0, e1, e2, h := p0-x0, p1-x1, p2-x2, h0
		if k == 1 {
			e0, e1, e2, h = p0+x0, p1+x1, p2+x2, h1
		}
		if !(h-r <= margin) {
			continue
		}
		out = out[:len(out)+1]
		c := &out[len(out)-1]
		c.Point = spatial.Vec3{0.5 * ((e0 + -h*n0) + (e0 + -r*n0)), 0.5 * ((e1 + -h*n1) + (e1 + -r*n1)), 0.5 * ((e2 + -h*n2) + (e2 + -r*n2))}
		c.Normal, c.Phi, c.Feature = spatial.Vec3{n0, n1, n2}, h-r, faceFeature(false, 0, 0)|uint32(k)
	}
	return out
}

// minWithin reports whether math.Min(a, b) ≤ m, without math.Min's call
// (assembly on amd64, around which its callers spilled their
// registers): the builtin min is math.Min but for a −Inf with a NaN,
// NaN rather than −Inf, whose test is the second term (x < −MaxFloat64
// is x = −Inf, and −Inf ≤ m holds for every m but NaN).
func minWithin(a, b, m float64) bool {
	return min(a, b) <= m || (a < -math.MaxFloat64 || b < -math.MaxFloat64) && m == m
}

// growContacts returns out with room for one more contact: the growth of
// an append, out of its caller's hot loop.
//
//go:noinline
func growContacts(out []Contact) []Contact { return slices.Grow(out, 1) }

// growContactsBy returns out with room for n more contacts, out of line.
//
//go:noinline
func growContactsBy(out []Contact, n int) []Contact { return slices.Grow(out, n) }

// halfSpaceRef sets ref to the plane of the half-space a, with the
// in-plane frame given by the projection of the unit u (v = n × u).
//
// In scalars, the same sums in the same order as
// unit(u.AddScaled(−u·n, n), x̂) and n.Cross(u) form them.
func halfSpaceRef(ref *refFace, a *posed, u spatial.Vec3) {
	r := &a.rot
	n0, n1, n2 := r[0][2], r[1][2], r[2][2]
	ref.n = spatial.Vec3{n0, n1, n2}
	ref.c = a.pos
	d := -(u[0]*n0 + u[1]*n1 + u[2]*n2)
	w0, w1, w2 := u[0]+d*n0, u[1]+d*n1, u[2]+d*n2
	l := math.Sqrt(w0*w0 + w1*w1 + w2*w2)
	if !(l > minNormLen) || math.IsInf(l, 0) {
		w0, w1, w2 = 1, 0, 0
	} else {
		s := 1 / l
		w0, w1, w2 = s*w0, s*w1, s*w2
	}
	ref.u = spatial.Vec3{w0, w1, w2}
	ref.v = spatial.Vec3{n1*w2 - n2*w1, n2*w0 - n0*w2, n0*w1 - n1*w0}
	ref.sides = nil
	ref.width = math.Inf(1)
}

// halfSpaceBox reports the face manifold of the box face most opposed to
// the plane normal (manifold.go) when the box's lowest corner is within
// the margin: its four corners, slots along the face's diagonals.
func halfSpaceBox(a, b *posed, margin float64, out []Contact) []Contact {
	// n = a.axis(2) and n.Dot(b.pos.Sub(a.pos)) in scalars, read in place.
	ra := &a.rot
	n := spatial.Vec3{ra[0][2], ra[1][2], ra[2][2]}
	he := &b.s.HalfExtents
	d := axisDots(b, &n) // n·axis(i), as n.Dot(b.axis(i)) sums it, for the test and the incident face
	low := n[0]*(b.pos[0]-a.pos[0]) + n[1]*(b.pos[1]-a.pos[1]) + n[2]*(b.pos[2]-a.pos[2])
	for i := range 3 {
		low -= he[i] * math.Abs(d[i])
	}
	if !(low <= margin) {
		return out
	}
	// faceManifold's points of the incident face (four corners) projected
	// on the plane, which has no sides to clip them by: the clipping and
	// its buffers skipped (facePoints).
	var corners, ev [4]spatial.Vec3
	m, s := incidentFace(b, &d, &corners)
	j, k := nextAxes[m][0], nextAxes[m][1] // (m+1)%3, (m+2)%3
	rb := &b.rot
	var ref refFace
	halfSpaceRef(&ref, a, spatial.Vec3{rb[0][j], rb[1][j], rb[2][j]})
	w := 2 * math.Hypot(he[j], he[k])
	size := math.Sqrt(he[0]*he[0] + he[1]*he[1] + he[2]*he[2])    // b.size() of a box (HalfExtents.Norm), without its switch over the kinds
	inc := spatial.Vec3{s * rb[0][m], s * rb[1][m], s * rb[2][m]} // b.axis(m).Scale(s)
	// Each corner projected in place: project reads corner i whole before
	// it writes the polygon's corner i.
	p := clipPoly{v: corners[:]}
	c := ref.project(corners[:], &p)
	out, _ = facePoints(out, margin, &ref, &p, ev[:], c, inc, w, faceFeature(false, 0, boxFaceID(m, s)), false, tieTol*size)
	return out
}

// halfSpaceCylinder: when a cap faces the plane (axis within 45° of the
// normal), the cap's rim points at the fixed local angles 45°, 135°, 225°
// and 315° (slots 0–3, incident face 0 for the cap at local −z, 1 for +z)
// and, when deeper than all of them by more than deepGap, the deepest rim
// point (slot 4), kept as a flat manifold; so a cylinder standing on a cap
// gives the same four points under any small tilt. Otherwise (lying on its
// side, incident face 2) the deepest rim point of each cap (slot 0 for the
// cap at local −z, 1 for +z), the ends of the line of contact
// (halfSpaceCylinderSide).
//
// The cap's points are formed in scalars, read in place, with the same
// operations in the same order as the Vec3 forms c.AddScaled(d₀q,
// ex).AddScaled(d₁q, ey), n.Dot(p.Sub(a.pos)) and p.AddScaled(−h, n); the
// corner signs (d₀, d₁) turn by a quarter, (d₀, d₁) ← (−d₁, d₀), so the
// offsets d·q are negated rather than multiplied (the same bits but for a
// NaN q, whose points are all dropped either way). The side case and
// math.Hypot are out of line, so the hot code of a cylinder standing on a
// plane is this function and appendKept.
func halfSpaceCylinder(a, b *posed, margin float64, out []Contact) []Contact {
	ra, rb := &a.rot, &b.rot
	n0, n1, n2 := ra[0][2], ra[1][2], ra[2][2] // n = a.axis(2), in scalars (a Vec3 lives in memory)
	x0, x1, x2 := rb[0][2], rb[1][2], rb[2][2] // ax = b.axis(2)
	na := n0*x0 + n1*x1 + n2*x2
	// u, the unit rim direction towards the plane: n's part across the
	// axis, negated, or b's local x when the cap is parallel to the plane
	// (within flatTol) or that part has no direction. The same operations
	// as e := n.AddScaled(−na, ax), unit(e.AddScaled(−e·ax, ax), b.axis(0)),
	// e.Norm() and u.Neg().
	e0, e1, e2 := n0+-na*x0, n1+-na*x1, n2+-na*x2
	d := -(e0*x0 + e1*x1 + e2*x2)
	w0, w1, w2 := e0+d*x0, e1+d*x1, e2+d*x2
	u0, u1, u2 := rb[0][0], rb[1][0], rb[2][0] // b.axis(0)
	if wl := math.Sqrt(w0*w0 + w1*w1 + w2*w2); wl > minNormLen && !math.IsInf(wl, 0) && !(math.Sqrt(e0*e0+e1*e1+e2*e2) <= flatTol) {
		s := 1 / wl
		u0, u1, u2 = -(s * w0), -(s * w1), -(s * w2)
	}
	if math.Abs(na) < capCos {
		return halfSpaceCylinderSide(a, b, spatial.Vec3{u0, u1, u2}, margin, out)
	}
	r, l := b.s.Radius, b.s.HalfLength
	sg := -sign(na)
	z := sg * l
	c0, c1, c2 := b.pos[0]+z*x0, b.pos[1]+z*x1, b.pos[2]+z*x2 // centre of the cap facing the plane
	capf := faceFeature(false, 0, boxFaceID(0, sg))
	var pts [5]planePoint
	q := r * math.Sqrt(0.5)
	o := &a.pos
	zs := math.Inf(1)
	s, t := q, q // corner k's offsets along local x and y: (q, q), (−q, q), (−q, −q), (q, −q)
	for k := range 4 {
		p0, p1, p2 := (c0+s*rb[0][0])+t*rb[0][1], (c1+s*rb[1][0])+t*rb[1][1], (c2+s*rb[2][0])+t*rb[2][1]
		h := n0*(p0-o[0]) + n1*(p1-o[1]) + n2*(p2-o[2])
		pt := &pts[k] // set field by field, not through a copy of a planePoint
		pt.wa = spatial.Vec3{p0 + -h*n0, p1 + -h*n1, p2 + -h*n2}
		pt.wb = spatial.Vec3{p0, p1, p2}
		pt.phi, pt.feature = h, capf|uint32(k)
		// As math.Min, but for NaN where math.Min gives −Inf (a −Inf h
		// with a NaN one): zs is only compared, in h < zs − gap and
		// zs > margin, false for either.
		zs = min(zs, h)
		s, t = -t, s
	}
	np := 4
	p0, p1, p2 := c0+r*u0, c1+r*u1, c2+r*u2
	h := n0*(p0-o[0]) + n1*(p1-o[1]) + n2*(p2-o[2])
	// deepGap(2r, margin, h, tieTol·b.size()), the tolerance taken only
	// when it can decide (gapOverTol).
	g := min(deepTol*(2*r), faceSlack*margin)
	if h < 0 {
		g = min(g, -h/2)
	}
	if !gapOverTol(r, l, g) {
		g = cylinderGap(r, l, g)
	}
	if h < zs-g || h <= margin && zs > margin {
		pt := &pts[4]
		pt.wa = spatial.Vec3{p0 + -h*n0, p1 + -h*n1, p2 + -h*n2}
		pt.wb = spatial.Vec3{p0, p1, p2}
		pt.phi, pt.feature = h, capf|numSlots
		np = 5
	}
	return appendKept(out, margin, spatial.Vec3{n0, n1, n2}, pts[:np], 2*r)
}

// gapOverTol reports that deepGap's terms g exceed the tolerance
// tieTol·b.size() of a cylinder of radius r and half-length l, so that
// deepGap gives g, without math.Hypot (an assembly call): b.size() =
// Hypot(r, l) ≤ √2·max(r, l) < 2·max(r, l), g compared with each term (a
// comparison, not the built-in max's signed-zero and NaN sequence). False
// for NaN and ±Inf sizes.
func gapOverTol(r, l, g float64) bool {
	return g > tieTol*(2*math.Abs(r)) && g > tieTol*(2*math.Abs(l))
}

// cylinderGap is deepGap's max(tol, g) with the tolerance tieTol·b.size()
// of a cylinder of radius r and half-length l, out of line of
// halfSpaceCylinder.
//
//go:noinline
func cylinderGap(r, l, g float64) float64 { return max(tieTol*math.Hypot(r, l), g) }

// halfSpaceCylinderSide is halfSpaceCylinder's case of a cylinder whose
// axis is tilted more than 45° from the plane normal n, u its unit rim
// direction towards the plane: the deepest rim point of each cap, out of
// line of the standing case.
func halfSpaceCylinderSide(a, b *posed, u spatial.Vec3, margin float64, out []Contact) []Contact {
	n, ax := a.axis(2), b.axis(2)
	r, l := b.s.Radius, b.s.HalfLength
	var pts [2]planePoint
	for k, z := range [2]float64{-l, l} {
		p := b.pos.AddScaled(z, ax).AddScaled(r, u)
		h := n.Dot(p.Sub(a.pos))
		pts[k] = planePoint{wa: p.AddScaled(-h, n), wb: p, phi: h, feature: faceFeature(false, 0, 2) | uint32(k)}
	}
	return appendKept(out, margin, n, pts[:], 2*l)
}

// nextAxes holds, per axis m of a box, the other two in cyclic order,
// (m+1)%3 and (m+2)%3, read rather than divided.
var nextAxes = [3][2]int{{1, 2}, {2, 0}, {0, 1}}

// flatTol is the sine of the tilt below which a cylinder's cap counts as
// parallel to a plane; its deepest rim point is then taken along local x.
const flatTol = 1e-9
