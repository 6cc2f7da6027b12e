package mjccd

import (
	"math"
	"testing"
)

// TestHFieldSphereDepth: a sphere of radius 0.1 pressed by d into a flat
// height field (10 × 10 cells over 2 × 2, base 0.05), the field turned by
// 0.3 rad about x and moved, the sphere placed in the field's frame at
// (0.13, −0.07, 0.1 − d): one contact per cell prism the sphere reaches
// (at least one, at most MaxHFieldContacts), none deeper than d (a
// prism's overlap with the sphere is at most the sphere's depth below the
// prism's top), and the deepest, that of the prism under the sphere's
// lowest point, at distance −d with the field's normal R·ẑ (closed form,
// to 1e-9, the normal to 1e-7, as MPR stops on depth: tolerance 1e-12;
// measured 5.6e-9); lifted clear of the field, none.
func TestHFieldSphereDepth(t *testing.T) {
	const d, r = 0.004, 0.1
	fld := &HFieldData{Rows: 10, Cols: 10, Size: [4]float64{1, 1, 0, 0.05}, Height: make([]float64, 100)}
	c, s := math.Cos(0.3), math.Sin(0.3)
	field := Geom{Type: HField, Field: fld, Pos: [3]float64{0.2, -0.1, 0.5}, Mat: [9]float64{1, 0, 0, 0, c, -s, 0, s, c}}
	opt := Options{Tolerance: 1e-12, Iterations: 100}
	for _, lift := range []float64{0, 2 * d} {
		local := vec{0.13, -0.07, r - d + lift}
		p := rotVecMat(&local, &field.Mat)
		ball := Geom{Type: Sphere, Size: [3]float64{r}, Mat: field.Mat, RBound: r}
		for k := range 3 {
			ball.Pos[k] = p[k] + field.Pos[k]
		}
		got := ConvexHField(&field, &ball, 0, opt, nil)
		if lift > 0 {
			if len(got) != 0 {
				t.Errorf("sphere %g above the field: %d contacts, want none", lift-d, len(got))
			}
			continue
		}
		if len(got) == 0 || len(got) > MaxHFieldContacts {
			t.Fatalf("%d contacts, want 1 to %d", len(got), MaxHFieldContacts)
		}
		deep := 0
		for i, h := range got {
			if h.Dist < -d-1e-9 {
				t.Errorf("contact %d: distance %.12g, deeper than the sphere's %g", i, h.Dist, -d)
			}
			if h.Dist < got[deep].Dist {
				deep = i
			}
		}
		h := got[deep]
		if math.Abs(h.Dist+d) > 1e-9 {
			t.Errorf("deepest contact: distance %.12g, want %g", h.Dist, -d)
		}
		want := [3]float64{0, -s, c}
		for k := range 3 {
			if math.Abs(h.Normal[k]-want[k]) > 1e-7 {
				t.Errorf("deepest contact: normal %v, want %v", h.Normal, want)
				break
			}
		}
	}
}
