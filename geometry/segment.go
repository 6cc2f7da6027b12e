package geometry

import "github.com/stiction-sim/stiction/spatial"

// Segments are written c + s d with a unit direction d and s ∈ [−e, e].

// closestOnSegment returns the point of the segment (c, d, e) nearest p.
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
func closestSegments(c1, d1 spatial.Vec3, e1 float64, c2, d2 spatial.Vec3, e2 float64) (s, t float64) {
	r := c1.Sub(c2)
	b := d1.Dot(d2)
	c := d1.Dot(r)
	f := d2.Dot(r)
	if denom := d1.Cross(d2).Norm2(); denom > parallelSin2 {
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
