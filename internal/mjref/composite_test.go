package mjref

import (
	"math"
	"path/filepath"
	"testing"
)

// TestCompositeParticleMuJoCo: MuJoCo's model/composite/particle.xml (a
// <composite type="particle">: 1000 spheres on three slide joints each,
// 3000 dofs) follows MuJoCo 2.2.2 from its initial state and from a
// perturbed one (every particle given a velocity of a few cm/s) to 1e-9
// over the 29 steps (0.29 s) before the lowest particles reach the floor
// (MuJoCo's first contacts at step 30).
// The parity test cannot compare it: its perturbed state moves every slide
// by up to 2 cm, which puts neighbouring particles (2 cm apart) in contact
// from step 0, and the model's CG solver is not one Stiction follows
// through contacts (sameSolver). Here the perturbation is in the
// velocities only, and the test checks that MuJoCo has no contact within
// the horizon.
func TestCompositeParticleMuJoCo(t *testing.T) {
	exe := tool(t)
	if testing.Short() {
		t.Skip("3000 dofs: skipped with -short")
	}
	path := filepath.Join("testdata", "mujoco/model/composite/particle.xml")
	const steps = 29
	v := make([]float64, 3000)
	for i := range v {
		v[i] = 0.02 * math.Sin(1.7*float64(i))
	}
	for _, c := range []struct {
		name string
		o    Options
	}{
		{"initial", Options{Steps: steps, Every: 1}},
		{"perturbed", Options{Steps: steps, Every: 1, QPos: make([]float64, 3000), QVel: v}},
	} {
		ref, _, worst, first := runFromState(t, exe, path, c.o)
		if ref.NQ != 3000 || ref.NV != 3000 {
			t.Fatalf("MuJoCo's nq %d, nv %d; want 3000", ref.NQ, ref.NV)
		}
		for k, s := range ref.Steps {
			if s.NCon != 0 {
				t.Errorf("%s: MuJoCo has %d contacts at step %d: a particle touches something within the horizon", c.name, s.NCon, k)
				break
			}
		}
		t.Logf("particle.xml, %s state: max |Δqpos| %.3g over %d steps", c.name, worst, steps)
		if worst > trajTol {
			t.Errorf("%s: qpos differs from MuJoCo's by %.3g (first over 1e-9 at step %d)", c.name, worst, first)
		}
	}
}
