package geometry

import (
	"math"

	"github.com/stiction-sim/stiction/spatial"
)

func sphereSphere(a, b *posed, margin float64, out []Contact) []Contact {
	return ballBall(out, margin, &a.pos, a.s.Radius, &b.pos, b.s.Radius, &fallbackNormal, a.size()+b.size())
}

// sphereCapsule treats the capsule as a ball centred at the point of its
// axis segment nearest the sphere's centre.
func sphereCapsule(a, b *posed, margin float64, out []Contact) []Contact {
	ax := b.axis(2)
	q := closestOnSegment(a.pos, b.pos, ax, b.s.HalfLength)
	t1, _ := spatial.Orthonormal(ax)
	return ballBall(out, margin, &a.pos, a.s.Radius, &q, b.s.Radius, &t1, a.size()+b.size())
}

// ballBall appends the contact between the ball (ca, ra) of A and the ball
// (cb, rb) of B, using fallback as the normal when the centres coincide to
// within rounding (tieTol times scale).
//
// In scalars, the vectors read in place, the same expressions as
// d = cb − ca, n = d.Scale(1/‖d‖), appendContact of ca.AddScaled(ra, n)
// and cb.AddScaled(−rb, n): the Vec3 values were copied some fifteen
// times a call.
func ballBall(out []Contact, margin float64, ca *spatial.Vec3, ra float64, cb *spatial.Vec3, rb float64, fallback *spatial.Vec3, scale float64) []Contact {
	d0, d1, d2 := cb[0]-ca[0], cb[1]-ca[1], cb[2]-ca[2]
	dist := math.Sqrt(d0*d0 + d1*d1 + d2*d2)
	n := *fallback
	if dist > tieTol*scale { // apart(ca, cb, scale)
		s := 1 / dist
		n = spatial.Vec3{s * d0, s * d1, s * d2}
	} else {
		dist = 0
	}
	phi := dist - ra - rb
	if !(phi <= margin) {
		return out
	}
	p := spatial.Vec3{
		0.5 * ((ca[0] + ra*n[0]) + (cb[0] + -rb*n[0])),
		0.5 * ((ca[1] + ra*n[1]) + (cb[1] + -rb*n[1])),
		0.5 * ((ca[2] + ra*n[2]) + (cb[2] + -rb*n[2])),
	}
	return append(out, Contact{Point: p, Normal: n, Phi: phi})
}

// apart reports whether ballBall takes its normal from the centres ca and
// cb rather than its fallback: the same distance, the same test.
func apart(ca, cb *spatial.Vec3, scale float64) bool {
	d0, d1, d2 := cb[0]-ca[0], cb[1]-ca[1], cb[2]-ca[2]
	return math.Sqrt(d0*d0+d1*d1+d2*d2) > tieTol*scale
}

// sphereBox works in the box frame. A centre outside the box is pushed out
// along the direction from its closest box point; a centre inside (or on
// the surface) along the normal of the nearest face, which is the minimum
// translation.
func sphereBox(a, b *posed, margin float64, out []Contact) []Contact {
	h := b.s.HalfExtents
	r := a.s.Radius
	c := b.toLocal(a.pos)
	q := spatial.Vec3{clamp(c[0], -h[0], h[0]), clamp(c[1], -h[1], h[1]), clamp(c[2], -h[2], h[2])}
	if dist := c.Sub(q).Norm(); dist > tieTol*(a.size()+b.size()) {
		nw := b.rot.MulVec(c.Sub(q).Scale(1 / dist)) // outward box normal, towards the sphere
		return appendContact(out, margin, a.pos.AddScaled(-r, nw), b.toWorld(q), nw.Neg(), dist-r)
	}
	i := 0
	depth := h[0] - math.Abs(c[0])
	for k := 1; k < 3; k++ {
		if d := h[k] - math.Abs(c[k]); d < depth {
			i, depth = k, d
		}
	}
	s := sign(c[i])
	q = c
	q[i] = s * h[i]
	nw := b.axis(i).Scale(s)
	return appendContact(out, margin, a.pos.AddScaled(-r, nw), b.toWorld(q), nw.Neg(), -depth-r)
}
