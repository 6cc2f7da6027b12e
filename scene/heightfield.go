package scene

import (
	"fmt"

	"github.com/stiction-sim/stiction/geometry"
)

// heightField builds the geometry of a heightfield shape: half extents
// size[0]/2 and size[1]/2, heights scaled by size[2].
func heightField(s *Shape) (geometry.Shape, error) {
	if s.Size == nil || s.Rows == nil || s.Cols == nil || s.Base == nil {
		return geometry.Shape{}, fmt.Errorf("heightfield needs size, rows, cols and base")
	}
	size := *s.Size
	var h []float64
	if len(s.Heights) > 0 {
		h = make([]float64, len(s.Heights))
		for i, x := range s.Heights {
			h[i] = x * size[2]
		}
	}
	f, err := geometry.NewHeightMap(*s.Rows, *s.Cols, size[0]/2, size[1]/2, *s.Base, h)
	if err != nil {
		return geometry.Shape{}, err
	}
	return geometry.NewHeightFieldShape(f), nil
}

// heightField checks the fields only a heightfield takes: rows and cols
// (at least 2), base (positive) and heights (rows × cols values in [0, 1]).
func (v *validator) heightField(p string, sh *Shape) {
	if sh.Type != "heightfield" {
		for _, f := range []struct {
			name  string
			given bool
		}{{"rows", sh.Rows != nil}, {"cols", sh.Cols != nil}, {"heights", sh.Heights != nil}, {"base", sh.Base != nil}} {
			if f.given {
				v.add(p+"."+f.name, "not allowed for a %s (only a heightfield takes it)", sh.Type)
			}
		}
		return
	}
	for _, f := range []struct {
		name string
		n    *int
	}{{"rows", sh.Rows}, {"cols", sh.Cols}} {
		switch {
		case f.n == nil:
			v.add(p+"."+f.name, "missing (required for a heightfield)")
		case *f.n < 2:
			v.add(p+"."+f.name, "%d: a heightfield needs at least 2", *f.n)
		}
	}
	if sh.Base == nil {
		v.add(p+".base", "missing (required for a heightfield)")
	} else {
		v.positive(p+".base", *sh.Base)
	}
	if sh.Heights != nil && sh.Rows != nil && sh.Cols != nil && len(sh.Heights) != *sh.Rows**sh.Cols {
		v.add(p+".heights", "%d values, want rows × cols = %d × %d = %d", len(sh.Heights), *sh.Rows, *sh.Cols, *sh.Rows**sh.Cols)
	}
	for i, x := range sh.Heights {
		if !(x >= 0 && x <= 1) {
			v.add(p+".heights", "element %d is %s; heights are in [0, 1] (scaled by size[2])", i, fnum(x))
			return
		}
	}
}
