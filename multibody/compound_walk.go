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
// index there) and rotsAtOrigin.
func partAxes(m *Model, fr []jointFrames) []partAxis {
	var axes []partAxis
	for b := range m.Bodies {
		j := &m.Bodies[b].Joint
		if j.Type != JointCompound {
			continue
		}
		fr[b].part0 = int32(len(axes))
		fr[b].rotsAtOrigin = true
		for k := range j.Parts {
			p := &j.Parts[k]
			u, n := p.Axis.Normalize()
			axes = append(axes, partAxis{unit: u, zero: n == 0})
			pos0 := math.Float64bits(p.Pos[0])|math.Float64bits(p.Pos[1])|math.Float64bits(p.Pos[2]) == 0
			fr[b].rotsAtOrigin = fr[b].rotsAtOrigin && pos0 && (p.Type == JointRevolute || p.Type == JointBall)
		}
		fr[b].rotsAtOrigin = fr[b].rotsAtOrigin && len(j.Parts) <= MaxCompoundDOF
	}
	return axes
}

// walkRotations sets ws.walk to compound joint j's frames at coordinates
// q, as compoundWalk.walk does, for a joint whose parts are all revolute
// or ball parts through the origin (fr.rotsAtOrigin: each Pos +0 to the
// bit, at most MaxCompoundDOF parts). Then every
// anchor, every origin and M's origin are +0: compoundFrames' anchor
// R_{k−1} p_k + P_{k−1} is then +0 + +0 and the origin after a rotation
// c_k − R_k p_k is +0 − +0, each rotation of +0 making +0 for a finite
// rotation. So the walk composes the rotations alone, a revolute part's
// from its axis normalized once (the operations of QuatFromAxisAngle on
// the same unit axis): compoundFrames' bits for finite coordinates
// (TestPosstageCompoundWalkMatches).
func (ws *Workspace) walkRotations(j *Joint, fr *jointFrames, q []float64) {
	f := &ws.walk
	axes := ws.axes[fr.part0 : int(fr.part0)+len(j.Parts)]
	R := spatial.QuatIdentity()
	qi := 0
	for k := range j.Parts {
		p := &j.Parts[k]
		f.rot[k], f.anchor[k], f.origin[k] = R, spatial.Vec3{}, spatial.Vec3{}
		if p.Type == JointBall {
			R = R.Mul(jointQuat(q[qi:]))
			qi += 4
			continue
		}
		r := spatial.QuatIdentity()
		if a := &axes[k]; !a.zero {
			s, c := math.Sincos((q[qi] - p.Ref) / 2)
			r = spatial.Quat{W: c, X: s * a.unit[0], Y: s * a.unit[1], Z: s * a.unit[2]}
		}
		R = R.Mul(r)
		qi++
	}
	f.xm = spatial.Pose{R: R}
}

// rotsSubspace is compoundSubspaceAt for a joint of rotations through the
// origin at walkRotations' frames f, where every anchor, every origin and
// o_M are +0. compoundSubspaceAt's anchor and origin velocities are then
// +0 (ċ_k = u + Ω × (+0) and u = ċ_k + Ω × (+0), each +0 + (±0) = +0 from
// u = +0, for a finite Ω), each l̇ = ẇ × (+0) + w × (+0 − +0) is a zero,
// and sl, a sum of v·(±0) from +0, is +0: so rotsSubspace sums
// sw = Σ v_k ẇ_k alone, as compoundSubspaceAt sums it, and returns a +0
// sl. That holds when v, every w, every ẇ and the last Ω are finite; a
// finite sw (which no non-finite v, w or ẇ leaves finite) and a finite Ω
// show it, and otherwise the full sums are made
// (TestCompound2RotsSubspaceMatches).
func (j *Joint) rotsSubspace(f *compoundWalk, v []float64, w, l *[6]spatial.Vec3) (sw, sl vec3) {
	j.compoundColumns(f, w, l)
	if v == nil {
		return sw, sl
	}
	var omega vec3
	vi := 0
	for k := range j.Parts {
		n := j.Parts[k].Type.NV()
		var wk vec3
		for i := range n {
			wi := vecOf(&w[vi+i])
			sw = sw.addScaled(v[vi+i], omega.cross(wi))
			wk = wk.addScaled(v[vi+i], wi)
		}
		omega = omega.add(wk)
		vi += n
	}
	if !sw.finite() || !omega.finite() {
		return j.compoundSubspaceAt(f, v, w, l)
	}
	return sw, sl
}
