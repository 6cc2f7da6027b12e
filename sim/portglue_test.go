package sim_test

import (
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"testing"

	modelload "github.com/stiction-sim/stiction/model/load"
	"github.com/stiction-sim/stiction/sim"
)

// pyramidSpheres is a sphere of condim %[1]d on a free joint and a
// capsule along (1, 1, 0) on three slide joints, both 0.5 mm into a
// plane, under mujoco-euler with MuJoCo's pyramidal cone (MJCF's
// default), friction (0.7, 0.02, 0.01).
const pyramidSpheres = `<mujoco><option integrator="Euler" timestep="0.002"/><worldbody>
  <geom type="plane" size="5 5 0.1" condim="%[1]d" friction="0.7 0.02 0.01"/>
  <body pos="0 0 0.0995"><freejoint/><geom type="sphere" size="0.1" mass="1" condim="%[1]d" friction="0.7 0.02 0.01"/></body>
  <body pos="1 0 0.0495" zaxis="1 1 0"><joint type="slide" axis="1 0 0"/><joint type="slide" axis="0 1 0"/><joint type="slide" axis="0 0 1"/>
    <geom type="capsule" size="0.05 0.2" mass="1"/></body>
</worldbody></mujoco>`

// TestPyramidEdgesBits: the pyramid problem that a mujoco-euler step
// solves (sim/pyramid.go) has, for every contact of condim 3, 4 and 6,
// the edges' R, v̂, bounds and J blocks bit for bit as the edges' former
// build gives them (one AddConstraint per edge; PyramidRowsCheck), and
// its dynamics are those it copied, to the bit (dynamicsOf), and its
// contacts' MuJoCo tangents are mujocoTangents', over 200
// steps of a sphere and a capsule lying on a plane (the capsule's two
// contacts are one manifold, which shares MuJoCo's tangents, those of
// the capsule's axis, not the world's y).
func TestPyramidEdgesBits(t *testing.T) {
	for _, condim := range []int{3, 4, 6} {
		s := mjcfSim(t, fmt.Sprintf(pyramidSpheres, condim))
		checked, multi := 0, 0
		for k := range 200 {
			q0, v0 := slices.Clone(s.State.Q), slices.Clone(s.State.V)
			st, err := s.Step()
			if err != nil {
				t.Fatal(err)
			}
			n, err := sim.PyramidRowsCheck(s, q0, v0)
			if err != nil {
				t.Fatalf("condim %d, step %d: %v", condim, k+1, err)
			}
			checked += n
			if st.Contacts > 1 {
				multi++
			}
		}
		t.Logf("condim %d: %d pyramid contacts checked, %d steps with several contacts", condim, checked, multi)
		if checked < 500 || multi < 100 {
			t.Errorf("condim %d: %d pyramid contacts checked, %d steps with several contacts (want ≥ 500, ≥ 100)", condim, checked, multi)
		}
	}
}

// mjcfSim returns the simulator of the MJCF model xml, loaded as the
// command line loads a file.
func mjcfSim(t *testing.T, xml string) *sim.Simulator {
	t.Helper()
	path := filepath.Join(t.TempDir(), "model.xml")
	if err := os.WriteFile(path, []byte(xml), 0o644); err != nil {
		t.Fatal(err)
	}
	sc, _, err := modelload.Scene(path, nil, modelload.Options{})
	if err != nil {
		t.Fatal(err)
	}
	s, _ := newSim(t, sc)
	return s
}
