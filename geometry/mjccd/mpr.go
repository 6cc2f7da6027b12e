package mjccd

import "math"

// support is libccd's ccd_support_t: a point v = v1 − v2 of the
// Minkowski difference with its two witnesses.
type support struct{ v, v1, v2 vec }

// mpr is one ccdMPRPenetration call's state: the two geoms, their
// margin, the options and the portal (ccd_simplex_t).
type mpr struct {
	g1, g2 *Geom
	margin float64
	tol    float64
	iters  int
	portal [4]support
}

// maxRefine caps refinePortal's loop, which libccd leaves unbounded (it
// ends when the portal stops growing by mpr_tolerance): a guard against
// non-finite or degenerate input only.
const maxRefine = 1000

// ccdSupport is __ccdSupport (support.c): support1 along d, support2
// along −d.
func (s *mpr) ccdSupport(d *vec) support {
	var p support
	p.v1 = s.g1.support(d, s.margin)
	nd := *d
	scale(&nd, -1)
	p.v2 = s.g2.support(&nd, s.margin)
	p.v = sub(&p.v1, &p.v2)
	return p
}

// penetration is ccdMPRPenetration: ok false when the geoms do not
// overlap, else the depth, the direction (from geom 1 to geom 2, zero
// for a touching contact) and the position.
func (s *mpr) penetration() (depth float64, dir, pos vec, ok bool) {
	switch s.discoverPortal() {
	case -1:
		return 0, vec{}, vec{}, false
	case 1: // findPenetrTouch
		pos = s.portal[1].v1
		addTo(&pos, &s.portal[1].v2)
		scale(&pos, 0.5)
		return 0, vec{}, pos, true
	case 2: // findPenetrSegment
		pos = s.portal[1].v1
		addTo(&pos, &s.portal[1].v2)
		scale(&pos, 0.5)
		dir = s.portal[1].v
		depth = math.Sqrt(dot(&dir, &dir))
		ccdNormalize(&dir)
		return depth, dir, pos, true
	}
	if !s.refinePortal() {
		return 0, vec{}, vec{}, false
	}
	depth, dir, pos = s.findPenetr()
	return depth, dir, pos, true
}

// discoverPortal is libccd's discoverPortal: −1 when the origin is found
// outside, 1 when it lies on v1, 2 when on the segment v0–v1, 0 with a
// portal built.
func (s *mpr) discoverPortal() int {
	p := &s.portal
	c1, c2 := s.g1.center(), s.g2.center() // findOrigin
	p[0] = support{v: sub(&c1, &c2), v1: c1, v2: c2}
	origin := vec{}
	if vecEq(&p[0].v, &origin) {
		va := vec{ccdEps * 10, 0, 0}
		addTo(&p[0].v, &va)
	}
	dir := p[0].v
	scale(&dir, -1)
	ccdNormalize(&dir)
	p[1] = s.ccdSupport(&dir)
	if d := dot(&p[1].v, &dir); ccdIsZero(d) || d < 0 {
		return -1
	}
	dir = cross(&p[0].v, &p[1].v)
	if ccdIsZero(dot(&dir, &dir)) {
		if vecEq(&p[1].v, &origin) {
			return 1
		}
		return 2
	}
	ccdNormalize(&dir)
	p[2] = s.ccdSupport(&dir)
	if d := dot(&p[2].v, &dir); ccdIsZero(d) || d < 0 {
		return -1
	}
	va, vb := sub(&p[1].v, &p[0].v), sub(&p[2].v, &p[0].v)
	dir = cross(&va, &vb)
	ccdNormalize(&dir)
	if dot(&dir, &p[0].v) > 0 {
		p[1], p[2] = p[2], p[1]
		scale(&dir, -1)
	}
	for range maxRefine {
		p[3] = s.ccdSupport(&dir)
		if d := dot(&p[3].v, &dir); ccdIsZero(d) || d < 0 {
			return -1
		}
		cont := false
		va = cross(&p[1].v, &p[3].v)
		if d := dot(&va, &p[0].v); d < 0 && !ccdIsZero(d) {
			p[2] = p[3]
			cont = true
		}
		if !cont {
			va = cross(&p[3].v, &p[2].v)
			if d := dot(&va, &p[0].v); d < 0 && !ccdIsZero(d) {
				p[1] = p[3]
				cont = true
			}
		}
		if !cont {
			return 0
		}
		va, vb = sub(&p[1].v, &p[0].v), sub(&p[2].v, &p[0].v)
		dir = cross(&va, &vb)
		ccdNormalize(&dir)
	}
	return -1
}

// portalDir is libccd's portalDir: the normal of face v1 v2 v3.
func (s *mpr) portalDir() vec {
	p := &s.portal
	a, b := sub(&p[2].v, &p[1].v), sub(&p[3].v, &p[1].v)
	d := cross(&a, &b)
	ccdNormalize(&d)
	return d
}

// reachTolerance is portalReachTolerance.
func (s *mpr) reachTolerance(v4 *support, dir *vec) bool {
	p := &s.portal
	dv1, dv2, dv3, dv4 := dot(&p[1].v, dir), dot(&p[2].v, dir), dot(&p[3].v, dir), dot(&v4.v, dir)
	d1, d2, d3 := dv4-dv1, dv4-dv2, dv4-dv3
	d1 = math.Min(d1, d2)
	d1 = math.Min(d1, d3)
	return ccdEq(d1, s.tol) || d1 < s.tol
}

// expandPortal is libccd's expandPortal.
func (s *mpr) expandPortal(v4 *support) {
	p := &s.portal
	v4v0 := cross(&v4.v, &p[0].v)
	if dot(&p[1].v, &v4v0) > 0 {
		if dot(&p[2].v, &v4v0) > 0 {
			p[1] = *v4
		} else {
			p[3] = *v4
		}
	} else {
		if dot(&p[3].v, &v4v0) > 0 {
			p[2] = *v4
		} else {
			p[1] = *v4
		}
	}
}

// refinePortal is libccd's refinePortal: true when the portal holds the
// origin.
func (s *mpr) refinePortal() bool {
	for range maxRefine {
		dir := s.portalDir()
		if d := dot(&dir, &s.portal[1].v); ccdIsZero(d) || d > 0 { // portalEncapsulesOrigin
			return true
		}
		v4 := s.ccdSupport(&dir)
		if d := dot(&v4.v, &dir); !(ccdIsZero(d) || d > 0) || s.reachTolerance(&v4, &dir) {
			return false
		}
		s.expandPortal(&v4)
	}
	return false
}

// findPenetr is libccd's findPenetr.
func (s *mpr) findPenetr() (depth float64, pdir, pos vec) {
	p := &s.portal
	for it := 0; ; it++ {
		dir := s.portalDir()
		v4 := s.ccdSupport(&dir)
		if s.reachTolerance(&v4, &dir) || it > s.iters || it > maxRefine {
			origin := vec{}
			depth, pdir = pointTriDist2(&origin, &p[1].v, &p[2].v, &p[3].v)
			depth = math.Sqrt(depth)
			if ccdIsZero(depth) {
				pdir = vec{}
			} else {
				ccdNormalize(&pdir)
			}
			return depth, pdir, s.findPos()
		}
		s.expandPortal(&v4)
	}
}

// findPos is libccd's findPos: the origin's barycentric coordinates in
// the portal applied to the witnesses, averaged over the two geoms.
func (s *mpr) findPos() vec {
	p := &s.portal
	dir := s.portalDir()
	var b [4]float64
	vv := cross(&p[1].v, &p[2].v)
	b[0] = dot(&vv, &p[3].v)
	vv = cross(&p[3].v, &p[2].v)
	b[1] = dot(&vv, &p[0].v)
	vv = cross(&p[0].v, &p[1].v)
	b[2] = dot(&vv, &p[3].v)
	vv = cross(&p[2].v, &p[1].v)
	b[3] = dot(&vv, &p[0].v)
	sum := b[0] + b[1] + b[2] + b[3]
	if ccdIsZero(sum) || sum < 0 {
		b[0] = 0
		vv = cross(&p[2].v, &p[3].v)
		b[1] = dot(&vv, &dir)
		vv = cross(&p[3].v, &p[1].v)
		b[2] = dot(&vv, &dir)
		vv = cross(&p[1].v, &p[2].v)
		b[3] = dot(&vv, &dir)
		sum = b[1] + b[2] + b[3]
	}
	inv := 1 / sum
	var p1, p2 vec
	for i := range 4 {
		w := p[i].v1
		scale(&w, b[i])
		addTo(&p1, &w)
		w = p[i].v2
		scale(&w, b[i])
		addTo(&p2, &w)
	}
	scale(&p1, inv)
	scale(&p2, inv)
	pos := p1
	addTo(&pos, &p2)
	scale(&pos, 0.5)
	return pos
}

// segmentDist2 is __ccdVec3PointSegmentDist2 with a witness.
func segmentDist2(P, x0, b *vec) (float64, vec) {
	d := sub(b, x0)
	a := sub(x0, P)
	t := -1 * dot(&a, &d)
	t /= dot(&d, &d)
	switch {
	case t < 0 || ccdIsZero(t):
		w := sub(x0, P)
		return dot(&w, &w), *x0
	case t > 1 || ccdEq(t, 1):
		w := sub(b, P)
		return dot(&w, &w), *b
	}
	w := d
	scale(&w, t)
	addTo(&w, x0)
	e := sub(&w, P)
	return dot(&e, &e), w
}

// pointTriDist2 is ccdVec3PointTriDist2 with a witness: the squared
// distance from P to triangle x0 B C and the nearest point.
func pointTriDist2(P, x0, B, C *vec) (float64, vec) {
	d1, d2, a := sub(B, x0), sub(C, x0), sub(x0, P)
	v, w := dot(&d1, &d1), dot(&d2, &d2)
	p, q, r := dot(&a, &d1), dot(&a, &d2), dot(&d1, &d2)
	d := w*v - r*r
	var s, t float64
	if ccdIsZero(d) {
		s, t = -1, -1
	} else {
		s = (q*r - w*p) / d
		t = (-s*r - q) / w
	}
	if (ccdIsZero(s) || s > 0) && (ccdEq(s, 1) || s < 1) && (ccdIsZero(t) || t > 0) &&
		(ccdEq(t, 1) || t < 1) && (ccdEq(t+s, 1) || t+s < 1) {
		scale(&d1, s)
		scale(&d2, t)
		wt := *x0
		addTo(&wt, &d1)
		addTo(&wt, &d2)
		e := sub(&wt, P)
		return dot(&e, &e), wt
	}
	dist, wit := segmentDist2(P, x0, B)
	if d2, w2 := segmentDist2(P, x0, C); d2 < dist {
		dist, wit = d2, w2
	}
	if d2, w2 := segmentDist2(P, B, C); d2 < dist {
		dist, wit = d2, w2
	}
	return dist, wit
}
