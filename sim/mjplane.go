package sim

import (
	"github.com/stiction-sim/stiction/geometry"
	"github.com/stiction-sim/stiction/geometry/mjccd"
	"github.com/stiction-sim/stiction/spatial"
)

// mujocoPlaneConvex appends to out the contacts of plane g1 and geom g2
// from MuJoCo 2.2.2's plane colliders other than mjc_PlaneBox when g2 is
// an ellipsoid or a mesh (mjc_PlaneConvex, mjccd.PlaneConvex) or a
// cylinder (mjc_PlaneCylinder, mjccd.PlaneCylinder), and reports whether
// it took the pair. As mujocoPlaneBox, it collides with margin 0 first
// and, when that gives nothing, with slack (contacts with Phi > 0, which
// the narrow phase keeps only as speculative pairs). Flip says g2 is the
// pair's A, whose normal then points from g2 to the plane; each contact's
// Feature is its index in MuJoCo's order.
func mujocoPlaneConvex(g1, g2 *mjccd.Geom, flip bool, slack float64, out []geometry.Contact) ([]geometry.Contact, bool) {
	if g1.Type != mjccd.Plane {
		return out, false
	}
	if g2.Type != mjccd.Ellipsoid && g2.Type != mjccd.Mesh && g2.Type != mjccd.Cylinder {
		return out, false
	}
	var buf [mjccd.MaxPlaneCylinder]mjccd.Contact
	hits := planeHits(g1, g2, 0, buf[:0])
	if len(hits) == 0 && slack > 0 {
		hits = planeHits(g1, g2, slack, buf[:0])
	}
	for k, h := range hits {
		n := spatial.Vec3(h.Normal)
		if flip {
			n = n.Scale(-1)
		}
		out = append(out, geometry.Contact{Point: spatial.Vec3(h.Pos), Normal: n, Phi: h.Dist, Feature: uint32(k)})
	}
	return out, true
}

// planeHits is mjccd.PlaneCylinder for a cylinder g, else
// mjccd.PlaneConvex (a direct call: buf stays on the caller's stack).
func planeHits(p, g *mjccd.Geom, margin float64, buf []mjccd.Contact) []mjccd.Contact {
	if g.Type == mjccd.Cylinder {
		return mjccd.PlaneCylinder(p, g, margin, buf)
	}
	return mjccd.PlaneConvex(p, g, margin, buf)
}
