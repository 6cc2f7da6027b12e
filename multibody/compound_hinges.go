package multibody

import (
	"math"

	"github.com/stiction-sim/stiction/spatial"
)

// turn returns the rotation by angle about the part's axis a, as
// spatial.QuatFromAxisAngle makes it from the axis a normalizes: the
// identity for a zero axis, else (cos θ/2, sin θ/2 u) (the same bits).
func (a *partAxis) turn(angle float64) spatial.Quat {
	if a.zero {
		return spatial.QuatIdentity()
	}
	s, c := math.Sincos(angle / 2)
	return spatial.Quat{W: c, X: s * a.unit[0], Y: s * a.unit[1], Z: s * a.unit[2]}
}

// hingesOf reports whether compound joint j is made of revolute parts
// alone (jointFrames.hinges: fish's fins and tail, the humanoids' ankles
// and abdomen), which walkHinges and hingesSubspace move.
func hingesOf(j *Joint) bool {
	ok := j.Type == JointCompound && len(j.Parts) <= MaxCompoundDOF
	for k := range j.Parts {
		ok = ok && j.Parts[k].Type == JointRevolute
	}
	return ok
}

// walkHinges is compoundWalk.walk for a compound joint of revolute parts
// alone (fr.hinges): compoundFrames' operations in their order, each part's
// rotation from its axis normalized once (partAxis.turn, QuatFromAxisAngle's
// bits), without the switch on the part's type
// (TestKin10HingesMatchCompound).
func (ws *Workspace) walkHinges(j *Joint, fr *jointFrames, q []float64) {
	f := &ws.walk
	parts := j.Parts[:min(len(j.Parts), MaxCompoundDOF)] // all (hingesOf), a bound for the arrays
	axes, q := ws.axes[fr.part0:int(fr.part0)+len(parts)], q[:len(parts)]
	R, P := spatial.QuatIdentity(), vec3{}
	for k := range parts {
		p := &parts[k]
		f.rot[k], f.origin[k] = R, P.array()
		pos := vecOf(&p.Pos)
		a := rotateVec(&R, pos).add(P) // x.Apply(p.Pos)
		f.anchor[k] = a.array()
		R = R.Mul(axes[k].turn(q[k] - p.Ref))
		P = a.sub(rotateVec(&R, pos))
	}
	f.xm = spatial.Pose{R: R, P: P.array()}
}

// hingesSubspace is compoundSubspaceAt for a compound joint of revolute
// parts alone (fr.hinges), at walkHinges' frames f: each part has one
// velocity, its column k, and a rotation's terms alone, so the loops over
// a part's velocities and the slides' branches go, and the columns are
// compoundColumns' revolute ones. Every sum is made as there, in the same
// order (ω_k from +0), so the bits are compoundSubspaceAt's for every input
// (TestKin10HingesMatchCompound).
func (j *Joint) hingesSubspace(f *compoundWalk, v []float64, w, l *[6]spatial.Vec3) (sw, sl vec3) {
	xm := vecOf(&f.xm.P)
	parts := j.Parts[:min(len(j.Parts), MaxCompoundDOF)] // all (hingesOf), a bound for the arrays
	n := len(parts)
	for k := range n {
		wk := rotateVec(&f.rot[k], vecOf(&parts[k].Axis))
		wk.store(&w[k])
		wk.cross(xm.sub(vecOf(&f.anchor[k]))).store(&l[k])
	}
	if v == nil {
		return sw, sl
	}
	v = v[:n]
	// Forward pass: Ω and the origin velocity u of each part's frame.
	wdot, cdot := &f.wdot, &f.cdot
	var omega, u vec3
	for k := range n {
		next := xm // origin of the frame after part k
		if k+1 < n {
			next = vecOf(&f.origin[k+1])
		}
		ak, wk := vecOf(&f.anchor[k]), vecOf(&w[k])
		cdot[k] = u.add(omega.cross(ak.sub(vecOf(&f.origin[k]))))
		wdot[k] = omega.cross(wk)
		omega = omega.add(vec3{}.addScaled(v[k], wk))
		u = cdot[k].add(omega.cross(next.sub(ak)))
	}
	// u is now ȯ_M.
	for k := range n {
		ld := wdot[k].cross(xm.sub(vecOf(&f.anchor[k]))).add(vecOf(&w[k]).cross(u.sub(cdot[k])))
		sw = sw.addScaled(v[k], wdot[k])
		sl = sl.addScaled(v[k], ld)
	}
	return sw, sl
}
