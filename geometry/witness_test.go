package geometry

import (
	"math"
	"testing"

	"github.com/stiction-sim/stiction/spatial"
)

// signedDistance returns the signed distance from the world point p to the
// surface of s at pose x (negative inside), from closed forms independent
// of the package.
func signedDistance(s Shape, x spatial.Pose, p spatial.Vec3) float64 {
	q := x.ApplyInv(p)
	switch s.Kind {
	case HalfSpace:
		return q[2]
	case Sphere:
		return q.Norm() - s.Radius
	case Box:
		d := q.Abs().Sub(s.HalfExtents)
		return d.Max(spatial.Vec3{}).Norm() + math.Min(math.Max(d[0], math.Max(d[1], d[2])), 0)
	case Capsule:
		return q.Sub(spatial.Vec3{0, 0, math.Max(-s.HalfLength, math.Min(s.HalfLength, q[2]))}).Norm() - s.Radius
	}
	dr, dz := math.Hypot(q[0], q[1])-s.Radius, math.Abs(q[2])-s.HalfLength
	return math.Min(math.Max(dr, dz), 0) + math.Hypot(math.Max(dr, 0), math.Max(dz, 0))
}

// TestContactWitnessesOnSurfaces checks Point: the witnesses
// Point ∓ (Phi/2)·Normal lie on the surfaces of A and B. This holds for
// every point of the manifolds of boxes and cylinders on half-spaces and of
// box on box, and for every single-point result. (The upper end of a
// capsule lying on a plane or a box is represented by the ball at that end
// of its axis, whose surface point along the normal lies slightly inside a
// tilted capsule, so capsule manifolds are checked by the tables instead.)
func TestContactWitnessesOnSurfaces(t *testing.T) {
	r := newRand(17)
	for _, kp := range kindPairs(false) {
		ka, kb := kp[0], kp[1]
		manifold := kb == Box && (ka == HalfSpace || ka == Box) || ka == HalfSpace && kb == Cylinder
		for i := range 30 {
			a, xa, b, xb := randomPair(r, ka, kb)
			scale := shapeSize(a) + shapeSize(b)
			cs := Collide(a, xa, b, xb, 10, nil)
			if len(cs) != 1 && !manifold {
				continue
			}
			tol := 1e-9 * scale
			if usesGJK(ka, kb) {
				// GJK/EPA normals are accurate to about √ε rad, so the witnesses
				// (exactly on the surfaces) can sit that much times the gap to the
				// side of the line along the normal that this test assumes.
				tol = 1e-6 * scale
			}
			for _, c := range cs {
				wa, wb := c.Point.AddScaled(-c.Phi/2, c.Normal), c.Point.AddScaled(c.Phi/2, c.Normal)
				if da, db := signedDistance(a, xa, wa), signedDistance(b, xb, wb); math.Abs(da) > tol || math.Abs(db) > tol {
					t.Fatalf("%v-%v case %d: witnesses %v, %v of %+v are %g and %g from the surfaces", ka, kb, i, wa, wb, c, da, db)
				}
			}
		}
	}
}
