package mjref

import (
	"math"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stiction-sim/stiction/model/load"
	"github.com/stiction-sim/stiction/scene"
	"github.com/stiction-sim/stiction/sim"
)

// actDynArm is a three-link arm under gravity whose hinges are each
// driven by an actuator with an activation state: a <general> with
// dyntype integrator (gain only, ctrlrange), one with dyntype filter
// (dynprm τ = 0.05 s, an affine bias with a damping term), and an
// <intvelocity> (gain kp, bias −kp·l, activation limited to actrange,
// which the control pattern drives it into). INTEGRATOR is replaced by
// the integrator under test.
const actDynArm = `<mujoco><option integrator="INTEGRATOR" timestep="0.002"/><worldbody>
  <body pos="0 0 1"><joint name="a" type="hinge" axis="0 1 0" damping="0.05"/>
    <geom type="capsule" fromto="0 0 0 0.3 0 0" size="0.02" mass="1"/>
    <body pos="0.3 0 0"><joint name="b" type="hinge" axis="0 1 0"/>
      <geom type="capsule" fromto="0 0 0 0.25 0 0" size="0.02" mass="0.6"/>
      <body pos="0.25 0 0"><joint name="c" type="hinge" axis="0 0 1"/>
        <geom type="capsule" fromto="0 0 0 0.2 0.05 0" size="0.02" mass="0.3"/></body></body></body>
</worldbody>
<actuator>
  <general joint="a" dyntype="integrator" gainprm="4" ctrllimited="true" ctrlrange="-3 3"/>
  <general joint="b" dyntype="filter" dynprm="0.05" gainprm="6" biastype="affine" biasprm="0.1 -2 -0.3" gear="1.5"/>
  <intvelocity joint="c" kp="20" actrange="-0.4 0.5"/>
</actuator></mujoco>`

// TestActuatorDynamicsMuJoCo: actuators with integrator and filter
// activation dynamics (<general dyntype>, <intvelocity> with actrange)
// follow MuJoCo 2.2.2 under mujoco-euler, rk4 and mujoco-implicit over
// 300 steps with a control pattern (the intvelocity's activation held at
// the upper end of its range from rest, at the lower end when moving), from rest and from a moving state: qpos to
// 1e-12 rad and the activations to 1e-12 (levels set before measuring).
func TestActuatorDynamicsMuJoCo(t *testing.T) {
	rest := Options{Steps: 300, Every: 1, Ctrl: []float64{-4, 2, 3}, CtrlFreq: 2}
	moving := Options{Steps: 300, Every: 1, QPos: []float64{0.3, -0.8, 0.5}, QVel: []float64{-2, 3, 1}, Ctrl: []float64{5, -3, -4}, CtrlFreq: 3}
	eachScheme(t, actDynArm, rest, moving, func(t *testing.T, b *scene.Built, mp *Map, mj *Run, o Options) {
		worstQ, worstAct := followControlled(t, b, mp, mj, o)
		last := mj.Steps[len(mj.Steps)-1]
		lo, hi := actExtremes(mj, 2)
		t.Logf("%d steps: max |Δqpos| %.3g rad, max |Δact| %.3g (final qpos %.4g, act %.4g; intvelocity act in [%.3g, %.3g])",
			len(mj.Steps)-1, worstQ, worstAct, last.QPos, last.Act, lo, hi)
		if !(worstQ <= 1e-12) || !(worstAct <= 1e-12) {
			t.Errorf("qpos %.3g, act %.3g from MuJoCo's", worstQ, worstAct)
		}
		if lo != -0.4 && hi != 0.5 {
			t.Errorf("MuJoCo's intvelocity activation spans [%g, %g], reaching neither end of actrange [-0.4, 0.5]: the run does not test the clamp", lo, hi)
		}
	})
}

// eachScheme runs the model xml (INTEGRATOR replaced by Euler, RK4 and
// implicit) in MuJoCo from rest and from moving (each Options' run), and
// calls check with MuJoCo's run and Stiction's mapped build under the
// matching scheme (mujoco-euler, rk4, mujoco-implicit).
func eachScheme(t *testing.T, xml string, rest, moving Options, check func(t *testing.T, b *scene.Built, mp *Map, mj *Run, o Options)) {
	for _, integ := range []struct {
		name   string
		scheme sim.Scheme
	}{{"Euler", sim.MuJoCoEuler}, {"RK4", sim.RK4}, {"implicit", sim.MuJoCoImplicit}} {
		path := writeModel(t, strings.Replace(xml, "INTEGRATOR", integ.name, 1))
		for _, c := range []struct {
			name string
			o    Options
		}{{"rest", rest}, {"moving", moving}} {
			t.Run(integ.name+"/"+c.name, func(t *testing.T) {
				mj := run(t, path, c.o)
				b, mp := mappedModel(t, path, mj)
				b.Config.Scheme = integ.scheme
				check(t, b, mp, mj, c.o)
			})
		}
	}
}

// actExtremes is the range of actuator i's activation over MuJoCo's run.
func actExtremes(mj *Run, i int) (lo, hi float64) {
	for _, s := range mj.Steps {
		lo, hi = min(lo, s.Act[i]), max(hi, s.Act[i])
	}
	return lo, hi
}

// TestActuatorDynamicsAllocateNothing: a warmed-up step of actDynArm
// (integrator, filter and intvelocity activations, with controls) and of
// actTransArm (activations and muscles on a spatial tendon, a
// slider-crank, a jointinparent hinge, a slide and a hinge) and of
// damperArm (dampers and affine gains) under mujoco-euler, rk4 and
// mujoco-implicit allocates nothing.
func TestActuatorDynamicsAllocateNothing(t *testing.T) {
	for _, integ := range []string{"Euler", "RK4", "implicit"} {
		s, allocs := warmedAllocs(t, strings.Replace(actDynArm, "INTEGRATOR", integ, 1), []float64{-2, 1, 3})
		if allocs != 0 || len(s.State.Act) != 3 || s.State.Act[2] != 0.5 {
			t.Errorf("%s: %v allocations per warmed-up step; activations %v (want the intvelocity's at its upper bound 0.5)", integ, allocs, s.State.Act)
		}
		s, allocs = warmedAllocs(t, strings.Replace(actTransArm, "INTEGRATOR", integ, 1), []float64{2, 1, -1, 4, 0.9, 1})
		if allocs != 0 || len(s.State.Act) != 6 || s.State.Act[2] != -0.3 {
			t.Errorf("%s: actTransArm: %v allocations per warmed-up step; activations %v (want the slider-crank's at its lower bound -0.3)", integ, allocs, s.State.Act)
		}
		if _, allocs = warmedAllocs(t, strings.Replace(damperArm, "INTEGRATOR", integ, 1), []float64{2, 1, 1.5, 3, -2}); allocs != 0 {
			t.Errorf("%s: damperArm: %v allocations per warmed-up step", integ, allocs)
		}
	}
}

// modelSim is a simulator of the MJCF model xml, as imported.
func modelSim(t *testing.T, xml string) *sim.Simulator {
	t.Helper()
	b, _, err := stiction(writeModel(t, xml))
	if err != nil {
		t.Fatal(err)
	}
	s, err := sim.New(b.Model, b.State, b.Config)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// warmedAllocs builds the model xml, sets the controls, steps it 200 times
// (actDynArm's intvelocity activation reaches its bound at step 167) and
// returns the simulator and its allocations per further step: the least
// of three measurements of 20 steps each. testing.AllocsPerRun counts every
// goroutine's allocations; in about one fresh test process in twenty on a
// loaded machine one measurement came out at 1 a step while a heap profile
// (memprofilerate 1) showed the same allocations under Step as in a passing
// run. An allocation of the step itself shows in all three.
func warmedAllocs(t *testing.T, xml string, ctrl []float64) (*sim.Simulator, float64) {
	t.Helper()
	s := modelSim(t, xml)
	for i, u := range ctrl {
		if err := s.SetControl(i, u, 0); err != nil {
			t.Fatal(err)
		}
	}
	for range 200 {
		if _, err := s.Step(); err != nil {
			t.Fatal(err)
		}
	}
	least := math.Inf(1)
	for range 3 {
		least = min(least, testing.AllocsPerRun(20, func() {
			if _, err := s.Step(); err != nil {
				t.Fatal(err)
			}
		}))
	}
	return s, least
}

// TestActuatorDynamicsKeyframeMuJoCo: a keyframe's act (MuJoCo's key act,
// one value per actuator with an activation) starts actDynArm's
// activations where MuJoCo 2.2.2 starts them, and the run with a control
// pattern then follows MuJoCo's over 200 steps under mujoco-euler: qpos
// and act to 1e-12.
func TestActuatorDynamicsKeyframeMuJoCo(t *testing.T) {
	key := `<keyframe><key name="k" qpos="0.2 -0.5 0.3" qvel="1 -1 0.5" act="0.7 -0.3 0.45"/></keyframe></mujoco>`
	path := writeModel(t, strings.Replace(strings.Replace(actDynArm, "INTEGRATOR", "Euler", 1), "</mujoco>", key, 1))
	o := Options{Steps: 200, Every: 1, Key: "k", Ctrl: []float64{-2, 1, 1.5}, CtrlFreq: 2}
	mj := run(t, path, o)
	want := []float64{0.7, -0.3, 0.45}
	if !slices.Equal(mj.Steps[0].Act, want) {
		t.Fatalf("MuJoCo starts at act %v, want the key's %v", mj.Steps[0].Act, want)
	}
	b, mp := keyedModel(t, path, "k", mj)
	if !slices.Equal(b.State.Act, want) {
		t.Fatalf("Stiction starts at act %v, want the key's %v", b.State.Act, want)
	}
	worstQ, worstAct := followControlled(t, b, mp, mj, o)
	t.Logf("from the key: %d steps, max |Δqpos| %.3g rad, max |Δact| %.3g", o.Steps, worstQ, worstAct)
	if !(worstQ <= 1e-12) || !(worstAct <= 1e-12) {
		t.Errorf("qpos %.3g, act %.3g from MuJoCo's", worstQ, worstAct)
	}
}

// TestKeyframeXMLActMuJoCo: MuJoCo's own keyframe.xml (a motor and an
// integrator <general> on one slide, stateless first as MuJoCo requires)
// started from its key 3 (act 0.4) and key 4 (ctrl 0.5 0.6) follows MuJoCo
// 2.2.2 over 200 steps: qpos, and the one activation (MuJoCo's act[0],
// ours the second actuator's), to 1e-12.
func TestKeyframeXMLActMuJoCo(t *testing.T) {
	path := filepath.Join("testdata", "mujoco/test/user/testdata/keyframe.xml")
	for _, c := range []struct {
		key  string
		ctrl []float64
	}{{"3", nil}, {"4", []float64{0.5, 0.6}}} {
		o := Options{Steps: 200, Every: 1, Key: c.key, Ctrl: c.ctrl}
		mj := run(t, path, o)
		b, mp := keyedModel(t, path, "key"+c.key, mj)
		s := startedSim(t, b, mp, mj)
		if s.State.Act[1] != mj.Steps[0].Act[0] {
			t.Fatalf("key %s: initial activation %v, MuJoCo's %v", c.key, s.State.Act, mj.Steps[0].Act)
		}
		var worstQ, worstAct float64
		for k := 1; k < len(mj.Steps); k++ {
			for i := range mj.Actuators {
				if err := s.SetControl(i, o.CtrlPattern(i, s.State.T), 0); err != nil {
					t.Fatal(err)
				}
			}
			if _, err := s.Step(); err != nil {
				t.Fatal(err)
			}
			worstQ = max(worstQ, math.Abs(s.State.Q[0]-mj.Steps[k].QPos[0]))
			worstAct = max(worstAct, math.Abs(s.State.Act[1]-mj.Steps[k].Act[0]))
		}
		last := mj.Steps[len(mj.Steps)-1]
		t.Logf("key %s: %d steps, max |Δqpos| %.3g, max |Δact| %.3g (final qpos %.4g, act %.4g)", c.key, o.Steps, worstQ, worstAct, last.QPos, last.Act)
		if !(worstQ <= 1e-12) || !(worstAct <= 1e-12) || last.QPos[0] == mj.Steps[0].QPos[0] {
			t.Errorf("key %s: qpos %.3g, act %.3g from MuJoCo's (or nothing moved)", c.key, worstQ, worstAct)
		}
	}
}

// cylinderSlide is a mass on a tilted slide under gravity pushed by a
// <cylinder> (filter dynamics, timeconst 0.1, area from diameter, a
// spring bias) and by one with area and forcerange on a second slide.
const cylinderSlide = `<mujoco><option timestep="0.002"/><worldbody>
  <body><joint name="s" type="slide" axis="1 0 1"/><geom type="sphere" size="0.05" mass="2"/></body>
  <body pos="1 0 0"><joint name="r" type="slide" axis="0 0 1" damping="0.5"/><geom type="sphere" size="0.05" mass="1"/></body>
</worldbody>
<actuator>
  <cylinder joint="s" timeconst="0.1" diameter="0.3" bias="1 -40 -2"/>
  <cylinder joint="r" area="2" forcelimited="true" forcerange="-15 15"/>
</actuator></mujoco>`

// TestCylinderMuJoCo: <cylinder> actuators (filter activation, gain area
// or π d²/4, affine bias, a force range) follow MuJoCo 2.2.2 over 300
// steps with a control pattern, from rest and from a moving state: qpos
// and act to 1e-12.
func TestCylinderMuJoCo(t *testing.T) {
	path := writeModel(t, cylinderSlide)
	for _, o := range []Options{
		{Steps: 300, Every: 1, Ctrl: []float64{30, 12}, CtrlFreq: 2},
		{Steps: 300, Every: 1, QPos: []float64{0.2, -0.1}, QVel: []float64{1, -2}, Ctrl: []float64{-20, 15}, CtrlFreq: 3},
	} {
		mj := run(t, path, o)
		b, mp := mappedModel(t, path, mj)
		worstQ, worstAct := followControlled(t, b, mp, mj, o)
		last := mj.Steps[len(mj.Steps)-1]
		t.Logf("%d steps: max |Δqpos| %.3g m, max |Δact| %.3g (final qpos %.4g, act %.4g)", o.Steps, worstQ, worstAct, last.QPos, last.Act)
		if !(worstQ <= 1e-12) || !(worstAct <= 1e-12) {
			t.Errorf("qpos %.3g, act %.3g from MuJoCo's", worstQ, worstAct)
		}
	}
}

// keyedModel is mappedModel with keyframe key applied before the build.
func keyedModel(t *testing.T, path, key string, mj *Run) (*scene.Built, *Map) {
	t.Helper()
	sc, _, err := load.Scene(path, nil, load.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := sc.ApplyKeyframe(key); err != nil {
		t.Fatal(err)
	}
	b, err := scene.Build(sc)
	if err != nil {
		t.Fatal(err)
	}
	mp, err := NewMap(mj, b.Model)
	if err != nil {
		t.Fatal(err)
	}
	return b, mp
}
