package geometry

import (
	"math"

	"github.com/stiction-sim/stiction/spatial"
)

// core splits a posed shape into a core (a point for a sphere, a segment for
// a capsule, the solid itself for a box or cylinder) and a rounding radius:
// the shape is the set of points within round of the core. GJK and EPA run
// on the cores, which keeps them exact for spheres and capsules and away
// from the curved surfaces as long as the cores are apart.
type core struct {
	kind  Kind
	rot   spatial.Mat3
	pos   spatial.Vec3
	h     spatial.Vec3 // box half extents
	l     float64      // capsule or cylinder half length
	r     float64      // cylinder radius
	round float64      // sphere or capsule radius
}

func coreOf(p *posed) core {
	c := core{kind: p.s.Kind, rot: p.rot, pos: p.pos, h: p.s.HalfExtents, l: p.s.HalfLength}
	switch p.s.Kind {
	case Sphere, Capsule:
		c.round = p.s.Radius
	case Cylinder:
		c.r = p.s.Radius
	}
	return c
}

// support returns a point of the core that is furthest in the world
// direction d. Ties are broken towards the positive local axes, so the
// result is a deterministic function of d.
func (c *core) support(d spatial.Vec3) spatial.Vec3 {
	dl := c.rot.MulTVec(d)
	var p spatial.Vec3
	switch c.kind {
	case Box:
		p = spatial.Vec3{sign(dl[0]) * c.h[0], sign(dl[1]) * c.h[1], sign(dl[2]) * c.h[2]}
	case Capsule:
		p[2] = sign(dl[2]) * c.l
	case Cylinder:
		p[2] = sign(dl[2]) * c.l
		if rho := math.Hypot(dl[0], dl[1]); rho > minNormLen {
			p[0], p[1] = c.r*dl[0]/rho, c.r*dl[1]/rho
		}
	}
	return c.toWorld(p)
}

func (c *core) toWorld(p spatial.Vec3) spatial.Vec3 { return c.rot.MulVec(p).Add(c.pos) }

// suppPt is a support point w = b − a of the Minkowski difference B − A of
// two cores, with the points a and b it came from.
type suppPt struct{ w, a, b spatial.Vec3 }

// supportDiff returns the support point of B − A in direction d.
func supportDiff(a, b *core, d spatial.Vec3) suppPt {
	pa, pb := a.support(d.Neg()), b.support(d)
	return suppPt{w: pb.Sub(pa), a: pa, b: pb}
}
