package load

import (
	"path/filepath"
	"testing"

	"github.com/stiction-sim/stiction/scene"
)

// TestSceneRelativeMeshDir loads an MJCF model given by a relative path
// whose meshes are in its <compiler meshdir>: the importer resolves them
// against the working directory and the builder against the model's
// directory, which joined them twice ("stat …/franka_emika_panda/
// …/franka_emika_panda/assets/link0.stl").
func TestSceneRelativeMeshDir(t *testing.T) {
	path := filepath.Join("..", "..", "internal", "mjref", "testdata", "menagerie", "franka_emika_panda", "panda_nohand.xml")
	s, _, err := Scene(path, nil, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := scene.Build(s); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
}
