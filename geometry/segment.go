package geometry

import (
	"math"

	"github.com/stiction-sim/stiction/spatial"
)

// segment is c + s d for s ∈ [−e, e], with d a unit vector.
type segment struct {
	c, d spatial.Vec3
	e    float64
}

func (s segment) at(t float64) spatial.Vec3 { return s.c.AddScaled(t, s.d) }

// closestOnSegment returns the point nearest p of the segment c + s d,
// s ∈ [−e, e].
func closestOnSegment(p, c, d spatial.Vec3, e float64) spatial.Vec3 {
	return c.AddScaled(clamp(p.Sub(c).Dot(d), -e, e), d)
}

// parallelSin2 is the squared sine of the angle below which two segments
// are treated as parallel.
const parallelSin2 = 1e-20

// closestSegments returns the parameters (s, t) of a closest pair of points
// between the segments (c1, d1, e1) and (c2, d2, e2) (Ericson, Real-Time
// Collision Detection §5.1.9). For parallel segments whose projections
// overlap it picks the middle of the overlap on the first segment.
//
// The vectors are read in place and the products formed in scalars, the
// same expressions as r = c1 − c2, d1·d2, d1·r, d2·r and ‖d1 × d2‖²: the
// Vec3 values were copied some twenty times a call.
func closestSegments(c1, d1 *spatial.Vec3, e1 float64, c2, d2 *spatial.Vec3, e2 float64) (s, t float64) {
	r0, r1, r2 := c1[0]-c2[0], c1[1]-c2[1], c1[2]-c2[2]
	b := d1[0]*d2[0] + d1[1]*d2[1] + d1[2]*d2[2]
	c := d1[0]*r0 + d1[1]*r1 + d1[2]*r2
	f := d2[0]*r0 + d2[1]*r1 + d2[2]*r2
	x0, x1, x2 := d1[1]*d2[2]-d1[2]*d2[1], d1[2]*d2[0]-d1[0]*d2[2], d1[0]*d2[1]-d1[1]*d2[0]
	if denom := x0*x0 + x1*x1 + x2*x2; denom > parallelSin2 {
		s = clamp((b*f-c)/denom, -e1, e1)
	} else {
		// The second segment projects onto [−c − e2, −c + e2] on the first line.
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

// clipSlab intersects the parameter interval [t0, t1] of the line c + t d
// (one coordinate) with the slab |c + t d| ≤ h.
func clipSlab(t0, t1, c, d, h float64) (float64, float64) {
	if d == 0 {
		if math.Abs(c) > h {
			return 1, 0
		}
		return t0, t1
	}
	lo, hi := (-h-c)/d, (h-c)/d
	if lo > hi {
		lo, hi = hi, lo
	}
	return max(t0, lo), min(t1, hi)
}
