package sim

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stiction-sim/stiction/contact"
	"github.com/stiction-sim/stiction/geometry"
	"github.com/stiction-sim/stiction/multibody"
	"github.com/stiction-sim/stiction/solver/sap"
	"github.com/stiction-sim/stiction/spatial"
)

// TestCol13InlineBallBoxMatchesBallBox: filteredBroadPhase's bound of a
// mover, formed in its loop, is ballBox's to the bit, and it takes the
// bound exactly when ballBox would (met 0, a ball kind, at any pose, the
// last one's bits too, ballBox reporting a bound). Free bodies with a
// capsule, a sphere, a box and an ellipsoid (two on one body) over a
// plane, at random states repeated, moved in x alone or y alone (the
// first coordinate kept), far away, at ±0, NaN
// and ±Inf coordinates and zero or NaN quaternions, with and without
// speculative margins (spec nil, as at the rk4 stages).
func TestCol13InlineBallBoxMatchesBallBox(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 186))
	m := &multibody.Model{Gravity: spatial.Vec3{0, 0, -9.81}}
	in := spatial.SpatialInertia{Mass: 1, Icom: spatial.Diag3(spatial.Vec3{0.1, 0.2, 0.3})}
	floor := m.AddWeldedBody("floor", spatial.PoseIdentity())
	if _, err := m.AddGeometry(floor, geometry.NewHalfSpace(), spatial.PoseIdentity(), 0); err != nil {
		t.Fatal(err)
	}
	off := spatial.Pose{R: spatial.Quat{W: 0.9, X: 0.1, Y: -0.3, Z: 0.2}.Normalize(), P: spatial.Vec3{0.1, -0.05, 0.2}}
	shapes := []struct {
		s geometry.Shape
		x spatial.Pose
	}{
		{geometry.NewCapsule(0.05, 0.4), off},
		{geometry.NewSphere(0.1), spatial.PoseIdentity()},
		{geometry.NewBox(spatial.Vec3{0.1, 0.2, 0.3}), spatial.PoseIdentity()},
		{geometry.NewEllipsoid(spatial.Vec3{0.1, 0.05, 0.2}), off},
	}
	for k, sh := range shapes {
		b := len(m.Bodies) - 1
		if k != 3 { // the ellipsoid on the box's body
			var err error
			if b, err = m.AddFreeBody("b", in); err != nil {
				t.Fatal(err)
			}
		}
		if _, err := m.AddGeometry(b, sh.s, sh.x, 0); err != nil {
			t.Fatal(err)
		}
	}
	sm, err := New(m, m.NewState(), Config{DT: 0.01, Contact: contact.DefaultParams(), Solver: sap.New(sap.DefaultParams()),
		Materials: []contact.Material{{Stiffness: 1e5, Dissipation: 0.01, Friction: 0.5}}})
	if err != nil {
		t.Fatal(err)
	}
	if !sm.ws.col.filter.direct {
		t.Fatal("the model does not take filteredBroadPhase")
	}
	kin := multibody.NewWorkspace(m)
	kin0 := sm.ws.kin0
	sm.ws.kin0 = kin // speculative reads the velocities of kin0
	defer func() { sm.ws.kin0 = kin0 }()
	var c collider
	c.filter = sm.ws.col.filter
	q, v := m.NewState().Q, make([]float64, m.NV)
	special := []float64{0, math.Copysign(0, -1), math.NaN(), math.Inf(1), math.Inf(-1), 1e300, -1e-300}
	spec := make([]float64, len(m.Geometries))
	bits := func(b *geometry.AABB) [6]uint64 {
		return [6]uint64{math.Float64bits(b.Min[0]), math.Float64bits(b.Min[1]), math.Float64bits(b.Min[2]),
			math.Float64bits(b.Max[0]), math.Float64bits(b.Max[1]), math.Float64bits(b.Max[2])}
	}
	var bounded, declined, replaced int
	for trial := range 40000 {
		for b := range 3 {
			qb := q[7*b : 7*b+7]
			switch rng.IntN(8) {
			case 0: // unchanged
			case 1: // x alone
				qb[4] += rng.NormFloat64()
			case 2: // y alone: the first coordinate's bits kept
				qb[5] += rng.NormFloat64()
			case 3: // a special coordinate
				qb[4+rng.IntN(3)] = special[rng.IntN(len(special))]
			case 4: // a special quaternion
				if rng.IntN(2) == 0 {
					clear(qb[:4])
				} else {
					qb[rng.IntN(4)] = math.NaN()
				}
			default:
				for k := range 4 {
					qb[k] = rng.NormFloat64()
				}
				for k := 4; k < 7; k++ {
					qb[k] = rng.NormFloat64() * math.Pow(10, 4*rng.Float64()-2)
				}
				qb[6] = math.Abs(qb[6]) + 0.5*rng.Float64()
			}
		}
		for k := range v {
			v[k] = rng.NormFloat64()
		}
		kin.Update(q, v)
		var before []movedBox
		if len(c.moved) > 0 {
			before = append(before, c.moved...)
		}
		var sp []float64
		if trial%3 != 0 {
			sp = spec
		}
		sm.filteredBroadPhase(&c, kin, sp)
		if before == nil {
			continue // the first call sets the collider up
		}
		ballAt := make(map[int32]geometry.AABB)
		for _, fg := range c.movers {
			i, mb, pre := fg.geom, &c.moved[fg.geom], &before[fg.geom]
			x := kin.PoseOf(fg.body)
			d := fg.off
			if sp != nil {
				d += sp[i]
			}
			var want geometry.AABB
			ball := pre.met == 0 && pre.ball && ballBox(&want, x, fg.reach, d)
			switch {
			case mb.coarse && !ball:
				t.Fatalf("trial %d geometry %d: bound %v taken where ballBox gives none (pose %+v)", trial, i, c.boxes[i], *x)
			case mb.coarse && bits(&c.boxes[i]) != bits(&want):
				t.Fatalf("trial %d geometry %d: bound %v, ballBox %v", trial, i, c.boxes[i], want)
			case mb.coarse:
				bounded++
			case ball:
				ballAt[int32(i)] = want
			case pre.met == 0 && pre.ball:
				declined++
			}
		}
		// A bound replaced by the exact box (exactMeet) met a listed
		// partner's box: its exact box, or its bound, replaced too.
		for i, want := range ballAt {
			met := false
			for _, lp := range c.listed {
				j := lp.pr[1]
				if lp.pr[1] == i {
					j = lp.pr[0]
				} else if lp.pr[0] != i {
					continue
				}
				other, ok := ballAt[j]
				met = met || want.Meets(&c.boxes[j]) || ok && want.Meets(&other)
			}
			if !met {
				t.Fatalf("trial %d geometry %d: its bound %v meets no partner's box, but it was replaced by %v", trial, i, want, c.boxes[i])
			}
			replaced++
		}
	}
	if bounded < 10000 || declined < 1000 || replaced < 100 {
		t.Errorf("bounded %d, declined %d, replaced by the exact box %d: the states do not test both ways", bounded, declined, replaced)
	}
}
