package geometry

import "github.com/stiction-sim/stiction/spatial"

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
	return convexCores(&ca, &cb, scale, margin, out)
}

// convexCores is convexConvex on two cores, with scale the sum of their
// sizes.
func convexCores(ca, cb *core, scale, margin float64, out []Contact) []Contact {
	g := gjk(ca, cb, scale)
	if !g.near {
		// GJK's normal is accurate to about √ε·scale/dist, which leaves the
		// gap along it within rounding of dist unless GJK stalled on a
		// curved surface; then the normal is polished.
		u := g.normal.Neg()
		h := u.Dot(supportDiff(ca, cb, u).w) // −(gap along the normal) ≥ −dist
		if g.dist+h > gjkPolishTol*scale {
			u, h = polishDepth(ca, cb, u, h, gjkPolishStep, scale)
		}
		return appendCore(out, margin, ca, cb, g.wa, g.wb, u.Neg(), -h)
	}
	var e epa
	depth, nd, wa, wb := e.penetration(ca, cb, &g.s, scale)
	return appendCore(out, margin, ca, cb, wa, wb, nd.Neg(), -depth)
}

// appendCore appends the contact of the cores with normal n (from A to B),
// gap phi between the cores along n and witness estimates wa and wb. The
// witnesses are moved onto the two support sets along n (a face, segment,
// disc or point of each core) by alternating nearest-point projections
// started from the estimates' midpoint, which pairs them up across the gap:
// a unique support point (a rim or vertex) is matched by the point of the
// other set nearest it. The rounding radii then move them out.
func appendCore(out []Contact, margin float64, ca, cb *core, wa, wb, n spatial.Vec3, phi float64) []Contact {
	wa = wa.Add(wb).Scale(0.5)
	for range 2 {
		wb = cb.nearestSupport(n.Neg(), wa)
		wa = ca.nearestSupport(n, wb)
	}
	return appendContact(out, margin, wa.AddScaled(ca.round, n), wb.AddScaled(-cb.round, n), n, phi-ca.round-cb.round)
}

// A GJK normal whose gap falls short of the GJK distance by more than
// gjkPolishTol (relative) is refined by a search starting with steps of
// gjkPolishStep radians.
const (
	gjkPolishTol  = 1e-12
	gjkPolishStep = 1e-6
)
