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
	y0, y1 := -(vc[0]-vhat[0])/r, -(vc[1]-vhat[1])/r
	ny := fmath.Hypot(y0, y1)
	if ny <= rho {
		gamma[0], gamma[1] = y0, y1
		if g != nil {
			g[0], g[1], g[2], g[3] = 1/r, 0, 0, 1/r
		}
		return 0.5 * r * ny * ny
	}
	s := rho / ny
	gamma[0], gamma[1] = s*y0, s*y1
	if g != nil {
		h0, h1 := y0/ny, y1/ny
		c := s / r
		g[0], g[1], g[2], g[3] = c*(1-h0*h0), -c*h0*h1, -c*h0*h1, c*(1-h1*h1)
	}
	d := ny - rho
	return 0.5*r*ny*ny - 0.5*r*d*d
}
