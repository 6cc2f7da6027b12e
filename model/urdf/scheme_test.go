package urdf

import (
	"math"
	"strings"
	"testing"

	"github.com/stiction-sim/stiction/scene"
	"github.com/stiction-sim/stiction/solver"
)

// dampedDoc is a light link (10 g, 1e-6 kg·m²) on a revolute joint with
// damping 0.1 N·m·s/rad: m_eff/B = 1e-5 s, far below δt = 1 ms, where the
// explicit damping force of symplectic Euler multiplies ω by 1 − δt B/I =
// −99 per step.
func dampedDoc(damping string) string {
	return `<robot name="r"><link name="base"/>
<link name="l"><inertial><mass value="0.01"/><inertia ixx="1e-6" iyy="1e-6" izz="1e-6" ixy="0" ixz="0" iyz="0"/></inertial></link>
<joint name="j" type="revolute"><parent link="base"/><child link="l"/><axis xyz="1 0 0"/>
  <limit lower="-3" upper="3" effort="1" velocity="1"/><dynamics damping="` + damping + `"/></joint></robot>`
}

// TestDampedJointsScheme: a URDF with a damped joint gets mujoco-euler,
// with a warning naming the file, the joint and its damping, and a spun
// light link stays finite and slows down over 1 s; under symplectic Euler
// (the default without damping, or when the user asks for it) the same
// run blows up.
func TestDampedJointsScheme(t *testing.T) {
	im, b, s := build(t, dampedDoc("0.1"), nil)
	if im.Scene.Scheme != DampedScheme {
		t.Fatalf("scheme %q, want %q", im.Scene.Scheme, DampedScheme)
	}
	found := false
	for _, w := range im.Warnings {
		if str := w.String(); strings.Contains(str, "test.urdf") && strings.Contains(str, `"j"`) && strings.Contains(str, "0.1") && strings.Contains(str, DampedScheme) {
			found = true
		}
	}
	if !found {
		t.Errorf("no warning naming test.urdf, joint j, 0.1 and %s: %v", DampedScheme, im.Warnings)
	}
	b.State.V[0] = 1
	for range 1000 {
		// e_m is not checked: relative to a momentum that decays by 1/101
		// a step, it is meaningless after a few steps.
		if st, err := s.Step(); err != nil || st.Status != solver.Converged {
			t.Fatalf("step %d: %v %v", st.Step, st.Status, err)
		}
	}
	if v := b.State.V[0]; !(math.Abs(v) < 1) {
		t.Errorf("mujoco-euler: ω = %g after 1 s from 1 rad/s, want it damped", v)
	}

	_, b, s = build(t, dampedDoc("0.1"), func(sc *scene.Scene) { sc.Scheme = "symplectic-euler" })
	b.State.V[0] = 1
	for range 20 {
		s.Step()
	}
	if v := b.State.V[0]; math.Abs(v) < 1e6 && !math.IsNaN(v) {
		t.Errorf("symplectic-euler: ω = %g after 20 steps; the test needs the explicit scheme to diverge here", v)
	}

	im, _, _ = build(t, dampedDoc("0"), nil)
	if im.Scene.Scheme != "" && im.Scene.Scheme != "symplectic-euler" {
		t.Errorf("undamped: scheme %q, want the default", im.Scene.Scheme)
	}
}
