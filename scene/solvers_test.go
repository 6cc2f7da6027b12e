package scene_test

import (
	"testing"
	"time"

	"github.com/stiction-sim/stiction/scene"
	"github.com/stiction-sim/stiction/sim"
)

// TestSolverTypes: the stack scene runs with every solver.type of this
// module; once warmed up, a step with PGS (Lagged contact, the default)
// and with the interior-point solver (SAP's contact model, the kinds it
// supports) allocates nothing, every step's solve converges, and the top
// sphere ends where SAP puts it to 1e-6 m.
func TestSolverTypes(t *testing.T) {
	const warmup = 60
	top := map[string]float64{}
	for _, c := range []struct {
		typ, approx string
	}{{"sap", "lagged"}, {"pgs", "lagged"}, {"sap", "sap"}, {"ipm", "sap"}, {"pgs", "sap"}} {
		sc, err := scene.Load("stack", []string{"solver.type=" + c.typ, "contact.approximation=" + c.approx})
		if err != nil {
			t.Fatal(err)
		}
		b, err := scene.Build(sc)
		if err != nil {
			t.Fatal(err)
		}
		s, err := sim.New(b.Model, b.State, b.Config)
		if err != nil {
			t.Fatal(err)
		}
		start := time.Now()
		iters := 0
		for range warmup {
			st, err := s.Step()
			if err != nil {
				t.Fatal(err)
			}
			if !st.OK() {
				t.Fatalf("%s/%s: step %d: %v, e_m %.2e", c.typ, c.approx, st.Step, st.Status, st.MomentumError)
			}
			iters += st.Iterations
		}
		wall := time.Since(start)
		allocs := testing.AllocsPerRun(10, func() {
			if _, err := s.Step(); err != nil {
				t.Fatal(err)
			}
		})
		z := s.State.Q[len(s.State.Q)-1] // the last body's last coordinate
		t.Logf("%s (%s contact): %d steps in %v, %.1f iterations per step, %v allocations per step, top sphere z = %.7f m",
			c.typ, c.approx, warmup, wall, float64(iters)/warmup, allocs, z)
		if allocs != 0 {
			t.Errorf("%s (%s contact): %v allocations per warmed-up step, want 0", c.typ, c.approx, allocs)
		}
		if ref, ok := top[c.approx]; ok && (z-ref > 1e-6 || ref-z > 1e-6) {
			t.Errorf("%s (%s contact): top sphere at z = %.9f m, SAP's at %.9f m", c.typ, c.approx, z, ref)
		} else if !ok {
			top[c.approx] = z
		}
	}
}

// TestMuJoCoSolverSwitch: contact.mujoco_newton selects MuJoCo's Newton
// (true, with pgs_iterations its iteration cap, default 100), CG
// (mujoco_cg too), PGS (unset, with pgs_iterations) or the converged solve
// (false: pgs_iterations ignored, as an MJCF file sets it for every solver).
func TestMuJoCoSolverSwitch(t *testing.T) {
	for _, c := range []struct {
		sets       []string
		newton, cg bool
		iter       int
		tol        float64
	}{
		{nil, false, false, 0, 0},
		{[]string{"contact.mujoco_newton=true"}, true, false, 100, 1e-8},
		{[]string{"contact.mujoco_newton=true", "contact.mujoco_cg=true", "contact.pgs_iterations=30"}, true, true, 30, 1e-8},
		{[]string{"contact.pgs_iterations=30", "contact.pgs_tolerance=1e-6"}, false, false, 30, 1e-6},
		{[]string{"contact.mujoco_newton=false", "contact.pgs_iterations=30"}, false, false, 0, 0},
		{[]string{"contact.mujoco_newton=false", "contact.mujoco_cg=true"}, false, false, 0, 0},
	} {
		sc, err := scene.Load("stack", c.sets)
		if err != nil {
			t.Fatal(err)
		}
		b, err := scene.Build(sc)
		if err != nil {
			t.Fatal(err)
		}
		p := b.Config.Contact
		if p.Newton != c.newton || p.CG != c.cg || p.PGSIterations != c.iter || p.PGSTolerance != c.tol {
			t.Errorf("%v: Newton %v, CG %v, %d iterations, tolerance %g; want %v, %v, %d, %g",
				c.sets, p.Newton, p.CG, p.PGSIterations, p.PGSTolerance, c.newton, c.cg, c.iter, c.tol)
		}
	}
}
