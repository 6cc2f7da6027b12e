package geometry

import (
	"math"

	"github.com/stiction-sim/stiction/spatial"
)

// GJK parameters.
const (
	gjkMaxIter = 64
	gjkRelTol  = 1e-13 // relative gap ‖v‖² − v·w at which v is converged
	nearTol    = 1e-9  // cores closer than nearTol·scale are handed to EPA
)

// gjkResult is the outcome of gjk. When near is false the cores are
// separated by dist along the unit normal (from A to B), with closest points
// wa on A and wb on B. When near is true they overlap or are closer than
// nearTol times the scale, and the final simplex seeds EPA.
type gjkResult struct {
	near   bool
	dist   float64
	normal spatial.Vec3
	wa, wb spatial.Vec3
	s      simplex
}

// gjk computes the distance between two cores with the Gilbert–Johnson–
// Keerthi algorithm on their Minkowski difference B − A, using an exact
// sub-simplex search (Johnson's distance subalgorithm by enumeration) that
// stays well defined on degenerate simplices. Iterations are bounded.
func gjk(a, b *core, scale float64) gjkResult {
	var res gjkResult
	d, _ := unit(b.pos.Sub(a.pos), fallbackNormal)
	s := &res.s
	s.p[0] = supportDiff(a, b, d.Neg())
	s.n = 1
	lam := [4]float64{1}
	v := s.p[0].w
	near2 := nearTol * nearTol * scale * scale
	for range gjkMaxIter {
		vv := v.Norm2()
		if vv <= near2 {
			res.near = true
			return res
		}
		w := supportDiff(a, b, v.Neg())
		if vv-v.Dot(w.w) <= gjkRelTol*vv || s.has(w.w) {
			break
		}
		prev := *s
		s.p[s.n] = w
		s.n++
		nv, nlam := s.closest()
		if s.n == 4 {
			res.near = true
			return res
		}
		if nv.Norm2() >= vv { // no progress: keep the previous simplex
			*s = prev
			break
		}
		v, lam = nv, nlam
	}
	for i := range s.n {
		res.wa = res.wa.AddScaled(lam[i], s.p[i].a)
		res.wb = res.wb.AddScaled(lam[i], s.p[i].b)
	}
	res.dist = v.Norm()
	res.normal = v.Scale(1 / res.dist) // ‖v‖ > nearTol·scale
	return res
}

// simplex holds up to four support points of B − A.
type simplex struct {
	p [4]suppPt
	n int
}

// has reports whether w is already a vertex.
func (s *simplex) has(w spatial.Vec3) bool {
	for _, p := range s.p[:s.n] {
		if p.w == w {
			return true
		}
	}
	return false
}

// closest returns the point of the simplex's convex hull nearest the
// origin with its barycentric weights, and reduces the simplex to the
// vertices with positive weight. The last vertex is the support point just
// added, which the nearest point must use (it is nearer the origin than the
// previous simplex), so closest tries every subset of vertices containing
// it: the answer is the nearest projection of the origin onto a subset's
// affine hull whose weights are all positive. Affinely dependent subsets
// are skipped; the last vertex alone always qualifies.
func (s *simplex) closest() (spatial.Vec3, [4]float64) {
	last := s.n - 1
	bestMask, bestD := 0, math.Inf(1)
	var bestLam [4]float64
	var bestV spatial.Vec3
	for m := 0; m < 1<<last; m++ {
		mask := m | 1<<last
		var pts [4]spatial.Vec3
		k := 0
		for i := range s.n {
			if mask&(1<<i) != 0 {
				pts[k] = s.p[i].w
				k++
			}
		}
		lam, ok := affineWeights(pts[:k])
		if !ok {
			continue
		}
		var v spatial.Vec3
		for i := range k {
			v = v.AddScaled(lam[i], pts[i])
		}
		if d := v.Norm2(); d < bestD {
			bestMask, bestD, bestLam, bestV = mask, d, lam, v
		}
	}
	k := 0
	for i := range s.n {
		if bestMask&(1<<i) != 0 {
			s.p[k] = s.p[i]
			k++
		}
	}
	s.n = k
	return bestV, bestLam
}

// affineWeights returns the barycentric weights of the projection of the
// origin onto the affine hull of pts, and whether the points are affinely
// independent and every weight is positive.
func affineWeights(pts []spatial.Vec3) ([4]float64, bool) {
	var lam [4]float64
	k := len(pts) - 1
	if k == 0 {
		lam[0] = 1
		return lam, true
	}
	// Minimise ‖p0 + Σ μ_j e_j‖ with e_j = p_j − p0: G μ = −E p0.
	var e [3]spatial.Vec3
	for j := range k {
		e[j] = pts[j+1].Sub(pts[0])
	}
	var mu spatial.Vec3
	switch k {
	case 1:
		g := e[0].Dot(e[0])
		if !(g > 0) {
			return lam, false
		}
		mu[0] = -e[0].Dot(pts[0]) / g
	case 2:
		g00, g01, g11 := e[0].Dot(e[0]), e[0].Dot(e[1]), e[1].Dot(e[1])
		det := g00*g11 - g01*g01
		if !(det > 1e-12*g00*g11) {
			return lam, false
		}
		r0, r1 := -e[0].Dot(pts[0]), -e[1].Dot(pts[0])
		mu[0] = (g11*r0 - g01*r1) / det
		mu[1] = (g00*r1 - g01*r0) / det
	default:
		var g spatial.Mat3
		var rhs spatial.Vec3
		diag := 1.0
		for j := range 3 {
			for l := range 3 {
				g[j][l] = e[j].Dot(e[l])
			}
			rhs[j] = -e[j].Dot(pts[0])
			diag *= g[j][j]
		}
		inv, ok := g.Inverse()
		if !ok || !(g.Det() > 1e-12*diag) {
			return lam, false
		}
		mu = inv.MulVec(rhs)
	}
	lam[0] = 1
	for j := range k {
		lam[j+1] = mu[j]
		lam[0] -= mu[j]
	}
	for j := range k + 1 {
		if !(lam[j] > 0) {
			return lam, false
		}
	}
	return lam, true
}
