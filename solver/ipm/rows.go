package ipm

import (
	"fmt"
	"math"

	"github.com/stiction-sim/stiction/solver"
)

// coneKind is the cone group of a row of the cone program.
type coneKind uint8

const (
	zeroRow   coneKind = iota // s = 0
	nonNegRow                 // s ≥ 0
	socRow                    // part of a second-order cone
)

// term is one row of the cone program, s = Σ α_k g_{row_k} + β t_j, with
// g = J v + R σ − v̂ (rows of the solver.Problem) and t_j an epigraph
// variable (j < 0: none). A second-order cone is socLen consecutive terms
// of kind socRow, its first term the cone's axis.
type term struct {
	kind   coneKind
	socLen int    // on the first term of a cone: its dimension
	row    [2]int // problem rows (−1: unused)
	alpha  [2]float64
	t      int     // epigraph variable, −1: none
	beta   float64 // coefficient of t
}

// rows lists the cone rows of p into dst (reused) and returns them and
// the number of epigraph variables, or an error naming an unsupported kind.
func rows(p *solver.Problem, dst []term) ([]term, int, error) {
	dst = dst[:0]
	nt := 0
	for i, c := range p.Constraints {
		var err error
		dst, nt, err = blockRows(p, i, c, dst, nt)
		if err != nil {
			return nil, 0, fmt.Errorf("ipm: constraint %d: %w", i, err)
		}
	}
	return dst, nt, nil
}

// g returns the term s = α g_row.
func g(kind coneKind, row int, alpha float64) term {
	return term{kind: kind, row: [2]int{row, -1}, alpha: [2]float64{alpha, 0}, t: -1}
}

// gt returns the term s = α g_row + β t.
func gt(kind coneKind, row int, alpha float64, t int, beta float64) term {
	x := g(kind, row, alpha)
	x.t, x.beta = t, beta
	return x
}

// axis returns the first term of a second-order cone of dimension n whose
// axis is t (t ≥ 0) or g_row (t < 0).
func axis(n, row, t int) term {
	x := term{kind: socRow, socLen: n, row: [2]int{row, -1}, alpha: [2]float64{1, 0}, t: -1}
	if t >= 0 {
		x.row[0], x.alpha[0], x.t, x.beta = -1, 0, t, 1
	}
	return x
}

// blockRows appends the rows of constraint i (see the package doc).
func blockRows(p *solver.Problem, i int, c solver.Constraint, dst []term, nt int) ([]term, int, error) {
	par, r0 := p.Par(i), c.Row
	switch c.Kind {
	case solver.ContactCone:
		if mu := par[0]; mu > 0 {
			dst = append(dst, axis(3, r0+2, -1), g(socRow, r0, mu), g(socRow, r0+1, mu))
		} else {
			dst = append(dst, g(nonNegRow, r0+2, 1))
		}
	case solver.Bilateral:
		for r := r0; r < r0+c.Size; r++ {
			dst = append(dst, g(zeroRow, r, 1))
		}
	case solver.Interval:
		dst, nt = intervalRows(par[0], par[1], r0, dst, nt)
	case solver.Disk:
		dst, nt = diskRows(par[0], r0, dst, nt)
	case solver.ContactLagged:
		if par[4] != 1 {
			return nil, 0, fmt.Errorf("%v without a friction anchor (soft-norm friction) is not a cone program; use sap or pgs", c.Kind)
		}
		dst, nt = diskRows(par[0]*par[1], r0, dst, nt)
		dst = append(dst, g(nonNegRow, r0+2, 1))
	default:
		return nil, 0, fmt.Errorf("kind %v is not supported by the interior-point solver; use sap or pgs", c.Kind)
	}
	return dst, nt, nil
}

// intervalRows appends the rows of h_C(−g) ≤ t for C = [lo, hi]:
// t + hi g ≥ 0 and t + lo g ≥ 0 for finite bounds, g ≥ 0 for hi = ∞ and
// −g ≥ 0 for lo = −∞, g = 0 for both infinite; t is left out when its
// only row would be t ≥ 0 (a zero bound).
func intervalRows(lo, hi float64, r int, dst []term, nt int) ([]term, int) {
	loInf, hiInf := math.IsInf(lo, -1), math.IsInf(hi, 1)
	switch {
	case loInf && hiInf:
		return append(dst, g(zeroRow, r, 1)), nt
	case hiInf:
		dst = append(dst, g(nonNegRow, r, 1))
	case loInf:
		dst = append(dst, g(nonNegRow, r, -1))
	}
	need := (!hiInf && hi != 0) || (!loInf && lo != 0)
	if !need { // the epigraph row would be t ≥ 0 alone
		return dst, nt
	}
	t := nt
	for _, b := range [2]float64{hi, lo} {
		if !math.IsInf(b, 0) {
			dst = append(dst, gt(nonNegRow, r, b, t, 1))
		}
	}
	return dst, nt + 1
}

// diskRows appends ρ‖(g_r, g_r+1)‖ ≤ t as the cone (t, ρ g_r, ρ g_r+1);
// nothing when ρ = 0 (C = {0}).
func diskRows(rho float64, r int, dst []term, nt int) ([]term, int) {
	if rho == 0 {
		return dst, nt
	}
	return append(dst, axis(3, -1, nt), g(socRow, r, rho), g(socRow, r+1, rho)), nt + 1
}
