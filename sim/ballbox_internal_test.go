package sim

import (
	"math"

	"github.com/stiction-sim/stiction/geometry"
	"github.com/stiction-sim/stiction/spatial"
)

// ballBox sets *b to filteredBroadPhase's ball bound of a geometry whose
// points lie within r of the origin of its body at pose x (its reach),
// grown by d, and reports whether it did: the cube of half-width r + d
// about x.P, widened for rounding (ballWiden), which holds the geometry's
// exact box grown by d (see filteredBroadPhase). It does nothing and
// reports false for a quaternion off unit length (ballQuatTol) or a
// non-finite position, r or d. The mover loop of filteredBroadPhase forms
// the same bound in line, by the same operations; this form is the tests'
// reference for it (TestCol13InlineBallBoxMatchesBallBox checks the two
// agree to the bit).
func ballBox(b *geometry.AABB, x *spatial.Pose, r, d float64) bool {
	q := &x.R
	s2 := q.W*q.W + q.X*q.X + q.Y*q.Y + q.Z*q.Z
	p0, p1, p2 := x.P[0], x.P[1], x.P[2]
	h := r + d
	if t := p0 + p1 + p2 + h; !(math.Abs(s2-1) <= ballQuatTol) || t-t != 0 {
		return false
	}
	m := math.Abs(p0) + math.Abs(p1) + math.Abs(p2) // at least each |p_k|
	w := h + ballWiden*(m+r+math.Abs(d)) + 1e-300   // rounding of the exact box, relative to its terms' size
	b.Min = spatial.Vec3{p0 - w, p1 - w, p2 - w}
	b.Max = spatial.Vec3{p0 + w, p1 + w, p2 + w}
	return true
}
