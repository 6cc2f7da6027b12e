package solver

import "github.com/stiction-sim/stiction/internal/fmath"

// Disk is a two-row regularized constraint whose impulse lies in a disk,
// C = {γ : ‖γ‖ ≤ ρ}, with R = diag(R, R) (Castro et al. §III with a disk
// for the cone). With y = −R⁻¹(v_c − v̂),
//
//	γ = y min(1, ρ/‖y‖),
//	ℓ = ½R‖y‖² − ½R(‖y‖ − ρ)₊²,
//	G = R⁻¹ I inside the disk (‖y‖ ≤ ρ), else ρ/(R‖y‖) (I − ŷŷᵀ).
//
// Use: rolling friction, whose torque impulse on the two tangential
// angular velocities is bounded by ρ = μ_r n0 (rolling-resistance length
// times a normal impulse).
func evalDisk(rho, r float64, vhat, vc, gamma, g []float64) float64 {
	cost, gm0, gm1, g00, g01, g11 := DiskEval(rho, r, vhat[0], vhat[1], vc[0], vc[1], g != nil)
	gamma[0], gamma[1] = gm0, gm1
	if g != nil {
		g[0], g[1], g[2], g[3] = g00, g01, g01, g11
	}
	return cost
}

// DiskEval is evalDisk on scalars: ℓ, γ and, when withG, G's entries
// G00, G01 = G10 and G11 of a disk constraint at v_c = (v0, v1) with bias
// v̂ = (vh0, vh1).
// Exported for the inner loops of a solver: SAP's line search evaluates a
// ContactLagged block's disk friction through it (as Problem.LaggedEval does)
// without the calls between.
func DiskEval(rho, r, vh0, vh1, v0, v1 float64, withG bool) (cost, gm0, gm1, g00, g01, g11 float64) {
	y0, y1 := -(v0-vh0)/r, -(v1-vh1)/r
	ny := fmath.Hypot(y0, y1)
	if ny <= rho {
		if withG {
			g00, g11 = 1/r, 1/r
		}
		return 0.5 * r * ny * ny, y0, y1, g00, 0, g11
	}
	s := rho / ny
	gm0, gm1 = s*y0, s*y1
	if withG {
		h0, h1 := y0/ny, y1/ny
		c := s / r
		g00, g01, g11 = c*(1-h0*h0), -c*h0*h1, c*(1-h1*h1)
	}
	d := ny - rho
	return 0.5*r*ny*ny - 0.5*r*d*d, gm0, gm1, g00, g01, g11
}
