package solver

import "math"

// Residuals are solver-independent measures of how well a result solves a
// problem.
type Residuals struct {
	// MomentumError is e_m, SAP eq. 32: ‖D(A(v − v*) − Jᵀγ)‖ /
	// max(‖D A v‖, ‖D Jᵀγ‖), D = diag(M)^(−1/2). It is 0 when the
	// numerator is 0 and +Inf when only the denominator is.
	MomentumError float64
	// ComplementarityError is e_μ, SAP eq. 33, over the ContactCone
	// blocks: (1/n Σ_i |g_iᵀγ_i|)/ℓp with g = J v − v̂ + R γ; 0 when there
	// are none or ℓp = 0.
	ComplementarityError float64
	// Cost is ℓp(v) = ½‖v − v*‖²_A + Σ_i ℓ_i(J_i v).
	Cost float64
}

// ResidualScratch holds the scratch memory of ComputeResiduals; after a
// first call of a given size, it does not allocate.
type ResidualScratch struct {
	diff, av, jc, r, vc, gamma []float64
}

// ComputeResiduals returns the residuals of a result (v and γ) for p. γ is
// taken from the result, not recomputed from v, so that the residuals judge
// any solver's answer; the cost uses ℓ_i(J v).
func (s *ResidualScratch) ComputeResiduals(p *Problem, v, gamma []float64) Residuals {
	s.vc, s.gamma = Resize(s.vc, p.NR), Resize(s.gamma, p.NR)
	em, _, _, costA := s.Momentum(p, v, gamma)
	p.MulJ(v, s.vc)
	cost := costA
	for i, c := range p.Constraints {
		lo, hi := c.Row, c.Row+c.Size
		cost += p.Eval(i, s.vc[lo:hi], s.gamma[lo:hi], nil)
	}
	return Residuals{MomentumError: em, Cost: cost, ComplementarityError: ComplementarityError(p, s.vc, gamma, cost)}
}

// Momentum returns e_m (SAP eq. 32) at (v, γ), its numerator ‖D∇ℓp‖ and
// denominator max(‖D A v‖, ‖D Jᵀγ‖) (SAP eq. 25–26, with ∇ℓp =
// A(v − v*) − Jᵀγ and D = diag(M)^(−1/2)), and ½‖v − v*‖²_A.
func (s *ResidualScratch) Momentum(p *Problem, v, gamma []float64) (em, num, den, costA float64) {
	nv := p.NV
	s.diff, s.av, s.jc, s.r = Resize(s.diff, nv), Resize(s.av, nv), Resize(s.jc, nv), Resize(s.r, nv)
	for i, x := range v {
		s.diff[i] = x - p.VStar[i]
	}
	p.MulA(s.diff, s.r) // A(v − v*)
	p.MulA(v, s.av)     // p = A v
	p.MulJT(gamma, s.jc)
	for i, x := range s.diff {
		costA += 0.5 * x * s.r[i]
	}
	gn, pn, jn := 0.0, 0.0, 0.0
	for i, m := range p.MDiag {
		d := 1 / math.Sqrt(m)
		g := d * (s.r[i] - s.jc[i])
		gn += g * g
		pn += d * s.av[i] * d * s.av[i]
		jn += d * s.jc[i] * d * s.jc[i]
	}
	num, den = math.Sqrt(gn), math.Sqrt(max(pn, jn))
	if gn > 0 {
		em = num / den
	}
	return em, num, den, costA
}

// ComplementarityError returns e_μ, SAP eq. 33, over the ContactCone
// blocks of p: (1/n Σ_i |g_iᵀγ_i|)/|ℓp| with g = v_c − v̂ + R γ, for
// constraint velocities vc, impulses gamma and cost ℓp. It is 0 when there
// are no contact cones or ℓp = 0 (other kinds have no complementarity
// condition of this form).
func ComplementarityError(p *Problem, vc, gamma []float64, cost float64) float64 {
	if cost == 0 {
		return 0
	}
	sum, n := 0.0, 0
	for _, c := range p.Constraints {
		if c.Kind != ContactCone {
			continue
		}
		gi := 0.0
		for k := c.Row; k < c.Row+c.Size; k++ {
			gi += (vc[k] - p.VHat[k] + p.R[k]*gamma[k]) * gamma[k]
		}
		sum += math.Abs(gi)
		n++
	}
	if n == 0 {
		return 0
	}
	return sum / float64(n) / math.Abs(cost)
}
