package geometry

// convexConvex serves every pair with a cylinder (other than with a
// half-space) through GJK on the cores and, when the cores overlap or
// nearly touch, EPA. Both results are refined by polishDepth, and Phi is
// the exact gap between the cores along the final normal, less the
// rounding radii. It returns one contact.
func convexConvex(a, b *posed, margin float64, out []Contact) []Contact {
	scale := a.size() + b.size()
	if b.pos.Sub(a.pos).Norm()-scale > margin { // bounding spheres apart
		return out
	}
	ca, cb := coreOf(a), coreOf(b)
	rr := ca.round + cb.round
	g := gjk(&ca, &cb, scale)
	if !g.near {
		// GJK's normal is accurate to about √ε·scale/dist; polish it.
		u := g.normal.Neg()
		u, h := polishDepth(&ca, &cb, u, u.Dot(supportDiff(&ca, &cb, u).w), gjkPolishStep, scale)
		n := u.Neg()
		return appendContact(out, margin, g.wa.AddScaled(ca.round, n), g.wb.AddScaled(-cb.round, n), n, -h-rr)
	}
	var e epa
	depth, nd, wa, wb := e.penetration(&ca, &cb, &g.s, scale)
	n := nd.Neg()
	return appendContact(out, margin, wa.AddScaled(ca.round, n), wb.AddScaled(-cb.round, n), n, -depth-rr)
}

// gjkPolishStep is the initial step (radians) of the search that refines a
// GJK normal.
const gjkPolishStep = 1e-7
