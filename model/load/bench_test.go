package load

import (
	"testing"

	"github.com/stiction-sim/stiction/model"
	"github.com/stiction-sim/stiction/model/mesh"
	"github.com/stiction-sim/stiction/scene"
)

// benchLoad measures importing a robot file and building its model: the
// XML, every mesh file (visual meshes in full, collision meshes and their
// convex hulls) and the multibody model, from a cold start each time (the
// process-wide mesh cache emptied).
func benchLoad(b *testing.B, rel string) {
	path := modelPath(b, rel)
	for b.Loop() {
		mesh.ResetShared()
		im, err := Model(path, model.Options{})
		if err != nil {
			b.Fatal(err)
		}
		if _, err := scene.Build(im.Scene); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkLoadIiwaURDF(b *testing.B)          { benchLoad(b, iiwaURDF) }
func BenchmarkLoadIiwaPolytopeURDF(b *testing.B)  { benchLoad(b, iiwaPolyURD) }
func BenchmarkLoadIiwaPrimitiveURDF(b *testing.B) { benchLoad(b, iiwaPrimURD) }
func BenchmarkLoadIiwaSDF(b *testing.B)           { benchLoad(b, iiwaSDF) }
func BenchmarkLoadIiwaMJCF(b *testing.B)          { benchLoad(b, iiwaMJCF) }
func BenchmarkLoadAllegroURDF(b *testing.B)       { benchLoad(b, handURDF) }
func BenchmarkLoadAllegroSDF(b *testing.B)        { benchLoad(b, handSDF) }
func BenchmarkLoadAllegroMJCF(b *testing.B)       { benchLoad(b, handMJCF) }
func BenchmarkLoadAllegroScene(b *testing.B)      { benchLoad(b, handScene) }
