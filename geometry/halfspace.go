package geometry

import "github.com/stiction-sim/stiction/spatial"

// Contacts against a half-space A. The normal is always A's outward normal
// n, and a point v of B at height h = n·(v − o) above the boundary plane
// through o gives the contact (witness v − h n on the plane, v on B, Phi = h).

// maxPlanePoints bounds the manifold of a box or cylinder on a half-space.
const maxPlanePoints = 4

// flatTol is the sine of the tilt below which a cylinder's cap counts as
// parallel to a plane; its rim points are then taken in a fixed basis.
const flatTol = 1e-9

func halfSpaceSphere(a, b *posed, margin float64, out []Contact) []Contact {
	n := a.axis(2)
	c := b.pos
	h := n.Dot(c.Sub(a.pos))
	return appendContact(out, margin, c.AddScaled(-h, n), c.AddScaled(-b.s.Radius, n), n, h-b.s.Radius)
}

func halfSpaceCapsule(a, b *posed, margin float64, out []Contact) []Contact {
	n := a.axis(2)
	ax := b.axis(2).Scale(b.s.HalfLength)
	r := b.s.Radius
	for _, e := range [2]spatial.Vec3{b.pos.Sub(ax), b.pos.Add(ax)} {
		h := n.Dot(e.Sub(a.pos))
		out = appendContact(out, margin, e.AddScaled(-h, n), e.AddScaled(-r, n), n, h-r)
	}
	return out
}

func halfSpaceBox(a, b *posed, margin float64, out []Contact) []Contact {
	var pts [8]spatial.Vec3
	he := b.s.HalfExtents
	ex, ey, ez := b.axis(0).Scale(he[0]), b.axis(1).Scale(he[1]), b.axis(2).Scale(he[2])
	for i := range pts {
		v := b.pos
		v = v.AddScaled(float64(2*(i&1)-1), ex)
		v = v.AddScaled(float64((i&2)-1), ey)
		v = v.AddScaled(float64((i&4)/2-1), ez)
		pts[i] = v
	}
	return appendDeepest(out, margin, a, pts[:])
}

// halfSpaceCylinder takes its candidates on the rim of the lower cap (the
// deepest rim point, the two at a quarter turn and the highest) and the
// deepest rim point of the upper cap. A cylinder standing on a cap thus gives
// four points, one lying on its side gives the two ends of the line of
// contact, and a tilted one gives its deepest rim point.
func halfSpaceCylinder(a, b *posed, margin float64, out []Contact) []Contact {
	n := a.axis(2)
	ax := b.axis(2)
	na := n.Dot(ax)
	bottom := b.pos.AddScaled(-b.s.HalfLength, ax)
	top := b.pos.AddScaled(b.s.HalfLength, ax)
	if na < 0 {
		bottom, top = top, bottom
	}
	u, _ := spatial.Orthonormal(ax) // any rim direction when a cap is flat on the plane
	if p := n.AddScaled(-na, ax); p.Norm() > flatTol {
		u = p.AddScaled(-p.Dot(ax), ax) // remove the rounding error along the axis
		u = u.Scale(-1 / u.Norm())      // along the rim, towards the plane
	}
	w := ax.Cross(u)
	r := b.s.Radius
	pts := [5]spatial.Vec3{
		bottom.AddScaled(r, u), bottom.AddScaled(r, w), bottom.AddScaled(-r, w), bottom.AddScaled(-r, u),
		top.AddScaled(r, u),
	}
	return appendDeepest(out, margin, a, pts[:])
}

// appendDeepest appends the contacts of the points of B pts against the
// half-space a whose height is at most margin, at most maxPlanePoints of
// them: the deepest, ties going to the earlier point.
func appendDeepest(out []Contact, margin float64, a *posed, pts []spatial.Vec3) []Contact {
	n := a.axis(2)
	var idx [8]int
	var hs [8]float64
	k := 0
	for i, p := range pts {
		h := n.Dot(p.Sub(a.pos))
		if !(h <= margin) {
			continue
		}
		j := k // insertion sort by height, stable
		for ; j > 0 && hs[j-1] > h; j-- {
			hs[j], idx[j] = hs[j-1], idx[j-1]
		}
		hs[j], idx[j] = h, i
		k++
	}
	for j := range min(k, maxPlanePoints) {
		p, h := pts[idx[j]], hs[j]
		out = append(out, Contact{Point: p.AddScaled(-h/2, n), Normal: n, Phi: h})
	}
	return out
}
