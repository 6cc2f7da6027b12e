package solver

// Interval is a one-row regularized constraint whose impulse is bounded,
// C = [lo, hi] (Castro et al. §III with a box instead of a cone; Drake's
// SapLimitConstraint, SapPdControllerConstraint and joint friction share
// this form). With y = −(v_c − v̂)/R,
//
//	γ = clamp(y, lo, hi),
//	ℓ = ½R y² − ½R (y − γ)²  (= max_{γ∈C} γRy − ½Rγ², convex),
//	G = 1/R if lo ≤ y ≤ hi, else 0.
//
// Uses: a joint limit is C = [0, ∞) on the distance to the limit (R and v̂
// as a contact's normal row); a PD actuator with effort limit e is
// C = [−e δt, e δt] with R = 1/(δt (δt Kp + Kd)) and
// v̂ = (Kp (q_d − q0) + Kd v_d)/(δt Kp + Kd); dry joint friction with
// torque bound τ_f is C = [−τ_f δt, τ_f δt], v̂ = 0.
func evalInterval(lo, hi, r, vhat, vc float64, gamma, g []float64) float64 {
	cost, gm, gg := IntervalEval(lo, hi, r, vhat, vc)
	gamma[0] = gm
	if g != nil {
		g[0] = gg
	}
	return cost
}

// IntervalEval returns ℓ, γ and G of an Interval constraint with bounds
// [lo, hi], regularization r and bias v̂ at v_c (the formulas above): what
// Problem.Eval computes for such a constraint, without its slices, for the
// inner loops of a solver.
func IntervalEval(lo, hi, r, vhat, vc float64) (cost, gamma, g float64) {
	y := -(vc - vhat) / r
	gm, gg := y, 1/r
	switch {
	case y > hi:
		gm, gg = hi, 0
	case y < lo:
		gm, gg = lo, 0
	}
	d := y - gm
	return 0.5*r*y*y - 0.5*r*d*d, gm, gg
}
