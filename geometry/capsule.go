package geometry

import (
	"math"

	"github.com/stiction-sim/stiction/spatial"
)

// capsuleCapsule treats each capsule as a ball centred at its point of a
// closest pair between the two axis segments. Segments that intersect use
// their common normal, oriented from A's centre towards B's.
func capsuleCapsule(a, b *posed, margin float64, out []Contact) []Contact {
	da, db := a.axis(2), b.axis(2)
	s, t := closestSegments(&a.pos, &da, a.s.HalfLength, &b.pos, &db, b.s.HalfLength)
	p, q := a.pos.AddScaled(s, da), b.pos.AddScaled(t, db)
	// a.size() + b.size() of two capsules, without size's switch over the kinds
	scale := (a.s.HalfLength + a.s.Radius) + (b.s.HalfLength + b.s.Radius)
	fb := fallbackNormal // read by ballBall only when the points are not apart
	if !apart(&p, &q, scale) {
		fb = capsulesNormal(a, b, &da, &db)
	}
	return ballBall(out, margin, &p, a.s.Radius, &q, b.s.Radius, &fb, scale)
}

// capsulesNormal is capsuleCapsule's normal for axes whose closest points
// coincide: the unit common normal of the axes (else a normal of A's),
// pointing from A to B. Out of line: it is rarely needed.
//
//go:noinline
func capsulesNormal(a, b *posed, da, db *spatial.Vec3) spatial.Vec3 {
	t1, _ := spatial.Orthonormal(*da)
	fb, _ := unit(da.Cross(*db), t1)
	if fb.Dot(b.pos.Sub(a.pos)) < 0 {
		fb = fb.Neg()
	}
	return fb
}

// boxCapsule works in the box frame on the capsule's axis segment. If the
// segment meets the box, the separating axis test over the 6 axes of the
// segment–box Minkowski sum (3 face normals, 3 segment × edge directions)
// gives the exact minimum translation. Otherwise the closest points come
// from the segment's end points against the box and the segment against
// the 12 box edges. When the normal is a box face normal the segment is
// clipped to that face and both ends of the clipped piece are reported, so
// a capsule lying on a box gets two points.
func boxCapsule(a, b *posed, margin float64, out []Contact) []Contact {
	h := a.s.HalfExtents
	r := b.s.Radius
	sg := segment{c: a.toLocal(b.pos), d: a.rot.MulTVec(b.axis(2)), e: b.s.HalfLength}
	scale := a.size() + b.size()
	sat := segmentBoxSAT(h, sg, scale)
	if sat.sep-r > margin {
		return out
	}
	var n, wa, ps spatial.Vec3 // local normal, box witness, segment witness
	phi := 0.0
	if sat.sep <= touchTol*scale {
		n, phi = sat.u, -sat.overlap-r
		if sat.face < 0 {
			ps, wa = segmentBoxEdge(h, sg, sat)
		} else {
			ps = sg.at(-sg.e * sign(n.Dot(sg.d))) // deepest end
		}
	} else {
		var dist float64
		ps, wa, dist = segmentBoxClosest(h, sg)
		n = ps.Sub(wa).Scale(1 / dist) // dist ≥ sep > 0
		phi = dist - r
	}
	if i := faceOf(n); i >= 0 {
		tRef := ps.Sub(sg.c).Dot(sg.d)
		return boxFaceSegment(out, margin, a, h, sg, r, i, sign(n[i]), tRef)
	}
	nw := a.rot.MulVec(n)
	return appendContact(out, margin, a.toWorld(wa), a.toWorld(ps).AddScaled(-r, nw), nw, phi)
}

// faceOf returns the index of the axis that the unit vector n is parallel
// to, or −1.
func faceOf(n spatial.Vec3) int {
	for i := range 3 {
		if math.Abs(n[i]) >= 1-faceTol {
			return i
		}
	}
	return -1
}

// segmentBoxEdge returns the closest points between the segment and the
// box edge along axis sat.edge that supports the box in direction sat.u.
func segmentBoxEdge(h spatial.Vec3, sg segment, sat satResult) (ps, pb spatial.Vec3) {
	i := sat.edge
	var c, d spatial.Vec3
	for k := range 3 {
		if k != i {
			c[k] = sign(sat.u[k]) * h[k]
		}
	}
	d[i] = 1
	s, t := closestSegments(&sg.c, &sg.d, sg.e, &c, &d, h[i])
	return sg.at(s), c.AddScaled(t, d)
}

// segmentBoxClosest returns a closest pair (point of the segment, point of
// the box) and their distance for a segment outside the box: the minimum is
// reached at an end point of the segment or against an edge of the box.
func segmentBoxClosest(h spatial.Vec3, sg segment) (ps, pb spatial.Vec3, dist float64) {
	dist = math.Inf(1)
	for _, t := range [2]float64{-sg.e, sg.e} {
		p := sg.at(t)
		q := spatial.Vec3{clamp(p[0], -h[0], h[0]), clamp(p[1], -h[1], h[1]), clamp(p[2], -h[2], h[2])}
		if d := p.Sub(q).Norm(); d < dist {
			ps, pb, dist = p, q, d
		}
	}
	for i := range 3 {
		j, k := (i+1)%3, (i+2)%3
		var d spatial.Vec3
		d[i] = 1
		for m := range 4 {
			var c spatial.Vec3
			c[j] = float64(2*(m&1)-1) * h[j]
			c[k] = float64((m&2)-1) * h[k]
			s, t := closestSegments(&sg.c, &sg.d, sg.e, &c, &d, h[i])
			p, q := sg.at(s), c.AddScaled(t, d)
			if dd := p.Sub(q).Norm(); dd < dist {
				ps, pb, dist = p, q, dd
			}
		}
	}
	return ps, pb, dist
}

// boxFaceSegment clips the segment to the prism over the box face with
// outward normal s·e_i and reports both ends of the clipped piece (one if
// it is a single point), each with its own height above the face. The
// piece contains the witness parameter tRef up to rounding; if rounding
// empties it, tRef alone is reported.
func boxFaceSegment(out []Contact, margin float64, a *posed, h spatial.Vec3, sg segment, r float64, i int, s, tRef float64) []Contact {
	t0, t1 := -sg.e, sg.e
	for k := range 3 {
		if k != i {
			t0, t1 = clipSlab(t0, t1, sg.c[k], sg.d[k], h[k])
		}
	}
	if t0 > t1 {
		t0, t1 = tRef, tRef
	}
	nw := a.axis(i).Scale(s)
	ts := [2]float64{t0, t1}
	cnt := 2
	if t1-t0 <= tieTol*sg.e {
		cnt = 1
	}
	var pts [2]planePoint
	for k, t := range ts[:cnt] {
		p := sg.at(t)
		q := p
		q[i] = s * h[i]
		pts[k] = planePoint{wa: a.toWorld(q), wb: a.toWorld(p).AddScaled(-r, nw), phi: s*p[i] - h[i] - r,
			feature: faceFeature(false, boxFaceID(i, s), 0) | uint32(k)}
	}
	return appendKept(out, margin, nw, pts[:cnt], 0)
}

// planePoint is a candidate contact of a flat manifold: witnesses on A and
// B, signed distance and feature.
type planePoint struct {
	wa, wb  spatial.Vec3
	phi     float64
	feature uint32
}

// appendKept appends the candidates with normal n when the deepest is
// within the margin: every candidate up to margin + keepSlope·w, where w is
// the extent of the flat contact (see manifold.go).
func appendKept(out []Contact, margin float64, n spatial.Vec3, pts []planePoint, w float64) []Contact {
	// The candidates are read in place (a planePoint is 64 bytes), and
	// the point (wa + wb)/2 formed in scalars, as Add and Scale(0.5) form it.
	// lo is math.Min's (an assembly call) in line: a −Inf phi gives −Inf
	// whatever follows, even a NaN, where the built-in min gives NaN.
	lo := math.Inf(1)
	for i := range pts {
		phi := pts[i].phi
		if phi == math.Inf(-1) {
			lo = phi
			break
		}
		lo = min(lo, phi)
	}
	if !(lo <= margin) {
		return out
	}
	lim := keepLimit(margin, w)
	for i := range pts {
		p := &pts[i]
		if p.phi <= lim {
			pt := spatial.Vec3{0.5 * (p.wa[0] + p.wb[0]), 0.5 * (p.wa[1] + p.wb[1]), 0.5 * (p.wa[2] + p.wb[2])}
			out = append(out, Contact{Point: pt, Normal: n, Phi: p.phi, Feature: p.feature})
		}
	}
	return out
}
