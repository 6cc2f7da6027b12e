package sap

import (
	"errors"
	"fmt"
	"math"

	"github.com/stiction-sim/stiction/linalg"
)

// LineSearch selects the line search of SAP §IV-B.
type LineSearch int

const (
	// ExactLineSearch finds the minimum of ℓ(α) = ℓp(v + αΔv) by
	// Newton–bisection root finding on dℓ/dα (rtsafe, Numerical Recipes
	// §9.4) with the O(n) derivatives of SAP §IV-C. This is the default and
	// the paper's preferred choice.
	ExactLineSearch LineSearch = iota
	// BacktrackingLineSearch starts at AlphaMax and multiplies α by Rho until
	// Armijo's condition ℓ(α) < ℓ(0) + c α dℓ/dα(0) holds (SAP §IV-B); it
	// then keeps backtracking while the cost keeps decreasing, so that a
	// full Newton step (α = 1) is not overshot when AlphaMax > 1.
	BacktrackingLineSearch
)

// String returns the line search name.
func (l LineSearch) String() string {
	switch l {
	case ExactLineSearch:
		return "exact"
	case BacktrackingLineSearch:
		return "backtracking"
	}
	return "unknown"
}

// Linear selects how the Newton system H Δv = −∇ℓp is solved.
type Linear int

const (
	// AutoLinear (the default) uses SparseLinear when the problem has at
	// least AutoSparseCliques cliques and DenseLinear otherwise. The sparse
	// path measured faster from a few cliques up (BENCHMARKS.md); for one
	// or two cliques both are the same dense factorization.
	AutoLinear Linear = iota
	// DenseLinear assembles H as a dense NV×NV matrix and factors it with a
	// dense Cholesky factorization: O(NV³) per Newton iteration.
	DenseLinear
	// SparseLinear assembles H by blocks (one per clique, one per pair of
	// cliques in contact) and factors it with a supernodal block Cholesky
	// factorization after a minimum-degree ordering of the cliques (SAP
	// §IV-D, package linalg). The symbolic analysis is cached on the
	// contact graph's pattern and reused across iterations and time steps.
	SparseLinear
)

// AutoSparseCliques is the number of cliques from which AutoLinear picks
// the sparse path.
const AutoSparseCliques = 3

// String returns the name of the linear solver.
func (l Linear) String() string {
	switch l {
	case AutoLinear:
		return "auto"
	case DenseLinear:
		return "dense"
	case SparseLinear:
		return "sparse"
	}
	return "unknown"
}

// Params are the parameters of the SAP solver. Use DefaultParams and change
// what you need; Solve rejects invalid parameters with an error.
type Params struct {
	// MaxIterations is the maximum number of Newton iterations (default
	// 100). When it is reached the status is solver.MaxIterations. Zero only
	// checks the warm start.
	MaxIterations int

	// AbsTolerance is εa of the stopping criterion, SAP eq. (26)
	// (default 1e-16).
	AbsTolerance float64
	// RelTolerance is εr of the stopping criterion, SAP eq. (26)
	// (default 1e-6).
	RelTolerance float64

	// CostAbsTolerance and CostRelTolerance define the cost-stall criterion
	// |ℓ_m − ℓ_{m+1}| < CostAbsTolerance + CostRelTolerance·ℓ_m (defaults
	// 1e-30 and 1e-15). When it fires and eq. (26) does not hold the status
	// is solver.Stalled.
	CostAbsTolerance float64
	CostRelTolerance float64

	// LineSearch selects the line search (default ExactLineSearch).
	LineSearch LineSearch
	// AlphaMax is the initial maximum step length (default 1.25): the first
	// step tried by the backtracking search, and the right end of the
	// initial bracket [0, AlphaMax] of the exact search, which first tries
	// α = min(1, AlphaMax) and grows the bracket while ℓ still decreases at
	// its right end.
	AlphaMax float64
	// MaxLineSearchIterations bounds the cost or derivative evaluations of
	// one line search (default 100).
	MaxLineSearchIterations int

	// LineSearchTolerance is the relative tolerance of the exact line
	// search: it stops when |dℓ/dα(α)| ≤ LineSearchTolerance·|dℓ/dα(0)| or
	// when its bracket reaches machine precision (default 1e-8).
	LineSearchTolerance float64

	// Rho is the backtracking factor ρ ∈ (0, 1) (default 0.8).
	Rho float64
	// ArmijoC is Armijo's constant c ∈ (0, 1) (default 1e-4).
	ArmijoC float64

	// Linear selects the linear algebra of the Newton system (default
	// AutoLinear).
	Linear Linear
	// Kernels selects the dense kernels of the sparse path (default
	// linalg.AutoKernels: hand-written loops for small supernodes, gonum
	// BLAS for large ones; see BENCHMARKS.md).
	Kernels linalg.Kernels

	// StickPrediction turns on the stick prediction of predict.go (default
	// true): when the slip of Lagged contacts reverses along a Newton
	// direction, a second direction is computed with those contacts on
	// their stick branch. It changes the path, not the minimiser.
	StickPrediction bool

	// Trace, when non-nil, receives one entry per Newton iterate of every
	// solve (for tests and diagnostics). Recording allocates; leave it nil
	// in production.
	Trace *Trace
}

// DefaultParams returns the default parameters, documented on each field of
// Params.
func DefaultParams() Params {
	return Params{
		MaxIterations:           100,
		AbsTolerance:            1e-16,
		RelTolerance:            1e-6,
		CostAbsTolerance:        1e-30,
		CostRelTolerance:        1e-15,
		LineSearch:              ExactLineSearch,
		AlphaMax:                1.25,
		MaxLineSearchIterations: 100,
		LineSearchTolerance:     1e-8,
		Rho:                     0.8,
		Linear:                  AutoLinear,
		ArmijoC:                 1e-4,
		StickPrediction:         true,
	}
}

// Validate reports an error if a parameter is out of range.
func (p *Params) Validate() error {
	nonNeg := func(name string, x float64) error {
		if !(x >= 0) || math.IsInf(x, 0) {
			return fmt.Errorf("sap: %s = %v must be non-negative and finite", name, x)
		}
		return nil
	}
	open01 := func(name string, x float64) error {
		if !(x > 0 && x < 1) {
			return fmt.Errorf("sap: %s = %v must be in (0, 1)", name, x)
		}
		return nil
	}
	switch {
	case p.MaxIterations < 0:
		return fmt.Errorf("sap: MaxIterations = %d must be non-negative", p.MaxIterations)
	case p.MaxLineSearchIterations < 1:
		return fmt.Errorf("sap: MaxLineSearchIterations = %d must be positive", p.MaxLineSearchIterations)
	case p.LineSearch != ExactLineSearch && p.LineSearch != BacktrackingLineSearch:
		return fmt.Errorf("sap: unknown LineSearch %d", int(p.LineSearch))
	case p.Linear < AutoLinear || p.Linear > SparseLinear:
		return fmt.Errorf("sap: unknown Linear %d", int(p.Linear))
	case p.Kernels < linalg.AutoKernels || p.Kernels > linalg.BLAS:
		return fmt.Errorf("sap: unknown Kernels %d", int(p.Kernels))
	case !(p.AlphaMax > 0) || math.IsInf(p.AlphaMax, 0):
		return fmt.Errorf("sap: AlphaMax = %v must be positive and finite", p.AlphaMax)
	}
	return errors.Join(
		nonNeg("AbsTolerance", p.AbsTolerance),
		nonNeg("RelTolerance", p.RelTolerance),
		nonNeg("CostAbsTolerance", p.CostAbsTolerance),
		nonNeg("CostRelTolerance", p.CostRelTolerance),
		nonNeg("LineSearchTolerance", p.LineSearchTolerance),
		open01("Rho", p.Rho),
		open01("ArmijoC", p.ArmijoC),
	)
}
