package forces

// Gravity is the uniform gravity field of the model (Model.Gravity). Its
// generalized force is τ_g = Σ_b J_bᵀ m_b g (J_b the Jacobian of body b's
// centre of mass), computed by RNEA without velocity terms. It hands over
// K = 0: −∂τ_g/∂q is indefinite in general (see the package comment).
type Gravity struct{}

// Apply adds τ_g.
func (Gravity) Apply(c *Context, out *Output) {
	c.WS.GravityForces(out.row)
	for i, f := range out.row {
		out.F[i] += f
	}
}

// PotentialEnergy returns −Σ m g·x_com, zero at the world origin.
func (Gravity) PotentialEnergy(c *Context) float64 {
	e := 0.0
	for b := range c.Model.Bodies {
		body := &c.Model.Bodies[b]
		if body.Tree < 0 {
			continue
		}
		e -= body.Inertia.Mass * c.Model.Gravity.Dot(c.WS.Pose(b).Apply(body.Inertia.Com))
	}
	return e
}
