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
	radii spatial.Vec3 // ellipsoid semi-axes
	hull  *Hull
}

func coreOf(p *posed) core {
	c := core{kind: p.s.Kind, rot: p.rot, pos: p.pos, h: p.s.HalfExtents, l: p.s.HalfLength, radii: p.s.Radii, hull: p.s.Hull}
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
	case Ellipsoid:
		p = ellipsoidSupport(c.radii, dl)
	case ConvexHull:
		p = c.hull.verts[c.hull.support(dl)]
	}
	return c.toWorld(p)
}

// ellipsoidSupport returns the point of the ellipsoid with semi-axes r
// furthest along the local direction d: D²d/‖Dd‖ with D = diag(r); the
// pole (0, 0, r_z) for d = 0.
func ellipsoidSupport(r, d spatial.Vec3) spatial.Vec3 {
	dd := d.Mul(r)
	l := dd.Norm()
	if !(l > minNormLen) {
		return spatial.Vec3{0, 0, r[2]}
	}
	return dd.Mul(r).Scale(1 / l)
}

func (c *core) toWorld(p spatial.Vec3) spatial.Vec3 { return c.rot.MulVec(p).Add(c.pos) }

// flatSupportTol is the relative size below which a component of a
// direction counts as zero when finding a support set: directions within
// about 1e-6 rad of a face normal see the whole face.
const flatSupportTol = 1e-6

// nearestSupport returns the point nearest p of the core's support set in
// the world direction d: the face, edge or vertex of a box, the cap disc,
// side segment or rim point of a cylinder, the end point or whole segment of
// a capsule's axis. Every coordinate of the set is either fixed or an
// interval (or a disc), so the nearest point is a clamp.
func (c *core) nearestSupport(d, p spatial.Vec3) spatial.Vec3 {
	dl := c.rot.MulTVec(d)
	tol := flatSupportTol * dl.Norm()
	pl := c.rot.MulTVec(p.Sub(c.pos))
	var q spatial.Vec3
	pick := func(dc, pc, h float64) float64 {
		if math.Abs(dc) > tol {
			return sign(dc) * h
		}
		return clamp(pc, -h, h)
	}
	switch c.kind {
	case Box:
		for i := range 3 {
			q[i] = pick(dl[i], pl[i], c.h[i])
		}
	case Capsule:
		q[2] = pick(dl[2], pl[2], c.l)
	case Cylinder:
		q[2] = pick(dl[2], pl[2], c.l)
		if rho := math.Hypot(dl[0], dl[1]); rho > tol {
			q[0], q[1] = c.r*dl[0]/rho, c.r*dl[1]/rho
		} else if rp := math.Hypot(pl[0], pl[1]); rp > c.r {
			q[0], q[1] = c.r*pl[0]/rp, c.r*pl[1]/rp
		} else {
			q[0], q[1] = pl[0], pl[1]
		}
	case Ellipsoid:
		q = ellipsoidSupport(c.radii, dl)
	case ConvexHull:
		q = c.hull.nearestSupport(dl, pl, tol)
	}
	return c.toWorld(q)
}

// suppPt is a support point w = b − a of the Minkowski difference B − A of
// two cores, with the points a and b it came from.
type suppPt struct{ w, a, b spatial.Vec3 }

// supportDiff returns the support point of B − A in direction d.
func supportDiff(a, b *core, d spatial.Vec3) suppPt {
	pa, pb := a.support(d.Neg()), b.support(d)
	return suppPt{w: pb.Sub(pa), a: pa, b: pb}
}
