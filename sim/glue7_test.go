package sim_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stiction-sim/stiction/internal/peers"
	modelload "github.com/stiction-sim/stiction/model/load"
	"github.com/stiction-sim/stiction/scene"
	"github.com/stiction-sim/stiction/sim"
)

// TestExplicitVStarOnePassSameBits: the explicit free motion's v* formed in
// one pass over the velocities after the cliques' solves (explicitVStarBy
// with no tree asleep) is, bit for bit, the one formed clique by clique
// (explicitVStarAsleep with no tree asleep), from random accelerations and
// velocities, on models of one tree, two trees and ten; it fails when the
// cliques do not tile the velocities (an entry left NaN or written off a
// clique) or when the pass computes another sum.
func TestExplicitVStarOnePassSameBits(t *testing.T) {
	rng := rand.New(rand.NewPCG(17, 7))
	for _, file := range []string{
		"../internal/mjref/testdata/gymnasium/half_cheetah.xml",
		"../internal/mjref/testdata/dm_control/suite/ball_in_cup.xml",
		"../internal/mjref/testdata/dm_control/suite/point_mass.xml",
		"boxes-10-perturbed", // a peer scene: ten free boxes
	} {
		var sc *scene.Scene
		var err error
		if file == "boxes-10-perturbed" {
			sc, err = peers.Load(file, nil)
		} else {
			sc, _, err = modelload.Scene(file, nil, modelload.Options{})
		}
		if err != nil {
			t.Fatal(err)
		}
		s, _ := newSim(t, sc)
		for step := range 5 {
			if err := s.Advance(); err != nil {
				t.Fatal(err)
			}
			k, v0 := make([]float64, s.Model.NV), make([]float64, s.Model.NV)
			for i := range k {
				k[i], v0[i] = rng.NormFloat64()*100, rng.NormFloat64()
			}
			one, per := sim.ExplicitVStarCheck(s, k, v0)
			for i := range one {
				if math.Float64bits(one[i]) != math.Float64bits(per[i]) {
					t.Fatalf("%s step %d: v*[%d] = %v in one pass, %v clique by clique", file, step+1, i, one[i], per[i])
				}
			}
		}
		t.Logf("%s: %d trees, %d velocities", file, len(s.Model.Trees), s.Model.NV)
	}
}
