package grasp

import (
	"math"
	"testing"

	"github.com/stiction-sim/stiction/model/load"
	"github.com/stiction-sim/stiction/scene"
	"github.com/stiction-sim/stiction/sim"
	"github.com/stiction-sim/stiction/solver"
	"github.com/stiction-sim/stiction/spatial"
)

// TestGraspSceneUpToDate: the embedded grasp.yaml is what Generate writes
// (run go generate ./model/grasp after changing the plan). The scenes are
// compared as parsed scenes, every number to 1e-6, so that a last-digit
// difference of the inverse kinematics on another machine does not fail.
func TestGraspSceneUpToDate(t *testing.T) {
	data, err := Generate()
	if err != nil {
		t.Fatal(err)
	}
	emb, ok := scene.Embedded("grasp")
	if !ok {
		t.Fatal("no embedded scene grasp")
	}
	a, err := load.SceneData("generated.yaml", data, nil, load.Options{})
	if err != nil {
		t.Fatal(err)
	}
	b, err := load.SceneData("grasp.yaml", emb, nil, load.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(a.Actuators) != len(b.Actuators) || len(a.Bodies) != len(b.Bodies) {
		t.Fatalf("generated: %d actuators, %d bodies; embedded: %d, %d", len(a.Actuators), len(a.Bodies), len(b.Actuators), len(b.Bodies))
	}
	for i := range a.Actuators {
		if (a.Actuators[i].Target == nil) != (b.Actuators[i].Target == nil) {
			t.Fatalf("actuator %s: target %v, embedded %v", a.Actuators[i].Name, a.Actuators[i].Target, b.Actuators[i].Target)
		}
		if a.Actuators[i].Target == nil {
			continue
		}
		ta, tb := a.Actuators[i].Target.Table, b.Actuators[i].Target.Table
		if a.Actuators[i].Name != b.Actuators[i].Name || len(ta) != len(tb) {
			t.Fatalf("actuator %d: %s, embedded %s", i, a.Actuators[i].Name, b.Actuators[i].Name)
		}
		for k := range ta {
			if math.Abs(ta[k][0]-tb[k][0]) > 1e-6 || math.Abs(ta[k][1]-tb[k][1]) > 1e-6 {
				t.Errorf("actuator %s row %d: generated %v, embedded %v: go generate ./model/grasp", a.Actuators[i].Name, k, ta[k], tb[k])
			}
		}
	}
	for i := range a.Bodies {
		ja, jb := a.Bodies[i].Joint, b.Bodies[i].Joint
		if a.Bodies[i].Name != b.Bodies[i].Name || (ja == nil) != (jb == nil) {
			t.Fatalf("body %d: %s, embedded %s", i, a.Bodies[i].Name, b.Bodies[i].Name)
		}
		if ja != nil && len(ja.Q0) == 1 && math.Abs(ja.Q0[0]-jb.Q0[0]) > 1e-6 {
			t.Errorf("%s q0 %v, embedded %v", a.Bodies[i].Name, ja.Q0, jb.Q0)
		}
	}
}

// TestIKReachesPoses: the arm configurations of the three hand poses put
// the hand frame there (to 1e-10 m and rad, checked by forward
// kinematics), within the joint limits.
func TestIKReachesPoses(t *testing.T) {
	s, err := load.SceneData("grasp.yaml", []byte(staticPart(nil, nil)), nil, load.Options{})
	if err != nil {
		t.Fatal(err)
	}
	m, st, err := scene.BuildModel(s)
	if err != nil {
		t.Fatal(err)
	}
	var arm []int
	for _, n := range ArmJoints {
		arm = append(arm, m.BodyByName(n))
	}
	hand := m.BodyByName("hand_hand_root")
	for _, name := range []string{"grasp", "pre", "lift"} {
		q, err := ik(m, st, hand, arm, HandPose(name), []float64{0, 0.6, 0, -1.6, 0, 0.9, 0})
		if err != nil {
			t.Fatal(err)
		}
		for k, b := range arm {
			st.Q[m.Bodies[b].QOff] = q[k]
			if lo, hi := m.Bodies[b].Joint.Lower[0], m.Bodies[b].Joint.Upper[0]; q[k] < lo || q[k] > hi {
				t.Errorf("%s: joint %d = %g outside [%g, %g]", name, k+1, q[k], lo, hi)
			}
		}
		x := m.BodyPose(st, hand)
		want := HandPose(name)
		if d := x.P.Sub(want.P).Norm(); d > 1e-10 {
			t.Errorf("%s: hand at %v, want %v", name, x.P, want.P)
		}
		if d := x.R.Mul(want.R.Conj()); math.Abs(math.Abs(d.W)-1) > 1e-15 {
			t.Errorf("%s: hand orientation off by %v", name, d)
		}
		t.Logf("%s: q = %.4f", name, q)
	}
}

// TestGraspLifts runs the embedded scene headless, as stiction run grasp
// does: every step converges with e_m ≤ εr; the box stays where it is
// (moved < 1 mm) while the hand comes down; the closing fingers take it
// (it slides up into the hand); during the scripted lift (t = 3 to 4.5 s)
// it rises with the hand by the script's 15 cm (to 5 mm) without slipping
// in the hand (< 2 mm), and it ends at rest. The robots are drawn with
// their meshes, and a warmed-up step (23 PD actuators, the robots' idle
// motors, joint limits, contact) allocates nothing.
func TestGraspLifts(t *testing.T) {
	s, _, err := load.Scene("grasp", nil, load.Options{})
	if err != nil {
		t.Fatal(err)
	}
	b, err := scene.Build(s)
	if err != nil {
		t.Fatal(err)
	}
	meshes := 0
	for _, v := range b.Model.Visuals {
		if len(v.Triangles) > 0 {
			meshes++
		}
	}
	if meshes < 30 {
		t.Errorf("%d mesh visuals, want the iiwa's 15 and the hand's 21", meshes)
	}
	sm, err := sim.New(b.Model, b.State, b.Config)
	if err != nil {
		t.Fatal(err)
	}
	box, hand := b.Model.BodyByName("box"), b.Model.BodyByName("hand_hand_root")
	m := b.Model
	x0 := m.BodyPose(b.State, box)
	var worstEm, moved float64
	var z3, in3 = 0.0, spatial.Vec3{}
	maxIt := 0
	for i := 1; i <= b.Steps; i++ {
		if i == 1050 { // while the fingers close on the box
			n := testing.AllocsPerRun(20, func() {
				if _, err := sm.Step(); err != nil {
					t.Fatal(err)
				}
			})
			if n != 0 {
				t.Errorf("%v allocations per warmed-up step", n)
			}
			i += 21 // AllocsPerRun stepped 21 times
		}
		st, err := sm.Step()
		if err != nil || st.Status != solver.Converged || st.MomentumError > b.RelTolerance {
			t.Fatalf("t = %.3f: %v, e_m %.3g (εr %g), %v", st.T, st.Status, st.MomentumError, b.RelTolerance, err)
		}
		worstEm, maxIt = math.Max(worstEm, st.MomentumError), max(maxIt, st.Iterations)
		x := m.BodyPose(b.State, box)
		if st.T <= 1.5 {
			moved = math.Max(moved, x.P.Sub(x0.P).Norm())
		}
		if i == int(math.Round(3.0/b.Config.DT)) {
			z3, in3 = x.P[2], m.BodyPose(b.State, hand).Inverse().Apply(x.P)
		}
	}
	x := m.BodyPose(b.State, box)
	xh := m.BodyPose(b.State, hand)
	_, vbox := m.BodyVelocity(b.State, box)
	in6 := xh.Inverse().Apply(x.P)
	rise, slip := x.P[2]-z3, in6.Sub(in3).Norm()
	t.Logf("%d steps, max e_m %.2g (εr %g), max %d Newton iterations; box moved %.2g m before the grasp, %.4f m up into the hand while grasped; rose %.4f m during the lift (script %.2f), slipped %.2g m in the hand; final speed %.2g m/s, %.4f m above its start; hand %.2g m from its planned pose",
		b.Steps, worstEm, b.RelTolerance, maxIt, moved, z3-x0.P[2], rise, Lift, slip, vbox.Norm(), x.P[2]-x0.P[2], xh.P.Sub(HandPose("lift").P).Norm())
	if moved > 1e-3 {
		t.Errorf("the box moved %.3g m before the grasp", moved)
	}
	if math.Abs(rise-Lift) > 5e-3 || slip > 2e-3 || vbox.Norm() > 1e-3 {
		t.Errorf("box rose %.4f m during the lift (want %.2f), slipped %.3g m in the hand, speed %.3g m/s", rise, Lift, slip, vbox.Norm())
	}
}
