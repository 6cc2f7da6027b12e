package solver

// StickBranch predicts that contact i sticks after a Newton step. It
// applies to ContactLagged blocks whose tangential slip u = v_t − v̂_t is
// outside the stiction region at v_c and reverses along the step Δv_c,
// uᵀ(u + Δu) < 0: the Newton model at v_c, which sees the friction of a
// sliding contact as a constant force of magnitude μ n0, then overshoots
// the stick region, and an exact line search stops where the slip crosses
// it (one contact per Newton iteration). For such a block StickBranch
// writes into g (3×3, row-major; only the tangential 2×2 is touched) and
// gamma (3 entries; only γ_t) the Hessian and impulse of the branch of its
// cost that holds at zero slip, extended to v_c:
//
//   - anchored (the disk of laggedStick): the disk's interior,
//     γ_t = −u/R_t, G_tt = I/R_t;
//   - soft norm (LaggedSlip): the quadratic model of ℓ_t = μ n0 ‖u‖_s at
//     u = 0, γ_t = −μ n0 u/ε_s, G_tt = (μ n0/ε_s) I,
//
// and reports true; otherwise it writes nothing and reports false. The
// cost is unchanged: a solver uses the branch only to choose a search
// direction (sap's stick prediction), never to evaluate ℓ, γ or the
// stopping criterion, so the minimiser it converges to is the same.
func (p *Problem) StickBranch(i int, vc, dvc, g, gamma []float64) bool {
	c := p.Constraints[i]
	if c.Kind != ContactLagged {
		return false
	}
	par := p.Params[c.Par:]
	vhat, r := p.VHat[c.Row:c.Row+2], p.R[c.Row:c.Row+2]
	u0, u1 := vc[0]-vhat[0], vc[1]-vhat[1]
	if u0*(u0+dvc[0])+u1*(u1+dvc[1]) >= 0 {
		return false // the slip does not reverse
	}
	f := par[0] * par[1] // μ n0
	uu := u0*u0 + u1*u1
	var k float64
	if par[4] == 1 { // anchored: stick region ‖u‖ ≤ μ n0 R_t
		if uu <= (f*r[0])*(f*r[0]) {
			return false
		}
		k = 1 / r[0]
	} else { // soft norm: ε_s = max(v_s, μ R_t n0), as LaggedSlip
		eps := max(par[2], f*r[0])
		if uu <= eps*eps {
			return false
		}
		k = f / eps
	}
	g[0], g[1], g[3], g[4] = k, 0, 0, k
	gamma[0], gamma[1] = -k*u0, -k*u1
	return true
}
