package mjcf

import (
	"fmt"
	"slices"

	"gonum.org/v1/gonum/mat"

	"github.com/stiction-sim/stiction/model"
	"github.com/stiction-sim/stiction/model/xmlutil"
	"github.com/stiction-sim/stiction/multibody"
	"github.com/stiction-sim/stiction/scene"
	"github.com/stiction-sim/stiction/spatial"
)

// pendingEq is an equality constraint of the scene whose weight (MuJoCo's
// diagApprox of its rows) comes once the model's mass matrix is known
// (equalityCompliance).
type pendingEq struct {
	kind   string // ball, weld, coupler
	index  int    // in Scene.Constraints
	solref []float64
	solimp []float64
	// ball, weld: the bodies (scene names, "world"); coupler: the bodies
	// of the joints and the ratio.
	a, b  string
	ratio float64
	e     *xmlutil.Element
	// A coupler's row is scale (e_a − ratio e_b) (a weld's scale is its
	// torquescale), and tendon says whether
	// MuJoCo's weight is the tendon's J M⁻¹ Jᵀ (a tendon equality) or the
	// sum of the joints' M⁻¹ diagonals (a joint equality): mj_diagApprox.
	scale  float64
	tendon bool
	// joints and coefs: a coupler Σ coefs_k q_k = a0 over these joints.
	joints []string
	coefs  []float64
	dofs   []int // the joints' degrees of freedom (parts of compound joints); nil: 0
}

// jointRefValue returns the ref (MuJoCo's qpos0) of the hinge or slide
// joint of scene body b whose degree of freedom is dof (a part of a
// compound joint, or the body's only joint).
func (c *compiler) jointRefValue(b string, dof int) float64 {
	for _, j := range c.jointList {
		if j.body == c.bodies[b] && j.dof == dof {
			return j.ref
		}
	}
	return 0
}

// worldPose returns the pose of an MJCF body (by scene name, "world" for
// the world) at the reference configuration.
func (c *compiler) worldPose(name string) spatial.Pose {
	if name == "world" {
		return spatial.PoseIdentity()
	}
	return c.bodyPose[c.bodies[name]]
}

// addEquality maps an active equality onto the scene:
//
//	connect body1 body2 anchor → ball joining anchor (body1's frame) to the
//	    point of body2 it coincides with at the reference configuration,
//	    MuJoCo's soft constraint (softBall: solref, solimp, weight);
//	weld body1 body2 relpose anchor torquescale → weld of the frame
//	    F = (anchor) on body2 to the frame of body1 where F is at the
//	    reference configuration, or to relpose (a pose in body1's frame:
//	    MuJoCo 2.2.2 takes relpose's position as body1's point whatever the
//	    anchor), MuJoCo's soft weld (softWeld: solref, solimp, weight,
//	    torquescale);
//	joint joint1 joint2 polycoef → coupler q1 = a0 + a1 q2 (the quadratic
//	    and higher terms are dropped, with a warning); without joint2 the
//	    coupler q1 = a0 over the one joint; both MuJoCo's soft constraint
//	    (softCoupler: solref, solimp, weight dof_invweight0).
//
// The world, when it is one of the bodies, goes first (scene rule).
func (c *compiler) addEquality(q *xmlutil.Element, eq model.Equality) error {
	s := c.out.Scene
	pe := pendingEq{solref: eq.SolRef, e: q}
	switch eq.Kind {
	case "connect":
		x1, x2 := c.worldPose(eq.Body1), c.worldPose(eq.Body2)
		p := x1.Apply(eq.Anchor)
		con := scene.Constraint{Name: eq.Name, Type: "ball", Bodies: []string{eq.Body1, eq.Body2}, Points: []scene.Vec{scene.Vec(eq.Anchor), scene.Vec(x2.ApplyInv(p))}}
		if eq.Body2 == "world" {
			con.Bodies, con.Points = []string{"world", eq.Body1}, []scene.Vec{scene.Vec(p), scene.Vec(eq.Anchor)}
		}
		pe.kind, pe.a, pe.b = "ball", eq.Body1, eq.Body2
		pe.solimp = eq.SolImp // MuJoCo's soft connect (softBody)
		pe.index = len(s.Constraints)
		s.Constraints = append(s.Constraints, con)
	case "weld":
		x1, x2 := c.worldPose(eq.Body1), c.worldPose(eq.Body2)
		fb := spatial.Pose{R: spatial.QuatIdentity(), P: eq.Anchor} // on body2
		fa := x1.Inverse().Compose(x2).Compose(fb)                  // on body1: where fb is at qpos0
		if eq.RelPose != nil {
			fa = *eq.RelPose // MuJoCo 2.2.2: body1's point is relpose's position, not relpose·anchor
		}
		con := scene.Constraint{Name: eq.Name, Type: "weld", Bodies: []string{eq.Body1, eq.Body2}, Frames: []scene.Pose{*model.PoseToScene(fa), *model.PoseToScene(fb)}}
		if eq.Body2 == "world" {
			con.Bodies, con.Frames = []string{"world", eq.Body1}, []scene.Pose{*model.PoseToScene(fb), *model.PoseToScene(fa)}
		}
		pe.kind, pe.a, pe.b = "weld", eq.Body1, eq.Body2
		pe.solimp, pe.scale = eq.SolImp, eq.TorqueScale // MuJoCo's soft weld (softBody)
		pe.index = len(s.Constraints)
		s.Constraints = append(s.Constraints, con)
	case "joint":
		pc := slices.Clone(eq.PolyCoef)
		if pc[2] != 0 || pc[3] != 0 || pc[4] != 0 {
			c.r.Warnf(q, "polycoef", "the quadratic and higher terms of polycoef (%g, %g, %g) are dropped: the coupler is linear, q1 = %g + %g q2", pc[2], pc[3], pc[4], pc[0], pc[1])
		}
		// MuJoCo measures from qpos0 (the joints' ref): q1 − ref1 =
		// a0 + a1 (q2 − ref2), so q1 = (a0 + ref1 − a1 ref2) + a1 q2.
		pc[0] += c.jointRefValue(eq.Joint1, eq.DOF1)
		if eq.Joint2 != "" {
			pc[0] -= pc[1] * c.jointRefValue(eq.Joint2, eq.DOF2)
		}
		if eq.Joint2 == "" { // q1 = a0: a coupler over one joint, MuJoCo's soft row q1 − a0
			con := scene.Constraint{Name: eq.Name, Type: "coupler", Joints: []string{eq.Joint1}, Coefs: []float64{1}}
			if pc[0] != 0 {
				con.Offset = model.Ptr(pc[0])
			}
			if eq.DOF1 != 0 {
				con.DOFs = []int{eq.DOF1}
			}
			pe.kind, pe.solimp, pe.scale = "coupler", eq.SolImp, 1
			pe.joints, pe.coefs, pe.dofs = con.Joints, con.Coefs, con.DOFs
			pe.index = len(s.Constraints)
			s.Constraints = append(s.Constraints, con)
			break
		}
		con := scene.Constraint{Name: eq.Name, Type: "coupler", Joints: []string{eq.Joint1, eq.Joint2}}
		if pc[1] != 1 {
			con.Ratio = model.Ptr(pc[1])
		}
		if pc[0] != 0 {
			con.Offset = model.Ptr(pc[0])
		}
		if eq.DOF1 != 0 || eq.DOF2 != 0 {
			con.DOFs = []int{eq.DOF1, eq.DOF2}
		}
		pe.kind, pe.a, pe.b, pe.ratio, pe.dofs = "coupler", eq.Joint1, eq.Joint2, pc[1], con.DOFs
		pe.solimp, pe.scale = eq.SolImp, 1 // MuJoCo's soft constraint on q1 − a1 q2 − a0
		pe.index = len(s.Constraints)
		s.Constraints = append(s.Constraints, con)
	}
	c.eqs = append(c.eqs, pe)
	return nil
}

// equalityCompliance makes every equality MuJoCo's soft constraint:
// joint and tendon equalities (couplers: softCoupler), connects (balls)
// and welds (softBody), with MuJoCo's weights at the reference
// configuration; it also gives joints with soft friction loss or limits
// their weights (frictionWeights). The scene s must be valid; its model
// is built without shapes (MJCF bodies carry explicit mass properties).
func (c *compiler) equalityCompliance() error {
	if len(c.eqs) == 0 && !c.softFriction() && !softTendonLimits(c.out.Scene) {
		return nil
	}
	m, st, err := scene.BuildModel(massOnly(c.out.Scene))
	if err != nil {
		return fmt.Errorf("%s: effective masses of the equality constraints: %w", c.r.File, err)
	}
	ws := multibody.NewWorkspace(m)
	ws.Update(st.Q, st.V)
	minv, err := inverseMass(m, ws)
	if err != nil {
		return fmt.Errorf("%s: effective masses of the equality constraints: %w", c.r.File, err)
	}
	s := c.out.Scene
	frictionWeights(s, m, minv)
	tendonLimitWeights(s, m, ws, minv)
	for _, pe := range c.eqs {
		switch pe.kind {
		case "ball", "weld":
			c.softBody(pe, m, ws, minv)
		case "distance":
			c.softDistance(pe, m, ws, minv)
		default:
			c.softCoupler(pe, m, minv)
		}
	}
	return nil
}

// softBody makes a connect's ball or a weld MuJoCo's soft constraint:
// its solref and solimp, and MuJoCo's weight of its rows (mj_diagApprox):
// the two bodies' translational body_invweight0 summed (trace of
// J M⁻¹ Jᵀ / 3 at each body's centre of mass, qpos0; the world's is 0).
// MuJoCo 2.2.2 gives a weld's three orientation rows this translational
// weight too: mj_diagApprox's weld counter, meant to switch to the
// rotational body_invweight0 after three rows, is reset on every
// equality row (it compares efc_type with mjEQ_WELD).
func (c *compiler) softBody(pe pendingEq, m *multibody.Model, ws *multibody.Workspace, minv *mat.Dense) {
	con := &c.out.Scene.Constraints[pe.index]
	con.SolRef = pe.solref
	con.SolImp = pe.solimp
	var w float64
	for _, name := range []string{pe.a, pe.b} {
		if i, ok := c.bodies[name]; ok {
			w += comInvWeight(m, ws, minv, name, c.out.Links[i].COM)
		}
	}
	if w > 0 { // else the rows move nothing at qpos0: the Delassus estimate at each step
		con.Weight = model.Ptr(w)
	}
	if pe.kind == "weld" && pe.scale != 1 {
		con.Scale = model.Ptr(pe.scale)
	}
}

// softCoupler makes a coupler MuJoCo's soft constraint: its solref and
// solimp, its row scaled as MuJoCo's (pe.scale) and MuJoCo's weight at
// the reference configuration (mj_diagApprox: tendon_invweight0 = J M⁻¹ Jᵀ
// for a tendon equality, dof_invweight0 = M⁻¹_ii of each joint summed for
// a joint equality; M⁻¹ with armature, at qpos0).
func (c *compiler) softCoupler(pe pendingEq, m *multibody.Model, minv *mat.Dense) {
	con := &c.out.Scene.Constraints[pe.index]
	con.SolRef = pe.solref
	con.SolImp = pe.solimp
	var w float64
	switch {
	case pe.coefs != nil:
		J := mat.NewDense(1, max(m.NV, 1), nil)
		for k, j := range pe.joints {
			i := m.Bodies[m.BodyByName(j)].VOff
			if pe.dofs != nil {
				i += pe.dofs[k]
			}
			J.Set(0, i, J.At(0, i)+pe.coefs[k])
		}
		w = jminvjt(minv, J).At(0, 0)
	case pe.tendon:
		w = pe.scale * pe.scale * jminvjt(minv, jointRow(m, pe.a, pe.b, pe.ratio)).At(0, 0)
	default:
		for k, j := range []string{pe.a, pe.b} {
			i := m.Bodies[m.BodyByName(j)].VOff
			if pe.dofs != nil {
				i += pe.dofs[k]
			}
			w += minv.At(i, i)
		}
	}
	if w > 0 { // else the row moves nothing at qpos0: the Delassus estimate at each step
		con.Weight = model.Ptr(w)
	}
	if pe.scale != 1 {
		con.Scale = model.Ptr(pe.scale)
	}
}

// softDistance makes the distance constraint of a tendon equality on a
// straight spatial tendon (siteDistance) MuJoCo's soft constraint: its
// solref and solimp, and MuJoCo's weight tendon_invweight0 = G M⁻¹ Gᵀ at
// qpos0 (mj_diagApprox, mj_setConst), G the tendon's path Jacobian.
func (c *compiler) softDistance(pe pendingEq, m *multibody.Model, ws *multibody.Workspace, minv *mat.Dense) {
	con := &c.out.Scene.Constraints[pe.index]
	con.SolRef, con.SolImp = pe.solref, pe.solimp
	G := mat.NewDense(1, max(m.NV, 1), nil)
	scene.TendonPath(m, c.out.Scene.Tendon(pe.a)).Jacobian(m, ws, G.RawRowView(0), make([]float64, 3*max(m.NV, 1)))
	if w := jminvjt(minv, G).At(0, 0); w > 0 { // else the row moves nothing at qpos0: the Delassus estimate at each step
		con.Weight = model.Ptr(w)
	}
}

// softFriction reports whether a joint has MuJoCo's soft friction loss or
// soft limits, whose weights need M⁻¹ at qpos0.
func (c *compiler) softFriction() bool {
	for _, b := range c.out.Scene.Bodies {
		if j := b.Joint; j != nil && ((j.FrictionSolRef != nil && j.Friction != nil && *j.Friction > 0) || softLimits(j.Limits)) {
			return true
		}
		for _, p := range jointParts(b.Joint) {
			if softLimits(p.Limits) {
				return true
			}
		}
	}
	return false
}

// softLimits reports whether l are MuJoCo's soft limits (solref set).
func softLimits(l *scene.Limits) bool { return l != nil && l.SolRef != nil }

// jointParts returns the parts of a compound joint j (none for another
// joint or none).
func jointParts(j *scene.Joint) []scene.JointPart {
	if j == nil {
		return nil
	}
	return j.Parts
}

// frictionWeights gives the joints with soft friction loss or soft limits
// MuJoCo's weight of their rows (mj_diagApprox: dof_invweight0, the
// diagonal of M⁻¹ at qpos0, averaged over a ball joint's three degrees of
// freedom), and so the soft limits of a compound joint's hinge and slide
// parts (partWeights). A compound joint's friction loss keeps the
// Delassus estimate.
func frictionWeights(s *scene.Scene, m *multibody.Model, minv *mat.Dense) {
	for i := range s.Bodies {
		j := s.Bodies[i].Joint
		friction := j != nil && j.FrictionSolRef != nil && j.Friction != nil && *j.Friction > 0
		limits := j != nil && softLimits(j.Limits)
		k := m.BodyByName(s.Bodies[i].Name)
		if k < 0 || m.Bodies[k].Tree < 0 {
			continue
		}
		if m.Bodies[k].Joint.Type == multibody.JointCompound {
			partWeights(j, m.Bodies[k].VOff, minv)
			continue
		}
		if !friction && !limits {
			continue
		}
		n, off := m.Bodies[k].Joint.NV(), m.Bodies[k].VOff
		var w float64
		for d := range n {
			w += minv.At(off+d, off+d)
		}
		if w /= float64(n); !(w > 0) {
			continue
		}
		if friction {
			j.FrictionWeight = model.Ptr(w)
		}
		if limits {
			j.Limits.Weight = model.Ptr(w)
		}
	}
}

// softTendonLimits reports whether a tendon has MuJoCo's soft limits,
// whose weight needs M⁻¹ at qpos0.
func softTendonLimits(s *scene.Scene) bool {
	for _, t := range s.Tendons {
		if t.Limits != nil && t.Limits.SolRef != nil {
			return true
		}
	}
	return false
}

// tendonLimitWeights gives the tendons with soft limits MuJoCo's weight of
// their rows (mj_diagApprox: tendon_invweight0 = G M⁻¹ Gᵀ at qpos0,
// mj_setConst; G a fixed tendon's coefficients or a spatial tendon's path
// Jacobian, pulleys' divisors included). Without it a limit's R took the
// Delassus estimate at each step's start, which moves with M(q).
func tendonLimitWeights(s *scene.Scene, m *multibody.Model, ws *multibody.Workspace, minv *mat.Dense) {
	G := mat.NewDense(1, max(m.NV, 1), nil)
	local := make([]float64, 3*max(m.NV, 1))
	for i := range s.Tendons {
		t := &s.Tendons[i]
		if t.Limits == nil || t.Limits.SolRef == nil {
			continue
		}
		G.Zero()
		g := G.RawRowView(0)
		if p := scene.TendonPath(m, t); p != nil {
			p.Jacobian(m, ws, g, local)
		} else {
			for _, j := range t.Joints {
				b := m.BodyByName(j.Joint)
				if b < 0 {
					continue
				}
				k := m.Bodies[b].VOff
				if j.DOF != nil {
					k += *j.DOF
				}
				g[k] += j.Coef
			}
		}
		if w := jminvjt(minv, G).At(0, 0); w > 0 {
			t.Limits.Weight = model.Ptr(w)
		}
	}
}

// partWeights gives the soft limits of compound joint j's hinge and slide
// parts, whose coordinates start at velocity off, MuJoCo's weight of their
// rows: dof_invweight0, the part's diagonal entry of M⁻¹ at qpos0, as for
// a body's lone hinge (MuJoCo's dofs of a body are its joints', in order).
func partWeights(j *scene.Joint, off int, minv *mat.Dense) {
	vi := off
	for i := range j.Parts {
		p := &j.Parts[i]
		t, err := multibody.ParseJointType(p.Type)
		if err != nil {
			return
		}
		if w := minv.At(vi, vi); softLimits(p.Limits) && t != multibody.JointBall && w > 0 {
			p.Limits.Weight = model.Ptr(w)
		}
		vi += t.NV()
	}
}

// massOnly returns a copy of s without shapes, visuals and materials'
// uses: enough for the mass matrix of bodies with explicit mass
// properties, without reading meshes.
func massOnly(s *scene.Scene) *scene.Scene {
	out := *s
	out.Bodies = make([]scene.Body, len(s.Bodies))
	for i, b := range s.Bodies {
		b.Shape, b.ShapePose, b.Collisions, b.Visuals, b.Material = nil, nil, nil, nil, ""
		out.Bodies[i] = b
	}
	out.Actuators, out.Constraints, out.Forces = nil, nil, nil
	return &out
}

// inverseMass returns M⁻¹ (nv × nv, block diagonal by tree) at the
// workspace's configuration.
func inverseMass(m *multibody.Model, ws *multibody.Workspace) (*mat.Dense, error) {
	nv := m.NV
	minv := mat.NewDense(max(nv, 1), max(nv, 1), nil)
	for t, tr := range m.Trees {
		blk := make([]float64, tr.NV*tr.NV)
		ws.MassMatrix(t, blk)
		var ch mat.Cholesky
		if !ch.Factorize(mat.NewSymDense(tr.NV, blk)) {
			return nil, fmt.Errorf("the mass matrix of tree %d is not positive definite", t)
		}
		var inv mat.SymDense
		if err := ch.InverseTo(&inv); err != nil {
			return nil, err
		}
		for i := range tr.NV {
			for j := range tr.NV {
				minv.Set(tr.VOffset+i, tr.VOffset+j, inv.At(i, j))
			}
		}
	}
	return minv, nil
}

// bodyIndex returns the model body of a scene body name, −1 for the world.
func bodyIndex(m *multibody.Model, name string) int {
	if name == "world" || name == "" {
		return -1
	}
	return m.BodyByName(name)
}

// comInvWeight returns MuJoCo's translational body_invweight0 of the body
// named name (comInvWeights' first part).
func comInvWeight(m *multibody.Model, ws *multibody.Workspace, minv *mat.Dense, name string, com spatial.Vec3) float64 {
	return comInvWeights(m, ws, minv, name, com)[0]
}

// comInvWeights returns MuJoCo's body_invweight0 of the body named name,
// translational and rotational (engine_setconst.c, mj_setConst: with
// mj_jacBodyCom's J = (J_p; J_r), 6 × nv, at the workspace's
// configuration and A = J M⁻¹ Jᵀ, body_invweight0[2b] = (A₀₀ + A₁₁ +
// A₂₂)/3 and body_invweight0[2b+1] = (A₃₃ + A₄₄ + A₅₅)/3; J_p the
// velocity of its centre of mass com, body frame, J_r its angular
// velocity, both in world coordinates); 0 for the world and bodies that
// do not move.
func comInvWeights(m *multibody.Model, ws *multibody.Workspace, minv *mat.Dense, name string, com spatial.Vec3) [2]float64 {
	k := m.BodyByName(name)
	if k < 0 || m.Bodies[k].Tree < 0 {
		return [2]float64{}
	}
	var w [2]float64
	for part, J := range [2]*mat.Dense{pointRows(m, ws, "", name, ws.Pose(k).Apply(com)), angularRows(m, ws, k)} {
		var jm mat.Dense
		jm.Mul(J, minv)
		for r := range 3 {
			w[part] += mat.Dot(jm.RowView(r), J.RowView(r))
		}
		w[part] /= 3
	}
	return w
}

// angularRows returns the 3 × nv Jacobian of body k's angular velocity
// (world coordinates).
func angularRows(m *multibody.Model, ws *multibody.Workspace, k int) *mat.Dense {
	J := mat.NewDense(3, max(m.NV, 1), nil)
	t := m.Bodies[k].Tree
	n := m.Trees[t].NV
	buf := make([]float64, 3*n)
	ws.AngularJacobian(k, buf)
	for r := range 3 {
		for j := range n {
			J.Set(r, m.Trees[t].VOffset+j, buf[r*n+j])
		}
	}
	return J
}

// pointRows returns the 3 × nv Jacobian of the velocity of b's material
// point at world position p relative to a's.
func pointRows(m *multibody.Model, ws *multibody.Workspace, a, b string, p spatial.Vec3) *mat.Dense {
	J := mat.NewDense(3, max(m.NV, 1), nil)
	add := func(body int, sign float64) {
		if body < 0 || m.Bodies[body].Tree < 0 {
			return
		}
		t := m.Bodies[body].Tree
		n := m.Trees[t].NV
		buf := make([]float64, 3*n)
		ws.PointJacobian(body, p, buf)
		for r := range 3 {
			for k := range n {
				J.Set(r, m.Trees[t].VOffset+k, J.At(r, m.Trees[t].VOffset+k)+sign*buf[r*n+k])
			}
		}
	}
	add(bodyIndex(m, b), 1)
	add(bodyIndex(m, a), -1)
	return J
}

// jointRow returns the 1 × nv Jacobian of q1 − ratio·q2 for the joints of
// scene bodies b1 and b2 (b2 "": q1 alone).
func jointRow(m *multibody.Model, b1, b2 string, ratio float64) *mat.Dense {
	J := mat.NewDense(1, max(m.NV, 1), nil)
	J.Set(0, m.Bodies[m.BodyByName(b1)].VOff, 1)
	if b2 != "" {
		i := m.Bodies[m.BodyByName(b2)].VOff
		J.Set(0, i, J.At(0, i)-ratio)
	}
	return J
}

// jminvjt returns J M⁻¹ Jᵀ.
func jminvjt(minv, J *mat.Dense) *mat.SymDense {
	var x, w mat.Dense
	x.Mul(minv, J.T())
	w.Mul(J, &x)
	r, _ := w.Dims()
	out := mat.NewSymDense(r, nil)
	for i := range r {
		for j := i; j < r; j++ {
			out.SetSym(i, j, (w.At(i, j)+w.At(j, i))/2)
		}
	}
	return out
}
