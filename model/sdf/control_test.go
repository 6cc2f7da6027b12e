package sdf

import (
	"math"
	"strings"
	"testing"

	"github.com/stiction-sim/stiction/model"
	"github.com/stiction-sim/stiction/scene"
	"github.com/stiction-sim/stiction/sim"
	"github.com/stiction-sim/stiction/solver"
)

// pendulumSDF is a model with a base link (welded) and an arm of 1 kg at
// 0.5 m below a revolute joint about y, whose <axis> holds extra (limit,
// dynamics), and joint elements jextra.
func pendulumSDF(axis, jextra string) string {
	return `<sdf version="1.7"><model name="p" xmlns:drake="http://drake.mit.edu"><link name="base"/>
  <link name="arm"><inertial><pose>0 0 -0.5 0 0 0</pose><mass>1</mass>
    <inertia><ixx>0.001</ixx><iyy>0.001</iyy><izz>0.001</izz><ixy>0</ixy><ixz>0</ixz><iyz>0</iyz></inertia></inertial></link>
  <joint name="j" type="revolute"><parent>base</parent><child>arm</child><axis><xyz>0 1 0</xyz>` + axis + `</axis>` + jextra + `</joint>
</model></sdf>`
}

// runSDF imports doc, sets the arm's initial angle q0, and steps n times,
// each step converging with e_m ≤ εr.
func runSDF(t *testing.T, doc string, q0 float64, n int) (*model.Import, *scene.Built) {
	t.Helper()
	im, err := Parse("test.sdf", []byte(doc), model.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for i := range im.Scene.Bodies {
		if j := im.Scene.Bodies[i].Joint; j != nil && j.Type == "revolute" {
			j.Q0 = []float64{q0}
		}
	}
	b, err := scene.Build(im.Scene)
	if err != nil {
		t.Fatal(err)
	}
	s, err := sim.New(b.Model, b.State, b.Config)
	if err != nil {
		t.Fatal(err)
	}
	for range n {
		st, err := s.Step()
		if err != nil || st.Status != solver.Converged || st.MomentumError > b.RelTolerance {
			t.Fatalf("step %d: %v, e_m %.3g, %v", st.Step, st.Status, st.MomentumError, err)
		}
	}
	return im, b
}

// TestSDFLimitsAndFriction: released at q = 1, the arm falls onto its
// lower limit 0.5 and rests there (joint damping); released horizontal
// (gravity torque m g l = 4.905 N·m) with <friction> 6 N·m it sticks,
// with 3 N·m it slides at (m g l − 3)/I.
func TestSDFLimitsAndFriction(t *testing.T) {
	_, b := runSDF(t, pendulumSDF(`<limit><lower>0.5</lower><upper>2</upper></limit><dynamics><damping>2</damping></dynamics>`, ""), 1, 3000)
	if d := 0.5 - b.State.Q[0]; d < 0 || d > 1e-5 {
		t.Errorf("q = %.9g: want at the lower limit 0.5", b.State.Q[0])
	}
	_, b = runSDF(t, pendulumSDF(`<dynamics><friction>6</friction></dynamics>`, ""), math.Pi/2, 200)
	if d := math.Abs(b.State.Q[0] - math.Pi/2); d > 1e-6 {
		t.Errorf("friction 6: the arm moved by %.3g rad", d)
	}
	_, b = runSDF(t, pendulumSDF(`<dynamics><friction>3</friction></dynamics>`, ""), math.Pi/2, 10)
	dt := b.Config.DT
	if want := -10 * dt * (9.81*0.5 - 3) / 0.251; math.Abs(b.State.V[0]-want) > 1e-3*math.Abs(want) {
		t.Errorf("friction 3: ω = %.6g, want %.6g", b.State.V[0], want)
	}
}

// TestSDFActuators: as in Drake, a revolute joint with no effort limit (or
// a non-zero one) gets a motor actuator named after it, one with effort 0
// none; drake:gear_ratio and drake:rotor_inertia add the reflected
// inertia 10² × 0.001 = 0.1 kg·m² to the joint's diagonal of M.
func TestSDFActuators(t *testing.T) {
	drake := `<drake:gear_ratio>10</drake:gear_ratio><drake:rotor_inertia>0.001</drake:rotor_inertia>`
	im, b := runSDF(t, pendulumSDF("", drake), 0, 1)
	if a := im.Scene.Actuators; len(a) != 1 || a[0].Type != "motor" || !strings.HasSuffix(a[0].Name, "j") {
		t.Fatalf("actuators %+v", a)
	}
	if arm := b.Model.Bodies[b.Model.BodyByName(im.Scene.Actuators[0].Joint)].Joint.Armature; math.Abs(arm-0.1) > 1e-15 {
		t.Errorf("armature %g, want 0.1", arm)
	}
	im, _ = runSDF(t, pendulumSDF(`<limit><effort>0</effort></limit>`, ""), 0, 1)
	if len(im.Scene.Actuators) != 0 {
		t.Errorf("effort 0: actuators %+v", im.Scene.Actuators)
	}
	im, _ = runSDF(t, pendulumSDF(`<limit><effort>7</effort></limit>`, ""), 0, 1)
	if a := im.Scene.Actuators; len(a) != 1 || *im.Scene.Bodies[1].Joint.Limits.Effort != 7 {
		t.Errorf("effort 7: actuators %+v", a)
	}
}
