package sim

import (
	"math"

	"github.com/stiction-sim/stiction/contact"
	"github.com/stiction-sim/stiction/geometry"
	"github.com/stiction-sim/stiction/geometry/mjccd"
	"github.com/stiction-sim/stiction/multibody"
	"github.com/stiction-sim/stiction/spatial"
)

// mujocoConvex appends to out the contacts of geometries i and j (at c's
// poses) from MuJoCo 2.2.2's convex collider (mjc_Convex, package
// geometry/mjccd) and reports true when the pair is one that MuJoCo
// collides there (contact.Params.MuJoCoCollider), for a pair that
// mujocoMay admits: the pair's combined
// material MuJoCo's soft one solved with MuJoCo's rows (mujoco-euler,
// mujoco-implicit or rk4), no standoff (MuJoCo's margin 0), and a type
// pair of mjccd.Table, a plane and a box (mjc_PlaneBox,
// mujocoPlaneBox), a plane and an ellipsoid, a mesh or a cylinder
// (mjc_PlaneConvex, mjc_PlaneCylinder: mujocoPlaneConvex), two boxes
// (mjc_BoxBox, mujocoBoxBox) or a sphere or capsule and a box
// (mjc_SphereBox, mjc_CapsuleBox: mujocoRoundBox), a height field and
// any of those geoms (mjc_ConvexHField: mujocoHField), a mesh only with
// MuJoCo's compiled mesh (geometry.Hull.MuJoCo). MuJoCo orders
// the pair by type (geom 1 the lower mjtGeom, else the lower index) and
// its normal points from geom 1 to geom 2; the contacts are given with
// i as A. Other pairs return false, leaving out as it was. Slack is the
// narrow phase's margin for the pair (its speculative one included), which
// only a plane and a box use (mujocoPlaneBox). The caller has asked
// mujocoMay, which does not change after New: once per listed pair
// (pairRoute.mj), or at the call (treePair).
func (sim *Simulator) mujocoConvex(c *collider, i, j int, slack float64, out []geometry.Contact) ([]geometry.Contact, bool) {
	ga, gb := &sim.Model.Geometries[i], &sim.Model.Geometries[j]
	var a, b mjccd.Geom
	if !mjGeom(ga, &c.poses[i], c.kin, &a) || !mjGeom(gb, &c.poses[j], c.kin, &b) {
		return out, false
	}
	flip := a.Type > b.Type
	g1, g2 := &a, &b
	if flip {
		g1, g2 = &b, &a
	}
	if g1.Type == mjccd.HField { // mjc_ConvexHField (mujocoHField)
		return sim.mujocoHField(g1, g2, flip, out)
	}
	if mm := max(ga.Margin, gb.Margin); mm > 0 { // MuJoCo's contacts within the geoms' margin (adhesion_collide.go)
		if hits, ok := mujocoMargin(g1, g2, flip, mm, slack, out); ok {
			return hits, true
		}
	}
	if g1.Type == mjccd.Plane && g2.Type == mjccd.Box {
		return mujocoPlaneBox(g1, g2, flip, slack, out), true
	}
	if hits, ok := mujocoPlaneConvex(g1, g2, flip, slack, out); ok { // mjc_PlaneConvex, mjc_PlaneCylinder (mjplane.go)
		return hits, true
	}
	if g1.Type == mjccd.Box && g2.Type == mjccd.Box { // mjc_BoxBox (mjccd_box.go)
		return mujocoBoxBox(g1, g2, slack, out), true
	}
	if (g1.Type == mjccd.Sphere || g1.Type == mjccd.Capsule) && g2.Type == mjccd.Box { // mjc_SphereBox, mjc_CapsuleBox (mjccd_box.go)
		return mujocoRoundBox(g1, g2, flip, slack, out), true
	}
	if !mjccd.Table(a.Type, b.Type) {
		return out, false
	}
	var buf [mjccd.MaxContacts]mjccd.Contact
	return appendMJ(mjccd.Convex(g1, g2, 0, sim.mprOptions(), buf[:0]), flip, out), true
}

// mujocoMay reports whether mujocoConvex may collide geometries i and j,
// on what does not change after New (the configuration, the model's
// geometries and the materials): the collider and one of MuJoCo's
// integrators (mujoco-euler, mujoco-implicit, rk4) on, not two analytic
// kinds, no standoff and a combined material MuJoCo's soft one.
func (sim *Simulator) mujocoMay(i, j int) bool {
	if !sim.cfg.Contact.MuJoCoCollider || !sim.mujocoLimits() {
		return false
	}
	ga, gb := &sim.Model.Geometries[i], &sim.Model.Geometries[j]
	if analyticKind(ga.Shape.Kind) && analyticKind(gb.Shape.Kind) {
		return false // before the materials: most pairs of the MJCF robots
	}
	if ga.Standoff != 0 || gb.Standoff != 0 {
		return false
	}
	mats := sim.cfg.Materials
	return ga.Material < len(mats) && gb.Material < len(mats) && contact.Combine(mats[ga.Material], mats[gb.Material]).MuJoCoSoft()
}

// mprOptions are MuJoCo's MPR settings of the simulator's contact
// parameters (mjOption's mpr_tolerance, mpr_iterations, multiccd).
func (sim *Simulator) mprOptions() mjccd.Options {
	prm := &sim.cfg.Contact
	opt := mjccd.DefaultOptions
	opt.MultiCCD = prm.MultiCCD
	if prm.MPRTolerance > 0 {
		opt.Tolerance = prm.MPRTolerance
	}
	if prm.MPRIterations > 0 {
		opt.Iterations = prm.MPRIterations
	}
	return opt
}

// appendMJ appends MuJoCo's contacts hits to out, the k-th with Feature
// k, its normal reversed when flip (the pair's A is MuJoCo's geom 2).
func appendMJ(hits []mjccd.Contact, flip bool, out []geometry.Contact) []geometry.Contact {
	for k, h := range hits {
		n := spatial.Vec3(h.Normal)
		if flip {
			n = n.Scale(-1)
		}
		out = append(out, geometry.Contact{Point: spatial.Vec3(h.Pos), Normal: n, Phi: h.Dist, Feature: uint32(k)})
	}
	return out
}

// mujocoHField appends to out the contacts of height field g1 and convex
// geom g2 from MuJoCo 2.2.2's mjc_ConvexHField (mjccd.ConvexHField,
// margin 0 as mujocoConvex's pairs have: up to mjMAXCONPAIR, one per cell
// prism that MPR finds overlapping); flip says g2 is the pair's A. A
// plane or another field never touches a field in MuJoCo (no collision
// function): no contacts.
func (sim *Simulator) mujocoHField(g1, g2 *mjccd.Geom, flip bool, out []geometry.Contact) ([]geometry.Contact, bool) {
	if g2.Type <= mjccd.HField {
		return out, true
	}
	var buf [mjccd.MaxHFieldContacts]mjccd.Contact
	return appendMJ(mjccd.ConvexHField(g1, g2, 0, sim.mprOptions(), buf[:0]), flip, out), true
}

// analyticKind reports whether a geometry of kind k is a half-space, a
// sphere or a capsule: a pair of two such (a plane and a capsule, two
// capsules) is one of MuJoCo's analytic colliders (mjc_PlaneSphere,
// mjc_PlaneCapsule, mjc_SphereCapsule, mjc_CapsuleCapsule, ...), never its
// convex collider's (mjccd.Table), and none of mujocoConvex's ports
// takes it.
func analyticKind(k geometry.Kind) bool {
	return k == geometry.HalfSpace || k == geometry.Sphere || k == geometry.Capsule
}

// mujocoPlaneBox appends to out the contacts of plane g1 and box g2 from
// MuJoCo 2.2.2's mjc_PlaneBox (mjccd.PlaneBox, margin 0 as
// mujocoConvex's pairs have), in MuJoCo's corner order, each with its
// corner index as Feature; flip says the box is the pair's A, whose
// normal then points from the box to the plane. When no corner touches,
// it gives instead the corners within slack (Phi > 0, which the narrow
// phase keeps only as speculative pairs): an rk4 step collides at its
// stages only when its start has pairs, and MuJoCo's stages find the
// box's landing (TestRK4PyramidSlide); margin 0 first keeps MuJoCo's
// first four when it touches, as a positive margin would let corners
// above the plane take their places.
func mujocoPlaneBox(g1, g2 *mjccd.Geom, flip bool, slack float64, out []geometry.Contact) []geometry.Contact {
	var buf [mjccd.MaxPlaneBox]mjccd.Contact
	var corners [mjccd.MaxPlaneBox]int
	hits, ids := mjccd.PlaneBox(g1, g2, 0, buf[:0], corners[:0])
	if len(hits) == 0 && slack > 0 {
		hits, ids = mjccd.PlaneBox(g1, g2, slack, buf[:0], corners[:0])
	}
	for k, h := range hits {
		n := spatial.Vec3(h.Normal)
		if flip {
			n = n.Scale(-1)
		}
		out = append(out, geometry.Contact{Point: spatial.Vec3(h.Pos), Normal: n, Phi: h.Dist, Feature: uint32(ids[k])})
	}
	return out
}

// mjGeom sets g to geometry ge at world pose *x (on its body, whose pose
// kin holds) as MuJoCo holds it (geom type, size, geom_xpos, geom_xmat,
// geom_rbound) and reports whether MuJoCo's convex collider can take it.
// Every kind but a mesh ends in one tail, so that a plane and a box (dm
// stacker's pairs) run the same inlined quaternion-to-matrix code.
func mjGeom(ge *multibody.Geometry, x *spatial.Pose, kin *multibody.Workspace, g *mjccd.Geom) bool {
	s := &ge.Shape
	switch s.Kind {
	case geometry.HalfSpace: // a plane: mjc_PlaneBox reads its geom_xpos and geom_xmat's normal only
		g.Type, g.RBound = mjccd.Plane, 0
	case geometry.HeightField: // mjc_ConvexHField reads the field's geom_xpos and geom_xmat
		g.Type, g.Field, g.RBound = mjccd.HField, s.Field.MuJoCo(), 0
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
		meshGeomPose(kin.Pose(ge.Body), ge.Pose, mm.Frame, g)
		return true
	default:
		return false
	}
	g.RBound = mjccd.RBound(g) // a plane's and a field's 0, as set
	g.Pos = [3]float64(x.P)
	g.Mat = mjccd.QuatToMat([4]float64{x.R.W, x.R.X, x.R.Y, x.R.Z}) // as MuJoCo rounds xmat: MPR's points can jump with the last bit of a flat contact's pose
	return true
}

// meshGeomPose sets g's geom_xpos and geom_xmat for a mesh geom at local
// pose l on a body at pose b, whose mesh frame (centre of mass, principal
// axes) is f in the geom's frame, with MuJoCo 2.2.2's arithmetic: the
// compiler's geom_pos and geom_quat (mjCGeom::Compile's mjuu_frameaccum:
// p = l.P + R(l.R)·f.P with mjuu_quat2mat and mjuu_mulvecmat, q =
// mjuu_mulquat(l.R, f.R), normalized), then mj_kinematics'
// mj_local2Global (geom_xpos = xmat·p + xpos with xmat =
// mju_quat2Mat(xquat), geom_xmat = mju_quat2Mat(mju_mulQuat(xquat, q))).
func meshGeomPose(b, l, f spatial.Pose, g *mjccd.Geom) {
	lq := [4]float64{l.R.W, l.R.X, l.R.Y, l.R.Z}
	lm := mjccd.QuatToMat(lq) // mjuu_quat2mat's products and sums are mju_quat2Mat's
	p := [3]float64{
		l.P[0] + (lm[0]*f.P[0] + lm[1]*f.P[1] + lm[2]*f.P[2]),
		l.P[1] + (lm[3]*f.P[0] + lm[4]*f.P[1] + lm[5]*f.P[2]),
		l.P[2] + (lm[6]*f.P[0] + lm[7]*f.P[1] + lm[8]*f.P[2]),
	}
	q := mulQuat(lq, [4]float64{f.R.W, f.R.X, f.R.Y, f.R.Z})
	if n := q[0]*q[0] + q[1]*q[1] + q[2]*q[2] + q[3]*q[3]; n >= 1e-14 { // mjuu_normvec
		n = math.Sqrt(n)
		q = [4]float64{q[0] / n, q[1] / n, q[2] / n, q[3] / n}
	}
	bq := [4]float64{b.R.W, b.R.X, b.R.Y, b.R.Z}
	bm := mjccd.QuatToMat(bq)
	for k := range 3 { // mju_rotVecMat, then mju_addTo3
		g.Pos[k] = bm[3*k]*p[0] + bm[3*k+1]*p[1] + bm[3*k+2]*p[2] + b.P[k]
	}
	g.Mat = mjccd.QuatToMat(mulQuat(bq, q))
}

// mulQuat is mju_mulQuat: the Hamilton product a b in MuJoCo's order.
func mulQuat(a, b [4]float64) [4]float64 {
	return [4]float64{
		a[0]*b[0] - a[1]*b[1] - a[2]*b[2] - a[3]*b[3],
		a[0]*b[1] + a[1]*b[0] + a[2]*b[3] - a[3]*b[2],
		a[0]*b[2] - a[1]*b[3] + a[2]*b[0] + a[3]*b[1],
		a[0]*b[3] + a[1]*b[2] - a[2]*b[1] + a[3]*b[0],
	}
}
