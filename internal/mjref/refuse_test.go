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
