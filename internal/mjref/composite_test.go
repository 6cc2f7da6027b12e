package mjref

import (
	"math"
	"os"
	"path/filepath"
	"strings"
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
	if !long() {
		t.Skip("3000 dofs, about a minute: set STICTION_LONG=1")
	}
	exe := tool(t)
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

// TestCompositeNewtonMuJoCo: MuJoCo's model/composite/cloth.xml (a
// <composite type="cloth">: 81 capsules on hinge pairs under a free body,
// its other rows held by 64 tendon equalities) and softbox.xml (a soft
// box: 218 shell bodies on slide joints, 651 joint and tendon
// equalities) follow MuJoCo 2.2.2 to 1e-9 over the short horizon from the
// initial and the parity table's perturbed state when both solve the same
// rows to convergence: the files' solver="CG" tolerance="1e-6" is here
// Newton at 1e-10. With CG, which stops MuJoCo's solve at 1e-6 where
// Stiction solves to convergence, the perturbed runs (constraints
// violated, forces large) part by 2.7e-5 (cloth) and 5.0e-5 (softbox)
// from step 1 (the parity table); the initial ones stay within 5.6e-14 and
// 1.6e-15. softbox only with STICTION_LONG=1.
func TestCompositeNewtonMuJoCo(t *testing.T) {
	exe := tool(t)
	dir := filepath.Join("testdata", "mujoco/model/composite")
	files := []string{"cloth.xml"}
	if long() {
		files = append(files, "softbox.xml") // half a minute
	}
	for _, file := range files {
		tmp := t.TempDir()
		for _, f := range []string{"scene.xml", file} {
			data, err := os.ReadFile(filepath.Join(dir, f))
			if err != nil {
				t.Fatal(err)
			}
			if f == file {
				old := `solver="CG" tolerance="1e-6"`
				if !strings.Contains(string(data), old) {
					t.Fatalf("%s has no %s", file, old)
				}
				data = []byte(strings.Replace(string(data), old, `solver="Newton" tolerance="1e-10"`, 1))
			}
			if err := os.WriteFile(filepath.Join(tmp, f), data, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		r := measureShortAt(exe, file+" (Newton)", filepath.Join(tmp, file))
		t.Logf("%s with Newton: %s", file, summary(r))
		if r.level() < trajMatches {
			t.Errorf("%s with Newton: %v, want %v: %s", file, r.level(), trajMatches, reason(r))
		}
	}
}
