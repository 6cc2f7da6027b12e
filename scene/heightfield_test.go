package scene

import (
	"strings"
	"testing"

	"github.com/stiction-sim/stiction/geometry"
)

const hfScene = `
name: hf
dt: 0.001
duration: 0.1
materials:
  default: {stiffness: 1e6, dissipation: 0.1, friction: 0.5}
bodies:
  - name: ground
    fixed: true
    shape: %s
    material: default
`

func TestHeightFieldShape(t *testing.T) {
	s, err := Parse("hf.yaml", []byte(strings.Replace(hfScene, "%s", "{type: heightfield, size: [2, 4, 0.5], rows: 2, cols: 3, base: 0.1, heights: [0, 0.2, 0.4, 0.6, 0.8, 1]}", 1)), nil)
	if err != nil {
		t.Fatal(err)
	}
	b, err := Build(s)
	if err != nil {
		t.Fatal(err)
	}
	g := b.Model.Geometries[0].Shape
	if g.Kind != geometry.HeightField {
		t.Fatalf("kind %v", g.Kind)
	}
	f := g.Field
	hx, hy := f.HalfExtents()
	if f.Rows() != 2 || f.Cols() != 3 || hx != 1 || hy != 2 || f.Base() != 0.1 || f.Height(1, 2) != 0.5 || f.Height(0, 1) != 0.1 {
		t.Errorf("field %d × %d, half extents %v %v, base %v, heights %v %v", f.Rows(), f.Cols(), hx, hy, f.Base(), f.Height(1, 2), f.Height(0, 1))
	}
	for _, tc := range []struct{ shape, want string }{
		{"{type: heightfield, size: [2, 4, 0.5], rows: 1, cols: 3, base: 0.1}", "shape.rows: 1: a heightfield needs at least 2"},
		{"{type: heightfield, size: [2, 4, 0.5], rows: 2, cols: 3}", "shape.base: missing"},
		{"{type: heightfield, size: [2, 4, 0.5], rows: 2, cols: 3, base: 0.1, heights: [0, 1]}", "shape.heights: 2 values, want rows × cols = 2 × 3 = 6"},
		{"{type: heightfield, size: [2, 4, 0.5], rows: 2, cols: 2, base: 0.1, heights: [0, 1, 2, 0]}", "shape.heights: element 2 is 2; heights are in [0, 1]"},
		{"{type: sphere, radius: 1, rows: 2}", "shape.rows: not allowed for a sphere"},
		{"{type: heightfield, rows: 2, cols: 2, base: 0.1}", "shape.size: missing"},
	} {
		_, err := Parse("hf.yaml", []byte(strings.Replace(hfScene, "%s", tc.shape, 1)), nil)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want %q", tc.shape, err, tc.want)
		}
	}
	free := strings.Replace(strings.Replace(hfScene, "%s", "{type: heightfield, size: [2, 4, 0.5], rows: 2, cols: 2, base: 0.1}", 1), "fixed: true", "density: 1", 1)
	if _, err := Parse("hf.yaml", []byte(free), nil); err == nil || !strings.Contains(err.Error(), "a heightfield body must be fixed") {
		t.Errorf("free heightfield body: %v", err)
	}
}
