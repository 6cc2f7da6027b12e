package socp

// Status is the outcome of a solve.
type Status int

const (
	// Solved: x, s, z satisfy the KKT conditions to the tolerances.
	Solved Status = iota
	// PrimalInfeasible: Z holds a certificate z ∈ K* with bᵀz = −1 and
	// ‖Aᵀz‖∞ ≤ TolInfeas (no x with Ax + s = b, s ∈ K, unless
	// ‖x‖₁ ≥ 1/TolInfeas).
	PrimalInfeasible
	// DualInfeasible (unbounded below): X, S hold a certificate with
	// qᵀx = −1, ‖Px‖∞ ≤ TolInfeas, ‖Ax + s‖∞ ≤ TolInfeas, s ∈ K.
	DualInfeasible
	// MaxIterations: the iteration limit came first; X, S, Z are the best
	// iterate.
	MaxIterations
	// Inaccurate: the iteration stalled (no progress in StallIter
	// iterations, or a failed factorization or step) before the tolerances
	// were met, and polishing did not meet them either; X, S, Z are the best
	// point found and Stats give its accuracy.
	Inaccurate
	// NumericalError: the starting point could not be formed; X, S, Z are
	// meaningless.
	NumericalError
)

// String names the status.
func (s Status) String() string {
	switch s {
	case Solved:
		return "solved"
	case PrimalInfeasible:
		return "primal infeasible"
	case DualInfeasible:
		return "dual infeasible"
	case MaxIterations:
		return "max iterations"
	case Inaccurate:
		return "inaccurate"
	case NumericalError:
		return "numerical error"
	}
	return "unknown"
}

// Stats describe the last iterate (unscaled by τ: x/τ, s/τ, z/τ).
type Stats struct {
	Iterations int
	// PrimalResidual is ‖Ax + s − b‖∞ / max(1, ‖b‖∞, ‖Ax‖∞, ‖s‖∞).
	PrimalResidual float64
	// DualResidual is ‖Px + Aᵀz + q‖∞ / max(1, ‖q‖∞, ‖Px‖∞, ‖Aᵀz‖∞).
	DualResidual float64
	// Gap is max(sᵀz, |primal cost − dual cost|).
	Gap                  float64
	PrimalCost, DualCost float64
	Mu                   float64 // (sᵀz + τκ)/(ν + 1) of the homogeneous iterate
	Tau, Kappa           float64
	Refinements          int // iterative refinement steps, all KKT solves
	// Polished reports that the returned point is the polished one (see
	// Settings.Polish), PolishIter its Newton iterations.
	Polished   bool
	PolishIter int
}

// Result is the outcome of Solve. Its slices belong to the Solver and are
// overwritten by the next Solve.
type Result struct {
	Status  Status
	X, S, Z []float64
	Stats   Stats
}
