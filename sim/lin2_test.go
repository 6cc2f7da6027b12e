package sim_test

import (
	"math/rand/v2"
	"testing"

	modelload "github.com/stiction-sim/stiction/model/load"
	"github.com/stiction-sim/stiction/sim"
)

// TestLin2MetricVStarSkipSameBits: on damped mj_Euler steps with contacts
// (mujocoMetricVStar), v*_M = v0 + h M⁻¹ k, which the step takes from
// v*_B on the trees without damping and solves on the others, is bit for
// bit the solve of every clique with a fresh factor of M, and the factor
// of M that the step leaves (copied from M + h B's on those trees) solves
// random right-hand sides with the fresh factor's bits; on models whose
// trees are partly damped (stacker's and manipulator's undamped boxes and
// ball, damped arm; half_cheetah's one tree, damped on some joints).
func TestLin2MetricVStarSkipSameBits(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 19))
	for _, c := range []struct {
		file     string
		undamped bool // some tree has no damping at all
	}{
		{"../internal/mjref/testdata/dm_control/suite/stacker.xml", true},
		{"../internal/mjref/testdata/dm_control/suite/manipulator.xml", true},
		{"../internal/mjref/testdata/gymnasium/half_cheetah.xml", false},
	} {
		sc, _, err := modelload.Scene(c.file, nil, modelload.Options{})
		if err != nil {
			t.Fatal(err)
		}
		s, _ := newSim(t, sc)
		rhs := make([]float64, s.Model.NV)
		metric, skipped := 0, 0
		for step := range 150 {
			if err := s.Advance(); err != nil {
				t.Fatal(err)
			}
			for i := range rhs {
				rhs[i] = rng.NormFloat64()
			}
			m, n, bad := sim.MetricVStarCheck(s, rhs)
			if bad != "" {
				t.Fatalf("%s step %d: %s", c.file, step+1, bad)
			}
			if m {
				metric++
				skipped += n
			}
		}
		if metric == 0 || (skipped > 0) != c.undamped {
			t.Fatalf("%s: %d metric steps, %d undamped cliques over them; want some metric steps, undamped %v", c.file, metric, skipped, c.undamped)
		}
		t.Logf("%s: %d metric steps, %d undamped cliques over them", c.file, metric, skipped)
	}
}
