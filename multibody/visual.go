package multibody

import (
	"github.com/stiction-sim/stiction/geometry"
	"github.com/stiction-sim/stiction/spatial"
)

// Visual is a shape that is only drawn: a primitive (Shape) or, when
// Triangles is non-empty, a triangle mesh (Vertices in the visual's own
// frame, triangles counter-clockwise seen from outside). Meshes loaded from
// the same file share their slices.
type Visual struct {
	Body      int
	Name      string
	Pose      spatial.Pose // in the body frame
	Shape     geometry.Shape
	Vertices  []spatial.Vec3
	Triangles [][3]int32
	MeshKey   string     // identifies the mesh data (file and scale) for sharing, "" for primitives
	Color     [4]float64 // RGBA in [0, 1]; zero alpha means "not given"
}
