package geometry

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stiction-sim/stiction/spatial"
)

// halfSpaceCapsuleVec and appendKeptVec are halfSpaceCapsule and
// appendKept as they were written with Vec3 values: the references the
// scalar forms must match to the bit.
func halfSpaceCapsuleVec(a, b *posed, margin float64, out []Contact) []Contact {
	n := a.axis(2)
	ax := b.axis(2).Scale(b.s.HalfLength)
	r := b.s.Radius
	var pts [2]planePoint
	for k, e := range [2]spatial.Vec3{b.pos.Sub(ax), b.pos.Add(ax)} {
		h := n.Dot(e.Sub(a.pos))
		pts[k] = planePoint{wa: e.AddScaled(-h, n), wb: e.AddScaled(-r, n), phi: h - r, feature: faceFeature(false, 0, 0) | uint32(k)}
	}
	return appendKeptVec(out, margin, n, pts[:], 0)
}

func appendKeptVec(out []Contact, margin float64, n spatial.Vec3, pts []planePoint, w float64) []Contact {
	lo := math.Inf(1)
	for _, p := range pts {
		lo = math.Min(lo, p.phi)
	}
	if !(lo <= margin) {
		return out
	}
	for _, p := range pts {
		if p.phi <= keepLimit(margin, w) {
			out = append(out, Contact{Point: p.wa.Add(p.wb).Scale(0.5), Normal: n, Phi: p.phi, Feature: p.feature})
		}
	}
	return out
}

// sameContactsBits reports whether got and want hold the same contacts to
// the bit.
func sameContactsBits(got, want []Contact) bool {
	if len(got) != len(want) {
		return false
	}
	for i := range got {
		g, w := &got[i], &want[i]
		if !sameVecBits(g.Point, w.Point) || !sameVecBits(g.Normal, w.Normal) || !sameBits(g.Phi, w.Phi) || g.Feature != w.Feature {
			return false
		}
	}
	return true
}

// TestColfootHalfSpaceCapsule: halfSpaceCapsule and appendKept in scalars
// give the Vec3 forms' contacts to the bit, on random capsules over
// random planes, with awkward values (zeros of either sign, infinities,
// NaNs) among the positions, rotations, sizes and margins, and on
// appendKept's other callers' widths.
func TestColfootHalfSpaceCapsule(t *testing.T) {
	rng := rand.New(rand.NewPCG(14, 23))
	for trial := range 20000 {
		a := newPosed(Shape{Kind: HalfSpace}, spatial.Pose{R: randQuat(rng), P: awkwardVec(rng, 1)})
		b := newPosed(Shape{Kind: Capsule, Radius: math.Abs(awkward(rng, 0.2)), HalfLength: math.Abs(awkward(rng, 0.5))},
			spatial.Pose{R: randQuat(rng), P: awkwardVec(rng, 1)})
		if trial%5 == 0 {
			b.rot[rng.IntN(3)][2] = awkward(rng, 1)
		}
		if trial%7 == 0 {
			a.rot[rng.IntN(3)][2] = awkward(rng, 1)
		}
		margin := awkward(rng, 1)
		got := halfSpaceCapsule(&a, &b, margin, nil)
		want := halfSpaceCapsuleVec(&a, &b, margin, nil)
		if !sameContactsBits(got, want) {
			t.Fatalf("trial %d: %v, the Vec3 form %v", trial, got, want)
		}
		pts := make([]planePoint, 1+rng.IntN(8))
		for k := range pts {
			pts[k] = planePoint{wa: awkwardVec(rng, 1), wb: awkwardVec(rng, 1), phi: awkward(rng, 1), feature: uint32(k)}
		}
		w := math.Abs(awkward(rng, 1))
		n := awkwardVec(rng, 1)
		if got, want := appendKept(nil, margin, n, pts, w), appendKeptVec(nil, margin, n, pts, w); !sameContactsBits(got, want) {
			t.Fatalf("trial %d: appendKept %v, the Vec3 form %v", trial, got, want)
		}
	}
}

// TestColfootSetInflated: AABB.SetInflated sets the bits of Inflate.
func TestColfootSetInflated(t *testing.T) {
	rng := rand.New(rand.NewPCG(14, 24))
	for trial := range 20000 {
		b := AABB{Min: awkwardVec(rng, 1), Max: awkwardVec(rng, 1)}
		m := awkward(rng, 1)
		want := b.Inflate(m)
		var got AABB
		got.SetInflated(&b, m)
		if !sameVecBits(got.Min, want.Min) || !sameVecBits(got.Max, want.Max) {
			t.Fatalf("trial %d: %v, Inflate %v", trial, got, want)
		}
	}
}

// TestColfootCapsuleAABB: capsuleAABB in scalars gives the Vec3 form's
// box to the bit, awkward values included.
func TestColfootCapsuleAABB(t *testing.T) {
	rng := rand.New(rand.NewPCG(14, 25))
	for trial := range 20000 {
		s := Shape{Kind: Capsule, Radius: awkward(rng, 0.2), HalfLength: awkward(rng, 0.5)}
		a, p := awkwardVec(rng, 1), awkwardVec(rng, 2)
		var e spatial.Vec3
		for i := range 3 {
			e[i] = math.Abs(a[i])*s.HalfLength + s.Radius
		}
		got, want := capsuleAABB(&s, &a, &p), AABB{Min: p.Sub(e), Max: p.Add(e)}
		if !sameVecBits(got.Min, want.Min) || !sameVecBits(got.Max, want.Max) {
			t.Fatalf("trial %d: %v, the Vec3 form %v", trial, got, want)
		}
	}
}

// closestSegmentsVec and ballBallVec are closestSegments and ballBall as
// they were written with Vec3 values, the references of the scalar forms.
func closestSegmentsVec(c1, d1 spatial.Vec3, e1 float64, c2, d2 spatial.Vec3, e2 float64) (s, t float64) {
	r := c1.Sub(c2)
	b := d1.Dot(d2)
	c := d1.Dot(r)
	f := d2.Dot(r)
	if denom := d1.Cross(d2).Norm2(); denom > parallelSin2 {
		s = clamp((b*f-c)/denom, -e1, e1)
	} else {
		lo, hi := max(-e1, -c-e2), min(e1, -c+e2)
		s = clamp((lo+hi)/2, -e1, e1)
	}
	t = b*s + f
	if t < -e2 || t > e2 {
		t = clamp(t, -e2, e2)
		s = clamp(b*t-c, -e1, e1)
	}
	return s, t
}

func ballBallVec(out []Contact, margin float64, ca spatial.Vec3, ra float64, cb spatial.Vec3, rb float64, fallback spatial.Vec3, scale float64) []Contact {
	d := cb.Sub(ca)
	dist := d.Norm()
	n := fallback
	if dist > tieTol*scale {
		n = d.Scale(1 / dist)
	} else {
		dist = 0
	}
	return appendContact(out, margin, ca.AddScaled(ra, n), cb.AddScaled(-rb, n), n, dist-ra-rb)
}

// TestColfootSegmentsBalls: closestSegments and ballBall in scalars give
// the Vec3 forms' results to the bit on random segments and balls, unit
// and awkward directions, parallel ones and coincident centres included.
func TestColfootSegmentsBalls(t *testing.T) {
	rng := rand.New(rand.NewPCG(14, 26))
	for trial := range 20000 {
		c1, c2 := awkwardVec(rng, 1), awkwardVec(rng, 1)
		d1, d2 := randUnit(rng), randUnit(rng)
		switch trial % 5 {
		case 0:
			d2 = d1 // parallel
		case 1:
			d1 = awkwardVec(rng, 1)
		}
		e1, e2 := awkward(rng, 1), awkward(rng, 1)
		s, u := closestSegments(&c1, &d1, e1, &c2, &d2, e2)
		ws, wu := closestSegmentsVec(c1, d1, e1, c2, d2, e2)
		if !sameBits(s, ws) || !sameBits(u, wu) {
			t.Fatalf("trial %d: closestSegments (%v, %v), the Vec3 form (%v, %v)", trial, s, u, ws, wu)
		}
		if trial%7 == 0 {
			c2 = c1 // coincident centres: the fallback normal
		}
		ra, rb, margin, scale := awkward(rng, 0.5), awkward(rng, 0.5), awkward(rng, 1), math.Abs(awkward(rng, 1))
		fb := randUnit(rng)
		got := ballBall(nil, margin, &c1, ra, &c2, rb, &fb, scale)
		want := ballBallVec(nil, margin, c1, ra, c2, rb, fb, scale)
		if !sameContactsBits(got, want) {
			t.Fatalf("trial %d: ballBall %v, the Vec3 form %v", trial, got, want)
		}
	}
}

// capsuleCapsuleVec is capsuleCapsule as it was written, its fallback
// normal formed at every call.
func capsuleCapsuleVec(a, b *posed, margin float64, out []Contact) []Contact {
	da, db := a.axis(2), b.axis(2)
	s, t := closestSegmentsVec(a.pos, da, a.s.HalfLength, b.pos, db, b.s.HalfLength)
	p, q := a.pos.AddScaled(s, da), b.pos.AddScaled(t, db)
	t1, _ := spatial.Orthonormal(da)
	fb, _ := unit(da.Cross(db), t1)
	if fb.Dot(b.pos.Sub(a.pos)) < 0 {
		fb = fb.Neg()
	}
	return ballBallVec(out, margin, p, a.s.Radius, q, b.s.Radius, fb, a.size()+b.size())
}

// TestColfootCapsuleCapsule: capsuleCapsule, whose fallback normal is
// formed only when ballBall reads it, gives the contacts of the form that
// formed it at every call, to the bit: random capsules, crossing axes
// (coincident closest points), coincident and parallel ones, awkward values.
func TestColfootCapsuleCapsule(t *testing.T) {
	rng := rand.New(rand.NewPCG(14, 28))
	for trial := range 20000 {
		a := newPosed(Shape{Kind: Capsule, Radius: math.Abs(awkward(rng, 0.2)), HalfLength: math.Abs(awkward(rng, 0.5))},
			spatial.Pose{R: randQuat(rng), P: awkwardVec(rng, 1)})
		b := newPosed(Shape{Kind: Capsule, Radius: math.Abs(awkward(rng, 0.2)), HalfLength: math.Abs(awkward(rng, 0.5))},
			spatial.Pose{R: randQuat(rng), P: awkwardVec(rng, 1)})
		switch trial % 4 {
		case 0:
			b.pos = a.pos // crossing at their centres
		case 1:
			b.pos, b.rot = a.pos, a.rot // coincident
		case 2:
			b.rot = a.rot // parallel
		}
		margin := awkward(rng, 1)
		if got, want := capsuleCapsule(&a, &b, margin, nil), capsuleCapsuleVec(&a, &b, margin, nil); !sameContactsBits(got, want) {
			t.Fatalf("trial %d: %v, the old form %v", trial, got, want)
		}
	}
}
