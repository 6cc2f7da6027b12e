package geometry

import (
	"math"

	"github.com/stiction-sim/stiction/spatial"
)

// boxBox uses the separating axis test over the 15 candidate axes. When the
// boxes overlap (or touch), the best axis is the minimum translation, up to
// the tie-breaking axisBias: a face axis gives the incident face of the
// other box clipped against the reference face (up to 8 points), an edge
// axis the single closest pair of the two edges. Separated boxes within the
// margin get their exact distance from GJK; if the GJK normal is a face
// normal the manifold is again found by clipping, else it is one point.
func boxBox(a, b *posed, margin float64, out []Contact) []Contact {
	scale := a.size() + b.size()
	sat := boxBoxSAT(a, b)
	if sat.sep > margin { // the separation along an axis bounds the distance
		return out
	}
	ca, cb := coreOf(a), coreOf(b)
	var g gjkResult
	if sat.sep > touchTol*scale {
		g = gjk(&ca, &cb, scale)
	}
	if sat.sep <= touchTol*scale || g.near {
		return boxBoxSATContacts(a, b, sat, margin, out)
	}
	if g.dist > margin {
		return out
	}
	n := len(out)
	i, si, okA := alignedFace(a, g.normal)
	j, sj, okB := alignedFace(b, g.normal.Neg())
	if okA && (!okB || math.Abs(g.normal.Dot(a.axis(i))) >= math.Abs(g.normal.Dot(b.axis(j)))-tieTol) {
		out = faceContacts(out, margin, a, b, i, si, false)
	}
	if len(out) == n && okB {
		out = faceContacts(out, margin, b, a, j, sj, true)
	}
	if len(out) == n {
		out = appendContact(out, margin, g.wa, g.wb, g.normal, g.dist)
	}
	return out
}

// alignedFace returns the face of p whose outward normal s·axis(i) is
// parallel to the unit vector n, if any.
func alignedFace(p *posed, n spatial.Vec3) (i int, s float64, ok bool) {
	for i := range 3 {
		if c := n.Dot(p.axis(i)); math.Abs(c) >= 1-faceTol {
			return i, sign(c), true
		}
	}
	return 0, 0, false
}

// boxBoxSATContacts turns the chosen axis of overlapping boxes into
// contacts.
func boxBoxSATContacts(a, b *posed, sat satResult, margin float64, out []Contact) []Contact {
	switch {
	case sat.face < 3 && sat.face >= 0:
		return faceContacts(out, margin, a, b, sat.face, sign(sat.u.Dot(a.axis(sat.face))), false)
	case sat.face >= 3:
		j := sat.face - 3
		s := -sign(sat.u.Dot(b.axis(j)))
		return faceContacts(out, margin, b, a, j, s, true)
	}
	return boxEdgeContact(out, margin, a, b, sat)
}

// boxEdgeContact reports the closest pair of the edge of A along axis i and
// the edge of B along axis j that support the boxes along the axis.
func boxEdgeContact(out []Contact, margin float64, a, b *posed, sat satResult) []Contact {
	i, j := sat.edge/3, sat.edge%3
	ea := supportEdge(a, i, sat.u)
	eb := supportEdge(b, j, sat.u.Neg())
	s, t := closestSegments(ea.c, ea.d, ea.e, eb.c, eb.d, eb.e)
	return appendContact(out, margin, ea.at(s), eb.at(t), sat.u, -sat.overlap)
}

// supportEdge returns the edge of box p along its axis i that is furthest in
// the world direction u.
func supportEdge(p *posed, i int, u spatial.Vec3) segment {
	h := p.s.HalfExtents
	c := p.pos
	for k := range 3 {
		if k != i {
			ak := p.axis(k)
			c = c.AddScaled(sign(u.Dot(ak))*h[k], ak)
		}
	}
	return segment{c: c, d: p.axis(i), e: h[i]}
}

// faceContacts clips the incident face of box inc against the reference
// face of box ref with outward normal s·ref.axis(i), and appends a contact
// for every clipped vertex whose height above the reference face is at
// most margin. The normal points from ref to inc, negated when flip is set
// (ref is B).
func faceContacts(out []Contact, margin float64, ref, inc *posed, i int, s float64, flip bool) []Contact {
	hr := ref.s.HalfExtents
	n := ref.axis(i).Scale(s)
	j, k := (i+1)%3, (i+2)%3
	u1, u2 := ref.axis(j), ref.axis(k)
	cr := ref.pos.AddScaled(hr[i], n) // centre of the reference face
	var poly polygon
	for _, p := range incidentFace(inc, n) {
		p = p.Sub(cr)
		poly.add(spatial.Vec3{p.Dot(u1), p.Dot(u2), p.Dot(n)})
	}
	tol := tieTol * (ref.size() + inc.size())
	poly = poly.clip(0, 1, hr[j], tol).clip(0, -1, hr[j], tol).clip(1, 1, hr[k], tol).clip(1, -1, hr[k], tol)
	nc := n
	if flip {
		nc = n.Neg()
	}
	for _, p := range poly.v[:poly.n] {
		if p[2] <= margin {
			w := cr.AddScaled(p[0], u1).AddScaled(p[1], u2).AddScaled(p[2]/2, n)
			out = append(out, Contact{Point: w, Normal: nc, Phi: p[2]})
		}
	}
	return out
}

// incidentFace returns the corners, in order around it, of the face of box
// p whose outward normal is most opposed to the unit n.
func incidentFace(p *posed, n spatial.Vec3) [4]spatial.Vec3 {
	h := p.s.HalfExtents
	m := 0
	for q := 1; q < 3; q++ {
		if math.Abs(n.Dot(p.axis(q))) > math.Abs(n.Dot(p.axis(m))) {
			m = q
		}
	}
	c := p.pos.AddScaled(-sign(n.Dot(p.axis(m)))*h[m], p.axis(m))
	v1 := p.axis((m + 1) % 3).Scale(h[(m+1)%3])
	v2 := p.axis((m + 2) % 3).Scale(h[(m+2)%3])
	return [4]spatial.Vec3{c.Add(v1).Add(v2), c.Sub(v1).Add(v2), c.Sub(v1).Sub(v2), c.Add(v1).Sub(v2)}
}
