package socp

import "fmt"

// Settings are the solver's tolerances and limits. The zero value is not
// valid; start from DefaultSettings.
type Settings struct {
	MaxIter int // interior-point iterations

	// TolFeas bounds the primal and dual residuals, relative to the size
	// of the data and of the iterate (see Stats).
	TolFeas float64
	// TolGapAbs and TolGapRel bound the duality gap: converged when
	// gap ≤ TolGapAbs or gap ≤ TolGapRel·min(|primal cost|, |dual cost|).
	TolGapAbs, TolGapRel float64
	// TolInfeas bounds the residual of a normalized infeasibility
	// certificate (see Status).
	TolInfeas float64

	// StallIter stops the iteration when the merit max(primal residual,
	// dual residual, relative gap), once below 1e-6, has not improved for
	// this many iterations; the best iterate is kept.
	StallIter int
	// Polish runs Newton's method on the KKT conditions restricted to the
	// faces of K the interior-point solution identifies (see polish.go)
	// and keeps the result when it is more accurate.
	Polish bool

	StaticReg    float64 // δ of the KKT factorization (see the package doc)
	RefineIter   int     // iterative refinement steps per KKT solve
	RefineTol    float64 // refinement stops at this relative residual
	StepFraction float64 // fraction of the step to the cone boundary
}

// DefaultSettings returns tolerances of 1e-9 on the relative residuals and
// gap (1e-12 on the absolute gap, for problems small in every unit). Polishing usually takes the solution well below them (to round-off
// when the faces of K at the solution determine it).
func DefaultSettings() Settings {
	return Settings{
		MaxIter:      100,
		TolFeas:      1e-9,
		TolGapAbs:    1e-12,
		TolGapRel:    1e-9,
		TolInfeas:    1e-9,
		StallIter:    5,
		Polish:       true,
		StaticReg:    0,
		RefineIter:   10,
		RefineTol:    1e-14,
		StepFraction: 0.99,
	}
}

// check validates the settings.
func (s Settings) check() error {
	switch {
	case s.MaxIter < 1 || s.StallIter < 1:
		return fmt.Errorf("settings: MaxIter = %d, StallIter = %d (want ≥ 1)", s.MaxIter, s.StallIter)
	case !(s.TolFeas > 0) || !(s.TolGapAbs >= 0) || !(s.TolGapRel >= 0) || !(s.TolInfeas > 0):
		return fmt.Errorf("settings: tolerances TolFeas %g, TolGapAbs %g, TolGapRel %g, TolInfeas %g (want positive)", s.TolFeas, s.TolGapAbs, s.TolGapRel, s.TolInfeas)
	case !(s.StaticReg >= 0) || s.RefineIter < 0 || !(s.RefineTol >= 0):
		return fmt.Errorf("settings: StaticReg %g, RefineIter %d, RefineTol %g (want ≥ 0)", s.StaticReg, s.RefineIter, s.RefineTol)
	case !(s.StepFraction > 0 && s.StepFraction < 1):
		return fmt.Errorf("settings: StepFraction = %g (want in (0, 1))", s.StepFraction)
	}
	return nil
}
