package forces

import "github.com/stiction-sim/stiction/spatial"

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

// PotentialEnergy returns −Σ m g·x_com, zero at the world origin. Without
// gravity (g = 0, as in MJCF's gravity="disable") it is +0 for any finite
// positions, which the sum gives too (each term is a signed zero, and
// +0 − ±0 = +0), so the bodies are not visited.
func (Gravity) PotentialEnergy(c *Context) float64 {
	e := 0.0
	if c.Model.Gravity == (spatial.Vec3{}) {
		return e
	}
	for b := range c.Model.Bodies {
		body := &c.Model.Bodies[b]
		if body.Tree < 0 {
			continue
		}
		e -= body.Inertia.Mass * c.Model.Gravity.Dot(c.WS.Pose(b).Apply(body.Inertia.Com))
	}
	return e
}
