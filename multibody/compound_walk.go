package multibody

import (
	"math"

	"github.com/stiction-sim/stiction/spatial"
)

// partAxis is a compound joint's revolute part's axis as
// spatial.QuatFromAxisAngle normalizes it, read once from the model
// (Workspace.partAxes): the unit axis and whether the axis is zero.
type partAxis struct {
	unit spatial.Vec3
	zero bool
}

// partAxes reads the unit axes of every compound joint's parts into one
// slice and sets each compound body's jointFrames.part0 (its first part's
// index there), rotsAtOrigin, oneTurn and hinges. cols holds, at the same
// indices, the column l = rotateVec(1, a) in F of each part of a compound
// of slides alone: compoundColumns' l for such a joint, whose every part
// follows the identity rotation, made once (Workspace.slideAxes); a
// prismatic joint's Axis is there too, at its part0 (its partAxis unused).
func partAxes(m *Model, fr []jointFrames) (axes []partAxis, cols []spatial.Vec3) {
	for b := range m.Bodies {
		j := &m.Bodies[b].Joint
		if j.Type == JointPrismatic { // its Axis as prismatic reads it (slideAxes)
			fr[b].part0 = int32(len(axes))
			axes, cols = append(axes, partAxis{}), append(cols, j.Axis)
		}
		if j.Type != JointCompound {
			continue
		}
		fr[b].part0 = int32(len(axes))
		fr[b].rotsAtOrigin = true
		rotated := false // a rotation precedes the part
		for k := range j.Parts {
			p := &j.Parts[k]
			u, n := p.Axis.Normalize()
			axes = append(axes, partAxis{unit: u, zero: n == 0})
			id := spatial.QuatIdentity()
			cols = append(cols, rotateVec(&id, vecOf(&p.Axis)).array())
			pos0 := math.Float64bits(p.Pos[0])|math.Float64bits(p.Pos[1])|math.Float64bits(p.Pos[2]) == 0
			slide := p.Type == JointPrismatic && !rotated
			rotated = rotated || p.Type != JointPrismatic
			fr[b].rotsAtOrigin = fr[b].rotsAtOrigin && pos0 && (slide || p.Type == JointRevolute || p.Type == JointBall)
		}
		fr[b].rotsAtOrigin = fr[b].rotsAtOrigin && len(j.Parts) <= MaxCompoundDOF
		last := len(j.Parts) - 1
		fr[b].oneTurn = fr[b].rotsAtOrigin && j.Parts[last].Type == JointRevolute && !j.Parts[max(last-1, 0)].Type.turns()
		fr[b].hinges = !fr[b].rotsAtOrigin && hingesOf(j)
	}
	return axes, cols
}

// walkRotations sets ws.walk to compound joint j's frames at coordinates
// q, as compoundWalk.walk does, for a joint of rotations (revolute or ball
// parts) through the origin after any number of leading slides, each part
// at Pos +0 to the bit (fr.rotsAtOrigin: at most MaxCompoundDOF parts; the
// planar robots' slide-slide-hinge root, point_mass's slides). Then the
// slides walk with the identity rotation, which rotates a +0 Pos to +0, and
// move the origin P as compoundFrames moves it; at a rotation the anchor
// R_{k−1} p_k + P_{k−1} is +0 + P and the origin after it c_k − R_k p_k
// is c_k − +0, each rotation of +0 making +0 for a finite rotation, and
// +0 + P is P, P never being −0 (a sum from +0). So every anchor and
// origin is the P the slides leave, and the walk composes the rotations
// alone, a revolute part's from its axis normalized once (the operations
// of QuatFromAxisAngle on the same unit axis): compoundFrames' bits for
// finite coordinates (TestPosstageCompoundWalkMatches). A joint whose
// step reads no part's frames (jointFrames.bare) walks by bareWalk.
func (ws *Workspace) walkRotations(j *Joint, fr *jointFrames, q []float64) {
	f := &ws.walk
	axes := ws.axes[fr.part0 : int(fr.part0)+len(j.Parts)]
	R := spatial.QuatIdentity()
	var P vec3
	qi := 0
	for k := range j.Parts {
		p := &j.Parts[k]
		f.rot[k], f.anchor[k], f.origin[k] = R, P.array(), P.array()
		r := spatial.QuatIdentity() // the part's rotation (one Mul below)
		switch p.Type {
		case JointPrismatic: // R is the identity
			P = P.add(rotateVec(&R, vecOf(&p.Axis).scale(q[qi]-p.Ref)))
			qi++
			continue
		case JointBall:
			r = jointQuat(q[qi:])
			qi += 3
		default:
			r = axes[k].turn(q[qi] - p.Ref)
		}
		R = R.Mul(r)
		qi++
	}
	f.xm = spatial.Pose{R: R, P: P.array()}
}

// bareWalk is walkRotations for a bare joint (jointFrames.bare, with
// rotsAtOrigin): slides alone, or slides and then one revolute part (a
// planar root), whose step reads the walk's pose xm alone. It makes
// walkRotations' operations on the same values without keeping the
// parts' frames or looking for a ball: each slide's q − Ref at its own
// coordinate k (a slide has one), P summed from +0 through rotateVec by
// the identity, and R the identity times the hinge's rotation (the
// identity for a zero axis) (TestKin5BareWalkMatches). For a finite
// slide vector v, rotateVec(1, v) is v but for the sign of a zero entry
// ((v + 1·(±0)) + (±0)), which the sum from +0 (never −0) absorbs: P +
// (±0) is P. So P sums the vectors themselves; a non-finite sum (which
// any non-finite v leaves) is left to walkRotations.
func (ws *Workspace) bareWalk(j *Joint, fr *jointFrames, q []float64) {
	R := spatial.QuatIdentity()
	var P vec3
	n := len(j.Parts)
	if !j.slides {
		n-- // the last part, the hinge
	}
	for k := range n {
		p := &j.Parts[k]
		P = P.add(vecOf(&p.Axis).scale(q[k] - p.Ref))
	}
	if !P.finite() {
		ws.walkRotations(j, fr, q) // rotateVec's NaNs
		return
	}
	if !j.slides {
		r := spatial.QuatIdentity() // partAxis.turn in line: the planar robots' hot walk
		if a := &ws.axes[int(fr.part0)+n]; !a.zero {
			s, c := math.Sincos((q[n] - j.Parts[n].Ref) / 2)
			r = spatial.Quat{W: c, X: s * a.unit[0], Y: s * a.unit[1], Z: s * a.unit[2]}
		}
		R = identityMul(r)
	}
	xm := &ws.walk.xm // field by field, not through a temporary Pose
	xm.R, xm.P[0], xm.P[1], xm.P[2] = R, P.x, P.y, P.z
}

// identityMul returns QuatIdentity().Mul(p): Quat.Mul's sums in its
// order, with the identity's products made once each: its 1·x are the x
// themselves (exact) and its 0·x the four products zw..zz (±0, or an
// entry's NaN), so the bits are the call's for the hinge's (c, s u),
// whose entries are finite or one NaN (|s|, |c| ≤ 1: no infinity). In
// line in bareWalk, the planar robots' one caller of Quat.Mul in the step
// (TestKin5BareWalkMatches, TestKinIdentityMulMatches).
func identityMul(p spatial.Quat) spatial.Quat {
	zw, zx, zy, zz := 0*p.W, 0*p.X, 0*p.Y, 0*p.Z
	return spatial.Quat{
		W: p.W - ((zx + zy) + zz),
		X: (p.X + zw) + (zz - zy),
		Y: (p.Y + zw) + (zx - zz),
		Z: (p.Z + zw) + (zy - zx),
	}
}

// rotsSubspace is compoundSubspaceAt for a joint of leading slides and
// rotations through the origin at walkRotations' frames f, where every
// anchor, every origin and o_M are the slides' P. compoundSubspaceAt's Ω
// is then +0 through the slides, whose l̇ = Ω × l are zeros, and its
// origin velocity u, the sum Σ v_k l_k of the slides, is each rotation's
// anchor velocity ċ_k = u + Ω × (+0) and the next origin's u = ċ_k + Ω ×
// (+0) (u is never −0, a sum from +0, so u + (±0) is u for a finite Ω);
// each l̇ = ẇ × (+0) + w × (u − u) is a zero, and sl, a sum of v·(±0)
// from +0, is +0. So rotsSubspace sums sw = Σ v_k ẇ_k alone, as
// compoundSubspaceAt sums it (a slide's term v·(Ω × 0) is a zero), and
// returns a +0 sl. That holds when v, every w, every ẇ, u, o_M and the
// last Ω are finite; a finite sw (which no non-finite v, w or ẇ leaves
// finite), Ω, u and o_M show it, and otherwise the full sums are made
// (TestCompound2RotsSubspaceMatches). Slides alone (j.slides) return the
// zeros as compoundSubspaceAt does.
func (j *Joint) rotsSubspace(f *compoundWalk, v []float64, w, l *[6]spatial.Vec3) (sw, sl vec3) {
	j.compoundColumns(f, w, l)
	if v == nil || j.slides {
		return sw, sl
	}
	var omega, u vec3
	vi := 0
	for k := range j.Parts {
		n := j.Parts[k].Type.NV()
		if j.Parts[k].Type == JointPrismatic {
			u = u.addScaled(v[vi], vecOf(&l[vi]))
		}
		var wk vec3
		for i := range n {
			wi := vecOf(&w[vi+i])
			sw = sw.addScaled(v[vi+i], omega.cross(wi))
			wk = wk.addScaled(v[vi+i], wi)
		}
		omega = omega.add(wk)
		vi += n
	}
	if !sw.finite() || !omega.finite() || !u.finite() || !vecOf(&f.xm.P).finite() {
		return j.compoundSubspaceAt(f, v, w, l)
	}
	return sw, sl
}

// turns reports whether a part of type t turns the parts after it (a
// revolute or a ball part).
func (t JointType) turns() bool { return t == JointRevolute || t == JointBall }

// planarSubspace is rotsSubspace for a joint of slides and then one hinge
// (fr.oneTurn: the planar robots' slide-slide-hinge root). Ω is +0
// through the slides, so the hinge's ẇ = Ω × w is a zero and
// rotsSubspace's sums are sw = +0 and sl = +0, which planarSubspace
// returns without making them when rotsSubspace would return them: when
// the slides' Σ v_k l_k (its u), the hinge's v w (its Ω) and o_M are
// finite. A sum of those three is finite only if each is (the check,
// which an overflow makes fail safe); otherwise rotsSubspace decides
// (TestKinfootPlanarSubspaceMatches).
func (j *Joint) planarSubspace(f *compoundWalk, v []float64, w, l *[6]spatial.Vec3) (sw, sl vec3) {
	j.compoundColumns(f, w, l)
	if v == nil {
		return sw, sl
	}
	if !j.planarHolds(v, w, l, &f.xm.P) {
		return j.rotsSubspace(f, v, w, l)
	}
	return sw, sl
}

// planarHolds is planarSubspace's check at velocities v, columns (w, l)
// in F and o_M: whether the slides' Σ v_k l_k plus the hinge's v w plus
// o_M is finite, when rotsSubspace's sums are +0. It also tells joint
// whether a planar root's constant columns (w, l = pc.fw, pc.fl) are what
// it would make at v (nil: rest, where o_M finite, the hinge's l, is the
// check); one function for both, not a check calling another.
func (j *Joint) planarHolds(v []float64, w, l *[6]spatial.Vec3, o *spatial.Vec3) bool {
	if v == nil {
		return vecOf(o).finite()
	}
	n := len(j.Parts) - 1 // the slides; the hinge's velocity is v[n]
	var u vec3
	for k := range n {
		u = u.addScaled(v[k], vecOf(&l[k]))
	}
	return u.add(vecOf(&w[n]).scale(v[n])).add(vecOf(o)).finite()
}

// planarCols is a planar root's (fr.oneTurn, no parent) subspace columns
// in F and, turned by its constant R_WF, in the world orientation, with
// R (+0) for Ṡv (planarRoots).
type planarCols struct {
	fw, fl [6]spatial.Vec3
	world  jointCols
}

// planarRoots sets fr[b].planar for every root b whose joint is slides
// and then one hinge (fr.oneTurn). walkRotations leaves every part's
// rotation before the hinge, the identity, and the hinge's anchor is o_M,
// so for a finite o_M compoundColumns makes the same columns at every q:
// the slides' (+0, rotateVec(1, a_k)) and the hinge's (w, w × (o_M − o_M))
// = (w, w × (+0)), which it makes here at o_M = +0. R_WF is the constant
// rotF, so W_k = R w_k, M_k = R l_k and, where planarSubspace returns its
// +0 sums, R sw = R sl = R (+0) are constants too: joint reads them when
// planarHolds (TestKin2PlanarRootMatches). It also marks the joints
// whose walk need not keep its parts' frames (fr.bare): these roots and
// the compounds of slides alone, which slide moves from constant columns.
func planarRoots(m *Model, fr []jointFrames) {
	for b := range m.Bodies {
		j := &m.Bodies[b].Joint
		fr[b].bare = j.Type == JointCompound && j.slides
		if j.Type != JointCompound || !fr[b].oneTurn || j.Parent >= 0 {
			continue
		}
		var f compoundWalk
		for k := range f.rot {
			f.rot[k] = spatial.QuatIdentity()
		}
		pc := &planarCols{}
		j.compoundColumns(&f, &pc.fw, &pc.fl)
		pc.world.rotate(&fr[b].rotF, &pc.fw, &pc.fl, vec3{}, vec3{}, j.NV())
		fr[b].planar, fr[b].bare = pc, true
	}
}

// planarKinds moves by planarRoot (kindPlanar) every planar root that
// joint would move (kindJoint) whose constant R sw and R sl are +0 to the
// bit, the case planarRoot's terms assume.
func planarKinds(kinds []uint8, fr []jointFrames) {
	for b, k := range kinds {
		pc := fr[b].planar
		if k != kindJoint || pc == nil {
			continue
		}
		zero := true
		for i := range 3 {
			zero = zero && math.Float64bits(pc.world.sw[i]) == 0 && math.Float64bits(pc.world.sl[i]) == 0
		}
		if zero {
			kinds[b] = kindPlanar
		}
	}
}

// planarRoot is joint for a planar root (planarKinds): its parent, the
// world, is at rest at the identity (ω_P = v_P = x_P = +0), it reads the
// constant columns when planarHolds, and R sw = R sl = +0. joint's terms
// are then, for finite r_PM = x_M, d = x_B − x_M, ω_j and v_j (which it
// checks, else it leaves the body to joint):
//
//	ω_P × r_PM, ω_P × ω_j, ω_P × v_j, ω_P × (ω_P × r_PM), κ_α × d = ±0,
//	ω = +0 + ω_j = ω_j,  v = ((+0 + ±0) + v_j) + ω × d = v_j + ω × d,
//	κ_α = +0 + ±0 = +0,  κ_a = (((±0 + +0) + 2·±0) + ±0) + ω × (ω × d) = +0 + ω × (ω × d),
//
// the same bits (a sum from +0, as ω_j and v_j are, is never −0, and
// +0 + x is x but for x = −0) without the products with the parent's
// zeros (TestKin7PlanarRootMatchesJoint).
func (ws *Workspace) planarRoot(q, v []float64, b int) {
	xm, xb := &ws.sm, &ws.x[b]
	ws.frames(q, b, &rootPose, &ws.sf, xm, xb, true) // R_WF: the constant rotF, read at New into the columns
	pc, tb := ws.fr[b].planar, ws.top[b]
	vj := velocities(v, int(tb.voff))
	if !ws.m.Bodies[b].Joint.planarHolds(vj, &pc.fw, &pc.fl, &ws.walk.xm.P) {
		ws.joint(q, v, b)
		return
	}
	d0, d1, d2 := xb.P[0]-xm.P[0], xb.P[1]-xm.P[1], xb.P[2]-xm.P[2]
	w0, w1, w2, l0, l1, l2 := ws.jointColumns(&pc.world, int(tb.voff), int(tb.nv), vj, d0, d1, d2)
	r := &xm.P // r_PM = x_M − (+0), the same bits
	if !(vec3{r[0] + d0 + w0 + l0, r[1] + d1 + w1 + l1, r[2] + d2 + w2 + l2}).finite() {
		ws.joint(q, v, b) // a non-finite term: joint's NaNs
		return
	}
	e0, e1, e2 := cross(w0, w1, w2, d0, d1, d2) // ω × d
	k := &ws.kin[b]
	// One store each (a tuple assignment of Vec3s went through the stack).
	k.w = spatial.Vec3{w0, w1, w2}
	k.vel = spatial.Vec3{l0 + e0, l1 + e1, l2 + e2}
	k.kw = spatial.Vec3{}
	e0, e1, e2 = cross(w0, w1, w2, e0, e1, e2) // ω × (ω × d)
	k.kl = spatial.Vec3{0 + e0, 0 + e1, 0 + e2}
	ws.worldInertia(b, &ws.m.Bodies[b].Inertia, &rootPose)
}
