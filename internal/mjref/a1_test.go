package mjref

import (
	"os"
	"path/filepath"
	"testing"
)

// folderVariant copies the model folder dir of testdata into a temporary
// folder as links, but for file, written with old replaced by new, and
// returns the path of main in it.
func folderVariant(t *testing.T, dir, file, old, new, main string) string {
	t.Helper()
	src, err := filepath.Abs(filepath.Join("testdata", dir))
	if err != nil {
		t.Fatal(err)
	}
	entries, err := os.ReadDir(src)
	if err != nil {
		t.Fatal(err)
	}
	tmp := t.TempDir()
	for _, e := range entries {
		if e.Name() != file {
			if err := os.Symlink(filepath.Join(src, e.Name()), filepath.Join(tmp, e.Name())); err != nil {
				t.Fatal(err)
			}
		}
	}
	doc := replaceOnce(t, readModel(t, filepath.Join(dir, file)), old, new, 1)
	if err := os.WriteFile(filepath.Join(tmp, file), []byte(doc), 0o644); err != nil {
		t.Fatal(err)
	}
	return filepath.Join(tmp, main)
}

// TestA1NewtonTolerance: Menagerie's Unitree A1 on its floor
// (unitree_a1/scene.xml: elliptic cone, impratio 100, condim-6 feet with
// a 1 mm margin, joint friction, four limit rows from step 0) parts from
// MuJoCo 2.2.2 from the parity table's perturbed state by 6.7e-9 over 100
// steps (5.1e-11 from the initial state). The first parting is at step 10,
// on FL_hip_joint (qpos 10, 5.6e-17 → 2.15e-11), the step in which the
// front-left foot's contact first acts (0.245 mm above the floor, within
// its margin; the contact equals MuJoCo's); it then grows to 1.45e-9 by
// step 20. It is not round-off growth (MuJoCo started 1e-15 away parts
// from itself by 1e-15 until step 40, 2.3e-12 over 100 steps) but MuJoCo's
// Newton stopping at its tolerance 1e-8 on the elliptic cone's contact,
// whose answer Stiction solves to convergence with the Newton port off
// (the default; with it on, TestA1NewtonPort): with tolerance 1e-15 and
// 1000 iterations in MuJoCo, the runs from both states follow MuJoCo over
// 100 steps (asserted to 1e-12; measured 3.3e-16 and 4.4e-16).
func TestA1NewtonTolerance(t *testing.T) {
	exe := tool(t)
	const old = `<option cone="elliptic" impratio="100"/>`
	for _, tol := range []string{"1e-8", "1e-15"} {
		p := folderVariant(t, "menagerie/unitree_a1", "a1.xml", old, `<option cone="elliptic" impratio="100" tolerance="`+tol+`" iterations="1000"/>`, "scene.xml")
		init, err := Exec(exe, p, Options{Steps: 1, Every: 1})
		if err != nil {
			t.Fatal(err)
		}
		for _, start := range parityStarts(init) {
			_, _, worst, first := runFromState(t, exe, p, Options{Steps: 100, Every: 1, QPos: start.q, QVel: start.v})
			t.Logf("MuJoCo's tolerance %s, %s state: max |Δqpos| over 100 steps %.3g (first over 1e-9 at step %d)", tol, start.name, worst, first)
			if tol == "1e-15" && worst > 1e-12 {
				t.Errorf("MuJoCo's tolerance %s, %s state: qpos parts from MuJoCo's by %.3g over 100 steps", tol, start.name, worst)
			}
		}
	}
}
