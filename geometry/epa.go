package geometry

import (
	"math"

	"github.com/stiction-sim/stiction/spatial"
)

// EPA parameters. A closed triangulated polytope with V vertices has
// 2V − 4 faces, which sizes the face buffer.
const (
	epaMaxIter  = 128
	epaMaxVerts = 4 + epaMaxIter
	epaMaxFaces = 2 * epaMaxVerts
	epaTol      = 1e-13 // convergence of the depth, relative to the scale
	epaVisTol   = 1e-12 // a face is visible from a point this far above it (relative)
)

// epaFace is a triangle of the polytope, wound so that its unit normal n
// points outwards; d = n·v[0] is its distance from the origin.
type epaFace struct {
	v [3]int32
	n spatial.Vec3
	d float64
}

// epa is the expanding polytope algorithm's working memory; it lives on the
// stack of its caller.
type epa struct {
	v     [epaMaxVerts]suppPt
	nv    int
	f     [epaMaxFaces]epaFace
	nf    int
	dead  [epaMaxFaces]bool
	queue [epaMaxFaces]int32
	edges [3 * epaMaxFaces][2]int32
	ne    int
}

// penetration returns the penetration depth of the cores (the distance
// from the origin to the boundary of B − A, which contains it), the outward
// normal n of B − A there (the contact normal from A to B is −n) and the
// witness points on A and B. It starts from the final GJK simplex and falls
// back to a search over fixed directions if the polytope cannot be built.
//
// EPA brackets the depth between the distance of the nearest face and the
// support value h(n) = n·s(n) of B − A along its normal. Where a curved
// surface keeps it from converging within its iteration budget (a point
// near a cylinder's axis sees an almost constant depth all around), a
// compass search on h refines the direction. The depth returned is h(n) of
// the final direction, so that translating B by the depth along −n exactly
// separates the cores.
func (e *epa) penetration(a, b *core, s *simplex, scale float64) (depth float64, n, wa, wb spatial.Vec3) {
	if !e.init(a, b, s, scale) {
		n, depth = directionalDepth(a, b)
		n, depth = polishDepth(a, b, n, depth, 0.05, scale)
		w := supportDiff(a, b, n)
		return depth, n, w.a, w.b
	}
	for range epaMaxIter {
		i := e.minFace()
		f := &e.f[i]
		w := supportDiff(a, b, f.n)
		if f.n.Dot(w.w)-f.d <= epaTol*scale || !e.expand(i, w, scale) {
			break
		}
	}
	f := e.f[e.minFace()]
	n, depth = f.n, f.n.Dot(supportDiff(a, b, f.n).w)
	if depth-f.d > epaTol*scale { // not converged
		n, depth = polishDepth(a, b, n, depth, math.Sqrt(2*(depth-f.d)/scale), scale)
	}
	p := [3]suppPt{e.v[f.v[0]], e.v[f.v[1]], e.v[f.v[2]]}
	lam := triangleWeights(p[0].w, p[1].w, p[2].w, f.n.Scale(f.d))
	for i := range 3 {
		wa = wa.AddScaled(lam[i], p[i].a)
		wb = wb.AddScaled(lam[i], p[i].b)
	}
	return depth, n, wa, wb
}

// Compass search parameters: steps are angles in radians.
const (
	polishMaxIter = 100
	polishMinStep = 1e-10
	kinkTol       = 1e-3  // |u·k| below which u is on the kink circle of axis k
	polishTol     = 1e-14 // relative decrease of h that counts as a move (above rounding)
)

// polishDepth decreases h(u), the support value of B − A along the unit u.
// h is smooth except on the great circles orthogonal to the axes of boxes,
// capsule segments and cylinders, and the flat directions that stall EPA
// (rotational symmetry about a cylinder axis) lie on such a circle; so u is
// first searched along every kink circle it lies on, then over the sphere.
// It returns the final direction and its support value.
func polishDepth(a, b *core, u spatial.Vec3, h, step, scale float64) (spatial.Vec3, float64) {
	var axes [6]spatial.Vec3
	n := a.kinks(axes[:])
	n += b.kinks(axes[n:])
	for _, k := range axes[:n] {
		if math.Abs(u.Dot(k)) <= kinkTol {
			u, h = circleSearch(a, b, u, h, k, step, scale)
		}
	}
	return sphereSearch(a, b, u, h, step, scale)
}

// kinks stores the world axes whose orthogonal great circles carry kinks of
// the core's support function, and returns how many there are.
func (c *core) kinks(out []spatial.Vec3) int {
	switch c.kind {
	case Box:
		return copy(out, []spatial.Vec3{c.rot.Col(0), c.rot.Col(1), c.rot.Col(2)})
	case Capsule, Cylinder:
		out[0] = c.rot.Col(2)
		return 1
	}
	return 0
}

// circleSearch is a one-dimensional compass search for the minimum of h
// along the great circle orthogonal to the unit k, starting from the
// projection of u; it returns the better of u and the search result.
func circleSearch(a, b *core, u spatial.Vec3, h float64, k spatial.Vec3, step, scale float64) (spatial.Vec3, float64) {
	v := u.AddScaled(-u.Dot(k), k)
	v = v.Scale(1 / v.Norm())
	hv := v.Dot(supportDiff(a, b, v).w)
	step = clamp(step, polishMinStep, 0.05)
	for it := 0; it < polishMaxIter && step >= polishMinStep; it++ {
		t := k.Cross(v)
		moved := false
		for _, sg := range [2]float64{1, -1} {
			sn, cs := math.Sincos(sg * step)
			c := v.Scale(cs).AddScaled(sn, t)
			c = c.Scale(1 / c.Norm())
			if hc := c.Dot(supportDiff(a, b, c).w); hc < hv-polishTol*scale {
				v, hv, moved = c, hc, true
				break
			}
		}
		if moved {
			step = min(2*step, 0.05)
		} else {
			step /= 2
		}
	}
	if hv < h {
		return v, hv
	}
	return u, h
}

// sphereSearch is a compass search for the minimum of h over the unit
// sphere, in eight directions of the tangent plane, doubling the step after
// a move and halving it when no direction improves by more than rounding.
func sphereSearch(a, b *core, u spatial.Vec3, h, step, scale float64) (spatial.Vec3, float64) {
	step = clamp(step, polishMinStep, 0.05)
	const c = math.Sqrt2 / 2
	compass := [8][2]float64{{1, 0}, {c, c}, {0, 1}, {-c, c}, {-1, 0}, {-c, -c}, {0, -1}, {c, -c}}
	for it := 0; it < polishMaxIter && step >= polishMinStep; it++ {
		t1, t2 := spatial.Orthonormal(u)
		moved := false
		for _, d := range compass {
			v := u.AddScaled(step*d[0], t1).AddScaled(step*d[1], t2)
			v = v.Scale(1 / v.Norm())
			if hv := v.Dot(supportDiff(a, b, v).w); hv < h-polishTol*scale {
				u, h, moved = v, hv, true
				break
			}
		}
		if moved {
			step = min(2*step, 0.05)
		} else {
			step /= 2
		}
	}
	return u, h
}

// init builds a tetrahedron around the origin from the GJK simplex, adding
// support points in directions away from a degenerate simplex.
func (e *epa) init(a, b *core, s *simplex, scale float64) bool {
	tol := nearTol * scale
	e.nv = copy(e.v[:], s.p[:s.n])
	if e.nv == 1 {
		for _, d := range [6]spatial.Vec3{{1, 0, 0}, {-1, 0, 0}, {0, 1, 0}, {0, -1, 0}, {0, 0, 1}, {0, 0, -1}} {
			if w := supportDiff(a, b, d); w.w.Sub(e.v[0].w).Norm() > tol {
				e.v[1] = w
				e.nv = 2
				break
			}
		}
	}
	if e.nv == 2 {
		dir, ok := unit(e.v[1].w.Sub(e.v[0].w), spatial.Vec3{})
		if !ok {
			return false
		}
		t1, t2 := spatial.Orthonormal(dir)
		bestD := tol
		for _, d := range [4]spatial.Vec3{t1, t1.Neg(), t2, t2.Neg()} {
			w := supportDiff(a, b, d)
			if dd := w.w.Sub(e.v[0].w).Cross(dir).Norm(); dd > bestD {
				e.v[2], bestD, e.nv = w, dd, 3
			}
		}
	}
	if e.nv == 3 {
		nrm, ok := unit(e.v[1].w.Sub(e.v[0].w).Cross(e.v[2].w.Sub(e.v[0].w)), spatial.Vec3{})
		if !ok {
			return false
		}
		bestD := tol
		for _, d := range [2]spatial.Vec3{nrm, nrm.Neg()} {
			w := supportDiff(a, b, d)
			if dd := math.Abs(w.w.Sub(e.v[0].w).Dot(nrm)); dd > bestD {
				e.v[3], bestD, e.nv = w, dd, 4
			}
		}
	}
	if e.nv != 4 {
		return false
	}
	e.nf = 0
	for _, f := range [4][4]int32{{0, 1, 2, 3}, {0, 3, 1, 2}, {0, 2, 3, 1}, {1, 3, 2, 0}} {
		i, j, k := f[0], f[1], f[2]
		if e.v[f[3]].w.Sub(e.v[i].w).Dot(e.faceNormal(i, j, k)) > 0 {
			j, k = k, j
		}
		if !e.addFace(i, j, k) || e.f[e.nf-1].d < -2*tol {
			return false
		}
	}
	return true
}

// faceNormal returns the unnormalised normal of the triangle (i, j, k).
func (e *epa) faceNormal(i, j, k int32) spatial.Vec3 {
	p := e.v[i].w
	return e.v[j].w.Sub(p).Cross(e.v[k].w.Sub(p))
}

// addFace appends the triangle (i, j, k) and reports false if it is
// degenerate or the buffer is full.
func (e *epa) addFace(i, j, k int32) bool {
	n, ok := unit(e.faceNormal(i, j, k), spatial.Vec3{})
	if !ok || e.nf == epaMaxFaces {
		return false
	}
	e.f[e.nf] = epaFace{v: [3]int32{i, j, k}, n: n, d: n.Dot(e.v[i].w)}
	e.nf++
	return true
}

// minFace returns the index of the face nearest the origin, the first one
// on ties.
func (e *epa) minFace() int {
	best := 0
	for i := 1; i < e.nf; i++ {
		if e.f[i].d < e.f[best].d {
			best = i
		}
	}
	return best
}

// expand adds the support point w seen from face start (the face nearest
// the origin): it removes the faces that w sees, found by a flood fill from
// start so that the removed region is connected, and closes the hole with
// triangles from the horizon to w. It returns false, leaving the polytope
// unchanged, if a buffer is full or the result would not be a valid convex
// polytope (a broken horizon, a degenerate triangle, or a triangle nearer
// the origin than start).
func (e *epa) expand(start int, w suppPt, scale float64) bool {
	if e.nv == epaMaxVerts {
		return false
	}
	for i := range e.nf {
		e.dead[i] = false
	}
	e.dead[start] = true
	e.queue[0] = int32(start)
	nq := 1
	e.ne = 0
	for qi := 0; qi < nq; qi++ {
		f := e.f[e.queue[qi]]
		for k := range 3 {
			p, q := f.v[k], f.v[(k+1)%3]
			g := e.neighbour(q, p)
			switch {
			case g < 0:
				return false
			case e.dead[g]:
			case e.f[g].n.Dot(w.w.Sub(e.v[e.f[g].v[0]].w)) > epaVisTol*scale:
				e.dead[g] = true
				e.queue[nq] = int32(g)
				nq++
			default:
				e.edges[e.ne] = [2]int32{p, q}
				e.ne++
			}
		}
	}
	if e.nf-nq+e.ne > epaMaxFaces || !e.horizonIsCycle() {
		return false
	}
	r := int32(e.nv)
	e.v[r] = w
	for _, ed := range e.edges[:e.ne] {
		n, ok := unit(e.faceNormal(ed[0], ed[1], r), spatial.Vec3{})
		if !ok || n.Dot(w.w) < e.f[start].d-epaVisTol*scale {
			return false
		}
	}
	e.nv++
	k := 0
	for i := range e.nf {
		if !e.dead[i] {
			e.f[k] = e.f[i]
			k++
		}
	}
	e.nf = k
	for _, ed := range e.edges[:e.ne] {
		e.addFace(ed[0], ed[1], r)
	}
	return true
}

// neighbour returns the face with the directed edge (p, q), or −1.
func (e *epa) neighbour(p, q int32) int {
	for i := range e.nf {
		v := e.f[i].v
		if (v[0] == p && v[1] == q) || (v[1] == p && v[2] == q) || (v[2] == p && v[0] == q) {
			return i
		}
	}
	return -1
}

// horizonIsCycle reports whether every vertex of the horizon starts exactly
// one horizon edge and ends exactly one, as on the boundary of a disc.
func (e *epa) horizonIsCycle() bool {
	if e.ne < 3 {
		return false
	}
	for _, a := range e.edges[:e.ne] {
		starts, ends := 0, 0
		for _, b := range e.edges[:e.ne] {
			if b[0] == a[0] {
				starts++
			}
			if b[1] == a[0] {
				ends++
			}
		}
		if starts != 1 || ends != 1 {
			return false
		}
	}
	return true
}

// triangleWeights returns the barycentric coordinates of the projection of
// p onto the plane of the triangle (a, b, c), or (1, 0, 0) if the triangle
// is degenerate.
func triangleWeights(a, b, c, p spatial.Vec3) [3]float64 {
	v0, v1, v2 := b.Sub(a), c.Sub(a), p.Sub(a)
	d00, d01, d11 := v0.Dot(v0), v0.Dot(v1), v1.Dot(v1)
	d20, d21 := v2.Dot(v0), v2.Dot(v1)
	den := d00*d11 - d01*d01
	if !(den > 1e-24*d00*d11) {
		return [3]float64{1, 0, 0}
	}
	l1 := (d11*d20 - d01*d21) / den
	l2 := (d00*d21 - d01*d20) / den
	return [3]float64{1 - l1 - l2, l1, l2}
}

// directionalDepth is the fallback of EPA: the direction with the smallest
// support value of B − A among 26 fixed directions, and that value (an upper
// bound of the depth).
func directionalDepth(a, b *core) (n spatial.Vec3, depth float64) {
	depth = math.Inf(1)
	for x := -1.0; x <= 1; x++ {
		for y := -1.0; y <= 1; y++ {
			for z := -1.0; z <= 1; z++ {
				u, ok := unit(spatial.Vec3{x, y, z}, spatial.Vec3{})
				if !ok {
					continue
				}
				if h := u.Dot(supportDiff(a, b, u).w); h < depth {
					n, depth = u, h
				}
			}
		}
	}
	return n, depth
}
