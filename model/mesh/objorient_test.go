package mesh

import (
	"strings"
	"testing"
)

// TestCheckOBJOrientation: a closed tetrahedron with outward faces passes;
// with one face turned over, the edge it shares runs twice the same way
// and the error names the file, both lines and the edge (MuJoCo 2.2.2's
// malformed_face.obj is refused the same way: internal/mjref).
func TestCheckOBJOrientation(t *testing.T) {
	const verts = "v 0 0 0\nv 1 0 0\nv 0 1 0\nv 0 0 1\n"
	good := verts + "f 3 2 1\nf 1 2 4\nf 2 3 4\nf 3 1 4\n"
	if err := CheckOBJOrientation("good.obj", []byte(good)); err != nil {
		t.Fatalf("consistent tetrahedron refused: %v", err)
	}
	// A quad is split into the fan (2 3 4), (2 4 1), whose second
	// triangle runs 2→4 as face (1 2 4) does.
	quad := verts + "f 3 2 1\nf 1 2 4\nf 2 3 4 1\n"
	if err := CheckOBJOrientation("quad.obj", []byte(quad)); err == nil {
		t.Error("fan triangle (2 4 1) repeats the directed edge 2→4 of face (1 2 4): want an error")
	}
	bad := verts + "f 3 1 4\nf 1 2 4\nf 2 3 4\nf 1 2 3\n"
	err := CheckOBJOrientation("bad.obj", []byte(bad))
	if err == nil {
		t.Fatal("turned-over face accepted")
	}
	for _, want := range []string{"bad.obj", "line 8", "line 6", "vertex 1 to vertex 2", "inconsistent orientation"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error %q does not say %q", err, want)
		}
	}
}
