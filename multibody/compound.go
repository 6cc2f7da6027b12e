package multibody

import (
	"fmt"
	"math"

	"github.com/stiction-sim/stiction/spatial"
)

// MaxCompoundDOF is the largest number of degrees of freedom of a compound
// joint (the size of the per-joint subspace buffers).
const MaxCompoundDOF = 6

// JointPart is one of the joints that a compound joint composes, as MuJoCo
// composes the several joints of one body (mj_kinematics): a revolute part
// rotates by q − Ref about Axis through the point Pos, a prismatic part
// translates by (q − Ref) Axis, a ball part rotates by its unit quaternion
// about Pos. Axis and Pos are in the frame that the preceding parts leave
// (the body frame at their zero configuration), so the parts apply in order:
// X_FM(q) = X_1(q_1) · X_2(q_2) ⋯ X_n(q_n) with X_k = T(p_k) R_k T(−p_k)
// for rotations and X_k = T(a_k (q_k − ref_k)) for translations.
type JointPart struct {
	Name string    // optional; names the part in messages, records and actuators
	Type JointType // JointRevolute, JointPrismatic or JointBall
	Axis spatial.Vec3
	Pos  spatial.Vec3
	// Ref is the coordinate at which the part is at its zero motion
	// (MuJoCo's joint ref), revolute and prismatic only.
	Ref float64
	// Damping, Armature and Stiffness act on the part's degrees of freedom
	// as Joint's do on a joint's; the spring pulls toward SpringRef (a ball
	// part's toward the identity, as a ball joint's: BallOfDOF).
	Damping, Armature, Stiffness, SpringRef float64
}

// compoundFrames walks the parts at coordinates q and returns, for each
// part k, the rotation of the frame that precedes it (P_{k−1} in F) and its
// anchor c_k = P_{k−1} · p_k in F, and the pose of M (P_n) in F. It makes
// the operations of the Pose and Vec3 form (x.Apply(p), x.R.Rotate(p),
// Sub, Add, Scale) in the same order on vec3s, which Go keeps in registers
// (TestCompoundMatchesVectorForm).
func (j *Joint) compoundFrames(q []float64, rot *[MaxCompoundDOF]spatial.Quat, anchor, origin *[MaxCompoundDOF]spatial.Vec3) spatial.Pose {
	R, P := spatial.QuatIdentity(), vec3{}
	qi := 0
	for k := range j.Parts {
		p := &j.Parts[k]
		rot[k], origin[k] = R, P.array()
		pos := vecOf(&p.Pos)
		a := rotateVec(&R, pos).add(P) // x.Apply(p.Pos)
		anchor[k] = a.array()
		switch p.Type {
		case JointRevolute:
			R = R.Mul(spatial.QuatFromAxisAngle(p.Axis, q[qi]-p.Ref))
			P = a.sub(rotateVec(&R, pos))
		case JointPrismatic:
			P = P.add(rotateVec(&R, vecOf(&p.Axis).scale(q[qi]-p.Ref)))
		case JointBall:
			R = R.Mul(jointQuat(q[qi:]))
			P = a.sub(rotateVec(&R, pos))
		}
		qi += p.Type.NQ()
	}
	return spatial.Pose{R: R, P: P.array()}
}

// compoundSubspace is subspace for a compound joint. With R_{k−1} the
// rotation of the frame before part k, c_k its anchor and o_M the origin of
// M (all in F), a rotational column is w = R_{k−1} e, l = w × (o_M − c_k),
// and a translational one w = 0, l = R_{k−1} a_k. Their rates at constant v
// follow from the angular velocity Ω_{k−1} of the frame before part k and
// the velocity ċ_k of its anchor: ẇ = Ω_{k−1} × w, l̇ = ẇ × (o_M − c_k) +
// w × (ȯ_M − ċ_k) for rotations, l̇ = Ω_{k−1} × l for translations.
func (j *Joint) compoundSubspace(q, v []float64, w, l *[6]spatial.Vec3) (cw, cl spatial.Vec3) {
	var f compoundWalk
	f.walk(j, q)
	sw, sl := j.compoundSubspaceAt(&f, v, w, l)
	return sw.array(), sl.array()
}

// compoundWalk is what compoundFrames returns: each part's preceding
// rotation, anchor and origin, and the pose of M in F.
type compoundWalk struct {
	rot            [MaxCompoundDOF]spatial.Quat
	anchor, origin [MaxCompoundDOF]spatial.Vec3
	xm             spatial.Pose
	// hingesSubspace's scratch: each part's ẇ and anchor velocity ċ (not
	// zeroed on the stack at every call).
	wdot, cdot [MaxCompoundDOF]vec3
}

// walk sets f to j's frames at coordinates q (compoundFrames).
func (f *compoundWalk) walk(j *Joint, q []float64) {
	f.xm = j.compoundFrames(q, &f.rot, &f.anchor, &f.origin)
}

// compoundSubspaceAt is compoundSubspace with the frames f of the joint's
// coordinates already walked (Workspace.Update walks them once for the
// pose and the subspace). It makes the operations of the Vec3 form in the
// same order on vec3s, which Go keeps in registers
// (TestCompoundMatchesVectorForm), and returns Ṡv as vec3s, which Go
// returns in registers (a Vec3 goes through the stack and its copies).
func (j *Joint) compoundSubspaceAt(f *compoundWalk, v []float64, w, l *[6]spatial.Vec3) (sw, sl vec3) {
	j.compoundColumns(f, w, l)
	if v == nil || j.slides {
		// Translations alone: Ω = 0 in every part's frame, so each l̇ =
		// Ω × l is a zero (wdot below) and sw, sl, sums of +0 and v·(±0)
		// from +0, are +0 for finite v: the zero sw, sl.
		return sw, sl
	}
	anchor, origin := &f.anchor, &f.origin
	xm := vecOf(&f.xm.P)
	// Forward pass: Ω and the origin velocity u of each part's frame.
	var wdot [MaxCompoundDOF]vec3
	var cdot [MaxCompoundDOF]vec3
	var omega, u vec3
	vi := 0
	for k := range j.Parts {
		p := &j.Parts[k]
		n := p.Type.NV()
		next := xm // origin of the frame after part k
		if k+1 < len(j.Parts) {
			next = vecOf(&origin[k+1])
		}
		ok := vecOf(&origin[k])
		if p.Type == JointPrismatic {
			lk := vecOf(&l[vi])
			wdot[vi] = omega.cross(lk) // l̇ for a translation, stored in wdot's slot
			u = u.add(omega.cross(next.sub(ok))).addScaled(v[vi], lk)
			vi += n
			continue
		}
		ak := vecOf(&anchor[k])
		cdot[k] = u.add(omega.cross(ak.sub(ok)))
		var wk vec3
		for i := range n {
			wi := vecOf(&w[vi+i])
			wdot[vi+i] = omega.cross(wi)
			wk = wk.addScaled(v[vi+i], wi)
		}
		omega = omega.add(wk)
		u = cdot[k].add(omega.cross(next.sub(ak)))
		vi += n
	}
	// u is now ȯ_M.
	vi = 0
	for k := range j.Parts {
		p := &j.Parts[k]
		n := p.Type.NV()
		for i := range n {
			c := vi + i
			if p.Type == JointPrismatic {
				sl = sl.addScaled(v[c], wdot[c])
				continue
			}
			ld := wdot[c].cross(xm.sub(vecOf(&anchor[k]))).add(vecOf(&w[c]).cross(u.sub(cdot[k])))
			sw = sw.addScaled(v[c], wdot[c])
			sl = sl.addScaled(v[c], ld)
		}
		vi += n
	}
	return sw, sl
}

// compoundColumns writes compound joint j's subspace columns (w_k, l_k) in
// F at the frames f (compoundSubspace).
func (j *Joint) compoundColumns(f *compoundWalk, w, l *[6]spatial.Vec3) {
	rot, anchor := &f.rot, &f.anchor
	xm := vecOf(&f.xm.P)
	vi := 0
	for k := range j.Parts {
		p := &j.Parts[k]
		switch p.Type {
		case JointRevolute:
			wk := rotateVec(&rot[k], vecOf(&p.Axis))
			wk.store(&w[vi])
			wk.cross(xm.sub(vecOf(&anchor[k]))).store(&l[vi])
		case JointPrismatic:
			w[vi] = spatial.Vec3{}
			rotateVec(&rot[k], vecOf(&p.Axis)).store(&l[vi])
		case JointBall:
			r := xm.sub(vecOf(&anchor[k]))
			for i := range 3 {
				var e vec3
				e.set(i, 1)
				wk := rotateVec(&rot[k], e)
				wk.store(&w[vi+i])
				wk.cross(r).store(&l[vi+i])
			}
		}
		vi += p.Type.NV()
	}
}

// compoundRate writes q̇ = N(q) v for a compound joint: scalar parts copy
// their velocity, a ball part's quaternion turns at its angular velocity
// (expressed in the frame before it, as a ball joint's is in F).
func (j *Joint) compoundRate(q, v, qd []float64) {
	qi, vi := 0, 0
	for k := range j.Parts {
		p := &j.Parts[k]
		if p.Type == JointBall {
			r := spatial.Quat{W: q[qi], X: q[qi+1], Y: q[qi+2], Z: q[qi+3]}.RateWorld(spatial.Vec3{v[vi], v[vi+1], v[vi+2]})
			qd[qi], qd[qi+1], qd[qi+2], qd[qi+3] = r.W, r.X, r.Y, r.Z
		} else {
			qd[qi] = v[vi]
		}
		qi += p.Type.NQ()
		vi += p.Type.NV()
	}
}

// compoundIntegrate is integrate for a compound joint (q may alias q0 or
// qθ): q = q0 + δt N(qθ) v, ball quaternions renormalised.
func (j *Joint) compoundIntegrate(q0, qTheta, v []float64, dt float64, q []float64) {
	qi, vi := 0, 0
	for k := range j.Parts {
		p := &j.Parts[k]
		if p.Type == JointBall {
			r := spatial.Quat{W: qTheta[qi], X: qTheta[qi+1], Y: qTheta[qi+2], Z: qTheta[qi+3]}
			rd := r.RateWorld(spatial.Vec3{v[vi], v[vi+1], v[vi+2]})
			r0 := spatial.Quat{W: q0[qi], X: q0[qi+1], Y: q0[qi+2], Z: q0[qi+3]}
			rn := r0.Add(rd.Scale(dt)).Normalize()
			q[qi], q[qi+1], q[qi+2], q[qi+3] = rn.W, rn.X, rn.Y, rn.Z
		} else {
			q[qi] = q0[qi] + dt*v[vi]
		}
		qi += p.Type.NQ()
		vi += p.Type.NV()
	}
}

// compoundNeutral writes the zero configuration: ball parts at the identity,
// scalar parts at their Ref (where the body is at its model pose).
func (j *Joint) compoundNeutral(q []float64) {
	qi := 0
	for k := range j.Parts {
		p := &j.Parts[k]
		if p.Type == JointBall {
			q[qi], q[qi+1], q[qi+2], q[qi+3] = 1, 0, 0, 0
		} else {
			q[qi] = p.Ref
		}
		qi += p.Type.NQ()
	}
}

// compoundSize returns the coordinate and velocity counts of the parts.
func (j *Joint) compoundSize() (nq, nv int) {
	for k := range j.Parts {
		nq += j.Parts[k].Type.NQ()
		nv += j.Parts[k].Type.NV()
	}
	return nq, nv
}

// validateCompound checks a compound joint's parts and normalises their
// axes.
func (j *Joint) validateCompound() error {
	if len(j.Parts) == 0 {
		return fmt.Errorf("compound joint: no parts")
	}
	if j.Damping != 0 || j.Stiffness != 0 || j.Armature != 0 {
		return fmt.Errorf("compound joint: damping, stiffness and armature belong to its parts")
	}
	for k := range j.Parts {
		p := &j.Parts[k]
		what := fmt.Sprintf("compound joint part %d", k)
		if p.Name != "" {
			what = fmt.Sprintf("compound joint part %d (%q)", k, p.Name)
		}
		switch p.Type {
		case JointRevolute, JointPrismatic:
			n := p.Axis.Norm()
			if !(n > 1e-12) || !p.Axis.IsFinite() {
				return fmt.Errorf("%s: axis %v must be non-zero and finite", what, p.Axis)
			}
			p.Axis = p.Axis.Scale(1 / n)
		case JointBall:
		default:
			return fmt.Errorf("%s: type %s (a part is revolute, prismatic or ball)", what, p.Type)
		}
		if !p.Pos.IsFinite() || math.IsNaN(p.Ref) || math.IsInf(p.Ref, 0) || math.IsNaN(p.SpringRef) || math.IsInf(p.SpringRef, 0) {
			return fmt.Errorf("%s: pos %v, ref %v and springref %v must be finite", what, p.Pos, p.Ref, p.SpringRef)
		}
		if !(p.Damping >= 0) || !(p.Armature >= 0) || !(p.Stiffness >= 0) || math.IsInf(p.Damping+p.Armature+p.Stiffness, 0) {
			return fmt.Errorf("%s: damping %v, armature %v and stiffness %v must be ≥ 0 and finite", what, p.Damping, p.Armature, p.Stiffness)
		}
	}
	nq, nv := j.compoundSize()
	if nv > MaxCompoundDOF || nq > 7 {
		return fmt.Errorf("compound joint: %d coordinates and %d degrees of freedom, at most 7 and %d (a free joint's)", nq, nv, MaxCompoundDOF)
	}
	vi, qi := 0, 0
	for i := range j.Parts {
		for range j.Parts[i].Type.NV() {
			j.dofPart[vi], j.dofQ[vi], j.dofScalar[vi] = int8(i), int8(qi), int8(qi)
			if j.Parts[i].Type == JointBall {
				j.dofScalar[vi] = -1
			}
			vi++
		}
		qi += j.Parts[i].Type.NQ()
	}
	j.nq, j.nv = int8(nq), int8(nv)
	j.slides = true
	for i := range j.Parts {
		j.slides = j.slides && j.Parts[i].Type == JointPrismatic
	}
	return nil
}

// partOfDOF returns the part that velocity index k (within the joint)
// belongs to, and the index of its first coordinate within the joint.
func (j *Joint) partOfDOF(k int) (p *JointPart, qi int) {
	if k < int(j.nv) { // validated (nv > 0 only then): walkPartOfDOF's answer, kept
		k = max(k, 0) // the walk answers the first part for k < 0
		return &j.Parts[j.dofPart[k]], int(j.dofQ[k])
	}
	return j.walkPartOfDOF(k)
}

// DOFPart returns the part of a compound joint that velocity k moves and
// the index within the joint of that part's first coordinate (nil and −1
// for k outside the joint).
func (j *Joint) DOFPart(k int) (*JointPart, int) { return j.partOfDOF(k) }

// walkPartOfDOF is partOfDOF by a walk over the parts (not inlined, so
// that partOfDOF is).
//
//go:noinline
func (j *Joint) walkPartOfDOF(k int) (p *JointPart, qi int) {
	p, qi, _ = j.partOfDOFAt(k)
	return p, qi
}

// BallOfDOF reports whether velocity k of the joint turns a ball: a ball
// joint, or a ball part of a compound joint. It returns the index within
// the joint of that ball's quaternion, which of its three velocities k
// is, and the ball's stiffness (Joint.Stiffness, JointPart.Stiffness).
func (j *Joint) BallOfDOF(k int) (ok bool, qi, axis int, stiffness float64) {
	switch j.Type {
	case JointBall:
		return true, 0, k, j.Stiffness
	case JointCompound:
		if k >= 0 && k < int(j.nv) && j.dofScalar[k] >= 0 {
			return false, -1, 0, 0 // validated: a scalar part's, kept
		}
		p, pq, pv := j.partOfDOFAt(k)
		if p != nil && p.Type == JointBall {
			return true, pq, k - pv, p.Stiffness
		}
	}
	return false, -1, 0, 0
}

// partOfDOFAt returns the part of velocity k, its first coordinate and
// its first velocity within the joint, by a walk over the parts.
func (j *Joint) partOfDOFAt(k int) (p *JointPart, qi, vi int) {
	for i := range j.Parts {
		n := j.Parts[i].Type.NV()
		if k < vi+n {
			return &j.Parts[i], qi, vi
		}
		vi += n
		qi += j.Parts[i].Type.NQ()
	}
	return nil, -1, -1
}
