package geometry

import (
	"math"

	"github.com/stiction-sim/stiction/spatial"
)

// Axis selection bias of the box–box separating axis test: a face of B
// replaces the best face of A, and an edge axis the best face, only if its
// overlap is smaller by more than axisBias (relative) plus tieTol times the
// scale. This settles rounding-level ties in favour of face manifolds
// without moving the reported depth measurably away from the minimum.
const axisBias = 1e-6

// boxBox uses the separating axis test over the 15 candidate axes. When the
// boxes overlap (or touch), the best axis is the minimum translation (up to
// the tie-breaking bias above): a face axis gives the incident face of the other box
// clipped against the reference face (up to 8 points), an edge axis the
// single closest pair of the two edges. Separated boxes within the margin
// get their exact distance from GJK; if the GJK normal is a face normal the
// manifold is again found by clipping.
func boxBox(a, b *posed, margin float64, out []Contact) []Contact {
	scale := a.size() + b.size()
	sat := boxBoxSAT(a, b)
	if sat.sep > margin {
		return out
	}
	if sat.sep <= touchTol*scale {
		return boxBoxSATContacts(a, b, sat, margin, out)
	}
	ca, cb := coreOf(a), coreOf(b)
	g := gjk(&ca, &cb, scale)
	if g.near {
		return boxBoxSATContacts(a, b, sat, margin, out)
	}
	if g.dist > margin {
		return out
	}
	n := len(out)
	if i, s, ok := alignedFace(a, g.normal); ok {
		ja, _, okb := alignedFace(b, g.normal.Neg())
		if !okb || math.Abs(g.normal.Dot(a.axis(i))) >= math.Abs(g.normal.Dot(b.axis(ja)))-tieTol {
			out = faceContacts(out, margin, a, b, i, s, false)
		}
	}
	if len(out) == n {
		if j, s, ok := alignedFace(b, g.normal.Neg()); ok {
			out = faceContacts(out, margin, b, a, j, s, true)
		}
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

// boxBoxSAT evaluates the 15 axes in A's frame: the face normals of A
// (face 0–2), of B (face 3–5) and the cross products of their edge
// directions (edge 3i+j for A's axis i and B's axis j).
func boxBoxSAT(a, b *posed) satResult {
	ha, hb := a.s.HalfExtents, b.s.HalfExtents
	rab := a.rot.T().Mul(b.rot) // column j: B's axis j in A's frame
	t := a.toLocal(b.pos)
	var cols [3]spatial.Vec3
	for j := range 3 {
		cols[j] = rab.Col(j)
	}
	overlap := func(u spatial.Vec3) float64 {
		ra := ha[0]*math.Abs(u[0]) + ha[1]*math.Abs(u[1]) + ha[2]*math.Abs(u[2])
		rb := hb[0]*math.Abs(u.Dot(cols[0])) + hb[1]*math.Abs(u.Dot(cols[1])) + hb[2]*math.Abs(u.Dot(cols[2]))
		return ra + rb - math.Abs(u.Dot(t))
	}
	tol := tieTol * (a.size() + b.size())
	res := satResult{overlap: math.Inf(1), sep: math.Inf(-1), face: -1}
	take := func(u spatial.Vec3, o float64, face, edge int) {
		if u.Dot(t) < 0 {
			u = u.Neg()
		}
		res.u, res.overlap, res.face, res.edge = u, o, face, edge
	}
	for i := range 6 { // faces of A, then of B
		var u spatial.Vec3
		if i < 3 {
			u[i] = 1
		} else {
			u = cols[i-3]
		}
		o := overlap(u)
		res.sep = max(res.sep, -o)
		if res.face < 0 || o < res.overlap-biasOf(res.face < 3 && i >= 3, tol, res.overlap) {
			take(u, o, i, -1)
		}
	}
	for i := range 3 {
		for j := range 3 {
			var e spatial.Vec3
			e[i] = 1
			c := e.Cross(cols[j])
			l := c.Norm()
			if l < 1e-6 { // parallel edges: covered by the face axes
				continue
			}
			u := c.Scale(1 / l)
			o := overlap(u)
			res.sep = max(res.sep, -o)
			if o < res.overlap-biasOf(res.face >= 0, tol, res.overlap) {
				take(u, o, -1, 3*i+j)
			}
		}
	}
	res.u = a.rot.MulVec(res.u)
	return res
}

// biasOf returns the margin by which a challenger must beat the incumbent
// overlap o: axisBias·|o| + tol when the bias applies, else nothing.
func biasOf(applies bool, tol, o float64) float64 {
	if applies {
		return axisBias*math.Abs(o) + tol
	}
	return 0
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
	hr, hi := ref.s.HalfExtents, inc.s.HalfExtents
	n := ref.axis(i).Scale(s)
	j, k := (i+1)%3, (i+2)%3
	u1, u2 := ref.axis(j), ref.axis(k)
	cr := ref.pos.AddScaled(hr[i], n)
	// Incident face: the face of inc whose outward normal is most opposed to n.
	m := 0
	for q := 1; q < 3; q++ {
		if math.Abs(n.Dot(inc.axis(q))) > math.Abs(n.Dot(inc.axis(m))) {
			m = q
		}
	}
	sm := -sign(n.Dot(inc.axis(m)))
	ci := inc.pos.AddScaled(sm*hi[m], inc.axis(m))
	v1 := inc.axis((m + 1) % 3).Scale(hi[(m+1)%3])
	v2 := inc.axis((m + 2) % 3).Scale(hi[(m+2)%3])
	var poly polygon
	for _, c := range [4][2]float64{{1, 1}, {-1, 1}, {-1, -1}, {1, -1}} {
		p := ci.AddScaled(c[0], v1).AddScaled(c[1], v2).Sub(cr)
		poly.add(spatial.Vec3{p.Dot(u1), p.Dot(u2), p.Dot(n)})
	}
	tol := tieTol * (ref.size() + inc.size())
	poly = poly.clip(0, 1, hr[j], tol).clip(0, -1, hr[j], tol).clip(1, 1, hr[k], tol).clip(1, -1, hr[k], tol)
	nc := n
	if flip {
		nc = n.Neg()
	}
	for _, p := range poly.v[:poly.n] {
		if !(p[2] <= margin) {
			continue
		}
		w := cr.AddScaled(p[0], u1).AddScaled(p[1], u2).AddScaled(p[2]/2, n)
		out = append(out, Contact{Point: w, Normal: nc, Phi: p[2]})
	}
	return out
}
