package mjref

import (
	"fmt"
	"math"
	"testing"

	"github.com/stiction-sim/stiction/sim"
)

// TestRestingDepthFollowsFriction: MuJoCo 2.2.2's pyramidal cone makes a
// contact's static stiffness depend on the pair's friction μ (its edge
// rows' R = 2μ²(1 − d)/d · (1 + μ²) w), and the MJCF import's stiffness
// follows it (mjcf restPair): a 1 kg sphere on a plane, with friction μ on
// both geoms, rests at MuJoCo's depth after 2 s within 2% for μ = 0.4, 1
// and 2 (MuJoCo: 0.0405, 0.367, 1.96 mm). Without the factor the depth
// did not depend on μ (0.367182 mm each: 9.07 times MuJoCo's at μ = 0.4,
// 0.187 times at μ = 2).
func TestRestingDepthFollowsFriction(t *testing.T) {
	for _, mu := range []float64{0.4, 1, 2} {
		doc := fmt.Sprintf(`<mujoco><worldbody><geom type="plane" size="5 5 0.1" friction="%g"/>
  <body name="ball" pos="0 0 0.1"><freejoint/><geom type="sphere" size="0.1" mass="1" friction="%g"/></body>
</worldbody></mujoco>`, mu, mu)
		path := writeModel(t, doc)
		const steps = 1000
		mj := run(t, path, Options{Steps: steps, Every: steps})
		want := 0.1 - mj.Steps[len(mj.Steps)-1].QPos[2]
		b, _, err := stiction(path)
		if err != nil {
			t.Fatal(err)
		}
		s, err := sim.New(b.Model, b.State, b.Config)
		if err != nil {
			t.Fatal(err)
		}
		for range steps {
			if _, err := s.Step(); err != nil {
				t.Fatal(err)
			}
		}
		got := 0.1 - b.Model.BodyPose(s.State, b.Model.BodyByName("ball")).P[2]
		t.Logf("μ = %g: resting depth %.6g mm, MuJoCo %.6g mm (ratio %.4f)", mu, got*1e3, want*1e3, got/want)
		if math.Abs(got/want-1) > 0.02 {
			t.Errorf("μ = %g: resting depth %.6g mm, MuJoCo %.6g mm (ratio %.4f, want within 2%%)", mu, got*1e3, want*1e3, got/want)
		}
	}
}
