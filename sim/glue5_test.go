package sim_test

import (
	"math"
	"testing"

	modelload "github.com/stiction-sim/stiction/model/load"
	"github.com/stiction-sim/stiction/sim"
)

// TestCurvatureTermsSameBits: the curvature error that substeps measures
// per contact geometry (curvatureError, with d, ρ and the shape's kind
// kept per geometry at New) is, bit for bit, the one computed afresh from
// the geometry's pose, reach and shape, for every geometry of models with
// spheres, boxes, capsules and cylinders at local offsets, over steps of
// their motion. It fails when a kept term or the shape's case is not the
// geometry's.
func TestCurvatureTermsSameBits(t *testing.T) {
	kinds := map[string]bool{}
	for _, file := range []string{
		"../internal/mjref/testdata/gymnasium/half_cheetah.xml",
		"../internal/mjref/testdata/dm_control/suite/ball_in_cup.xml",
		"../internal/mjref/testdata/mujoco/model/adhesion/active_adhesion.xml",
	} {
		sc, _, err := modelload.Scene(file, nil, modelload.Options{})
		if err != nil {
			t.Fatal(err)
		}
		s, _ := newSim(t, sc)
		for step := range 40 {
			if err := s.Advance(); err != nil {
				t.Fatal(err)
			}
			for g := range s.Model.Geometries {
				got, want := sim.CurvatureErrorCheck(s, g)
				if math.Float64bits(got) != math.Float64bits(want) {
					t.Fatalf("%s step %d geometry %d (%v): curvature error %v, want %v", file, step+1, g, s.Model.Geometries[g].Shape.Kind, got, want)
				}
				if got != 0 {
					kinds[s.Model.Geometries[g].Shape.Kind.String()] = true
				}
			}
		}
	}
	t.Logf("non-zero errors checked for %v", kinds)
}
