package mjref

import (
	"fmt"
	"math"
	"os"
	"testing"
)

// adhesionHold is a free box held under a fixed plate by an adhesion
// actuator: gravity pulls it down, the adhesion force (gain·ctrl along
// minus the mean of its contacts' normal Jacobians) pulls it onto the
// plate, whose contacts push it back. The box's margin 0.01 and gap 0.01
// make its contacts within 1 cm count for the actuator without acting as
// constraints (MuJoCo's contacts in the gap, exclude = 1), as
// active_adhesion.xml's arm does.
const adhesionHold = `<mujoco>
  <worldbody>
    <geom name="plate" type="box" size=".3 .3 .02" pos="0 0 1"/>
    <body name="box" pos="0 0 %g">
      <freejoint/>
      <geom type="box" size=".05 .05 .05" density="500" margin="%g" gap="%g"/>
    </body>
  </worldbody>
  <actuator>
    <adhesion name="stick" body="box" gain="%g" ctrlrange="0 1"/>
  </actuator>
</mujoco>`

// TestAdhesionMuJoCo: MuJoCo 2.2.2's adhesion actuator (a general
// actuator on a body transmission, mjTRN_BODY; tendon.BodyTransmission)
// follows MuJoCo: its model/adhesion/active_adhesion.xml (adhesion
// actuators on an arm's pad and on a hanging sphere, position servos on a
// conveyor, the arm and a winch, the pads' contacts in their margin's gap)
// under a control pattern that lowers the pad onto the box and switches
// both adhesions on (16 and 15 contacts counted), and a box held under a
// plate against gravity (under Euler and implicit). qpos to 1e-12 over
// 300 steps; with the adhesion
// left off in Stiction the model parts from MuJoCo's by more than 1e-2 and
// the box falls (checked, so that the adhesion is seen to act).
func TestAdhesionMuJoCo(t *testing.T) {
	tool(t)
	hold := writeModel(t, fmt.Sprintf(adhesionHold, .93, .01, .01, 20.0))
	for _, c := range []struct {
		name, path string
		o          Options
		adh        []int // the adhesion actuators
	}{
		{"active_adhesion", "testdata/mujoco/model/adhesion/active_adhesion.xml", Options{Steps: 300, Every: 1, Ctrl: []float64{.2, 1, 1, -.7, 1}, CtrlFreq: 1}, []int{2, 4}},
		{"hold", hold, Options{Steps: 300, Every: 1, Ctrl: []float64{1}}, []int{0}},
		{"hold/implicit", hold, Options{Steps: 300, Every: 1, Ctrl: []float64{1}, Integrator: "implicit"}, []int{0}},
	} {
		t.Run(c.name, func(t *testing.T) {
			mj := run(t, c.path, c.o)
			b, mp := mappedModel(t, c.path, mj)
			worstQ, _ := followControlled(t, b, mp, mj, c.o)
			off := c.o
			off.Ctrl = append([]float64(nil), c.o.Ctrl...)
			for _, i := range c.adh {
				off.Ctrl[i] = 0
			}
			worstOff, _ := followControlled(t, b, mp, mj, off)
			n := len(mj.Steps) - 1
			t.Logf("%d steps: max |Δqpos| %.3g (adhesion off in Stiction: %.3g); MuJoCo's contacts at the last state %d",
				n, worstQ, worstOff, mj.Steps[n].NCon)
			if !(worstQ <= 1e-12) {
				t.Errorf("qpos %.3g from MuJoCo's", worstQ)
			}
			if !(worstOff > 1e-2) {
				t.Errorf("adhesion off: qpos %.3g from MuJoCo's, want > 1e-2 (does the adhesion act?)", worstOff)
			}
			if c.name != "active_adhesion" {
				if dz := mj.Steps[n].QPos[2] - mj.Steps[0].QPos[2]; math.Abs(dz) > 1e-3 {
					t.Errorf("MuJoCo's box moved %.3g m: not held", dz)
				}
			}
		})
	}
}

// TestAdhesionStepsAllocateNothing: a step of active_adhesion.xml with
// both adhesions on, warmed up by 200 steps in which both came into
// contact (16 and 15 contacts; their moments from the step's contacts,
// sim/adhesion.go), allocates nothing.
func TestAdhesionStepsAllocateNothing(t *testing.T) {
	doc, err := os.ReadFile("testdata/mujoco/model/adhesion/active_adhesion.xml")
	if err != nil {
		t.Fatal(err)
	}
	if _, allocs := warmedAllocs(t, string(doc), []float64{.2, 1, 1, -.7, 1}); allocs != 0 {
		t.Errorf("%v allocations per warmed-up step", allocs)
	}
}
