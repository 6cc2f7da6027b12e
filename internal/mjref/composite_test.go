package mjref

import (
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stiction-sim/stiction/contact"
	"github.com/stiction-sim/stiction/scene"
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
		r := measureShortAt(exe, file+" (Newton)", newtonComposite(t, dir, file))
		t.Logf("%s with Newton: %s", file, summary(r))
		if r.level() < trajMatches {
			t.Errorf("%s with Newton: %v, want %v: %s", file, r.level(), trajMatches, reason(r))
		}
	}
}

// newtonComposite writes a copy of the composite model file of dir (with
// the scene.xml it includes) whose solver="CG" tolerance="1e-6" is Newton
// at 1e-10, and returns its path.
func newtonComposite(t *testing.T, dir, file string) string {
	t.Helper()
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
	return filepath.Join(tmp, file)
}

// TestCompositeParticleRoundOff (STICTION_LONG=1): particle.xml's 1000
// spheres fall into the box of four walls and the floor (MuJoCo's first
// contacts at step 30). Solved as MuJoCo's Newton to 1e-10 in both
// engines, Stiction follows MuJoCo through its contacts (2007 by state
// 68) to 1.7e-11 and then parts by 1.5e-3 in one step (0.11 by step 100):
// in state 68 two spheres touch a wall at distances of ±2e-17, and which
// of those contacts exist is the sign of round-off. Asserted: the two
// engines' contacts in state 68 differ only by contacts within 1e-15 of
// touching; MuJoCo's own collider at Stiction's state 68 (1.7e-11 from
// MuJoCo's) gives Stiction's contacts exactly; and MuJoCo started from
// that state parts from its own run by more than 1e-3 over the remaining
// steps.
func TestCompositeParticleRoundOff(t *testing.T) {
	if !long() {
		t.Skip("3000 dofs through 2000 contacts: set STICTION_LONG=1")
	}
	exe := tool(t)
	path := newtonComposite(t, filepath.Join("testdata", "mujoco/model/composite"), "particle.xml")
	ref, mp, worst, first := runFromState(t, exe, path, Options{Steps: shortSteps, Every: 1})
	t.Logf("particle.xml (Newton 1e-10), %d steps: max |Δqpos| %.3g, over 1e-9 from step %d", shortSteps, worst, first)
	if first < 0 {
		return // follows MuJoCo throughout
	}
	b, _, err := stiction(path)
	if err != nil {
		t.Fatal(err)
	}
	s := startedSim(t, b, mp, ref)
	q, v := make([]float64, ref.NQ), make([]float64, ref.NV)
	for range first {
		mp.QToMuJoCo(s.State.Q, q) // Stiction's state before the step
		mp.VToMuJoCo(q, s.State.V, v)
		if _, err := s.Step(); err != nil {
			t.Fatal(err)
		}
	}
	at := first - 1
	odd := contactsApart(t, exe, path, ref.Steps[at].QPos, ref.Steps[at].QVel, b, s.Contacts())
	if len(odd) == 0 {
		t.Errorf("state %d: Stiction's contacts are MuJoCo's; the parting at step %d is not a contact's existence", at, first)
	}
	for _, d := range odd {
		if math.Abs(d) > 1e-15 {
			t.Errorf("state %d: a contact at distance %.3g is in one engine only", at, d)
		}
	}
	if odd := contactsApart(t, exe, path, q, v, b, s.Contacts()); len(odd) > 0 {
		t.Errorf("state %d: MuJoCo's collider at Stiction's state gives %d contacts other than Stiction's", at, len(odd))
	}
	mine, err := Exec(exe, path, Options{Steps: shortSteps - at, Every: 1, QPos: q, QVel: v})
	if err != nil {
		t.Fatal(err)
	}
	self := 0.0
	for k, st := range mine.Steps {
		for j, x := range st.QPos {
			self = math.Max(self, math.Abs(x-ref.Steps[at+k].QPos[j]))
		}
	}
	t.Logf("MuJoCo from Stiction's state %d parts from its own run by %.3g by step %d", at, self, shortSteps)
	if self < 1e-3 {
		t.Errorf("MuJoCo from Stiction's state %d parts from its own run by only %.3g", at, self)
	}
}

// contactsApart returns the distances of the contacts that only one side
// has: MuJoCo's at state (q, v) (its -collide output, MuJoCo's layout)
// or ours of the built model b, matched by point to 1e-9.
func contactsApart(t *testing.T, exe, path string, q, v []float64, b *scene.Built, ours []contact.Pair) []float64 {
	t.Helper()
	col, err := Collide(exe, path, 0, q, v)
	if err != nil {
		t.Fatal(err)
	}
	used := make([]bool, len(ours))
	var odd []float64
	for _, c := range col.Contacts {
		j := -1
		for i, o := range ours {
			if !used[i] && math.Abs(o.Point[0]-c.Pos[0])+math.Abs(o.Point[1]-c.Pos[1])+math.Abs(o.Point[2]-c.Pos[2]) <= 1e-9 {
				j = i
				break
			}
		}
		if j < 0 {
			t.Logf("MuJoCo's contact of geoms %v at distance %.3g, point %v, normal %v: not Stiction's", c.Geom, c.Dist, c.Pos, c.Frame[:3])
			odd = append(odd, c.Dist)
			continue
		}
		used[j] = true
	}
	for j, u := range used {
		if o := ours[j]; !u {
			t.Logf("Stiction's contact of %s and %s at distance %.3g, point %v, normal %v: not MuJoCo's",
				b.Model.Bodies[o.BodyA].Name, b.Model.Bodies[o.BodyB].Name, o.Phi, o.Point, o.Normal)
			odd = append(odd, o.Phi)
		}
	}
	t.Logf("MuJoCo %d contacts, Stiction %d", len(col.Contacts), len(ours))
	return odd
}
