package sim

import (
	"github.com/stiction-sim/stiction/contact"
	"github.com/stiction-sim/stiction/geometry"
	"github.com/stiction-sim/stiction/geometry/mjccd"
	"github.com/stiction-sim/stiction/multibody"
	"github.com/stiction-sim/stiction/spatial"
)

// mujocoConvex appends to out the contacts of geometries i and j (poses
// xi, xj) from MuJoCo 2.2.2's convex collider (mjc_Convex, package
// geometry/mjccd) and reports true when the pair is one that MuJoCo
// collides there (contact.Params.MuJoCoCollider): the pair's combined
// material MuJoCo's soft one solved with MuJoCo's rows (mujoco-euler or rk4), no
// standoff (MuJoCo's margin 0), and a type pair of mjccd.Table, a mesh
// only with MuJoCo's compiled mesh (geometry.Hull.MuJoCo). MuJoCo orders
// the pair by type (geom 1 the lower mjtGeom, else the lower index) and
// its normal points from geom 1 to geom 2; the contacts are given with
// i as A. Other pairs return false, leaving out as it was.
func (sim *Simulator) mujocoConvex(i, j int, xi, xj spatial.Pose, out []geometry.Contact) ([]geometry.Contact, bool) {
	prm := &sim.cfg.Contact
	if !prm.MuJoCoCollider {
		return out, false
	}
	if m := sim.scheme.Method; m != MuJoCoEulerRule && m != RungeKutta4 {
		return out, false
	}
	m := sim.Model
	ga, gb := &m.Geometries[i], &m.Geometries[j]
	if ga.Standoff != 0 || gb.Standoff != 0 {
		return out, false
	}
	mats := sim.cfg.Materials
	if ga.Material >= len(mats) || gb.Material >= len(mats) || !contact.Combine(mats[ga.Material], mats[gb.Material]).MuJoCoSoft() {
		return out, false
	}
	var a, b mjccd.Geom
	if !mjGeom(ga, xi, &a) || !mjGeom(gb, xj, &b) || !mjccd.Table(a.Type, b.Type) {
		return out, false
	}
	flip := a.Type > b.Type
	g1, g2 := &a, &b
	if flip {
		g1, g2 = &b, &a
	}
	opt := mjccd.DefaultOptions
	opt.MultiCCD = prm.MultiCCD
	if prm.MPRTolerance > 0 {
		opt.Tolerance = prm.MPRTolerance
	}
	if prm.MPRIterations > 0 {
		opt.Iterations = prm.MPRIterations
	}
	var buf [mjccd.MaxContacts]mjccd.Contact
	for k, c := range mjccd.Convex(g1, g2, 0, opt, buf[:0]) {
		n := spatial.Vec3(c.Normal)
		if flip {
			n = n.Scale(-1)
		}
		out = append(out, geometry.Contact{Point: spatial.Vec3(c.Pos), Normal: n, Phi: c.Dist, Feature: uint32(k)})
	}
	return out, true
}

// mjGeom sets g to geometry ge at world pose x as MuJoCo holds it
// (geom type, size, geom_xpos, geom_xmat, geom_rbound) and reports
// whether MuJoCo's convex collider can take it.
func mjGeom(ge *multibody.Geometry, x spatial.Pose, g *mjccd.Geom) bool {
	s := &ge.Shape
	switch s.Kind {
	case geometry.Sphere:
		g.Type, g.Size = mjccd.Sphere, [3]float64{s.Radius}
	case geometry.Capsule:
		g.Type, g.Size = mjccd.Capsule, [3]float64{s.Radius, s.HalfLength}
	case geometry.Cylinder:
		g.Type, g.Size = mjccd.Cylinder, [3]float64{s.Radius, s.HalfLength}
	case geometry.Ellipsoid:
		g.Type, g.Size = mjccd.Ellipsoid, [3]float64(s.Radii)
	case geometry.Box:
		g.Type, g.Size = mjccd.Box, [3]float64(s.HalfExtents)
	case geometry.ConvexHull:
		mm := s.Hull.MuJoCo()
		if mm == nil {
			return false
		}
		g.Type, g.Mesh, g.RBound = mjccd.Mesh, &mm.Data, mm.RBound
		x = x.Compose(mm.Frame)
	default:
		return false
	}
	g.RBound = mjccd.RBound(g)
	g.Pos = [3]float64(x.P)
	g.Mat = mjccd.QuatToMat([4]float64{x.R.W, x.R.X, x.R.Y, x.R.Z}) // as MuJoCo rounds xmat: MPR's points can jump with the last bit of a flat contact's pose
	return true
}
