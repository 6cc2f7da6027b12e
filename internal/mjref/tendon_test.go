package mjref

import (
	"math"
	"strings"
	"testing"

	"github.com/stiction-sim/stiction/sim"
)

// tendonModels are small models that exercise fixed tendons and general
// actuators with affine biases at zero control, without joint damping (so
// that Stiction's symplectic Euler is MuJoCo's Euler), each with the
// largest qpos difference from MuJoCo 2.2.2 over steps steps that it must
// stay within (measured values in the comments).
var tendonModels = []struct {
	name  string
	xml   string
	steps int
	tol   float64
}{
	// A fixed tendon spring–damper couples two pendulums (different trees):
	// the passive force f = −k (L − L0) − b L̇ on τ_k = coef_k f.
	{"tendon spring-damper", `<mujoco><option timestep="0.002"/><worldbody>
  <body name="a"><joint name="ja" type="hinge" axis="0 1 0"/><geom type="capsule" size=".02" fromto="0 0 0 .3 0 0"/></body>
  <body name="b" pos="0 .5 0"><joint name="jb" type="hinge" axis="0 1 0"/><geom type="capsule" size=".02" fromto="0 0 0 0 0 -.3"/></body>
  <body name="c" pos="0 1 0"><joint name="jc" type="slide" axis="1 0 0"/><geom type="sphere" size=".05"/></body>
  </worldbody>
  <tendon><fixed name="t" stiffness="2" damping="0.05" springlength="0.3"><joint joint="ja" coef="1"/><joint joint="jb" coef="-0.5"/><joint joint="jc" coef="2"/></fixed></tendon>
</mujoco>`, 300, 1e-9},
	// The same tendon's default spring length is its length at the joints'
	// springref (MuJoCo 2.2.2: springlength −1).
	{"tendon springref rest length", `<mujoco><option timestep="0.002" gravity="0 0 0"/><worldbody>
  <body name="a"><joint name="ja" type="hinge" axis="0 1 0" springref="20"/><geom type="capsule" size=".02" fromto="0 0 0 .3 0 0"/></body>
  <body name="b" pos="0 .5 0"><joint name="jb" type="slide" axis="0 0 1" springref="0.1"/><geom type="sphere" size=".05"/></body>
  </worldbody>
  <tendon><fixed stiffness="3"><joint joint="ja" coef="1"/><joint joint="jb" coef="2"/></fixed></tendon>
</mujoco>`, 300, 1e-9},
	// General actuators with a constant and a spring bias (explicit in both
	// engines) on a joint and on a tendon, and a 6-value gear on a hinge
	// (MuJoCo uses gear[0]).
	{"general constant and spring bias", `<mujoco><option timestep="0.002"/><worldbody>
  <body name="a"><joint name="ja" type="hinge" axis="0 1 0"/><geom type="capsule" size=".02" fromto="0 0 0 .3 0 0"/>
    <body name="a2" pos=".3 0 0"><joint name="ja2" type="hinge" axis="0 1 0"/><geom type="capsule" size=".02" fromto="0 0 0 .3 0 0"/></body></body>
  </worldbody>
  <tendon><fixed name="t"><joint joint="ja" coef="0.5"/><joint joint="ja2" coef="0.5"/></fixed></tendon>
  <actuator>
    <general joint="ja" biastype="affine" biasprm="0.3" gear="2 0 0 0 0 1"/>
    <general tendon="t" biastype="affine" biasprm="-0.1 -0.5 0"/>
  </actuator>
</mujoco>`, 300, 1e-9},
	// A tendon equality over two joints (dm_control's manipulator and
	// stacker couple the gripper's fingers so) is a coupler with solref's
	// stiffness: MuJoCo's soft constraint (solref 0.005 0.5, solimp
	// scaling not reproduced) and ours stop the joints' relative motion
	// (0.72 rad/s in the perturbed state) at about the same rate: measured
	// 1.8e-3 apart over 300 steps (uncoupled, they would drift ~0.4 rad).
	{"tendon equality", `<mujoco><option timestep="0.002" gravity="0 0 0"/><worldbody>
  <body name="a"><joint name="ja" type="hinge" axis="0 1 0"/><geom type="capsule" size=".02" fromto="0 0 0 .3 0 0"/></body>
  <body name="b" pos="0 .5 0"><joint name="jb" type="hinge" axis="0 1 0"/><geom type="capsule" size=".02" fromto="0 0 0 .2 0 0"/></body>
  </worldbody>
  <tendon><fixed name="coupling"><joint joint="ja" coef="-.5"/><joint joint="jb" coef=".5"/></fixed></tendon>
  <equality><tendon name="c" tendon1="coupling" solref=".005 .5"/></equality>
</mujoco>`, 300, 5e-3},
	// A damping bias (b2 < 0) with MuJoCo's Euler: explicit in both
	// engines (measured 8.9e-16 over 300 steps).
	{"general damping bias", `<mujoco><option timestep="0.002"/><worldbody>
  <body name="a"><joint name="ja" type="hinge" axis="0 1 0"/><geom type="capsule" size=".02" fromto="0 0 0 .3 0 0"/></body>
  <body name="b" pos="0 .5 0"><joint name="ja2" type="hinge" axis="0 1 0"/><geom type="capsule" size=".02" fromto="0 0 0 .3 0 0"/></body>
  </worldbody>
  <actuator>
    <general joint="ja" biastype="affine" biasprm="0.1 -0.2 -0.01"/>
  </actuator>
</mujoco>`, 300, 1e-9},
	// The same with integrator="implicit": MuJoCo 2.2.2 treats the damping
	// term implicitly, and so do we (measured 1.8e-15 over 300 steps; a
	// single hinge has no Coriolis terms, which MuJoCo's implicit
	// integrator would also differentiate).
	{"general damping bias, implicit", `<mujoco><option timestep="0.002" integrator="implicit"/><worldbody>
  <body name="a"><joint name="ja" type="hinge" axis="0 1 0"/><geom type="capsule" size=".02" fromto="0 0 0 .3 0 0"/></body>
  <body name="b" pos="0 .5 0"><joint name="ja2" type="hinge" axis="0 1 0"/><geom type="capsule" size=".02" fromto="0 0 0 .3 0 0"/></body>
  </worldbody>
  <actuator>
    <general joint="ja" biastype="affine" biasprm="0.1 -0.2 -0.01"/>
  </actuator>
</mujoco>`, 300, 1e-9},
	// A position servo on a tendon (fish's fins): explicit under MuJoCo's
	// Euler in both engines (the importer marks it explicit; measured
	// 1.8e-15 over 300 steps, 1.6e-3 when ours was implicit).
	{"position actuator on a tendon", `<mujoco><option timestep="0.002"/><worldbody>
  <body name="a"><joint name="ja" type="hinge" axis="0 1 0"/><geom type="capsule" size=".02" fromto="0 0 0 .3 0 0"/></body>
  <body name="b" pos="0 .5 0"><joint name="ja2" type="hinge" axis="0 1 0"/><geom type="capsule" size=".02" fromto="0 0 0 .3 0 0"/></body>
  </worldbody>
  <tendon><fixed name="t"><joint joint="ja" coef="1"/><joint joint="ja2" coef="-1"/></fixed></tendon>
  <actuator>
    <position tendon="t" kp="0.5"/>
  </actuator>
</mujoco>`, 300, 1e-9},
}

// TestTendonsAgainstMuJoCo: fixed tendons' spring–dampers and general
// actuators with affine biases move as in MuJoCo 2.2.2, from the initial
// state and from a perturbed one.
func TestTendonsAgainstMuJoCo(t *testing.T) {
	exe := tool(t)
	for _, c := range tendonModels {
		t.Run(c.name, func(t *testing.T) {
			path := writeModel(t, c.xml)
			b, im, err := stiction(path)
			if err != nil {
				t.Fatal(err)
			}
			for _, w := range im.Warnings {
				if !strings.Contains(w.String(), "integrator") { // the implicit integrator's mapping warns
					t.Errorf("warning: %v", w)
				}
			}
			worst := 0.0
			for _, pert := range []bool{false, true} {
				o := Options{Steps: c.steps, Every: 1}
				ref, err := Exec(exe, path, o)
				if err != nil {
					t.Fatal(err)
				}
				if pert {
					q := append([]float64(nil), ref.QInit...)
					v := make([]float64, ref.NV)
					for i := range q {
						q[i] += 0.1 * math.Sin(float64(i)+1)
						v[i] = 0.8 * math.Cos(1.3*float64(i)+0.2)
					}
					o.QPos, o.QVel = q, v
					if ref, err = Exec(exe, path, o); err != nil {
						t.Fatal(err)
					}
				}
				mp, err := NewMap(ref, b.Model)
				if err != nil {
					t.Fatal(err)
				}
				from := ref
				if !pert {
					from = nil
				}
				d, _, err := compareTrajectory(path, ref, from, mp, c.steps)
				if err != nil {
					t.Fatal(err)
				}
				worst = math.Max(worst, d)
			}
			t.Logf("%s: max |Δqpos| over %d steps (initial and perturbed states) %.3g (tolerance %g)", c.name, c.steps, worst, c.tol)
			if !(worst <= c.tol) {
				t.Errorf("%s: qpos differs from MuJoCo's by %.3g, more than %g", c.name, worst, c.tol)
			}
		})
	}
}

// TestTendonLimitAgainstMuJoCo: a limited fixed tendon L = q_a − q_b
// between two pendulums that gravity turns in opposite directions stops
// near its upper bound 0.3 as MuJoCo's does: both are MuJoCo's soft
// constraint once violated (default solreflimit 0.02 1 and solimplimit, as
// joint limits: constraint.Compliance.SolRef), with MuJoCo's rows only past
// the bound (constraint.Params.MuJoCoLimits) and MuJoCo's weight
// (tendon_invweight0, TestTendonLimitWeightIsMuJoCos). Measured: peak L
// 0.34971 in both, qpos 8.5e-12 apart over 500 steps (when ours was
// near-rigid up to the bound: peak 0.3279, 0.011 apart).
func TestTendonLimitAgainstMuJoCo(t *testing.T) {
	exe := tool(t)
	path := writeModel(t, `<mujoco><option timestep="0.002"/><worldbody>
  <body name="a"><joint name="ja" type="hinge" axis="0 1 0"/><geom type="capsule" size=".02" fromto="0 0 0 .3 0 0"/></body>
  <body name="b" pos="0 .5 0"><joint name="jb" type="hinge" axis="0 -1 0"/><geom type="capsule" size=".02" fromto="0 0 0 .3 0 0"/></body>
  </worldbody>
  <tendon><fixed name="t" limited="true" range="-0.3 0.3"><joint joint="ja" coef="1"/><joint joint="jb" coef="-1"/></fixed></tendon>
</mujoco>`)
	const steps = 500
	ref, err := Exec(exe, path, Options{Steps: steps, Every: 1})
	if err != nil {
		t.Fatal(err)
	}
	b, im, err := stiction(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(im.Warnings) > 0 {
		t.Errorf("warnings: %v", im.Warnings)
	}
	mp, err := NewMap(ref, b.Model)
	if err != nil {
		t.Fatal(err)
	}
	d, _, err := compareTrajectory(path, ref, nil, mp, steps)
	if err != nil {
		t.Fatal(err)
	}
	peakMJ := 0.0
	for _, s := range ref.Steps {
		peakMJ = math.Max(peakMJ, s.QPos[0]-s.QPos[1])
	}
	peakSt := 0.0
	s, err := sim.New(b.Model, b.State, b.Config)
	if err != nil {
		t.Fatal(err)
	}
	for range steps {
		if _, err := s.Step(); err != nil {
			t.Fatal(err)
		}
		peakSt = math.Max(peakSt, s.State.Q[0]-s.State.Q[1])
	}
	t.Logf("tendon limit 0.3: peak L Stiction %.5f, MuJoCo %.5f; max |Δqpos| over %d steps %.3g", peakSt, peakMJ, steps, d)
	if math.Abs(peakSt-peakMJ) > 1e-9 || d > trajTol {
		t.Errorf("peak L %.5f vs MuJoCo %.5f (bound 0.3), qpos %.3g apart", peakSt, peakMJ, d)
	}
}

// TestSoftTendonEquality: two hinges coupled by a tendon equality
// (0.5 q_a + 0.7 q_b = 0.05, solref 0.005 0.5, solimp 0.95 0.99 0.001),
// started off the coupling and moving (q = 0.01, −0.02; v = 0.5, 0.3),
// without and with damping on one hinge, and three hinges (0.4 q_c added,
// c a child of b),
// follow MuJoCo 2.2.2 over 20 steps: MuJoCo's
// soft constraint on its own row with its weight (tendon_invweight0), and,
// damped, the impulse found with M and applied through M + h B as mj_Euler
// does.
func TestSoftTendonEquality(t *testing.T) {
	for _, c := range []struct{ damping, third, coef string }{{"0", "", ""}, {"0.05", "", ""}, {"0.05", "jc", ".4"}} {
		damping := c.damping
		third, ref := "", ""
		q0, v0 := []float64{0.01, -0.02}, []float64{0.5, 0.3}
		if c.third != "" { // a tendon over three joints: Σ c_k q_k = 0.05
			third = `<body name="c" pos="1 0 0"><joint name="jc" axis="1 0 0"/><geom type="capsule" fromto="0 0 0 0 0.2 0" size="0.04"/></body>`
			ref = `<joint joint="jc" coef="` + c.coef + `"/>`
			q0, v0 = append(q0, 0.03), append(v0, -0.4)
		}
		doc := `<mujoco><option gravity="0 0 0"/><worldbody>
  <body name="a"><joint name="ja" axis="0 1 0" damping="` + damping + `"/><geom type="capsule" fromto="0 0 0 0.3 0 0" size="0.05"/></body>
  <body name="b" pos="1 0 0"><joint name="jb" axis="0 1 0"/><geom type="capsule" fromto="0 0 0 0.2 0 0" size="0.04"/>` + third + `</body></worldbody>
  <tendon><fixed name="t"><joint joint="ja" coef=".5"/><joint joint="jb" coef=".7"/>` + ref + `</fixed></tendon>
  <equality><tendon tendon1="t" polycoef="0.05 0 0 0 0" solimp="0.95 0.99 0.001" solref=".005 .5"/></equality></mujoco>`
		path := writeModel(t, doc)
		mj := run(t, path, Options{Steps: 20, Every: 1, QPos: q0, QVel: v0})
		worst := followMuJoCo(t, path, mj)
		if worst > 1e-12 {
			t.Errorf("damping %s, %d joints: qpos %.2g from MuJoCo's over 20 steps", damping, len(q0), worst)
		}
		t.Logf("damping %s, %d joints: qpos within %.2g of MuJoCo's over 20 steps", damping, len(q0), worst)
	}
}

// TestSoftLimitWeight: the second hinge of a double pendulum starts 0.2 rad
// past its range at a configuration away from qpos0 and comes back under
// MuJoCo's soft limit (default solreflimit, solimplimit). Its row's
// weight is MuJoCo's dof_invweight0 (M⁻¹ at qpos0, set by the importer),
// not the Delassus estimate at the step's start: over 20 steps while the
// limit is violated qpos follows MuJoCo 2.2.2 to 1e-12.
func TestSoftLimitWeight(t *testing.T) {
	doc := `<mujoco><compiler angle="radian"/><worldbody>
  <body name="a"><joint name="ja" axis="0 1 0"/><geom type="capsule" fromto="0 0 0 0.4 0 0" size="0.05"/>
    <body name="b" pos="0.4 0 0"><joint name="jb" axis="0 1 0" range="-0.5 0.5" limited="true"/><geom type="capsule" fromto="0 0 0 0.3 0 0" size="0.04"/></body></body>
  </worldbody></mujoco>`
	path := writeModel(t, doc)
	q0, v0 := []float64{0.7, 0.7}, []float64{0.3, 0.2}
	mj := run(t, path, Options{Steps: 20, Every: 1, QPos: q0, QVel: v0})
	for k, st := range mj.Steps {
		if st.QPos[1] <= 0.5 {
			t.Fatalf("step %d: the limit is no longer violated (q = %v); shorten the test", k, st.QPos)
		}
	}
	worst := followMuJoCo(t, path, mj)
	if worst > 1e-12 {
		t.Errorf("qpos %.2g from MuJoCo's over 20 steps", worst)
	}
	t.Logf("qpos within %.2g of MuJoCo's over 20 steps (jb from 0.7 to %.4f)", worst, mj.Steps[len(mj.Steps)-1].QPos[1])
}

// followMuJoCo steps Stiction's import of path from mj's initial state
// over mj's steps (compareTrajectory) and returns the largest qpos
// difference from MuJoCo's.
func followMuJoCo(t *testing.T, path string, mj *Run) float64 {
	t.Helper()
	_, mp := mappedModel(t, path, mj)
	worst, _, err := compareTrajectory(path, mj, mj, mp, len(mj.Steps)-1)
	if err != nil {
		t.Fatal(err)
	}
	return worst
}
