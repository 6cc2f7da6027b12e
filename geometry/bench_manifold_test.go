package geometry

import (
	"testing"

	"github.com/stiction-sim/stiction/spatial"
)

// BenchmarkCollideBoxStack: a 10 cm cube resting on another, offset 1 mm
// and turned 0.5°, margin 1 mm (a face manifold); and crossed 45° on an
// edge (edge–edge), and on a half-space.
func BenchmarkCollideBoxStack(b *testing.B) {
	cube := NewBox(spatial.Vec3{0.1, 0.1, 0.1})
	cases := []struct {
		name   string
		a      Shape
		xa, xb spatial.Pose
	}{
		{"face", cube, at(0, 0, 0), pose(v3(0.001, -0.0005, 0.0999), rotAbout(ez, 0.5))},
		{"edge", cube, at(0, 0, 0), pose(v3(0.001, 0, 0.1407), rotAbout(ex, 45).Mul(rotAbout(ez, 45)))},
		{"halfspace", NewHalfSpace(), at(0, 0, 0), pose(v3(0.001, -0.0005, 0.0499), rotAbout(ez, 0.5))},
	}
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			out := make([]Contact, 0, 8)
			for b.Loop() {
				out = Collide(c.a, c.xa, cube, c.xb, 1e-3, out[:0])
			}
		})
	}
}
