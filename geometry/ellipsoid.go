package geometry

// halfSpaceEllipsoid reports the deepest point of the ellipsoid B below
// the plane of the half-space A: its support point along −n, exact.
func halfSpaceEllipsoid(a, b *posed, margin float64, out []Contact) []Contact {
	n := a.axis(2)
	p := b.toWorld(ellipsoidSupport(b.s.Radii, b.rot.MulTVec(n.Neg())))
	h := n.Dot(p.Sub(a.pos))
	return appendContact(out, margin, p.AddScaled(-h, n), p, n, h)
}
