package multibody

import (
	"fmt"
	"math"

	"github.com/stiction-sim/stiction/spatial"
)

// JointType is the joint that connects a body to its parent (the world for a
// tree's root).
type JointType int

const (
	// JointWeld fixes the body to its parent: no coordinates, no velocities.
	// A body welded to the world belongs to no tree.
	JointWeld JointType = iota
	// JointFree gives a root body six degrees of freedom: q = (quaternion,
	// position of the body origin), v = (ω, velocity of the body origin),
	// both in the world frame.
	JointFree
	// JointRevolute rotates the child frame M about Axis (in the parent
	// frame F) by the angle q; v = q̇.
	JointRevolute
	// JointPrismatic translates M along Axis (in F) by q; v = q̇.
	JointPrismatic
	// JointBall rotates M about the common origin of F and M: q is the unit
	// quaternion of M in F, v the angular velocity of M relative to F,
	// expressed in F.
	JointBall
	// JointPlanar moves M in the xy plane of F: q = (x, y, θ), the origin of
	// M in F and the rotation about F's z axis; v = q̇.
	JointPlanar
	// JointUniversal rotates M by q₀ about F's x axis, then by q₁ about the
	// rotated y axis (M's y axis); v = q̇.
	JointUniversal
	// JointCompound composes several revolute, prismatic and ball parts
	// (Joint.Parts), as MuJoCo composes the joints of one body: q and v are
	// the parts' coordinates and velocities in order.
	JointCompound
)

var jointNames = [...]string{"weld", "free", "revolute", "prismatic", "ball", "planar", "universal", "compound"}

// String returns the scene-file name of the joint type.
func (t JointType) String() string {
	if t < 0 || int(t) >= len(jointNames) {
		return fmt.Sprintf("JointType(%d)", int(t))
	}
	return jointNames[t]
}

// JointTypeNames lists the joint type names accepted by ParseJointType.
func JointTypeNames() []string { return jointNames[:] }

// ParseJointType returns the joint type of a scene-file name.
func ParseJointType(s string) (JointType, error) {
	for i, n := range jointNames {
		if n == s {
			return JointType(i), nil
		}
	}
	return 0, fmt.Errorf("unknown joint type %q", s)
}

// NQ is the number of configuration coordinates of a joint of type t (0 for
// a compound joint, whose size is its parts': use Joint.NQ).
func (t JointType) NQ() int { return int(jointNQ[t&7]) }

// NV is the number of velocities (degrees of freedom) of a joint of type t
// (0 for a compound joint: use Joint.NV).
func (t JointType) NV() int { return int(jointNV[t&7]) }

// jointNQ and jointNV are the sizes by JointType (8 of them, so that t&7
// indexes them without a bounds check, which keeps NQ and NV cheap enough
// to inline).
var (
	jointNQ = [8]int8{0, 7, 1, 1, 4, 3, 2, 0}
	jointNV = [8]int8{0, 6, 1, 1, 3, 3, 2, 0}
)

// NQ is the number of configuration coordinates of the joint.
func (j *Joint) NQ() int {
	if j.Type == JointCompound {
		return j.compoundNQ()
	}
	return j.Type.NQ()
}

// compoundNQ is a compound joint's NQ: the count validate kept, else
// the sum over its parts (not inlined, so that NQ is).
//
//go:noinline
func (j *Joint) compoundNQ() int {
	if j.nq > 0 {
		return int(j.nq)
	}
	nq, _ := j.compoundSize()
	return nq
}

// NV is the number of velocities (degrees of freedom) of the joint.
func (j *Joint) NV() int {
	if j.Type == JointCompound {
		return j.compoundNV()
	}
	return j.Type.NV()
}

// compoundNV is a compound joint's NV: the count validate kept, else
// the sum over its parts (not inlined, so that NV is).
//
//go:noinline
func (j *Joint) compoundNV() int {
	if j.nv > 0 {
		return int(j.nv)
	}
	_, nv := j.compoundSize()
	return nv
}

// DOFDamping returns the viscous damping of the joint's velocity k.
func (j *Joint) DOFDamping(k int) float64 {
	if j.Type == JointCompound {
		p, _ := j.partOfDOF(k)
		return p.Damping
	}
	return j.Damping
}

// DOFArmature returns the rotor inertia of the joint's velocity k.
func (j *Joint) DOFArmature(k int) float64 {
	if j.Type == JointCompound {
		p, _ := j.partOfDOF(k)
		return p.Armature
	}
	return j.Armature
}

// DOFSpring returns the stiffness acting on the joint's velocity k, the
// index within the joint of the coordinate it stretches and that
// coordinate's rest value, τ = −k (q[qi] − ref). The stiffness is 0 where
// no scalar coordinate belongs to the velocity (free and ball joints and
// parts).
func (j *Joint) DOFSpring(k int) (stiffness float64, qi int, ref float64) {
	switch j.Type {
	case JointCompound:
		p, pq := j.partOfDOF(k)
		if p.Type == JointBall {
			return 0, -1, 0
		}
		return p.Stiffness, pq, p.SpringRef
	case JointFree, JointBall:
		return 0, -1, 0
	}
	if j.SpringRef != nil {
		return j.Stiffness, k, j.SpringRef[k]
	}
	return j.Stiffness, k, 0
}

// ScalarCoordinate returns the index within the joint of the coordinate
// whose rate is velocity k, or −1 where velocity k is part of a rotation
// given by a quaternion (free and ball joints and parts).
func (j *Joint) ScalarCoordinate(k int) int {
	switch j.Type {
	case JointCompound:
		if k >= 0 && k < int(j.nv) { // validated: kept
			return int(j.dofScalar[k])
		}
		p, pq := j.partOfDOF(k)
		if p == nil || p.Type == JointBall {
			return -1
		}
		return pq
	case JointFree, JointBall:
		return -1
	}
	return k
}

// HasDamping reports whether any velocity of the joint is damped.
func (j *Joint) HasDamping() bool {
	for k := range j.NV() {
		if j.DOFDamping(k) > 0 {
			return true
		}
	}
	return false
}

// HasArmature reports whether any velocity of the joint has a rotor inertia.
func (j *Joint) HasArmature() bool {
	for k := range j.NV() {
		if j.DOFArmature(k) > 0 {
			return true
		}
	}
	return false
}

// Joint connects a body to its parent. The body's pose is
// X_WB = X_WP · ParentFrame · X_FM(q) · ChildFrame⁻¹: ParentFrame is the
// joint frame F in the parent body's frame (in the world frame for a root),
// ChildFrame is the joint frame M in the child body's frame, and X_FM(q) is
// the joint's own motion. A free joint ignores both frames (q is the pose of
// the body origin in the world).
//
// The fields that every step reads (the kinematics, the dynamics, the
// joint forces) come first, so that a body's are in a few cache lines.
type Joint struct {
	Type        JointType
	Parent      int          // parent body index, −1 for the world
	ParentFrame spatial.Pose // F in the parent frame
	Axis        spatial.Vec3 // unit axis in F (revolute, prismatic)
	// Ref is the coordinate of a revolute or prismatic joint at which X_FM
	// is the identity (MuJoCo's joint ref): X_FM(q) = X(q − Ref).
	Ref float64
	// Armature is a rotor inertia per degree of freedom (kg·m² or kg),
	// added to the diagonal of M for the joint's velocities (MuJoCo's
	// joint armature; Drake's reflected rotor inertia).
	Armature float64
	// Parts are the joints that a compound joint composes, in order.
	Parts []JointPart
	// nq and nv are a compound joint's coordinate and velocity counts,
	// and dofPart[k], dofQ[k] partOfDOF(k)'s part index and first
	// coordinate for k < nv, kept by validate (Model.AddBody) so that NQ,
	// NV and partOfDOF, which the kinematics, the dynamics and the
	// actuators ask at every step, do not walk the parts; 0 before
	// validation. dofScalar[k] is ScalarCoordinate(k) for k < nv (−1 on a
	// ball part), which the constraints' per-step paths ask for every
	// actuator, limit and tendon term (constraint.dofAt).
	// slides is set on a validated compound of prismatic parts alone,
	// whose subspace does not turn (compoundSubspaceAt).
	nq, nv                   int8
	dofPart, dofQ, dofScalar [MaxCompoundDOF]int8
	slides                   bool
	Damping                  float64 // viscous damping per degree of freedom, τ = −d v (N·m·s/rad or N·s/m)
	Stiffness                float64 // stiffness per coordinate, τ = −k q (1-dof-per-coordinate joints); a ball joint's τ = −k r, r the rotation vector of q (forces.JointSpringDamper)

	Name       string       // optional; the body's name stands for the joint where it is empty
	ChildFrame spatial.Pose // M in the child frame
	Q0, V0     []float64    // initial q and v (length NQ, NV); nil for the neutral configuration and rest
	Lower      []float64    // position limits: enforced by constraint.Limit items of sim.Config.Constraints (scene files add them)
	Upper      []float64
	Effort     float64 // effort limit of the joint's actuators (constraint.Actuator), 0 = none
	// SpringRef is the rest configuration of the stiffness, one value per
	// coordinate (nil: zero).
	SpringRef []float64
}

// neutral writes the joint's zero configuration into q (at Ref for a
// revolute or prismatic joint, where the body is at its model pose).
func (j *Joint) neutral(q []float64) {
	if j.Type == JointCompound {
		j.compoundNeutral(q)
		return
	}
	clear(q[:j.Type.NQ()])
	switch j.Type {
	case JointFree, JointBall:
		q[0] = 1
	case JointRevolute, JointPrismatic:
		q[0] = j.Ref
	}
}

// jointQuat reads a quaternion from q, normalising it unless it is already
// unit to rounding (so that a normalised state is used bit for bit).
func jointQuat(q []float64) spatial.Quat {
	r := spatial.Quat{W: q[0], X: q[1], Y: q[2], Z: q[3]}
	if math.Abs(r.Norm()-1) > 1e-14 {
		r = r.Normalize()
	}
	return r
}

// freePose returns a free joint's X_FM(q) (motion's free case, which
// Workspace.freeRoot and frames call without motion's switch).
func freePose(q []float64) spatial.Pose {
	return spatial.Pose{R: jointQuat(q), P: spatial.Vec3{q[4], q[5], q[6]}}
}

// motion returns X_FM(q), the pose of M in F.
func (j *Joint) motion(q []float64) spatial.Pose {
	switch j.Type {
	case JointFree:
		return freePose(q)
	case JointRevolute:
		return spatial.Pose{R: spatial.QuatFromAxisAngle(j.Axis, q[0]-j.Ref)}
	case JointPrismatic:
		return spatial.Pose{R: spatial.QuatIdentity(), P: j.Axis.Scale(q[0] - j.Ref)}
	case JointBall:
		return spatial.Pose{R: jointQuat(q)}
	case JointPlanar:
		return spatial.Pose{R: spatial.QuatFromAxisAngle(spatial.Vec3{0, 0, 1}, q[2]), P: spatial.Vec3{q[0], q[1], 0}}
	case JointUniversal:
		rx := spatial.QuatFromAxisAngle(spatial.Vec3{1, 0, 0}, q[0])
		return spatial.Pose{R: rx.Mul(spatial.QuatFromAxisAngle(spatial.Vec3{0, 1, 0}, q[1]))}
	case JointCompound:
		var rot [MaxCompoundDOF]spatial.Quat
		var anchor, origin [MaxCompoundDOF]spatial.Vec3
		return j.compoundFrames(q, &rot, &anchor, &origin)
	}
	return spatial.PoseIdentity()
}

// subspace writes the columns of the joint's motion subspace in F: the
// relative angular velocity ω_FM and the velocity of M's origin v_FM, both in
// F, are Σ_k (w[k], l[k]) v_k. It also returns the velocity-product term
// (Ṡ v) = d/dt(S) v at constant v, split the same way.
func (j *Joint) subspace(q, v []float64, w, l *[6]spatial.Vec3) (cw, cl spatial.Vec3) {
	if j.Type == JointCompound {
		return j.compoundSubspace(q, v, w, l)
	}
	e := [3]spatial.Vec3{{1, 0, 0}, {0, 1, 0}, {0, 0, 1}}
	switch j.Type {
	case JointFree:
		for k := range 3 {
			w[k], l[k] = e[k], spatial.Vec3{}
			w[3+k], l[3+k] = spatial.Vec3{}, e[k]
		}
	case JointRevolute:
		w[0], l[0] = j.Axis, spatial.Vec3{}
	case JointPrismatic:
		w[0], l[0] = spatial.Vec3{}, j.Axis
	case JointBall:
		for k := range 3 {
			w[k], l[k] = e[k], spatial.Vec3{}
		}
	case JointPlanar:
		w[0], l[0] = spatial.Vec3{}, e[0]
		w[1], l[1] = spatial.Vec3{}, e[1]
		w[2], l[2] = e[2], spatial.Vec3{}
	case JointUniversal:
		// ω_FM = q̇₀ x + q̇₁ Rx(q₀) y; d/dt Rx(q₀) y = q̇₀ x × Rx(q₀) y.
		y := spatial.Vec3{0, math.Cos(q[0]), math.Sin(q[0])}
		w[0], l[0] = e[0], spatial.Vec3{}
		w[1], l[1] = y, spatial.Vec3{}
		if v != nil {
			cw = e[0].Cross(y).Scale(v[0] * v[1])
		}
	}
	return cw, cl
}

// rate writes q̇ = N(q) v for the joint into qd (length NQ).
func (j *Joint) rate(q, v, qd []float64) {
	switch j.Type {
	case JointFree:
		r := spatial.Quat{W: q[0], X: q[1], Y: q[2], Z: q[3]}.RateWorld(spatial.Vec3{v[0], v[1], v[2]})
		qd[0], qd[1], qd[2], qd[3] = r.W, r.X, r.Y, r.Z
		qd[4], qd[5], qd[6] = v[3], v[4], v[5]
	case JointBall:
		r := spatial.Quat{W: q[0], X: q[1], Y: q[2], Z: q[3]}.RateWorld(spatial.Vec3{v[0], v[1], v[2]})
		qd[0], qd[1], qd[2], qd[3] = r.W, r.X, r.Y, r.Z
	case JointCompound:
		j.compoundRate(q, v, qd)
	default:
		copy(qd, v[:j.Type.NV()])
	}
}

// integrate sets q = q0 + δt N(qθ) v for the joint (SAP eq. 12) and
// renormalises quaternions. q may alias q0 or qθ.
func (j *Joint) integrate(q0, qTheta, v []float64, dt float64, q []float64) {
	switch j.Type {
	case JointFree:
		integrateFree((*[7]float64)(q0), (*[4]float64)(qTheta), (*[6]float64)(v), dt, (*[7]float64)(q))
	case JointBall:
		t, w, p := qTheta[:4], v[:3], q0[:4] // one bounds check each, not one per entry
		r := spatial.Quat{W: t[0], X: t[1], Y: t[2], Z: t[3]}
		rd := r.RateWorld(spatial.Vec3{w[0], w[1], w[2]})
		r0 := spatial.Quat{W: p[0], X: p[1], Y: p[2], Z: p[3]}
		rn := r0.Add(rd.Scale(dt)).Normalize()
		o := q[:4]
		o[0], o[1], o[2], o[3] = rn.W, rn.X, rn.Y, rn.Z
	case JointCompound:
		j.compoundIntegrate(q0, qTheta, v, dt, q)
	default:
		for i := range j.Type.NQ() {
			q[i] = q0[i] + dt*v[i]
		}
	}
}

// integrateFree is integrate for a free joint, on arrays (no bounds
// checks) and with RateWorld written out in line: rd = ½ (0, ω) r, the
// same expression tree as Quat.Mul with the zero scalar part kept (0·r_W
// is not folded: it is NaN at an infinite r_W and signs zeros), so the same
// bits. q may alias q0 or qθ: the quaternion is read before any store.
func integrateFree(q0 *[7]float64, qTheta *[4]float64, v *[6]float64, dt float64, q *[7]float64) {
	rw, rx, ry, rz := qTheta[0], qTheta[1], qTheta[2], qTheta[3]
	w0, w1, w2 := v[0], v[1], v[2]
	dw := 0.5 * (0*rw - (w0*rx + w1*ry + w2*rz))
	dx := 0.5 * ((0*rx + rw*w0) + (w1*rz - w2*ry))
	dy := 0.5 * ((0*ry + rw*w1) + (w2*rx - w0*rz))
	dz := 0.5 * ((0*rz + rw*w2) + (w0*ry - w1*rx))
	rn := spatial.Quat{W: q0[0] + dt*dw, X: q0[1] + dt*dx, Y: q0[2] + dt*dy, Z: q0[3] + dt*dz}.Normalize()
	q[4] = q0[4] + dt*v[3]
	q[5] = q0[5] + dt*v[4]
	q[6] = q0[6] + dt*v[5]
	q[0], q[1], q[2], q[3] = rn.W, rn.X, rn.Y, rn.Z
}

// validate checks the joint's data against its type.
func (j *Joint) validate() error {
	if j.Type < JointWeld || j.Type > JointCompound {
		return fmt.Errorf("unknown joint type %d", int(j.Type))
	}
	if j.Type == JointCompound {
		if err := j.validateCompound(); err != nil {
			return err
		}
	} else if len(j.Parts) > 0 {
		return fmt.Errorf("%s joint: parts are only for a compound joint", j.Type)
	}
	nq, nv := j.NQ(), j.NV()
	if math.IsNaN(j.Ref) || math.IsInf(j.Ref, 0) {
		return fmt.Errorf("%s joint: ref %v must be finite", j.Type, j.Ref)
	}
	if j.SpringRef != nil && len(j.SpringRef) != nq {
		return fmt.Errorf("%s joint: springref has %d values, want %d", j.Type, len(j.SpringRef), nq)
	}
	if j.Type == JointRevolute || j.Type == JointPrismatic {
		n := j.Axis.Norm()
		if !(n > 1e-12) || !j.Axis.IsFinite() {
			return fmt.Errorf("%s joint axis %v must be non-zero and finite", j.Type, j.Axis)
		}
		j.Axis = j.Axis.Scale(1 / n)
	}
	if j.Q0 != nil && len(j.Q0) != nq {
		return fmt.Errorf("%s joint: q0 has %d values, want %d", j.Type, len(j.Q0), nq)
	}
	if j.V0 != nil && len(j.V0) != nv {
		return fmt.Errorf("%s joint: v0 has %d values, want %d", j.Type, len(j.V0), nv)
	}
	if !(j.Armature >= 0) || math.IsInf(j.Armature, 0) {
		return fmt.Errorf("%s joint: armature %v must be ≥ 0 and finite", j.Type, j.Armature)
	}
	if j.Damping < 0 || j.Stiffness < 0 || math.IsNaN(j.Damping) || math.IsNaN(j.Stiffness) {
		return fmt.Errorf("%s joint: damping %v and stiffness %v must be ≥ 0", j.Type, j.Damping, j.Stiffness)
	}
	if j.Stiffness > 0 && (j.Type == JointFree || j.Type == JointCompound) {
		return fmt.Errorf("%s joint: stiffness is only defined for revolute, prismatic, planar, universal and ball joints", j.Type)
	}
	if (j.Lower != nil && len(j.Lower) != nq) || (j.Upper != nil && len(j.Upper) != nq) {
		return fmt.Errorf("%s joint: limits need %d values", j.Type, nq)
	}
	for i := range j.Lower {
		if j.Upper != nil && j.Lower[i] > j.Upper[i] {
			return fmt.Errorf("%s joint: lower limit %v above upper limit %v", j.Type, j.Lower[i], j.Upper[i])
		}
	}
	return nil
}
