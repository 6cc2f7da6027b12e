package geometry

// halfSpaceHull reports the deepest vertex of the hull B below the plane of
// the half-space A.
func halfSpaceHull(a, b *posed, margin float64, out []Contact) []Contact {
	n := a.axis(2)
	p := b.toWorld(b.s.Hull.verts[b.s.Hull.support(b.rot.MulTVec(n.Neg()))])
	h := n.Dot(p.Sub(a.pos))
	return appendContact(out, margin, p.AddScaled(-h, n), p, n, h)
}

func polytopePair(a, b *posed, margin float64, out []Contact) []Contact {
	return convexConvex(a, b, margin, out)
}
