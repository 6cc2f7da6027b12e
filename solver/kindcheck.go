package solver

// KindChecker is implemented by a solver that cannot solve blocks of every
// Kind (the interior-point solver solves cone programs only), so that a
// run can be refused before its first step rather than fail at it.
type KindChecker interface {
	// CheckKind returns an error saying why, when the solver cannot solve
	// every block of kind k.
	CheckKind(k Kind) error
}

// CheckKind returns nil when s can solve every block of kind k: s is not a
// KindChecker, or its CheckKind returns nil.
func CheckKind(s Solver, k Kind) error {
	if c, ok := s.(KindChecker); ok {
		return c.CheckKind(k)
	}
	return nil
}

// CheckKind implements KindChecker: the inner solver's.
func (r *LaggedRefiner) CheckKind(k Kind) error { return CheckKind(r.Inner, k) }
