package mjcf

import (
	"fmt"

	"github.com/stiction-sim/stiction/model"
	"github.com/stiction-sim/stiction/model/xmlutil"
	"github.com/stiction-sim/stiction/scene"
)

// tendons reads <tendon>: each <fixed> becomes a scene tendon (a length
// L = Σ coef_k q_k over hinge and slide joints, MuJoCo's fixed tendon) with
// its stiffness, damping and springlength (the spring f = −k (L − L0) − b L̇,
// mj_passive) and its range as limits where limited (solreflimit and
// solimplimit as a joint limit's: MuJoCo's soft constraint while
// violated); each <spatial> becomes a scene tendon with a path through
// sites, wrapping over sphere and cylinder geoms (spatialTendon), with the
// same attributes.
func (c *compiler) tendons(e *xmlutil.Element) error {
	for _, t := range e.Children {
		switch t.Name {
		case "fixed":
			t.MarkUsed()
			if err := c.fixedTendon(t); err != nil {
				return err
			}
		case "spatial":
			t.MarkUsed()
			if err := c.spatialTendon(t); err != nil {
				return err
			}
		}
	}
	return nil
}

// tendonHead returns the attribute view of a <fixed> or <spatial> tendon
// and its name (tendonN when it has none), refusing a name already taken.
func (c *compiler) tendonHead(t *xmlutil.Element) (view, string, error) {
	v, err := c.view(t, "tendon", "main")
	if err != nil {
		return v, "", err
	}
	name := v.str("name", "")
	if name == "" {
		name = fmt.Sprintf("tendon%d", len(c.out.Scene.Tendons))
	}
	if c.out.Scene.Tendon(name) != nil {
		return v, "", c.r.Errorf(t, "name", "a tendon of this name is already defined")
	}
	return v, name, nil
}

// fixedTendon reads one <fixed> tendon.
func (c *compiler) fixedTendon(t *xmlutil.Element) error {
	v, name, err := c.tendonHead(t)
	if err != nil {
		return err
	}
	for _, a := range []string{"rgba", "width", "material", "group"} {
		t.Attr(a) // visual only
	}
	st := scene.Tendon{Name: name}
	restDefault := 0.0 // Σ coef_k springref_k: MuJoCo's length at qpos_spring
	length0 := 0.0     // Σ coef_k ref_k: tendon_length0
	for _, j := range t.Children {
		if j.Name != "joint" {
			continue
		}
		j.MarkUsed()
		ref, err := c.jointNamed(j, "joint")
		if err != nil {
			return err
		}
		if ref.typ != "hinge" && ref.typ != "slide" {
			return c.r.Errorf(j, "joint", "a fixed tendon takes hinge and slide joints; %q is a %s joint", ref.name, ref.typ)
		}
		coef, err := c.r.Float(j, "coef", 1)
		if err != nil {
			return err
		}
		tj := scene.TendonJoint{Joint: c.out.Scene.Bodies[ref.body].Name, Coef: coef}
		if ref.dof != 0 {
			tj.DOF = model.Ptr(ref.dof)
		}
		st.Joints = append(st.Joints, tj)
		restDefault += coef * ref.springref
		length0 += coef * ref.ref
	}
	if len(st.Joints) == 0 {
		return c.r.Errorf(t, "", "a fixed tendon needs at least one <joint>")
	}
	if err := c.tendonProps(v, &st, model.Ptr(restDefault)); err != nil {
		return err
	}
	c.tendonLength0[name] = length0
	c.out.Scene.Tendons = append(c.out.Scene.Tendons, st)
	return nil
}

// tendonProps reads a tendon's stiffness, damping, springlength (default
// rest, or the length in the initial state when rest is nil), frictionloss
// (warned) and limits into st.
func (c *compiler) tendonProps(v view, st *scene.Tendon, rest *float64) error {
	vals := map[string]float64{}
	for _, a := range []string{"stiffness", "damping", "frictionloss"} {
		x, err := c.float(v, a, 0)
		if err != nil {
			return err
		}
		if x < 0 {
			return c.r.Errorf(v.src(a), a, "must be ≥ 0")
		}
		vals[a] = x
	}
	if k := vals["stiffness"]; k > 0 {
		st.Stiffness = model.Ptr(k)
		if sl, err := c.float(v, "springlength", -1); err != nil {
			return err
		} else if sl >= 0 { // MuJoCo 2.2.2: negative (the default) means the length at qpos_spring
			rest = &sl
		}
		st.RestLength = rest
	}
	if d := vals["damping"]; d > 0 {
		st.Damping = model.Ptr(d)
	}
	if vals["frictionloss"] > 0 {
		c.r.Warnf(v.src("frictionloss"), "frictionloss", "tendon friction is not supported (ignored)")
	}
	lim, err := c.limited(v, "limited", "range")
	if err != nil {
		return err
	}
	// MuJoCo's margin: a limit row exists within it of a bound
	// (mj_instantiateLimit); no effect without limits.
	margin, err := c.float(v, "margin", 0)
	if err != nil {
		return err
	}
	if lim {
		r, err := c.floats(v, "range", 2, []float64{0, 0})
		if err != nil {
			return err
		}
		if r[0] > r[1] {
			return c.r.Errorf(v.src("range"), "range", "lower bound above the upper bound")
		}
		st.Limits = &scene.TendonLimits{Lower: model.Ptr(r[0]), Upper: model.Ptr(r[1])}
		var l scene.Limits
		if err := c.limitSoftness(v, &l); err != nil { // solreflimit, solimplimit as a joint's
			return err
		}
		st.Limits.SolRef, st.Limits.SolImp = l.SolRef, l.SolImp
		if margin != 0 {
			st.Limits.Margin = model.Ptr(margin)
		}
	}
	return nil
}

// tendonEquality maps <equality><tendon tendon1 tendon2 polycoef>: MuJoCo
// holds L1 = a0 + a1 L2 + … (polycoef a0…a4), without tendon2 L1 = a0.
// A fixed tendon1 over two joints without tendon2, c1 q1 + c2 q2 = a0
// (dm_control's manipulator and stacker couple the gripper's fingers so),
// is a coupler q1 = −(c2/c1) q2 + a0/c1 scaled by c1, and a tendon over
// any other number of joints the coupler Σ c_k q_k = a0 (coefs): MuJoCo's
// soft constraint with its solref, solimp and weight (softCoupler).
// tendon2 and spatial tendons warn and are not simulated.
func (c *compiler) tendonEquality(q *xmlutil.Element, v view, eq model.Equality) error {
	t1, err := c.r.Required(q, "tendon1")
	if err != nil {
		return err
	}
	pc, err := c.floats(v, "polycoef", -1, []float64{0, 1, 0, 0, 0})
	if err != nil {
		return err
	}
	pc[0] += c.tendonLength0[t1] // MuJoCo's row: L − tendon_length0 − a0
	for _, a := range []string{"tendon2", "polycoef"} {
		q.Attr(a)
	}
	c.out.Equalities = append(c.out.Equalities, eq)
	st := c.out.Scene.Tendon(t1)
	why := ""
	switch {
	case c.spatialTendons[t1]:
		why = "a spatial tendon"
	case st == nil:
		return c.r.Errorf(q, "tendon1", "no tendon of this name")
	case q.Has("tendon2"):
		why = "tendon2 (a coupling of two tendons) is not supported"
	case len(st.Joints) == 0:
		why = fmt.Sprintf("tendon %q has no joints", t1)
	case c.disabled("equality"):
		return nil
	case !eq.Active:
		c.r.Warnf(v.src("active"), "active", "an inactive equality constraint is not simulated (it cannot be switched on during a run)")
		return nil
	}
	if why != "" {
		c.r.Warnf(q, "tendon1", "tendon equality not simulated: %s", why)
		return nil
	}
	part := false // a joint is a part of a compound joint
	for _, j := range st.Joints {
		part = part || (j.DOF != nil && *j.DOF != 0)
	}
	s := c.out.Scene
	j1 := st.Joints[0]
	if part || len(st.Joints) != 2 || j1.Coef == 0 || j1.Joint == st.Joints[1].Joint {
		// Σ c_k q_k = a0 over the tendon's joints, in any number of trees
		// (one J block per tree).
		con := scene.Constraint{Name: eq.Name, Type: "coupler"}
		pe := pendingEq{kind: "coupler", index: len(s.Constraints), solref: eq.SolRef, e: q, solimp: eq.SolImp, scale: 1, tendon: true}
		for _, j := range st.Joints {
			con.Joints = append(con.Joints, j.Joint)
			con.Coefs = append(con.Coefs, j.Coef)
			dof := 0
			if j.DOF != nil {
				dof = *j.DOF
			}
			con.DOFs = append(con.DOFs, dof)
		}
		if !part {
			con.DOFs = nil
		}
		if pc[0] != 0 {
			con.Offset = model.Ptr(pc[0])
		}
		pe.joints, pe.coefs, pe.dofs = con.Joints, con.Coefs, con.DOFs
		c.eqs = append(c.eqs, pe)
		s.Constraints = append(s.Constraints, con)
		return nil
	}
	j2 := st.Joints[1]
	ratio, offset := -j2.Coef/j1.Coef, pc[0]/j1.Coef
	con := scene.Constraint{Name: eq.Name, Type: "coupler", Joints: []string{j1.Joint, j2.Joint}, Ratio: model.Ptr(ratio)}
	if offset != 0 {
		con.Offset = model.Ptr(offset)
	}
	c.eqs = append(c.eqs, pendingEq{kind: "coupler", index: len(s.Constraints), solref: eq.SolRef, a: j1.Joint, b: j2.Joint, ratio: ratio, e: q,
		solimp: eq.SolImp, scale: j1.Coef, tendon: true})
	s.Constraints = append(s.Constraints, con)
	return nil
}
