package mjref

import (
	"math"
	"testing"

	"github.com/stiction-sim/stiction/sim"
)

// contactCreep is a 1 kg sphere that slides on slide joints only (no
// rotation, so it cannot roll) on a plane, with gravity tilted so that the
// tangential load, 3 N, is below the friction bound μ m g = 9.81 N:
// rigid dry friction would hold it, MuJoCo's soft (regularized) friction
// lets it creep at a steady speed proportional to the load.
const contactCreep = `<mujoco>
  <option gravity="3 0 -9.81"/>
  <worldbody>
  <geom type="plane" size="5 5 0.1"/>
  <body pos="0 0 0.1"><joint name="x" type="slide" axis="1 0 0"/><joint name="y" type="slide" axis="0 1 0"/><joint name="z" type="slide" axis="0 0 1"/>
    <geom type="sphere" size="0.1" mass="1"/></body>
</worldbody></mujoco>`

// TestContactFrictionCreep: MJCF contacts have MuJoCo's soft friction
// (contact.Material.SlipTime, SlipStiffness, SlipWeight and SlipImp from
// solref, solimp and body_invweight0; friction anchors off), so the loaded
// sphere creeps at MuJoCo 2.2.2's speed: the mean speed over the second
// half of 2 s agrees within 1% (measured: equal to 6 digits, 5.39859 mm/s).
// With friction anchors the sphere held (2e-13 m/s); with SAP's σ = 1e-3
// and no anchors it crept at 3.2e-5 m/s, 168 times slower; with the
// Lagged approximation's soft norm instead of the disk, 1.0547 times
// faster (1/√(1 − r²) = 1.0503 at r = 3/9.81 of the friction bound), and
// with d at our own resting depth (0.3627 mm, MuJoCo's 0.3672) 1.0042.
func TestContactFrictionCreep(t *testing.T) {
	got, want, z, mjz := creepSpeeds(t, contactCreep)
	t.Logf("creep speed over the second second: Stiction %.6g m/s, MuJoCo %.6g m/s (ratio %.4f); z %.6g, MuJoCo %.6g",
		got, want, got/want, z, mjz)
	if !(want > 0) {
		t.Fatalf("MuJoCo's sphere does not creep (%.3g m/s): the test's premise fails", want)
	}
	if math.Abs(got/want-1) > 0.01 {
		t.Errorf("creep speed %.6g m/s, MuJoCo %.6g m/s (ratio %.4f, want within 1%%)", got, want, got/want)
	}
}

// creepSpeeds runs the MJCF model doc (a sphere on three slide joints, x
// first) for 2 s of 2 ms steps in MuJoCo 2.2.2 and in Stiction, and returns
// each engine's mean x speed over the second second and final z.
func creepSpeeds(t *testing.T, doc string) (got, want, z, mjz float64) {
	t.Helper()
	path := writeModel(t, doc)
	const steps = 1000 // 2 s of 2 ms
	mj := run(t, path, Options{Steps: steps, Every: steps / 2})
	b, _, err := stiction(path)
	if err != nil {
		t.Fatal(err)
	}
	s, err := sim.New(b.Model, b.State, b.Config)
	if err != nil {
		t.Fatal(err)
	}
	var xHalf float64
	for k := 1; k <= steps; k++ {
		if _, err := s.Step(); err != nil {
			t.Fatal(err)
		}
		if k == steps/2 {
			xHalf = s.State.Q[0]
		}
	}
	half := float64(steps/2) * b.Config.DT
	n := len(mj.Steps)
	got = (s.State.Q[0] - xHalf) / half
	want = (mj.Steps[n-1].QPos[0] - mj.Steps[n-2].QPos[0]) / half
	return got, want, s.State.Q[2], mj.Steps[n-1].QPos[2]
}
