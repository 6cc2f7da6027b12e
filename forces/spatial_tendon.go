package forces

import "github.com/stiction-sim/stiction/tendon"

// SpatialTendon is the spring–damper of a spatial tendon (MuJoCo's
// <spatial> stiffness, damping, springlength): with the path's length L(q)
// and L̇ = G v (G = ∂L/∂q̇, package tendon), the tension
// f = −k (L − L0) − b L̇ acts on the joints as τ = Gᵀ f (mj_passive:
// qfrc_passive += ten_J·f). K = k GᵀG and D = b GᵀG (cross-tree blocks
// dropped; the curvature of L is left out of K).
type SpatialTendon struct {
	Path       *tendon.Path
	Stiffness  float64
	Damping    float64
	RestLength float64
}

// Apply adds τ = Gᵀ f and, with Jacobians, k GᵀG to K and b GᵀG to D.
func (e *SpatialTendon) Apply(c *Context, out *Output) {
	g := out.row
	l := e.Path.Jacobian(c.Model, c.WS, g, out.local)
	ld := 0.0
	for j, gj := range g {
		ld += gj * c.V[j]
	}
	f := -e.Stiffness*(l-e.RestLength) - e.Damping*ld
	for j, gj := range g {
		out.F[j] += gj * f
	}
	if !out.Jacobians {
		return
	}
	if e.Stiffness > 0 {
		out.addOuter(out.K, g, e.Stiffness)
	}
	if e.Damping > 0 {
		out.addOuter(out.D, g, e.Damping)
	}
}

// PotentialEnergy returns ½ k (L − L0)².
func (e *SpatialTendon) PotentialEnergy(c *Context) float64 {
	d := e.Path.Length(c.WS) - e.RestLength
	return 0.5 * e.Stiffness * d * d
}
