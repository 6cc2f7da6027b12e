package sim

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stiction-sim/stiction/spatial"
)

// TestGeometryPoseMatchesCompose: geometryPose gives Pose.Compose's bits
// for local poses with an identity rotation, a zero translation or both,
// on random body poses and on body poses with zero coordinates (a planar
// robot's y = 0), up to the sign of a zero, which the comparison ignores
// only where both numbers are zero.
func TestGeometryPoseMatchesCompose(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 23))
	randQuat := func() spatial.Quat {
		return spatial.Quat{W: rng.NormFloat64(), X: rng.NormFloat64(), Y: rng.NormFloat64(), Z: rng.NormFloat64()}.Normalize()
	}
	randVec := func() spatial.Vec3 { return spatial.Vec3{rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64()} }
	same := func(a, b float64) bool { return math.Float64bits(a) == math.Float64bits(b) || (a == 0 && b == 0) }
	for i := range 20000 {
		x := spatial.Pose{R: randQuat(), P: randVec()}
		if i%4 == 1 { // zero coordinates, either sign
			x.P[1] = math.Copysign(0, float64(i%8)-4)
			x.R = spatial.Quat{W: x.R.W, Y: x.R.Y}.Normalize() // about y only
		}
		y := spatial.Pose{R: randQuat(), P: randVec()}
		s := localShape{rotI: i%3 != 0, pos0: i%2 == 0}
		if s.rotI {
			y.R = spatial.QuatIdentity()
		}
		if s.pos0 {
			y.P = spatial.Vec3{}
		}
		got, want := geometryPose(x, y, s), x.Compose(y)
		ok := same(got.R.W, want.R.W) && same(got.R.X, want.R.X) && same(got.R.Y, want.R.Y) && same(got.R.Z, want.R.Z)
		for k := range 3 {
			ok = ok && same(got.P[k], want.P[k])
		}
		if !ok {
			t.Fatalf("case %d (%+v): geometryPose = %+v, Compose = %+v", i, s, got, want)
		}
	}
}
