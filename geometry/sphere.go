package geometry

import (
	"math"

	"github.com/stiction-sim/stiction/spatial"
)

func sphereSphere(a, b *posed, margin float64, out []Contact) []Contact {
	return ballBall(out, margin, a.pos, a.s.Radius, b.pos, b.s.Radius, fallbackNormal, a.size()+b.size())
}

// sphereCapsule treats the capsule as a ball centred at the point of its
// axis segment nearest the sphere's centre.
func sphereCapsule(a, b *posed, margin float64, out []Contact) []Contact {
	ax := b.axis(2)
	q := closestOnSegment(a.pos, b.pos, ax, b.s.HalfLength)
	t1, _ := spatial.Orthonormal(ax)
	return ballBall(out, margin, a.pos, a.s.Radius, q, b.s.Radius, t1, a.size()+b.size())
}

// ballBall appends the contact between the ball (ca, ra) of A and the ball
// (cb, rb) of B, using fallback as the normal when the centres coincide to
// within rounding (tieTol times scale).
func ballBall(out []Contact, margin float64, ca spatial.Vec3, ra float64, cb spatial.Vec3, rb float64, fallback spatial.Vec3, scale float64) []Contact {
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
