package geometry

import (
	"math"

	"github.com/stiction-sim/stiction/spatial"
)

// boxBox uses the separating axis test over the 15 candidate axes, biased
// towards face axes (axisBias, faceAlignCos). A face axis gives a face
// manifold: the incident face of the other box clipped against the
// reference face (manifold.go). An edge axis gives the single closest pair
// of the two edges. For separated boxes (within the margin) GJK gives the
// exact distance, and the face manifold is used only if the direction of
// the closest points is within 1° of the face normal (faceAngleCos) and
// its deepest corner within faceSlack·margin of the distance, as for
// hulls; otherwise the contact is GJK's closest pair.
func boxBox(a, b *posed, margin float64, out []Contact) []Contact {
	scale := a.size() + b.size()
	sat := boxBoxSAT(a, b, faceSlack*margin, scale)
	if sat.sep > margin { // the separation along an axis bounds the distance
		return out
	}
	separated := sat.sep > touchTol*scale
	var g gjkResult
	if separated {
		ca, cb := coreOf(a), coreOf(b)
		g = gjk(&ca, &cb, scale)
		if g.near {
			separated = false
		} else if g.dist > margin {
			return out
		}
	}
	if sat.face >= 0 {
		n := len(out)
		var zmin float64
		var ok bool
		if sat.face < 3 {
			out, zmin, ok = boxFaceManifold(out, margin, scale, a, b, sat.face, sign(sat.u.Dot(a.axis(sat.face))), false)
		} else {
			j := sat.face - 3
			out, zmin, ok = boxFaceManifold(out, margin, scale, b, a, j, -sign(sat.u.Dot(b.axis(j))), true)
		}
		apart := separated && (math.Abs(g.normal.Dot(sat.u)) < faceAngleCos || math.Abs(zmin-g.dist) > max(touchTol*scale, faceSlack*margin))
		if ok && !apart && zmin <= margin {
			return out
		}
		out = out[:n]
	}
	if separated {
		return appendContact(out, margin, g.wa, g.wb, g.normal, g.dist)
	}
	if sat.face < 0 {
		return boxEdgeContact(out, margin, a, b, sat)
	}
	return out
}

// boxEdgeContact reports the closest pair of the edge of A along axis i and
// the edge of B along axis j that support the boxes along the axis.
func boxEdgeContact(out []Contact, margin float64, a, b *posed, sat satResult) []Contact {
	i, j := sat.edge/3, sat.edge%3
	ea, ia := supportEdge(a, i, sat.u)
	eb, ib := supportEdge(b, j, sat.u.Neg())
	s, t := closestSegments(&ea.c, &ea.d, ea.e, &eb.c, &eb.d, eb.e)
	n := len(out)
	out = appendContact(out, margin, ea.at(s), eb.at(t), sat.u, -sat.overlap)
	if len(out) > n {
		out[n].Feature = edgeFeature(ia, ib)
	}
	return out
}

// supportEdge returns the edge of box p along its axis i that is furthest in
// the world direction u, and its index 4i + (bits of the signs along the
// other two axes).
func supportEdge(p *posed, i int, u spatial.Vec3) (segment, int) {
	h := p.s.HalfExtents
	c := p.pos
	id, bit := 4*i, 1
	for k := range 3 {
		if k != i {
			ak := p.axis(k)
			s := sign(u.Dot(ak))
			c = c.AddScaled(s*h[k], ak)
			if s > 0 {
				id += bit
			}
			bit <<= 1
		}
	}
	return segment{c: c, d: p.axis(i), e: h[i]}, id
}

// boxFaceID numbers the face of a box with outward normal s·axis(i).
func boxFaceID(i int, s float64) int {
	if s > 0 {
		return 2*i + 1
	}
	return 2 * i
}

// boxRefFace sets ref to the face of box p with outward normal s·axis(i):
// centre and frame along the face's edges (u = axis i+1, v = axis i+2),
// and returns its four sides (for ref.sides, set by the caller so that
// they stay on its stack).
func boxRefFace(ref *refFace, p *posed, i int, s float64) [4]sideLine {
	h := p.s.HalfExtents
	j, k := (i+1)%3, (i+2)%3
	ref.n = p.axis(i).Scale(s)
	ref.c = p.pos.AddScaled(h[i], ref.n)
	ref.u, ref.v = p.axis(j), p.axis(k)
	ref.width = 2 * math.Hypot(h[j], h[k])
	return [4]sideLine{{[2]float64{1, 0}, h[j]}, {[2]float64{-1, 0}, h[j]}, {[2]float64{0, 1}, h[k]}, {[2]float64{0, -1}, h[k]}}
}

// boxFaceManifold appends the face manifold of the reference face
// s·axis(i) of box ref against the incident face of box inc (see
// faceManifold); flip is set when ref is the second shape of the pair.
// scale is the pair's size, ref.size() + inc.size() (the sum is the same
// in either order).
func boxFaceManifold(out []Contact, margin, scale float64, ref, inc *posed, i int, s float64, flip bool) ([]Contact, float64, bool) {
	var rf refFace
	sides := boxRefFace(&rf, ref, i, s)
	rf.sides = sides[:]
	d := axisDots(inc, &rf.n)
	var corners [4]spatial.Vec3
	m, sm := incidentFace(inc, &d, &corners)
	hi := inc.s.HalfExtents
	w := 2 * math.Hypot(hi[(m+1)%3], hi[(m+2)%3])
	base := faceFeature(flip, boxFaceID(i, s), boxFaceID(m, sm))
	tol := tieTol * scale
	return faceManifold(out, margin, &rf, corners[:], inc.axis(m).Scale(sm), w, base, flip, tol)
}

// axisDots returns n·axis(q) for box p's three axes, each as Vec3.Dot
// sums it, p's rotation read in place.
func axisDots(p *posed, n *spatial.Vec3) [3]float64 {
	r := &p.rot
	var d [3]float64
	for q := range 3 {
		d[q] = n[0]*r[0][q] + n[1]*r[1][q] + n[2]*r[2][q]
	}
	return d
}

// incidentFace sets out to the corners, in order around it, of the face of box
// p whose outward normal s·axis(m) is most opposed to the unit n (ties go
// to the lower axis), given d = axisDots(p, n) (which a
// caller that needs them too forms once), and returns m and s. The corners
// are written in the caller's array rather than returned (an array result
// was copied twice, twelve words each time). It reads p's rotation in place
// and forms each corner's components in scalars, the expressions of the
// Vec3 form (n·axis(q) as Vec3.Dot orders it, c = pos + (s·h_m)·axis(m),
// v1 = h_j·axis(j), v2 = h_k·axis(k), corners (c ± v1) ± v2), so the same
// bits without copying the matrix for each axis (TestCubecollide3IncidentFace).
func incidentFace(p *posed, d *[3]float64, out *[4]spatial.Vec3) (int, float64) {
	h, r := &p.s.HalfExtents, &p.rot
	m := 0
	if math.Abs(d[1]) > math.Abs(d[0]) {
		m = 1
	}
	if math.Abs(d[2]) > math.Abs(d[m]) {
		m = 2
	}
	s := -sign(d[m])
	j, k := (m+1)%3, (m+2)%3
	sh, hj, hk := s*h[m], h[j], h[k]
	for i := range 3 {
		c := p.pos[i] + sh*r[i][m]
		v1, v2 := hj*r[i][j], hk*r[i][k]
		out[0][i], out[1][i] = c+v1+v2, c-v1+v2
		out[2][i], out[3][i] = c-v1-v2, c+v1-v2
	}
	return m, s
}
