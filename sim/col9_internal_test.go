package sim

import (
	"math"
	"math/bits"
	"math/rand/v2"
	"testing"

	"github.com/stiction-sim/stiction/geometry"
	"github.com/stiction-sim/stiction/spatial"
)

// TestCol9SweepMarksMeetingPairs: pairSweep.mark, along each axis and over
// calls whose boxes move (so that the insertion sort starts from the last
// order), marks exactly the listed pairs whose boxes meet (Meets), those
// of a half-space included, for models of 0 to 40 geometries with random
// listed pairs and boxes that share lower bounds, are flat, inverted,
// infinite or NaN; it declines (returns false) only when a swept
// geometry's lower bound on the axis is NaN.
func TestCol9SweepMarksMeetingPairs(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 165))
	coord := func() float64 {
		switch rng.IntN(400) {
		case 0, 1, 2, 3, 4, 5, 6, 7, 8, 9:
			return math.Inf(-1)
		case 10, 11, 12, 13, 14, 15, 16, 17, 18, 19:
			return math.Inf(1)
		case 20:
			return math.NaN()
		}
		return float64(rng.IntN(16)) / 4 // shared bounds
	}
	marked, declined := 0, 0
	for _, n := range []int{0, 1, 2, 3, 7, 18, 40} {
		for trial := range 20 {
			var pairs [][2]int32
			var plane []int8
			for i := range n {
				for j := i + 1; j < n; j++ {
					if rng.IntN(3) > 0 {
						pairs = append(pairs, [2]int32{int32(i), int32(j)})
						plane = append(plane, int8(rng.IntN(8)-6)) // mostly −1: about one in four of a half-space
					}
				}
			}
			boxes := make([]geometry.AABB, n)
			var sw pairSweep
			sw.build(n, pairs, plane)
			sw.ax = trial % 3
			for range 6 {
				for i := range boxes {
					if rng.IntN(2) == 0 || boxes[i] == (geometry.AABB{}) {
						for k := range 3 {
							lo := coord()
							boxes[i].Min[k], boxes[i].Max[k] = lo, lo+float64(rng.IntN(8)-1)/4
						}
					}
				}
				if !sw.mark(boxes) {
					declined++
					if !sweptNaN(&sw, boxes) {
						t.Fatalf("n %d: mark declined without a NaN lower bound", n)
					}
					clear(sw.hit)
					continue
				}
				for k, pr := range pairs {
					want := boxes[pr[0]].Meets(&boxes[pr[1]])
					if got := sw.hit[k>>6]>>(k&63)&1 == 1; got != want {
						t.Fatalf("n %d axis %d pair %v (half-space %d): marked %v, Meets %v", n, sw.ax, pr, plane[k], got, want)
					}
				}
				for _, w := range sw.hit {
					marked += bits.OnesCount64(w)
				}
				clear(sw.hit)
			}
		}
	}
	if marked < 1000 || declined == 0 {
		t.Errorf("%d pairs marked, %d calls declined: the boxes do not test the sweep", marked, declined)
	}
}

// sweptNaN reports whether a geometry that sw sweeps has a NaN lower
// bound on its axis.
func sweptNaN(sw *pairSweep, boxes []geometry.AABB) bool {
	for _, it := range sw.items {
		if lo := boxes[it.g].Min[sw.ax]; lo != lo {
			return true
		}
	}
	return false
}

// TestCol9BoundCullImpliesCull: whenever boundAboveHalfSpace clears a
// geometry's bound (ballBox) over a plane, aboveHalfSpace culls the
// geometry's exact inflated box, as filteredBroadPhase forms it
// (placeGeometry, BoxAt, SetInflated), for boxes, capsules and ellipsoids
// at random poses and offsets on their bodies, bodies far from and near
// the origin, slanted and axis normals, and slacks at the bound's edge.
func TestCol9BoundCullImpliesCull(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 166))
	unit := func() spatial.Vec3 {
		v := spatial.Vec3{rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64()}
		if rng.IntN(3) == 0 {
			v = spatial.Vec3{}
			v[rng.IntN(3)] = 1 - 2*float64(rng.IntN(2))
		}
		u, _ := v.Normalize()
		return u
	}
	quat := func() spatial.Quat {
		return spatial.Quat{W: rng.NormFloat64(), X: rng.NormFloat64(), Y: rng.NormFloat64(), Z: rng.NormFloat64()}.Normalize()
	}
	shapes := []geometry.Shape{
		geometry.NewBox(spatial.Vec3{0.02, 0.1, 0.03}),
		geometry.NewCapsule(0.01, 0.2),
		geometry.NewEllipsoid(spatial.Vec3{0.1, 0.05, 0.2}),
	}
	cleared := 0
	for trial := range 20000 {
		sh := &shapes[trial%len(shapes)]
		y := spatial.Pose{R: quat(), P: spatial.Vec3{rng.NormFloat64() * 0.1, 0, rng.NormFloat64() * 0.1}}
		if trial%4 == 0 {
			y = spatial.PoseIdentity()
		}
		s := localShape{rotI: y.R == spatial.QuatIdentity(), pos0: y.P == spatial.Vec3{}}
		scale := math.Pow(10, 4*rng.Float64()-2)
		x := spatial.Pose{R: quat(), P: unit().Scale(scale * rng.Float64())}
		d := 0.01 * rng.Float64()
		var pose spatial.Pose
		placeGeometry(&pose, &x, &y, s)
		var exact, bound geometry.AABB
		box := sh.BoxAt(&pose)
		exact.SetInflated(&box, d)
		if !ballBox(&bound, &x, reach(sh, y), d) {
			t.Fatalf("trial %d: no bound at a unit pose", trial)
		}
		n := unit()
		p := x.P.Sub(n.Scale(rng.Float64() * 3 * reach(sh, y)))
		hp := newHalfPlane(&n, &p)
		low, sc := halfSpaceGap(&bound, &hp)
		edge := low - planeCullTol*(1+sc) // the slack at which the bound stops clearing, about
		for _, slack := range []float64{edge * (1 - 1e-9), edge - 1e-15, edge - 2e-12*(1+sc+math.Abs(edge)), edge * 0.5, -edge} {
			if boundAboveHalfSpace(&bound, &hp, slack) {
				cleared++
				if !aboveHalfSpace(&exact, &hp, slack) {
					t.Fatalf("trial %d slack %g: the bound clears the plane, the exact box %v does not", trial, slack, exact)
				}
			}
		}
	}
	if cleared < 20000 {
		t.Errorf("%d bounds cleared the plane: the slacks do not test the edge", cleared)
	}
}
