package sim

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stiction-sim/stiction/geometry"
	"github.com/stiction-sim/stiction/multibody"
	"github.com/stiction-sim/stiction/spatial"
)

// TestMovingBoxMatchesFresh: over a sequence of body poses that repeats
// poses, flips the sign of a zero coordinate and moves at random, the
// pose and box that movingBox keeps or computes are, bit for bit, those
// computed afresh (geometryPose, then Shape.AABB), for a box, a capsule,
// a sphere and an ellipsoid with and without a local pose, and the
// inflated box it sets is that box's Inflate(d); a pose with the last
// call's bits keeps the box (a planted one is inflated), and −0 against
// +0 or a new pose computes it again.
func TestMovingBoxMatchesFresh(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 29))
	randQuat := func() spatial.Quat {
		return spatial.Quat{W: rng.NormFloat64(), X: rng.NormFloat64(), Y: rng.NormFloat64(), Z: rng.NormFloat64()}.Normalize()
	}
	randVec := func() spatial.Vec3 { return spatial.Vec3{rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64()} }
	geoms := []multibody.Geometry{
		{Shape: geometry.NewBox(spatial.Vec3{0.1, 0.2, 0.3}), Pose: spatial.Pose{R: spatial.QuatIdentity()}},
		{Shape: geometry.NewCapsule(0.05, 0.4), Pose: spatial.Pose{R: randQuat(), P: randVec()}},
		{Shape: geometry.NewEllipsoid(spatial.Vec3{0.1, 0.3, 0.2}), Pose: spatial.Pose{R: spatial.QuatIdentity(), P: randVec()}},
		{Shape: geometry.NewSphere(0.25), Pose: spatial.Pose{R: randQuat(), P: randVec()}},
	}
	n := len(geoms)
	c := &collider{poses: make([]spatial.Pose, n), boxes: make([]geometry.AABB, n), moved: make([]movedBox, n), local: make([]localShape, n)}
	for i, g := range geoms {
		c.local[i] = localShape{rotI: g.Pose.R == spatial.QuatIdentity(), pos0: g.Pose.P == spatial.Vec3{}}
	}
	bits := func(b geometry.AABB) [6]uint64 {
		var u [6]uint64
		for k := range 3 {
			u[k], u[3+k] = math.Float64bits(b.Min[k]), math.Float64bits(b.Max[k])
		}
		return u
	}
	x := spatial.Pose{R: randQuat(), P: randVec()}
	for step := range 3000 {
		switch step % 5 {
		case 0, 1: // unchanged: a body at rest
		case 2: // a zero coordinate, of either sign
			x.P[1] = math.Copysign(0, float64(step%4)-2)
		default:
			x = spatial.Pose{R: randQuat(), P: randVec()}
		}
		d := []float64{0, 0.01, -0.002}[step%3]
		for i := range geoms {
			g := &geoms[i]
			c.movingBox(i, g, &x, d)
			got := c.moved[i].box
			pose := geometryPose(x, g.Pose, c.local[i])
			if want := g.Shape.AABB(pose); bits(got) != bits(want) || !samePoseBits(&c.poses[i], &pose) {
				t.Fatalf("step %d geometry %d: movingBox %v, pose %+v; afresh %v, %+v", step, i, got, c.poses[i], want, pose)
			}
			if want := got.Inflate(d); bits(c.boxes[i]) != bits(want) {
				t.Fatalf("step %d geometry %d: inflated box %v, want %v", step, i, c.boxes[i], want)
			}
		}
	}
	planted := geometry.AABB{Min: spatial.Vec3{-7, -7, -7}, Max: spatial.Vec3{7, 7, 7}}
	c.moved[0].box = planted
	if c.movingBox(0, &geoms[0], &x, 1); c.boxes[0] != planted.Inflate(1) {
		t.Errorf("the same pose again: box %v, want the kept one's %v", c.boxes[0], planted.Inflate(1))
	}
	x.P[0] = 0
	c.movingBox(0, &geoms[0], &x, 0)
	c.moved[0].box = planted
	x.P[0] = math.Copysign(0, -1)
	if c.movingBox(0, &geoms[0], &x, 0); c.moved[0].box == planted {
		t.Errorf("−0 after +0: the kept box was used, want one computed again")
	}
}
