package geometry

import (
	"math"

	"github.com/stiction-sim/stiction/spatial"
)

// Cylinder on a box face. GJK/EPA gives the single deepest point of a
// box–cylinder pair (convexConvex); when its normal is within 1° of a face
// normal of the box (faceAngleCos), the contact is a face manifold
// (manifold.go) instead, as on a half-space (halfSpaceCylinder) but bounded
// by the face: the box face is the reference face and the incident face is
// the cylinder's cap, as the
// polygon inscribed in its rim with corners at fixed local angles, or else
// the line of contact along its side (the deepest generator), when the cap
// or the side is within 1° (faceAlignCos) of parallel to the face: a
// cylinder tilted further touches the face at one point, EPA's. Slots 0–3
// are the polygon's (so a nearly flat cap keeps the same four points, as
// on a half-space); slot 4, the deepest point, is the rim's exact deepest
// point when that lies over the face (capDeepest), under the same rule as
// faceManifold's slot 4, so the deepest Phi is exact where it matters. The polygon
// is clipped to the face rectangle, so a cylinder near the face's edge
// keeps only the part of its cap that is over the face. The manifold
// replaces the point only when its deepest corner agrees with EPA's depth
// to within the inscribed polygon's error (capGap) plus faceSlack·margin:
// otherwise (an edge or corner of the box in the cap, say) the point stays.

// capSides is the number of corners of the polygon standing for a cap, at
// the fixed local angles (k + 1/2)·360°/capSides: the largest number that
// fits faceManifold's stack buffers with the face's 4 sides.
const capSides = 12

// capAngles holds the angles of the corners and their cos and sin.
var capAngles = func() (a [capSides][3]float64) {
	for k := range a {
		t := (float64(k) + 0.5) * 2 * math.Pi / capSides
		a[k] = [3]float64{t, math.Cos(t), math.Sin(t)}
	}
	return a
}()

// boxCylinder: A is the box, B the cylinder.
func boxCylinder(a, b *posed, margin float64, out []Contact) []Contact {
	n0 := len(out)
	out = convexConvex(a, b, margin, out)
	if len(out) != n0+1 {
		return out
	}
	pt := out[n0]
	out, ok := cylinderOnBoxFace(out, margin, a, b, pt.Normal, pt.Phi)
	if !ok {
		return out[:n0+1]
	}
	copy(out[n0:], out[n0+1:])
	return out[:len(out)-1]
}

// cylinderOnBoxFace appends the face manifold of cylinder b on the face of
// box a whose outward normal is within 1° of n, and reports whether it
// describes the contact of depth −phi (see above); out is unchanged when
// there is no such face.
func cylinderOnBoxFace(out []Contact, margin float64, a, b *posed, n spatial.Vec3, phi float64) ([]Contact, bool) {
	i := 0
	for q := 1; q < 3; q++ {
		if math.Abs(n.Dot(a.axis(q))) > math.Abs(n.Dot(a.axis(i))) {
			i = q
		}
	}
	cosn := n.Dot(a.axis(i))
	if math.Abs(cosn) < faceAngleCos {
		return out, false
	}
	var rf refFace
	sides := boxRefFace(&rf, a, i, sign(cosn))
	rf.sides = sides[:]
	if na := math.Abs(rf.n.Dot(b.axis(2))); na < faceAlignCos && na > sinAlign {
		return out, false // neither a cap nor the side lies flat on the face
	}
	var inc [capSides]spatial.Vec3
	poly, incNormal, w, incID := cylinderIncident(&inc, b, rf.n)
	base := faceFeature(false, boxFaceID(i, sign(cosn)), incID)
	tol := tieTol * (a.size() + b.size())
	n0 := len(out)
	var zmin float64
	var ok bool
	if incID == 2 {
		out, zmin, ok = sideOnFace(out, margin, &rf, poly[0], poly[1], base, tol)
	} else {
		out, zmin, ok = faceManifold(out, margin, &rf, poly, incNormal, w, base, false, tol)
		if ok {
			out, zmin = capDeepest(out, n0, margin, &rf, b, w, zmin, base, tol)
		}
	}
	if !ok || !(zmin <= margin) || math.Abs(zmin-phi) > faceSlack*max(margin, 0)+touchTol*(a.size()+b.size()) {
		return out[:n0], false
	}
	return out, true
}

// cylinderIncident sets buf to the incident face of cylinder b against a
// plane of outward normal n (the cap polygon, or the two ends of the line
// of contact along the side, as halfSpaceCylinder chooses), and returns it
// with its outward normal, its width and its face index (0 and 1 for the
// caps at local −z and +z, 2 for the side).
func cylinderIncident(buf *[capSides]spatial.Vec3, b *posed, n spatial.Vec3) ([]spatial.Vec3, spatial.Vec3, float64, int) {
	ax := b.axis(2)
	na := n.Dot(ax)
	r, l := b.s.Radius, b.s.HalfLength
	// Unit rim direction towards the plane (local x when the cap is flat).
	p := n.AddScaled(-na, ax)
	u, ok := unit(p, b.axis(0))
	if !ok || p.Norm() <= flatTol {
		u = b.axis(0)
	} else {
		u = u.Neg()
	}
	if math.Abs(na) < capCos {
		buf[0] = b.pos.AddScaled(-l, ax).AddScaled(r, u)
		buf[1] = b.pos.AddScaled(l, ax).AddScaled(r, u)
		return buf[:2], u, 2 * l, 2
	}
	s := -sign(na)
	c := b.pos.AddScaled(s*l, ax)
	ex, ey := b.axis(0), b.axis(1)
	for k, a := range capAngles {
		buf[k] = c.AddScaled(r*a[1], ex).AddScaled(r*a[2], ey)
	}
	return buf[:], ax.Scale(s), 2 * r, boxFaceID(0, s)
}

// capDeepest replaces slot 4 of the cap manifold out[n0:] on the face rf
// by the rim's exact deepest point (halfSpaceCylinder's slot 4) when that
// lies over the face: reported when deeper than every slot point by more
// than deepGap, or when within the margin while no slot point is. It
// returns out and the smallest height, zmin or the exact point's.
func capDeepest(out []Contact, n0 int, margin float64, rf *refFace, b *posed, w, zmin float64, base uint32, tol float64) ([]Contact, float64) {
	ax := b.axis(2)
	na := rf.n.Dot(ax)
	p := rf.n.AddScaled(-na, ax)
	u, ok := unit(p, b.axis(0))
	if !ok || p.Norm() <= flatTol {
		u = b.axis(0)
	} else {
		u = u.Neg()
	}
	q := b.pos.AddScaled(-sign(na)*b.s.HalfLength, ax).AddScaled(b.s.Radius, u)
	d := q.Sub(rf.c)
	x, y, h := d.Dot(rf.u), d.Dot(rf.v), d.Dot(rf.n)
	for _, s := range rf.sides {
		if s.m[0]*x+s.m[1]*y-s.off > tol {
			return out, zmin // over the edge: the clipped polygon's slot 4 stays
		}
	}
	zslot := math.Inf(1)
	m := n0
	for _, c := range out[n0:] {
		if c.Feature&7 != numSlots {
			out[m] = c
			m++
			zslot = min(zslot, c.Phi)
		}
	}
	out = out[:m]
	if h < zslot-deepGap(w, margin, h, tol) || h <= margin && zslot > margin {
		out = append(out, Contact{Point: q.AddScaled(-h/2, rf.n), Normal: rf.n, Phi: h, Feature: base | numSlots})
	}
	return out, min(zmin, h)
}

// sinAlign is the sine of 1°: the side of a cylinder whose axis makes a
// smaller angle with a face lies flat on it.
var sinAlign = math.Sin(1 * math.Pi / 180)

// sideOnFace appends the ends (slots 0 and 1, as on a half-space) of the
// part over the face rf of the line of contact p0–p1 of a cylinder lying
// on it, kept as halfSpaceCylinder keeps them, and returns out, the
// smaller height and false when the line misses the face.
func sideOnFace(out []Contact, margin float64, rf *refFace, p0, p1 spatial.Vec3, base uint32, tol float64) ([]Contact, float64, bool) {
	d0, d1 := p0.Sub(rf.c), p1.Sub(rf.c)
	x0, y0, x1, y1 := d0.Dot(rf.u), d0.Dot(rf.v), d1.Dot(rf.u), d1.Dot(rf.v)
	t0, t1 := 0.0, 1.0 // the part of the segment inside every side (Liang–Barsky)
	for _, sd := range rf.sides {
		f0 := sd.m[0]*x0 + sd.m[1]*y0 - sd.off
		f1 := sd.m[0]*x1 + sd.m[1]*y1 - sd.off
		switch {
		case f0 > tol && f1 > tol:
			return out, math.Inf(1), false
		case f0 > tol:
			t0 = max(t0, f0/(f0-f1))
		case f1 > tol:
			t1 = min(t1, f0/(f0-f1))
		}
	}
	if t0 > t1 {
		return out, math.Inf(1), false
	}
	var pts [2]planePoint
	zmin := math.Inf(1)
	for k, t := range [2]float64{t0, t1} {
		p := p0.AddScaled(t, p1.Sub(p0))
		h := rf.n.Dot(p.Sub(rf.c))
		pts[k] = planePoint{wa: p.AddScaled(-h, rf.n), wb: p, phi: h, feature: base | uint32(k)}
		zmin = min(zmin, h)
	}
	return appendKept(out, margin, rf.n, pts[:], p1.Sub(p0).Norm()), zmin, true
}
