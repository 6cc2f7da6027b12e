package ipm

import (
	"fmt"

	"github.com/stiction-sim/stiction/solver"
)

// CheckKind implements solver.KindChecker: the interior-point method
// solves cone programs, so not the Similar approximation's contacts, nor
// the Lagged approximation's, whose friction is a soft norm as soon as a
// contact slides (it has no friction anchor).
func (s *Solver) CheckKind(k solver.Kind) error {
	switch k {
	case solver.ContactLagged:
		return fmt.Errorf("ipm: %v: a sliding contact's friction (a soft norm, without a friction anchor) is not a cone program", k)
	case solver.ContactSimilar:
		return fmt.Errorf("ipm: %v is not a cone program", k)
	}
	return nil
}
