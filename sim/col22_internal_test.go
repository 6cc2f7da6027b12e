package sim

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stiction-sim/stiction/geometry"
	"github.com/stiction-sim/stiction/multibody"
	"github.com/stiction-sim/stiction/spatial"
)

// TestCol22MeetKeepsFloorPairs: for a floor whose normal is a world axis
// (±1 on axis k) and margins meetKeeps admits, a geometry's inflated box
// that meets the floor's is never culled by planeCull's test
// (aboveHalfSpace on the pair's slack), over planes far from the origin,
// margins and standoffs from 0 to meetKeepsMax, speculative margins from 0
// to 1e3 and lower bounds placed within a few ulps of the floor's inflated
// bound, where the two tests decide by rounding; and meetKeeps declines a
// tilted normal (a wall turned by a rounded quaternion among them), a
// margin + standoff below 0, margins beyond meetKeepsMax or NaN and a
// negative speculative cap. It fails with standoffs down to −2·margin
// (a negative margin + standoff) and with the cull's tolerance dropped
// (low > slack), checked.
func TestCol22MeetKeepsFloorPairs(t *testing.T) {
	rng := rand.New(rand.NewPCG(22, 196))
	mag := func(lo, hi int) float64 { return rng.Float64() * math.Pow(10, float64(lo+rng.IntN(hi-lo+1))) }
	inf := math.Inf(1)
	met, boundary := 0, 0
	for trial := range 200000 {
		k := rng.IntN(3)
		sgn := float64(1 - 2*rng.IntN(2))
		var n, p spatial.Vec3
		n[k] = sgn
		for a := range 3 {
			p[a] = (2*rng.Float64() - 1) * mag(-3, 6)
		}
		margin := mag(-6, 5)
		if rng.IntN(4) == 0 {
			margin = 0
		}
		stand := func() float64 { // margin + standoff ≥ 0
			switch rng.IntN(3) {
			case 0:
				return 0
			case 1:
				return -margin * rng.Float64()
			}
			return mag(-6, 5)
		}
		sh, so := stand(), stand()
		if math.Abs(margin)+math.Abs(sh)+math.Abs(so) > meetKeepsMax {
			continue
		}
		spec := []float64{0, 0}
		if rng.IntN(3) > 0 {
			spec[1] = mag(-4, 3)
		}
		if rng.IntN(4) == 0 {
			spec = nil // an rk4 stage
		}
		specO := 0.0
		if spec != nil {
			specO = spec[1]
		}
		// The floor's fixed box, bounded at p_k on axis k (halfSpaceAABB),
		// inflated as filterSetup inflates it.
		fixed := geometry.AABB{Min: spatial.Vec3{-inf, -inf, -inf}, Max: spatial.Vec3{inf, inf, inf}}
		if sgn > 0 {
			fixed.Max[k] = p[k]
		} else {
			fixed.Min[k] = p[k]
		}
		offH := margin + sh
		var floor geometry.AABB
		floor.SetInflated(&fixed, offH+0.0)
		// The geometry's exact box, its bound facing the plane placed so
		// that its inflated bound lands within a few ulps of the floor's.
		dO := (margin + so) + specO
		var exact geometry.AABB
		for a := range 3 {
			c, w := (2*rng.Float64()-1)*mag(-3, 6), mag(-4, 1)
			exact.Min[a], exact.Max[a] = c-w, c+w
		}
		w := mag(-4, 1)
		if sgn > 0 {
			l := floor.Max[k] + dO
			for range rng.IntN(7) - 3 + 3 {
				l = math.Nextafter(l, [2]float64{-inf, inf}[rng.IntN(2)])
			}
			exact.Min[k], exact.Max[k] = l, l+w
		} else {
			h := floor.Min[k] - dO
			for range rng.IntN(7) {
				h = math.Nextafter(h, [2]float64{-inf, inf}[rng.IntN(2)])
			}
			exact.Min[k], exact.Max[k] = h-w, h
		}
		var box geometry.AABB
		box.SetInflated(&exact, dO)
		if !floor.Meets(&box) {
			continue
		}
		met++
		if (sgn > 0 && box.Min[k] == floor.Max[k]) || (sgn < 0 && box.Max[k] == floor.Min[k]) {
			boundary++
		}
		gs := []multibody.Geometry{{Standoff: sh}, {Standoff: so}}
		c := &collider{fixed: []bool{true, false}, planes: []bool{true, false}}
		var lp listedPair
		lp.setCull(c, gs, margin, 0, 1)
		hp := newHalfPlane(&n, &p)
		if aboveHalfSpace(&box, &hp, lp.slackAt(spec)) {
			t.Fatalf("trial %d: axis %d sign %v, p %v, margin %v, standoffs %v %v, spec %v: box %v meets the floor's %v but is culled",
				trial, k, sgn, p, margin, sh, so, spec, box, floor)
		}
	}
	if met < 50000 || boundary < 5000 {
		t.Fatalf("%d boxes met the floor's, %d at its bound: the trials do not reach the boundary", met, boundary)
	}
	t.Logf("%d boxes met the floor's, %d of them at its bound", met, boundary)

	// meetKeeps on a fixed plane (geometry 0) and a sphere (1).
	check := func(name string, want bool, edit func(s *Simulator, x *spatial.Pose)) {
		t.Helper()
		gs := []multibody.Geometry{{Shape: geometry.NewHalfSpace(), Standoff: 0.001}, {Shape: geometry.NewSphere(0.1)}}
		s := &Simulator{Model: &multibody.Model{Geometries: gs}}
		s.cfg.DT, s.cfg.Contact.Margin, s.cfg.Contact.Speculative, s.cfg.Contact.SpeculativeMax = 0.01, 1e-3, true, 0.1
		x := spatial.Pose{R: spatial.QuatIdentity(), P: spatial.Vec3{1, 2, 3}}
		edit(s, &x)
		c := &collider{fixed: []bool{true, false}, planes: []bool{true, false}, halves: make([]halfPlane, 2), fixedBox: make([]geometry.AABB, 2)}
		c.fixedBox[0] = gs[0].Shape.AABB(x)
		nrm := halfSpaceNormal(&x)
		c.halves[0] = newHalfPlane(&nrm, &x.P)
		var lp listedPair
		lp.setCull(c, gs, s.cfg.Contact.Margin, 0, 1)
		if got := s.meetKeeps(c, &lp, gs); got != want {
			t.Errorf("%s: meetKeeps %v, want %v", name, got, want)
		}
	}
	check("floor", true, func(*Simulator, *spatial.Pose) {})
	check("ceiling", true, func(_ *Simulator, x *spatial.Pose) { x.R = spatial.Quat{X: 1} })
	check("wall", true, func(_ *Simulator, x *spatial.Pose) { x.R = spatial.Quat{W: 0.5, X: 0.5, Y: 0.5, Z: 0.5} }) // z to x, to the bit
	check("wall, rounded", false, func(_ *Simulator, x *spatial.Pose) { x.R = spatial.Quat{W: math.Sqrt(0.5), X: math.Sqrt(0.5)} })
	check("tilted", false, func(_ *Simulator, x *spatial.Pose) { x.R = spatial.Quat{W: 1, X: 1e-3}.Normalize() })
	check("no speculative cap", true, func(s *Simulator, _ *spatial.Pose) {
		s.cfg.Contact.Speculative, s.cfg.Contact.SpeculativeMax = false, -1
	})
	check("negative cap", false, func(s *Simulator, _ *spatial.Pose) { s.cfg.Contact.SpeculativeMax = -1 })
	check("negative offset", false, func(s *Simulator, _ *spatial.Pose) { s.Model.Geometries[1].Standoff = -0.01 })
	check("huge margin", false, func(s *Simulator, _ *spatial.Pose) { s.cfg.Contact.Margin = 2 * meetKeepsMax })
	check("NaN margin", false, func(s *Simulator, _ *spatial.Pose) { s.cfg.Contact.Margin = math.NaN() })
}
