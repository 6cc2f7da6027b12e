package mesh

import (
	"testing"

	"github.com/stiction-sim/stiction/spatial"
)

// FuzzSTL feeds arbitrary bytes to the STL reader: it must return a mesh
// that passes Validate, or an error, and never panic.
func FuzzSTL(f *testing.F) {
	box := boxMesh(spatial.Vec3{1, 1, 1}, spatial.Vec3{})
	f.Add(binarySTL(box))
	f.Add(asciiSTL(box))
	f.Add([]byte("solid\nendsolid\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := ReadSTL("fuzz.stl", data)
		if err == nil {
			if err := m.Validate(); err != nil {
				t.Fatalf("accepted an invalid mesh: %v", err)
			}
			_, _ = m.MassProperties()
		}
	})
}

// FuzzOBJ is FuzzSTL for the OBJ reader.
func FuzzOBJ(f *testing.F) {
	f.Add(objText(boxMesh(spatial.Vec3{1, 1, 1}, spatial.Vec3{})))
	f.Add([]byte("v 0 0 0\nv 1 0 0\nv 0 1 0\nf -3 -2 -1\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		m, err := ReadOBJ("fuzz.obj", data)
		if err == nil {
			if err := m.Validate(); err != nil {
				t.Fatalf("accepted an invalid mesh: %v", err)
			}
			_, _ = m.MassProperties()
		}
	})
}
