package sap

import "github.com/stiction-sim/stiction/solver"

// shape is the structure of the last problem whose structure passed
// solver.Problem.ValidateStructure: its sizes, the lengths of its slices,
// its cliques' offsets and sizes, its constraint blocks (kind, rows, size,
// parameters) and its J blocks, everything ValidateStructure reads. While
// a problem's structure equals it, ValidateStructure would pass again, and
// Solve checks the numbers only (solver.Problem.ValidateNumbers). The
// comparison reads the structure itself, not a flag of the caller's: a
// problem rebuilt in the same storage with other contacts, or edited by
// hand, is validated in full.
type shape struct {
	ok      bool   // the fields hold a validated structure
	hit     bool   // the last validate found the structure kept
	lens    [9]int // NV, NR and the slices' lengths (lengths)
	cliques []solver.Clique
	cons    []solver.Constraint
	blocks  []solver.JBlock
}

// lengths returns p's NV, NR and the lengths of its slices.
func lengths(p *solver.Problem) [9]int {
	return [9]int{p.NV, p.NR, len(p.A), len(p.VStar), len(p.MDiag), len(p.JData), len(p.VHat), len(p.R), len(p.Params)}
}

// sameLengths reports whether lengths(p) == *l, compared entry by entry
// (an array's == calls runtime.memequal).
func sameLengths(p *solver.Problem, l *[9]int) bool {
	return p.NV == l[0] && p.NR == l[1] && len(p.A) == l[2] && len(p.VStar) == l[3] && len(p.MDiag) == l[4] &&
		len(p.JData) == l[5] && len(p.VHat) == l[6] && len(p.R) == l[7] && len(p.Params) == l[8]
}

// same reports whether p has the kept structure.
func (sh *shape) same(p *solver.Problem) bool {
	if !sh.ok || !sameLengths(p, &sh.lens) || len(p.Cliques) != len(sh.cliques) {
		return false
	}
	for i, q := range p.Cliques {
		if k := &sh.cliques[i]; q.Offset != k.Offset || q.Size != k.Size || q.AOff != k.AOff {
			return false
		}
	}
	if len(p.Constraints) != len(sh.cons) || len(p.JBlock) != len(sh.blocks) {
		return false
	}
	// Field by field (slices.Equal's generic == of a struct is a call per
	// element), the differences of an element's fields or-ed into one
	// word: one test and branch an element rather than one a field.
	cons := sh.cons[:len(p.Constraints)]
	for i := range p.Constraints {
		c, k := &p.Constraints[i], &cons[i]
		if uint(c.Kind^k.Kind)|uint(c.Row^k.Row)|uint(c.Size^k.Size)|uint(c.Par^k.Par) != 0 {
			return false
		}
	}
	blocks := sh.blocks[:len(p.JBlock)]
	for i := range p.JBlock {
		b, k := &p.JBlock[i], &blocks[i]
		if uint(b.Constraint^k.Constraint)|uint(b.Clique^k.Clique)|uint(b.Off^k.Off) != 0 {
			return false
		}
	}
	return true
}

// keep records p's structure, which has just been validated (the cliques'
// Parent slices are not kept: ValidateStructure does not read them).
func (sh *shape) keep(p *solver.Problem) {
	sh.lens = lengths(p)
	sh.cliques = sh.cliques[:0]
	for _, q := range p.Cliques {
		sh.cliques = append(sh.cliques, solver.Clique{Offset: q.Offset, Size: q.Size, AOff: q.AOff})
	}
	sh.cons = append(sh.cons[:0], p.Constraints...)
	sh.blocks = append(sh.blocks[:0], p.JBlock...)
	sh.ok = true
}

// validate checks p as solver.Problem.Validate does: the structure when it
// differs from the last one validated (which it then keeps), and the
// numbers. A nil sh keeps nothing: Validate.
func (sh *shape) validate(p *solver.Problem) error {
	if sh == nil {
		return p.Validate()
	}
	sh.hit = sh.same(p)
	if !sh.hit {
		sh.ok = false
		if err := p.ValidateStructure(); err != nil {
			return err
		}
		sh.keep(p)
	}
	return p.ValidateNumbers()
}
