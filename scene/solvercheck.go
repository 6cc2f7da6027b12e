package scene

import (
	"fmt"
	"strings"

	"github.com/stiction-sim/stiction/contact"
	"github.com/stiction-sim/stiction/solver"
)

// contactKind is the kind of the constraint blocks that contacts of
// approximation a become (contact.Assembler).
func contactKind(a contact.Approximation) solver.Kind {
	switch a {
	case contact.Lagged:
		return solver.ContactLagged
	case contact.Similar:
		return solver.ContactSimilar
	}
	return solver.ContactCone
}

// checkSolverApproximation refuses, before any step, a solver (registered
// as name, s one of its solvers) that cannot solve the contacts of
// approximation a (solver.CheckKind), naming the approximations it can
// solve and the solvers that can solve a.
func checkSolverApproximation(name string, s solver.Solver, a contact.Approximation, p solver.Params) error {
	err := solver.CheckKind(s, contactKind(a))
	if err == nil {
		return nil
	}
	var approxs, solvers []string
	for _, b := range []contact.Approximation{contact.SAP, contact.Lagged, contact.Similar} {
		if solver.CheckKind(s, contactKind(b)) == nil {
			approxs = append(approxs, b.String())
		}
	}
	for _, n := range solver.Names() {
		if other, nerr := solver.New(n, p); nerr == nil && solver.CheckKind(other, contactKind(a)) == nil {
			solvers = append(solvers, n)
		}
	}
	fix := ""
	if len(approxs) > 0 {
		fix = fmt.Sprintf("set contact.approximation to %s (--set contact.approximation=%s), or ", strings.Join(approxs, " or "), approxs[0])
	}
	return fmt.Errorf("solver.type %s cannot solve contact.approximation %s (%w): %ssolver.type to %s (--solver)",
		name, a, err, fix, strings.Join(solvers, ", "))
}
