package forces

import "github.com/stiction-sim/stiction/multibody"

// JointSpringDamper is the spring–damper of one joint (Joint.Stiffness and
// Joint.Damping of body Body): τ_i = −k (q_i − q_ref,i) − d v_i per degree of
// freedom. The stiffness acts only on joints whose coordinates are their
// velocities' integrals (revolute, prismatic, planar, universal), so that
// K = k I and D = d I are exact, constant and SPD (SAP §II-D); free and ball
// joints take damping only.
type JointSpringDamper struct {
	Body      int
	Stiffness float64
	Damping   float64
	Ref       []float64 // rest configuration q_ref (nil: zero)
}

// JointSpringDampers returns the spring–dampers of every joint of m with a
// non-zero stiffness or damping.
func JointSpringDampers(m *multibody.Model) []Element {
	var out []Element
	for b, body := range m.Bodies {
		if body.Tree >= 0 && (body.Joint.Stiffness > 0 || body.Joint.Damping > 0) {
			out = append(out, &JointSpringDamper{Body: b, Stiffness: body.Joint.Stiffness, Damping: body.Joint.Damping})
		}
	}
	return out
}

// dofs returns the joint's velocity offset, its dof count and whether the
// stiffness applies.
func (e *JointSpringDamper) dofs(m *multibody.Model) (off, n int, spring bool) {
	body := &m.Bodies[e.Body]
	t := body.Joint.Type
	spring = t != multibody.JointFree && t != multibody.JointBall && e.Stiffness > 0
	return body.VOff, t.NV(), spring
}

// Apply adds τ and K = k I, D = d I on the joint's diagonal.
func (e *JointSpringDamper) Apply(c *Context, out *Output) {
	m := c.Model
	body := &m.Bodies[e.Body]
	voff, n, spring := e.dofs(m)
	tr := &m.Trees[body.Tree]
	for k := range n {
		i := voff + k
		f := -e.Damping * c.V[i]
		if spring {
			f -= e.Stiffness * (c.Q[body.QOff+k] - e.ref(k))
		}
		out.F[i] += f
		if out.Jacobians {
			d := out.Off[body.Tree] + (i-tr.VOffset)*(tr.NV+1)
			out.D[d] += e.Damping
			if spring {
				out.K[d] += e.Stiffness
			}
		}
	}
}

func (e *JointSpringDamper) ref(k int) float64 {
	if e.Ref == nil {
		return 0
	}
	return e.Ref[k]
}

// PotentialEnergy returns ½ k |q − q_ref|².
func (e *JointSpringDamper) PotentialEnergy(c *Context) float64 {
	_, n, spring := e.dofs(c.Model)
	if !spring {
		return 0
	}
	q := c.Q[c.Model.Bodies[e.Body].QOff:]
	s := 0.0
	for k := range n {
		d := q[k] - e.ref(k)
		s += d * d
	}
	return 0.5 * e.Stiffness * s
}
