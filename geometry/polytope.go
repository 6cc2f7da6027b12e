package geometry

import (
	"math"
	"slices"

	"github.com/stiction-sim/stiction/spatial"
)

// Contacts of convex hulls with half-spaces, boxes and hulls. A hull on a
// half-space reports the face manifold (manifold.go) of the hull face most
// opposed to the plane normal among the faces at its deepest vertex. A
// hull against a box or a hull takes the contact normal from GJK (apart)
// or EPA (overlapping); when a face of either shape is within
// faceAngleCos (1°) of it, the face manifold of that face (the first
// shape's face unless the second's is better aligned by more than 1°)
// against the other shape's most opposed face, provided its deepest
// corner is within faceSlack·margin of the GJK/EPA signed distance (so at
// margin 0 only when exact); otherwise one point, as for the other convex
// pairs. Hull faces are numbered as in Hull.Faces,
// box faces 2i (outward normal −axis i) and 2i+1 (+axis i).

// halfSpaceHull reports the face manifold of the hull B on the plane of A
// when its deepest vertex is within the margin.
func halfSpaceHull(a, b *posed, margin float64, out []Contact) []Contact {
	h := b.s.Hull
	n := a.axis(2)
	nl := b.rot.MulTVec(n)
	low := b.toWorld(h.verts[h.support(nl.Neg())])
	if !(n.Dot(low.Sub(a.pos)) <= margin) {
		return out
	}
	fi := h.incidentFace(nl)
	f := &h.faces[fi]
	var buf [maxHullFaceVerts]spatial.Vec3
	inc := hullFaceWorld(b, f, &buf)
	var ref refFace
	halfSpaceRef(&ref, a, b.rot.MulVec(f.u))
	out, _, _ = faceManifold(out, margin, &ref, inc, b.rot.MulVec(f.n), f.width, faceFeature(false, 0, fi), false, tieTol*b.size())
	return tippingVerts(out, a, b, fi, n, margin)
}

// Tipping vertices. A hull on a half-space touches with the incident face
// (the face most opposed to the plane normal); when it tips onto a
// neighbouring face, that face's far corners reach the plane before the
// incident face changes, and without a speculative point of their own
// they are first seen already under it (example-robot-data's hextilt: 4 mm
// deep at δt = 1 ms). tippingVerts adds, as single points, the vertices at
// the end of a hull edge leaving the incident face at most tipSin
// (sin 30°) upward and within the margin, the deepest maxTipVerts of them
// (ties within tol broken by vertex index, so that the set does not
// flicker); an edge that rises steeply (a thin prism's side) gives none.
const (
	maxTipVerts = 3 // Collide's 8 contacts still suffice with 5 face slots
	tipSin      = 0.5
)

func tippingVerts(out []Contact, a, b *posed, fi int, n spatial.Vec3, margin float64) []Contact {
	h := b.s.Hull
	f := &h.faces[fi]
	tol := tieTol * b.size()
	depth := func(v int32) float64 { return n.Dot(b.toWorld(h.verts[v]).Sub(a.pos)) }
	var best [maxTipVerts]int32
	var phi [maxTipVerts]float64
	nb := 0
	for _, v := range f.verts {
		dv := depth(v)
		for _, g := range h.vertFaces[h.vertFaceStart[v]:h.vertFaceStart[v+1]] {
			gv := h.faces[g].verts
			k := slices.Index(gv, v)
			for _, w := range [2]int32{gv[(k+1)%len(gv)], gv[(k+len(gv)-1)%len(gv)]} {
				if slices.Contains(f.verts, w) || slices.Contains(best[:nb], w) {
					continue
				}
				dw := depth(w)
				if !(dw <= margin) || dw-dv > tipSin*h.verts[w].Sub(h.verts[v]).Norm() {
					continue
				}
				nb = keepDeepest(&best, &phi, nb, w, dw, tol)
			}
		}
	}
	for k := range nb {
		p := b.toWorld(h.verts[best[k]])
		out = append(out, Contact{Point: p.Sub(n.Scale(phi[k] / 2)), Normal: n, Phi: phi[k], Feature: featVert | uint32(best[k])&0x7ffffff})
	}
	return out
}

// keepDeepest inserts vertex v of depth d into best (sorted deepest first,
// depths within tol ordered by vertex index) and keeps the first
// maxTipVerts; it returns their number.
func keepDeepest(best *[maxTipVerts]int32, phi *[maxTipVerts]float64, nb int, v int32, d, tol float64) int {
	before := func(k int) bool { // v goes before best[k]
		if math.Abs(d-phi[k]) > tol {
			return d < phi[k]
		}
		return v < best[k]
	}
	if nb == maxTipVerts && !before(nb-1) {
		return nb
	}
	if nb < maxTipVerts {
		nb++
	}
	k := nb - 1
	for k > 0 && before(k-1) {
		best[k], phi[k] = best[k-1], phi[k-1]
		k--
	}
	best[k], phi[k] = v, d
	return nb
}

// hullFaceWorld stores the world corners of face f of the hull p in buf.
func hullFaceWorld(p *posed, f *hullFace, buf *[maxHullFaceVerts]spatial.Vec3) []spatial.Vec3 {
	for k, v := range f.verts {
		buf[k] = p.toWorld(p.s.Hull.verts[v])
	}
	return buf[:len(f.verts)]
}

// polytopePair handles a box or hull A against a hull B.
func polytopePair(a, b *posed, margin float64, out []Contact) []Contact {
	scale := a.size() + b.size()
	if b.pos.Sub(a.pos).Norm()-scale > margin {
		return out
	}
	ca, cb := coreOf(a), coreOf(b)
	g := gjk(&ca, &cb, scale)
	var n, wa, wb spatial.Vec3
	var phi float64
	if !g.near {
		if g.dist > margin {
			return out
		}
		n, wa, wb, phi = g.normal, g.wa, g.wb, g.dist
	} else {
		var e epa
		var depth float64
		var nd spatial.Vec3
		depth, nd, wa, wb = e.penetration(&ca, &cb, &g.s, scale)
		n, phi = nd.Neg(), -depth
	}
	fa, ca2 := polyFaceAlong(a, n)
	fb, cb2 := polyFaceAlong(b, n.Neg())
	useA := ca2 >= faceAngleCos && (cb2 < faceAngleCos || math.Acos(min(ca2, 1)) <= math.Acos(min(cb2, 1))+faceAlignAngle)
	useB := !useA && cb2 >= faceAngleCos
	if useA || useB {
		m := len(out)
		var zmin float64
		var ok bool
		if useA {
			out, zmin, ok = polyFaceManifold(out, margin, a, b, fa, false)
		} else {
			out, zmin, ok = polyFaceManifold(out, margin, b, a, fb, true)
		}
		if ok && zmin <= margin && math.Abs(zmin-phi) <= max(touchTol*scale, faceSlack*margin) {
			return out
		}
		out = out[:m]
	}
	return appendCore(out, margin, &ca, &cb, wa, wb, n, phi)
}

// faceAlignAngle is faceAlignCos as an angle (radians).
var faceAlignAngle = math.Acos(faceAlignCos)

// polyFaceAlong returns the face of the box or hull p whose outward normal
// is best aligned with the world unit n, and the cosine between them. For
// a hull only the faces at the support vertex along n are candidates.
func polyFaceAlong(p *posed, n spatial.Vec3) (int, float64) {
	nl := p.rot.MulTVec(n)
	if p.s.Kind == Box {
		i := 0
		for k := 1; k < 3; k++ {
			if math.Abs(nl[k]) > math.Abs(nl[i]) {
				i = k
			}
		}
		return boxFaceID(i, sign(nl[i])), math.Abs(nl[i])
	}
	h := p.s.Hull
	best, bc := -1, math.Inf(-1)
	for _, f := range h.facesAround(h.support(nl)) {
		if c := h.faces[f].n.Dot(nl); c > bc {
			best, bc = int(f), c
		}
	}
	return best, bc
}

// polyFaceManifold appends the face manifold of face fi of ref (a box or
// hull) against the most opposed face of inc; flip is set when ref is the
// second shape of the pair.
func polyFaceManifold(out []Contact, margin float64, ref, inc *posed, fi int, flip bool) ([]Contact, float64, bool) {
	var rf refFace
	var sides [4]sideLine
	if ref.s.Kind == Box {
		sides = boxRefFace(&rf, ref, fi/2, float64(2*(fi%2)-1))
		rf.sides = sides[:]
	} else {
		f := &ref.s.Hull.faces[fi]
		rf.n = ref.rot.MulVec(f.n)
		rf.u = ref.rot.MulVec(f.u)
		rf.v = rf.n.Cross(rf.u)
		rf.c = ref.toWorld(ref.s.Hull.verts[f.verts[0]])
		rf.sides = f.sides
		rf.width = f.width
	}
	var buf [maxHullFaceVerts]spatial.Vec3
	var corners []spatial.Vec3
	var incN spatial.Vec3
	var incID int
	var w float64
	if inc.s.Kind == Box {
		d := axisDots(inc, &rf.n)
		m, s := incidentFace(inc, &d, (*[4]spatial.Vec3)(buf[:4]))
		corners = buf[:4]
		incN, incID = inc.axis(m).Scale(s), boxFaceID(m, s)
		h := inc.s.HalfExtents
		w = 2 * math.Hypot(h[(m+1)%3], h[(m+2)%3])
	} else {
		h := inc.s.Hull
		incID = h.incidentFace(inc.rot.MulTVec(rf.n))
		f := &h.faces[incID]
		corners = hullFaceWorld(inc, f, &buf)
		incN, w = inc.rot.MulVec(f.n), f.width
	}
	tol := tieTol * (ref.size() + inc.size())
	return faceManifold(out, margin, &rf, corners, incN, w, faceFeature(flip, fi, incID), flip, tol)
}
