package geometry

import "github.com/stiction-sim/stiction/spatial"

// polygon is a convex polygon of at most 8 vertices in the coordinates
// (x, y, z) of a reference face: x and y in its plane, z the height above
// it. Clipping a quadrilateral by four half-planes never needs more.
type polygon struct {
	v [8]spatial.Vec3
	n int
}

func (p *polygon) add(v spatial.Vec3) {
	if p.n < len(p.v) {
		p.v[p.n] = v
		p.n++
	}
}

// clip returns the part of p in the half-plane s·x_ax ≤ h (Sutherland–
// Hodgman), interpolating the other coordinates along the cut edges.
// Vertices within tol outside the line count as inside, so that a vertex
// lying on the line up to rounding is kept once instead of being replaced
// by two nearly equal intersections; an edge is cut only where it really
// crosses the line.
func (p polygon) clip(ax int, s, h, tol float64) polygon {
	var q polygon
	if p.n == 0 {
		return q
	}
	prev := p.v[p.n-1]
	for _, cur := range p.v[:p.n] {
		dp, dc := s*prev[ax]-h, s*cur[ax]-h
		if (dp <= tol) != (dc <= tol) && dp*dc < 0 {
			t := dp / (dp - dc)
			x := prev.AddScaled(t, cur.Sub(prev))
			x[ax] = s * h
			q.add(x)
		}
		if dc <= tol {
			q.add(cur)
		}
		prev = cur
	}
	return q
}
