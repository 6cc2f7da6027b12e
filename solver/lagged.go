package solver

import "math"

// The Lagged approximation of compliant contact with regularized friction
// (Castro, Han and Masterjohn, "A Theory of Irrotational Contact Fields",
// 2023, arXiv:2312.03908; Drake's DiscreteContactApproximation::kLagged).
//
// Rows (t1, t2, n) as for ContactCone. The normal impulse is SAP's linear
// compliance with its near-rigid regularization (SAP eq. 29 gives R_n, §V-A
// gives v̂_n = −φ0/(δt + τd)):
//
//	n(v_n) = (v̂_n − v_n)₊ / R_n,   ℓ_n = ½ (v̂_n − v_n)₊² / R_n.
//
// Friction is bounded by μ times n0, the normal impulse of the previous
// step (lagged, hence fixed during the solve). Without an anchor (the
// block's stick parameter 0: a new contact) it is regularized by the soft
// norm ‖u‖_s = √(‖u‖² + ε_s²) − ε_s of the tangential slip velocity
// u = v_t − v̂_t, with
// ε_s = max(v_s, μ R_t n0) (Drake's choice: the stiction tolerance v_s, or
// SAP's own stiction slip μ R_t n0 when larger; R_t is the block's
// tangential regularization):
//
//	ℓ_t = μ n0 ‖u‖_s,   γ_t = −μ n0 u/s,   s = √(‖u‖² + ε_s²).
//
// The cost ℓ = ℓ_n + ℓ_t is convex and separable: the normal impulse does
// not depend on the slip, so a sliding body does not rise (no gliding or
// hopping, unlike SAP's cone, where the sliding normal velocity is about
// μ‖v_t‖). Coulomb's law ‖γ_t‖ ≤ μ n0 holds; friction opposes slip. Its
// Hessian:
//
//	G_tt = μ n0/s (I − t_s t_sᵀ), t_s = u/s;   G_tn = 0;
//	G_nn = 1/R_n if v_n ≤ v̂_n, else 0.
//
// With an anchor (stick parameter 1; package contact feeds the stick
// displacement back as v̂_t) friction is the disk of evalDisk with radius
// μ n0 and R_t: γ_t = y min(1, μ n0/‖y‖), y = −(v_t − v̂_t)/R_t. The soft
// norm would need a slip velocity ε_s r/√(1 − r²), growing without bound,
// to hold a load at a fraction r of the bound, and a load near the bound
// would creep; the disk holds it, displaced by at most μ n0 R_t (δt + τd).
//
// evalLagged is Eval for ContactLagged constraint i: LaggedEval at vc,
// its γ and (unless g is nil) G written by Put. G is formed even when g is
// nil: it does not enter ℓ or γ, which get the same bits.
func (p *Problem) evalLagged(i int, vc, gamma, g []float64) float64 {
	var b LaggedBlock
	cost := p.LaggedEval(i, vc[0], vc[1], vc[2], &b)
	b.Put(gamma, g)
	return cost
}

// Put writes b's γ into gamma (3 rows) and, unless g is nil, its G into g
// (3×3, row-major), as Eval writes them.
func (b *LaggedBlock) Put(gamma, g []float64) {
	gamma = gamma[:3]
	gamma[0], gamma[1], gamma[2] = b.Gamma[0], b.Gamma[1], b.Gamma[2]
	if g != nil {
		g = g[:9]
		g[0], g[1], g[2] = b.G00, b.G01, 0
		g[3], g[4], g[5] = b.G01, b.G11, 0
		g[6], g[7], g[8] = 0, 0, b.Gnn
	}
}

// LaggedBlock is a ContactLagged block's impulse γ = (γ_t1, γ_t2, γ_n) and
// the entries of its Hessian G (the formulas above) that are not zero in
// general: G_tt = [G00 G01; G01 G11] and G_nn (G_tn = G_nt = 0).
type LaggedBlock struct {
	Gamma              [3]float64
	G00, G01, G11, Gnn float64
}

// LaggedEval returns ℓ and sets b to γ and G of ContactLagged constraint i
// of p at v_c = (v0, v1, v2): what Eval computes for it, to the bit,
// without its slices, for the inner loops of a solver (SAP's evaluation of
// ℓp). Constraint i must be a ContactLagged block of a validated problem.
// The friction is DiskEval's (anchored: the disk of radius μ n0,
// laggedStick) or LaggedSlip's, the normal row SAP's linear compliance;
// the block's numbers are read here and passed to the friction's function
// directly (one call, not two: SAP's evaluation calls this for every
// Lagged block of every iterate).
func (p *Problem) LaggedEval(i int, v0, v1, v2 float64, b *LaggedBlock) (cost float64) {
	c := &p.Constraints[i]
	par := p.Params[c.Par : c.Par+5] // μ, n0, v_s, scale, stick
	vh := p.VHat[c.Row : c.Row+3]
	r := p.R[c.Row : c.Row+3]
	mu, n0, rt := par[0], par[1], r[0]
	if par[4] != 0 {
		cost, b.Gamma[0], b.Gamma[1], b.G00, b.G01, b.G11 = DiskEval(mu*n0, rt, vh[0], vh[1], v0, v1, true)
	} else {
		cost, b.Gamma[0], b.Gamma[1], b.G00, b.G01, b.G11 = LaggedSlip(mu, n0, par[2], rt, vh[0], vh[1], v0, v1, true)
	}
	b.Gamma[2], b.Gnn = 0, 0
	if x := vh[2] - v2; x >= 0 {
		rn := r[2]
		b.Gamma[2] = x / rn
		cost += 0.5 * x * x / rn
		b.Gnn = 1 / rn
	}
	return cost
}

// LaggedSlip is the soft-norm friction of a Lagged block without an
// anchor at v_t = (v0, v1) with bias v̂_t = (vh0, vh1): its cost ℓ_t, γ_t
// and, when withG, G_tt's entries. Exported, as DiskEval, for SAP's line
// search.
func LaggedSlip(mu, n0, vs, rt, vh0, vh1, v0, v1 float64, withG bool) (cost, gm0, gm1, g00, g01, g11 float64) {
	eps := max(vs, mu*rt*n0)
	u0, u1 := v0-vh0, v1-vh1
	s := math.Sqrt(u0*u0 + u1*u1 + eps*eps)
	t0, t1 := u0/s, u1/s
	f := mu * n0 // friction impulse bound
	if withG {
		c := f / s
		g00, g01, g11 = c*(1-t0*t0), -c*t0*t1, c*(1-t1*t1)
	}
	return f * (s - eps), -f * t0, -f * t1, g00, g01, g11
}
