package sim

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stiction-sim/stiction/geometry"
	"github.com/stiction-sim/stiction/multibody"
)

// TestListedPairSlackMatchesPairSlack: the plane cull's slack of a listed
// pair, its first two terms kept once (listedPair.setCull, slackAt), has
// pairSlack's bits for the half-space on either side of the pair, with
// and without speculative margins, over margins, standoffs and margins of
// scales far apart (where a regrouped sum rounds otherwise), signed zeros
// and a NaN (a NaN for a NaN: which operand's payload an addition keeps is
// the compiler's choice); and setCull leaves a fixed foundation's pair unculled. It
// fails when slackAt adds the two margins before the rest.
func TestListedPairSlackMatchesPairSlack(t *testing.T) {
	rng := rand.New(rand.NewPCG(16, 5))
	pick := func() float64 {
		switch rng.IntN(6) {
		case 0:
			return 0
		case 1:
			return math.Copysign(0, -1)
		case 2:
			return math.NaN()
		case 3:
			return rng.Float64() * 1e-17
		}
		return rng.Float64() * math.Pow(10, float64(rng.IntN(8)-6))
	}
	gs := []multibody.Geometry{{Shape: geometry.NewHalfSpace()}, {Shape: geometry.NewSphere(0.1)}, {Shape: geometry.NewHalfSpace()}}
	s := &Simulator{Model: &multibody.Model{Geometries: gs}}
	c := &collider{fixed: []bool{true, false, true}, planes: []bool{true, false, false}}
	regrouped := 0
	for range 20000 {
		s.cfg.Contact.Margin = pick()
		for i := range gs {
			gs[i].Standoff = pick()
		}
		spec := []float64{pick(), pick(), pick()}
		for _, ho := range [][2]int32{{0, 1}, {1, 0}} {
			var lp listedPair
			lp.h = -1
			lp.setCull(c, gs, s.cfg.Contact.Margin, ho[0], ho[1])
			if lp.h != ho[0] || lp.o != ho[1] || lp.fixed != c.fixed[ho[0]] {
				t.Fatalf("setCull(%v): h %d o %d fixed %v", ho, lp.h, lp.o, lp.fixed)
			}
			for _, sp := range [][]float64{nil, spec} {
				got, want := lp.slackAt(sp), s.pairSlack(int(ho[0]), int(ho[1]), sp)
				if math.Float64bits(got) != math.Float64bits(want) && !(math.IsNaN(got) && math.IsNaN(want)) {
					t.Fatalf("h %d o %d spec %v: slack %v, pairSlack %v", ho[0], ho[1], sp, got, want)
				}
			}
			if a := lp.slack + (spec[ho[0]] + spec[ho[1]]); math.Float64bits(a) != math.Float64bits(lp.slackAt(spec)) {
				regrouped++
			}
		}
		var lp listedPair
		lp.h = -1
		if lp.setCull(c, gs, s.cfg.Contact.Margin, 2, 1); lp.h >= 0 {
			t.Fatal("setCull culls against a fixed foundation")
		}
	}
	if regrouped == 0 {
		t.Error("no draw where the regrouped sum differs: the test cannot tell the orders apart")
	}
}
