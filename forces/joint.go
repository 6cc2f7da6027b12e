package forces

import (
	"github.com/stiction-sim/stiction/multibody"
	"github.com/stiction-sim/stiction/spatial"
)

// JointSpringDamper is the spring–damper of one joint (Joint.Stiffness and
// Joint.Damping of body Body): τ_i = −k (q_i − q_ref,i) − d v_i per degree of
// freedom. The stiffness acts only on joints whose coordinates are their
// velocities' integrals (revolute, prismatic, planar, universal), so that
// K = k I and D = d I are exact, constant and SPD (SAP §II-D), and on ball
// joints, as MuJoCo 2.2.2's mj_passive: τ = −k r, r the rotation vector of
// the joint's quaternion q (mju_subQuat(q, qpos_spring) with MuJoCo's
// qpos_spring, the identity; r is the same in the parent and the child
// frame, R(q) r = r), K = k I its exact derivative at rest; free joints
// take damping only. On a compound joint (PerDOF) each degree of
// freedom takes its part's stiffness, rest value and damping
// (multibody.Joint.DOFSpring, DOFDamping), and K and D stay diagonal.
type JointSpringDamper struct {
	Body      int
	Stiffness float64
	Damping   float64
	Ref       []float64 // rest configuration q_ref (nil: zero)
	// PerDOF takes stiffness, rest value and damping from the joint's
	// parts instead of the fields above.
	PerDOF bool
}

// JointSpringDampers returns the spring–dampers of every joint of m with a
// non-zero stiffness or damping.
func JointSpringDampers(m *multibody.Model) []Element {
	var out []Element
	for b, body := range m.Bodies {
		j := &body.Joint
		switch {
		case body.Tree < 0:
		case j.Type == multibody.JointCompound:
			if j.HasDamping() || hasStiffness(j) {
				out = append(out, &JointSpringDamper{Body: b, PerDOF: true})
			}
		case j.Stiffness > 0 || j.Damping > 0:
			out = append(out, &JointSpringDamper{Body: b, Stiffness: j.Stiffness, Damping: j.Damping, Ref: j.SpringRef})
		}
	}
	return out
}

// hasStiffness reports whether any degree of freedom of j has a spring.
func hasStiffness(j *multibody.Joint) bool {
	for k := range j.NV() {
		if st, _, _ := j.DOFSpring(k); st > 0 {
			return true
		}
	}
	return false
}

// dof returns, for velocity k of the joint, the damping, the stiffness, the
// index in q of the coordinate it stretches and its rest value (stiffness 0
// where no spring applies).
func (e *JointSpringDamper) dof(body *multibody.Body, k int) (damping, stiffness float64, qi int, ref float64) {
	j := &body.Joint
	if e.PerDOF {
		st, pq, r := j.DOFSpring(k)
		return j.DOFDamping(k), st, body.QOff + pq, r
	}
	if j.Type == multibody.JointFree || j.Type == multibody.JointBall || e.Stiffness <= 0 {
		return e.Damping, 0, -1, 0
	}
	return e.Damping, e.Stiffness, body.QOff + k, e.ref(k)
}

// Apply adds τ and the diagonal K and D on the joint's block. A joint
// whose velocities are its coordinates' rates, or a free joint (damping
// alone, stiffness 0), takes the element's own stiffness and damping here,
// in line (applyCoords until pass 235: a second call and prologue for
// every hinge of the robots' steps).
func (e *JointSpringDamper) Apply(c *Context, out *Output) {
	body := &c.Model.Bodies[e.Body]
	switch t := body.Joint.Type; {
	case e.PerDOF && t == multibody.JointCompound:
		e.applyParts(c, out, body)
		return
	case e.PerDOF || t == multibody.JointBall || t == multibody.JointCompound:
		e.applyDOFs(c, out, body)
		return
	}
	d, st := e.Damping, e.Stiffness
	if body.Joint.Type == multibody.JointFree {
		st = 0
	}
	n := body.Joint.Type.NV()
	for k := range n {
		i := body.VOff + k
		f := -d * c.V[i] // springForce, with the rest value read only for a spring
		if st > 0 {
			f -= st * (c.Q[body.QOff+k] - e.ref(k))
		}
		out.F[i] += f // add's force; its Jacobian part after the loop
	}
	if out.Jacobians {
		addDiags(out, &c.Model.Trees[body.Tree], body.Tree, body.VOff, n, d, st)
	}
}

// The fast paths, Apply's own loop and applyParts, make applyDOFs'
// operations on the same values (dof's and ballSpring's answers written
// out; TestJointSpringCoordsMatchDOFs, TestJointSpringPartsMatchDOFs)
// without its calls per velocity, some 140 instructions a hinge (dm walker
// has six, dm humanoid 21 on compound joints).

// applyParts is applyDOFs on a compound joint with PerDOF: each revolute
// or prismatic part's damping, stiffness and rest value read once, a ball
// part's velocities by applyDOF. It walks the parts (revolute, prismatic
// or ball: one velocity and coordinate, or three and four), the
// velocities k in their order, instead of asking for each velocity's part
// (multibody.Joint.DOFPart).
func (e *JointSpringDamper) applyParts(c *Context, out *Output, body *multibody.Body) {
	tr := &c.Model.Trees[body.Tree]
	k, pq := 0, 0 // the part's first velocity and coordinate within the joint
	for pi := range body.Joint.Parts {
		p := &body.Joint.Parts[pi]
		if p.Type == multibody.JointBall {
			for end := k + 3; k < end; k++ {
				e.applyDOF(c, out, body, tr, k)
			}
			pq += 4
			continue
		}
		i := body.VOff + k
		add(out, tr, body.Tree, i, springForce(c, i, body.QOff+pq, p.Damping, p.Stiffness, p.SpringRef), p.Damping, p.Stiffness)
		k, pq = k+1, pq+1
	}
}

// applyDOFs is Apply on any joint, velocity by velocity.
func (e *JointSpringDamper) applyDOFs(c *Context, out *Output, body *multibody.Body) {
	tr := &c.Model.Trees[body.Tree]
	for k := range body.Joint.NV() {
		e.applyDOF(c, out, body, tr, k)
	}
}

// applyDOF is Apply on velocity k of the joint.
func (e *JointSpringDamper) applyDOF(c *Context, out *Output, body *multibody.Body, tr *multibody.Tree, k int) {
	i := body.VOff + k
	d, st, qi, ref := e.dof(body, k)
	f := springForce(c, i, qi, d, st, ref)
	if kb, r, ax := e.ballSpring(body, c.Q, k); kb > 0 {
		st, f = kb, f-kb*r[ax]
	}
	add(out, tr, body.Tree, i, f, d, st)
}

// springForce returns −d v_i − k (q_qi − ref), the stiffness term only
// where k > 0 (q is not read otherwise).
func springForce(c *Context, i, qi int, d, k, ref float64) float64 {
	f := -d * c.V[i]
	if k > 0 {
		f -= k * (c.Q[qi] - ref)
	}
	return f
}

// add adds f to F_i and, with Jacobians, d to D_ii and k (where > 0) to
// K_ii in tree t's blocks.
func add(out *Output, tr *multibody.Tree, t, i int, f, d, k float64) {
	out.F[i] += f
	if out.Jacobians {
		addDiag(out, tr, t, i, d, k)
	}
}

// addDiag is add's Jacobian part: d to D_ii and k (where > 0) to K_ii in
// tree t's blocks.
func addDiag(out *Output, tr *multibody.Tree, t, i int, d, k float64) {
	di := out.Off[t] + (i-tr.VOffset)*(tr.NV+1)
	out.D[di] += d
	if k > 0 {
		out.K[di] += k
	}
}

// addDiags is addDiag for the n velocities from i, for Apply once
// its forces are added (F, D and K are distinct arrays: the same sums in
// each). It is out of line: half_cheetah's step asks for no Jacobians,
// and in Apply's loop the index and checks of D and K sat between
// the force and the next velocity, in the lines its six hinges fetch.
//
//go:noinline
func addDiags(out *Output, tr *multibody.Tree, t, i, n int, d, k float64) {
	for j := i; j < i+n; j++ {
		addDiag(out, tr, t, j, d, k)
	}
}

// ballSpring returns, for velocity k of the joint, the stiffness of the
// ball it turns (a ball joint, e.Stiffness, or a compound joint's ball
// part, its own; 0 for none), the rotation vector r of that ball's
// quaternion in q and which of r's components k is (MuJoCo 2.2.2's
// mj_passive: τ = −k mju_subQuat(q, qpos_spring) on the ball's three
// velocities, whether it is a body's only joint or one of several).
func (e *JointSpringDamper) ballSpring(body *multibody.Body, q []float64, k int) (float64, spatial.Vec3, int) {
	ok, qi, ax, st := body.Joint.BallOfDOF(k)
	if !e.PerDOF {
		st = e.Stiffness
	}
	if !ok || st <= 0 {
		return 0, spatial.Vec3{}, 0
	}
	qb := q[body.QOff+qi : body.QOff+qi+4]
	return st, spatial.Quat{W: qb[0], X: qb[1], Y: qb[2], Z: qb[3]}.RotationVector(), ax
}

func (e *JointSpringDamper) ref(k int) float64 {
	if e.Ref == nil {
		return 0
	}
	return e.Ref[k]
}

// PotentialEnergy returns ½ Σ k_i (q_i − q_ref,i)² (½ k r·r on a ball
// joint).
func (e *JointSpringDamper) PotentialEnergy(c *Context) float64 {
	body := &c.Model.Bodies[e.Body]
	s := 0.0
	for k := range body.Joint.NV() {
		_, st, qi, ref := e.dof(body, k)
		if st > 0 {
			d := c.Q[qi] - ref
			s += 0.5 * st * d * d
		}
		if kb, r, ax := e.ballSpring(body, c.Q, k); kb > 0 {
			s += 0.5 * kb * r[ax] * r[ax]
		}
	}
	return s
}
