package mjref

import (
	"strings"
	"testing"
)

// TestRefusedAsMuJoCo: MuJoCo 2.2.2's malformed_face.xml, whose OBJ mesh
// has two faces along the same edge in the same direction, is refused by
// Stiction's import as by MuJoCo ("faces have inconsistent orientation"),
// with the model file and line, the element and attribute, the mesh file,
// its lines and the edge; duplicate.xml (the same tetrahedron's vertices
// repeated, every face its own) loads in both.
func TestRefusedAsMuJoCo(t *testing.T) {
	const dir = "testdata/mujoco/test/user/testdata/"
	_, _, err := stiction(dir + "malformed_face.xml")
	if err == nil {
		t.Fatal("malformed_face.xml loaded; MuJoCo refuses it")
	}
	for _, want := range []string{"malformed_face.xml:3", "<mesh>", "file=", "malformed_face.obj: line 9", "line 6", "vertex 1 to vertex 2", "inconsistent orientation"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not say %q", err, want)
		}
	}
	if _, _, err := stiction(dir + "duplicate.xml"); err != nil {
		t.Errorf("duplicate.xml: %v (MuJoCo loads it)", err)
	}
	exe := tool(t)
	if _, err := Exec(exe, dir+"malformed_face.xml", Options{Steps: 1, Every: 1}); err == nil || !strings.Contains(err.Error(), "inconsistent orientation") {
		t.Errorf("MuJoCo on malformed_face.xml: %v; want its inconsistent-orientation error", err)
	}
	if _, err := Exec(exe, dir+"duplicate.xml", Options{Steps: 1, Every: 1}); err != nil {
		t.Errorf("MuJoCo on duplicate.xml: %v", err)
	}
}

// TestSingularJointsRefused: MuJoCo's auto_limits.xml puts six hinges on
// one axis through one point on each of two bodies (a test of its
// compiler's autolimits), so the mass matrix is singular. MuJoCo 2.2.2
// loads it, but its mj_factorM warns that the inertia matrix is too close
// to singular, qvel passes 1e5 within 3 steps, and mj_checkAcc resets the
// state (badqacc) within 12: there is no trajectory to follow. Stiction
// refuses it, naming the file, line, body and the dependent joints.
func TestSingularJointsRefused(t *testing.T) {
	const path = "testdata/mujoco/test/user/testdata/auto_limits.xml"
	_, _, err := stiction(path)
	if err == nil {
		t.Fatal("auto_limits.xml loaded; its mass matrix is singular")
	}
	for _, want := range []string{"auto_limits.xml:24", `body "body1"`, `joint "1 (unnamed)"`, `"0 (unnamed)"`, "mass matrix is singular"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not say %q", err, want)
		}
	}
	mj := run(t, path, Options{Steps: 12, Every: 1})
	peak := 0.0
	for _, s := range mj.Steps[:4] {
		for _, v := range s.QVel {
			peak = max(peak, v, -v)
		}
	}
	t.Logf("MuJoCo: warnings %v, peak |qvel| over its first 3 steps %.3g", mj.Warnings, peak)
	if mj.Warnings["inertia"] == 0 || mj.Warnings["badqacc"] == 0 || !(peak > 1e5) {
		t.Errorf("MuJoCo's run: warnings %v, peak |qvel| %.3g: want its singular-inertia and bad-qacc warnings and a divergence", mj.Warnings, peak)
	}
}
