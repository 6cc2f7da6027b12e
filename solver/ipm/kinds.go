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
	case solver.ContactEllipticN:
		return fmt.Errorf("ipm: %v (MuJoCo's elliptic cone of condim 4 and 6) is not among its cones; use sap", k)
	}
	return nil
}
