package sim

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stiction-sim/stiction/geometry"
	"github.com/stiction-sim/stiction/spatial"
)

// TestCubeslide5BallBoxHoldsExactBox: for every kind ballShape admits, at
// random local and body poses (positions from 0 to 1e6, body quaternions
// of squared norm within ballQuatTol of 1) and margins of both signs,
// ballBox's bound about the body's origin holds the geometry's inflated
// box as filteredBroadPhase forms it (placeGeometry, BoxAt, Inflate);
// and ballBox declines a quaternion off unit length and a non-finite
// position, reach or margin. It fails when ballBox drops its widening or
// its quaternion test.
func TestCubeslide5BallBoxHoldsExactBox(t *testing.T) {
	rng := rand.New(rand.NewPCG(105, 5))
	size := func() float64 { return math.Pow(10, rng.Float64()*4-3) }
	vec := func(s float64) spatial.Vec3 {
		return spatial.Vec3{s * rng.NormFloat64(), s * rng.NormFloat64(), s * rng.NormFloat64()}
	}
	quat := func() spatial.Quat {
		return spatial.Quat{W: rng.NormFloat64(), X: rng.NormFloat64(), Y: rng.NormFloat64(), Z: rng.NormFloat64()}.Normalize()
	}
	shape := func() geometry.Shape {
		switch rng.IntN(6) {
		case 0:
			return geometry.NewSphere(size())
		case 1:
			return geometry.NewCapsule(size(), size())
		case 2:
			return geometry.NewBox(spatial.Vec3{size(), size(), size()})
		case 3:
			return geometry.NewCylinder(size(), size())
		case 4:
			return geometry.NewEllipsoid(spatial.Vec3{size(), size(), size()})
		}
		pts := make([]spatial.Vec3, 8+rng.IntN(8))
		for k := range pts {
			pts[k] = vec(size()).Add(spatial.Vec3{1, 2, 3})
		}
		h, err := geometry.NewConvexHull(pts)
		if err != nil {
			t.Fatal(err)
		}
		return h
	}
	// The tightest case: a point (a sphere of radius 0) at y.P turned by π
	// about an axis orthogonal to it by a quaternion of squared norm
	// 1 + 0.999·ballQuatTol, stretched to nearly (1 + 2·ballQuatTol)‖y.P‖ from the body.
	point := geometry.NewSphere(0)
	for _, l := range []float64{1e-3, 1, 1e3} {
		for _, dir := range []float64{1, -1} {
			y := spatial.Pose{R: spatial.QuatIdentity(), P: spatial.Vec3{dir * l, 0, 0}}
			x := spatial.Pose{R: spatial.Quat{Z: math.Sqrt(1 + 0.999*ballQuatTol)}, P: spatial.Vec3{5, 6, 7}}
			checkBallBox(t, -1, &point, &x, &y, 0)
		}
	}
	for trial := range 20000 {
		s := shape()
		if !ballShape(s.Kind) {
			t.Fatalf("kind %v not admitted", s.Kind)
		}
		y := spatial.Pose{R: spatial.QuatIdentity()}
		if rng.IntN(3) > 0 {
			y.R = quat()
		}
		if rng.IntN(3) > 0 {
			y.P = vec(size())
		}
		x := spatial.Pose{R: quat(), P: vec([]float64{0, 1e-3, 1, 1e3, 1e6}[rng.IntN(5)])}
		if rng.IntN(2) == 0 { // a body quaternion off unit length by up to ballQuatTol
			x.R = x.R.Scale(math.Sqrt(1 + ballQuatTol*(2*rng.Float64()-1)))
		}
		checkBallBox(t, trial, &s, &x, &y, size()*(rng.Float64()-0.3))
	}
	unit := spatial.Pose{R: spatial.QuatIdentity()}
	for _, c := range []struct {
		x    spatial.Pose
		r, d float64
	}{
		{spatial.Pose{R: spatial.QuatIdentity().Scale(1.001)}, 1, 0},
		{spatial.Pose{R: spatial.Quat{}}, 1, 0},
		{spatial.Pose{R: spatial.Quat{W: math.NaN()}}, 1, 0},
		{spatial.Pose{R: unit.R, P: spatial.Vec3{0, math.NaN(), 0}}, 1, 0},
		{spatial.Pose{R: unit.R, P: spatial.Vec3{0, 0, math.Inf(-1)}}, 1, 0},
		{unit, math.Inf(1), 0},
		{unit, math.NaN(), 0},
		{unit, 1, math.Inf(1)},
		{unit, 1, math.NaN()},
	} {
		var b geometry.AABB
		if ballBox(&b, &c.x, c.r, c.d) {
			t.Errorf("ballBox bounded pose %v, reach %v, margin %v: %v", c.x, c.r, c.d, b)
		}
	}
}

// checkBallBox fails t unless ballBox bounds the box of shape s at the
// local pose y on a body at x, inflated by d, as filteredBroadPhase forms
// it.
func checkBallBox(t *testing.T, trial int, s *geometry.Shape, x, y *spatial.Pose, d float64) {
	t.Helper()
	var z spatial.Pose
	placeGeometry(&z, x, y, localShape{rotI: y.R == spatial.QuatIdentity(), pos0: y.P == spatial.Vec3{}})
	exact := s.BoxAt(&z).Inflate(d)
	var b geometry.AABB
	if !ballBox(&b, x, reach(s, *y), d) {
		t.Fatalf("trial %d: ballBox declined a finite pose %v", trial, x)
	}
	for k := range 3 {
		if !(exact.Min[k] >= b.Min[k] && exact.Max[k] <= b.Max[k]) {
			t.Fatalf("trial %d (kind %v): exact box %v outside the bound %v on axis %d", trial, s.Kind, exact, b, k)
		}
	}
}
