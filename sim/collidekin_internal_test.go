package sim

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stiction-sim/stiction/geometry"
	"github.com/stiction-sim/stiction/multibody"
	"github.com/stiction-sim/stiction/spatial"
)

// TestPosedAtMatchesCollide: the narrow phase's geometry at its pose
// (posedAt, kept per pose and cleared by newBox) collides with a fixed
// half-space, a sphere and a box as geometry.Collide does from the
// collider's poses, to the bit, over body poses that repeat, flip the
// sign of a zero and move at random near the plane, for a box, a capsule
// and a rotated ellipsoid on the moving body; it fails when newBox leaves
// a geometry's Posed of the last pose in place.
func TestPosedAtMatchesCollide(t *testing.T) {
	rng := rand.New(rand.NewPCG(23, 5))
	randQuat := func() spatial.Quat {
		return spatial.Quat{W: rng.NormFloat64(), X: rng.NormFloat64(), Y: rng.NormFloat64(), Z: rng.NormFloat64()}.Normalize()
	}
	geoms := []multibody.Geometry{
		{Shape: geometry.NewHalfSpace(), Pose: spatial.Pose{R: spatial.QuatIdentity()}},
		{Shape: geometry.NewSphere(0.2), Pose: spatial.Pose{R: spatial.QuatIdentity(), P: spatial.Vec3{0.3, 0, 0.1}}},
		{Shape: geometry.NewBox(spatial.Vec3{0.2, 0.3, 0.4}), Pose: spatial.Pose{R: spatial.QuatIdentity()}},
		{Shape: geometry.NewCapsule(0.05, 0.4), Pose: spatial.Pose{R: randQuat(), P: spatial.Vec3{0.1, -0.1, 0}}},
		{Shape: geometry.NewEllipsoid(spatial.Vec3{0.1, 0.3, 0.2}), Pose: spatial.Pose{R: randQuat(), P: spatial.Vec3{0, 0.2, 0.05}}},
	}
	n := len(geoms)
	c := &collider{poses: make([]spatial.Pose, n), boxes: make([]geometry.AABB, n), moved: make([]movedBox, n), local: make([]localShape, n), posed: make([]geometry.Posed, n)}
	for i, g := range geoms {
		c.local[i] = localShape{rotI: g.Pose.R == spatial.QuatIdentity(), pos0: g.Pose.P == spatial.Vec3{}}
		c.posed[i].SetShape(&g.Shape) // as fixedPoses sets it
	}
	c.poses[0] = geoms[0].Pose // the fixed plane z ≤ 0
	c.poses[1] = spatial.Pose{R: spatial.QuatIdentity(), P: spatial.Vec3{0.05, 0, 0.25}}
	bits := func(hs []geometry.Contact) []uint64 {
		var u []uint64
		for _, h := range hs {
			for _, v := range [...]float64{h.Point[0], h.Point[1], h.Point[2], h.Normal[0], h.Normal[1], h.Normal[2], h.Phi} {
				u = append(u, math.Float64bits(v))
			}
			u = append(u, uint64(h.Feature))
		}
		return u
	}
	x := spatial.Pose{R: randQuat(), P: spatial.Vec3{0, 0, 0.2}}
	touched := 0
	for step := range 2000 {
		switch step % 5 {
		case 0, 1: // unchanged: a body at rest
		case 2: // a zero coordinate, of either sign
			x.P[1] = math.Copysign(0, float64(step%4)-2)
		default:
			x = spatial.Pose{R: randQuat(), P: spatial.Vec3{0.2 * rng.NormFloat64(), 0.2 * rng.NormFloat64(), 0.3 * rng.Float64()}}
		}
		for i := 2; i < n; i++ {
			c.movingBox(i, &geoms[i], &x, 0)
			for j := range 2 { // the plane, then the sphere
				got := geometry.CollidePosed(c.posedAt(j), c.posedAt(i), 0.05, nil)
				want := geometry.Collide(geoms[j].Shape, c.poses[j], geoms[i].Shape, c.poses[i], 0.05, nil)
				if gb, wb := bits(got), bits(want); !equalBits(gb, wb) {
					t.Fatalf("step %d geometry %d against %d: posedAt's contacts %+v, Collide's %+v", step, i, j, got, want)
				}
				touched += len(want)
			}
		}
	}
	if touched < 1000 {
		t.Errorf("only %d contact points in 2000 steps: the poses do not test the contacts", touched)
	}
}

func equalBits(a, b []uint64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}
