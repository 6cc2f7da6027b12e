package mjref

import (
	"math"
	"path/filepath"
	"testing"

	"github.com/stiction-sim/stiction/sim"
)

// rk4Stages runs file (with integrator RK4 in both engines) for steps
// steps from its initial state and returns the largest qpos difference
// from MuJoCo 2.2.2 and the number of Stiction's steps that fell back to
// mujoco-euler.
func rk4Stages(t *testing.T, path string, steps int) (worst float64, fallbacks int) {
	return rk4StagesFrom(t, path, steps, nil, nil)
}

// rk4StagesFrom is rk4Stages from the state (q, v) in MuJoCo's layout (the
// model's initial state when nil).
func rk4StagesFrom(t *testing.T, path string, steps int, q0, v0 []float64) (worst float64, fallbacks int) {
	t.Helper()
	mj := run(t, path, Options{Steps: steps, Every: 1, Integrator: "rk4", QPos: q0, QVel: v0})
	b, mp := mappedModel(t, path, mj)
	if q0 != nil {
		mp.QToStiction(mj.QInit, b.State.Q)
		mp.VToStiction(mj.QInit, mj.VInit, b.State.V)
	}
	b.Config.Scheme = sim.RK4
	s, err := sim.New(b.Model, b.State, b.Config)
	if err != nil {
		t.Fatal(err)
	}
	q := make([]float64, mj.NQ)
	for k := 1; k <= steps; k++ {
		st, err := s.Step()
		if err != nil {
			t.Fatal(err)
		}
		if st.RK4Fallback {
			fallbacks++
		}
		mp.QToMuJoCo(s.State.Q, q)
		for i := range q {
			worst = math.Max(worst, math.Abs(q[i]-mj.Steps[k].QPos[i]))
		}
	}
	return worst, fallbacks
}

// TestRK4ConstraintStages: an rk4 step with constraint rows and no
// contact solves the rows at each of its four stages, as MuJoCo's
// mj_RungeKutta does (mj_forwardSkip with the constraint solver), instead
// of falling back to a mujoco-euler step: the hinge held by soft friction
// loss (frictionCreep, 500 steps) and Gymnasium's ant launched by its
// ankle limits from qpos0 (ankles 0.52 rad below their range), over the 18
// steps before its feet come within their margin of the floor, follow
// MuJoCo 2.2.2's RK4 to 1e-9.
func TestRK4ConstraintStages(t *testing.T) {
	for _, c := range []struct {
		name, path string
		steps      int
	}{
		{"friction loss", writeModel(t, frictionCreep), 500},
		{"Gymnasium ant", filepath.Join("testdata", "gymnasium/ant.xml"), 18},
	} {
		worst, fb := rk4Stages(t, c.path, c.steps)
		t.Logf("%s: max |Δqpos| over %d rk4 steps %.3g (%d fell back to mujoco-euler)", c.name, c.steps, worst, fb)
		if fb > 0 || worst > 1e-9 {
			t.Errorf("%s: max |Δqpos| %.3g over %d steps, %d mujoco-euler fallbacks (want ≤ 1e-9, 0)", c.name, worst, c.steps, fb)
		}
	}
}

// TestRK4PerturbedAntMuJoCo: Gymnasium's ant from the parity table's
// perturbed state follows MuJoCo 2.2.2's RK4 to 1e-9 over 60 steps, through
// its limit rows and its first contacts (MuJoCo's from state 15). Its step
// 13 has one speculative contact pair, 8.6 cm from the floor, whose
// rotation asked for substeps (contact.Params.SubstepTolerance): 5 rk4
// substeps of δt/5 left MuJoCo by 2.6e-8 at state 13 and 1.5e-3 at 14. An
// rk4 step whose stages detect their contacts anew takes none, as MuJoCo.
func TestRK4PerturbedAntMuJoCo(t *testing.T) {
	path := filepath.Join("testdata", "gymnasium/ant.xml")
	q, v := perturbedState(run(t, path, Options{Steps: 0}))
	const steps = 60
	worst, fb := rk4StagesFrom(t, path, steps, q, v)
	t.Logf("perturbed ant: max |Δqpos| over %d rk4 steps %.3g (%d fell back to mujoco-euler)", steps, worst, fb)
	if fb > 0 || worst > 1e-9 {
		t.Errorf("perturbed ant: max |Δqpos| %.3g over %d steps, %d mujoco-euler fallbacks (want ≤ 1e-9, 0)", worst, steps, fb)
	}
}

// TestRK4ConstraintStagesAllocateNothing: Gymnasium's ant, warmed up by
// its first 8 steps (ankle limits solved at the stages), allocates
// nothing in steps 9 to 16 (in the air; its upper ankle limits act from
// step 14).
func TestRK4ConstraintStagesAllocateNothing(t *testing.T) {
	b, _, err := stiction(filepath.Join("testdata", "gymnasium/ant.xml"))
	if err != nil {
		t.Fatal(err)
	}
	s, err := sim.New(b.Model, b.State, b.Config)
	if err != nil {
		t.Fatal(err)
	}
	for range 8 {
		if _, err := s.Step(); err != nil {
			t.Fatal(err)
		}
	}
	allocs := testing.AllocsPerRun(7, func() {
		st, err := s.Step()
		if err != nil || st.RK4Fallback || st.Contacts > 0 {
			t.Fatalf("step: %v, fallback %v, %d contacts", err, st.RK4Fallback, st.Contacts)
		}
	})
	if allocs != 0 {
		t.Errorf("%v allocations per warmed-up rk4 step with constraint rows at its stages", allocs)
	}
}

// TestRK4StagesResume: Gymnasium's ant, run 30 steps (in the air with its
// ankle limits solved at the stages, then landing: mujoco-euler steps with
// contacts and MuJoCo's constraint metric), restored to its initial
// checkpoint and run again, repeats its positions bit for bit (a step
// after a damped mujoco-euler step kept that step's constraint-metric flag
// and mapped its velocities with stale data: 6e-18 off at step 2).
func TestRK4StagesResume(t *testing.T) {
	b, _, err := stiction(filepath.Join("testdata", "gymnasium/ant.xml"))
	if err != nil {
		t.Fatal(err)
	}
	s, err := sim.New(b.Model, b.State, b.Config)
	if err != nil {
		t.Fatal(err)
	}
	k0 := s.Checkpoint()
	const n = 30
	var first [n][]float64
	for i := range n {
		if _, err := s.Step(); err != nil {
			t.Fatal(err)
		}
		first[i] = append([]float64(nil), s.State.Q...)
	}
	if err := s.Restore(k0); err != nil {
		t.Fatal(err)
	}
	for i := range n {
		if _, err := s.Step(); err != nil {
			t.Fatal(err)
		}
		for k, x := range s.State.Q {
			if math.Float64bits(x) != math.Float64bits(first[i][k]) {
				t.Fatalf("step %d after the restore: q[%d] = %v, %v before", i+1, k, x, first[i][k])
			}
		}
	}
}
