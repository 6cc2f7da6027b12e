package drumwright

import (
	"math"

	"github.com/stiction-sim/stiction/solver"
)

// class is the role of one constraint row in D.'s formulation.
type class uint8

const (
	classBilateral  class = iota // γ = s exactly (D. §4)
	classUnilateral              // γ ≥ s, γ ≥ 0, weight ζ (D. §5, contact normals)
	classSoft                    // γ = s + β, β penalized, γ bounded (friction, D. §6)
	classFixed                   // γ given (zero friction bound, lo = hi)
)

// rowInfo describes one row: its class, its fixed impulse, its bounds (soft
// interval rows) and, for the first tangent row of a contact or disk, the
// cone it heads.
type rowInfo struct {
	cls    class
	fixed  float64 // classFixed: the impulse
	lo, hi float64 // classSoft interval rows: the bounds (±Inf when absent)
	cone   int     // 0: none; 1: contact cone (t1, t2 here and n at +2); 2: disk (this row and the next)
	mu     float64 // the cone's μ or the disk's radius
	// friction marks D.'s friction rows, whose objective is ½(γ² + β²)
	// (D. eq. 124); other soft rows (bounded intervals, disks) minimize ½β²
	// alone, so that inside their bounds they follow their spring law
	// exactly.
	friction bool
}

// delassus computes Y = A⁻¹Jᵀ (NV×NR, row-major), W = J Y (NR×NR) and
// c = J v* into the workspace (D. eq. 59: W = M̂⁻¹ with A in place of M).
// The rows of W of fixed rows are left zero: nothing reads them (classify
// must have run).
func (s *Solver) delassus(p *solver.Problem) error {
	nv, nr := p.NV, p.NR
	s.y = solver.Resize(s.y, nv*nr)
	clear(s.y)
	for b, blk := range p.JBlock {
		q := p.Cliques[blk.Clique]
		c := p.Constraints[blk.Constraint]
		d := p.JBlockData(b)
		for r := range c.Size {
			for j := range q.Size {
				s.y[(q.Offset+j)*nr+c.Row+r] = d[r*q.Size+j]
			}
		}
	}
	if err := s.fac.Factor(p); err != nil {
		return err
	}
	if nr > 0 {
		for _, q := range p.Cliques {
			s.fac.Solve(q, s.y[q.Offset*nr:(q.Offset+q.Size)*nr], nr)
		}
	}
	s.w = solver.Resize(s.w, nr*nr)
	clear(s.w)
	for b, blk := range p.JBlock {
		q := p.Cliques[blk.Clique]
		c := p.Constraints[blk.Constraint]
		d := p.JBlockData(b)
		for r := range c.Size {
			if s.rows[c.Row+r].cls == classFixed {
				continue
			}
			wr := s.w[(c.Row+r)*nr : (c.Row+r+1)*nr]
			for j := range q.Size {
				a := d[r*q.Size+j]
				if a == 0 {
					continue
				}
				yr := s.y[(q.Offset+j)*nr : (q.Offset+j+1)*nr]
				for k, v := range yr {
					wr[k] += a * v
				}
			}
		}
	}
	s.c = solver.Resize(s.c, nr)
	p.MulJ(p.VStar, s.c)
	return nil
}

// classify sets the class of every row from its constraint's kind.
func (s *Solver) classify(p *solver.Problem) {
	if cap(s.rows) < p.NR {
		s.rows = make([]rowInfo, p.NR, 2*p.NR)
	}
	s.rows = s.rows[:p.NR]
	inf := math.Inf(1)
	for i, c := range p.Constraints {
		par := p.Par(i)
		rows := s.rows[c.Row : c.Row+c.Size]
		for k := range rows {
			rows[k] = rowInfo{cls: classBilateral, lo: -inf, hi: inf}
		}
		switch {
		case c.Kind.IsContact():
			// D. §6.3: normal unilateral, tangents soft inside the cone.
			// A frictionless contact has no tangential spring at all.
			rows[2].cls = classUnilateral
			if mu := par[0]; mu > 0 {
				rows[0] = rowInfo{cls: classSoft, lo: -inf, hi: inf, cone: 1, mu: mu, friction: true}
				rows[1] = rowInfo{cls: classSoft, lo: -inf, hi: inf, friction: true}
			} else {
				rows[0], rows[1] = rowInfo{cls: classFixed}, rowInfo{cls: classFixed}
			}
		case c.Kind == solver.Interval:
			lo, hi := par[0], par[1]
			switch {
			case lo == hi:
				rows[0] = rowInfo{cls: classFixed, fixed: lo}
			case lo == 0 && math.IsInf(hi, 1):
				rows[0].cls = classUnilateral // D. §5: a range-of-motion limit
			default:
				rows[0] = rowInfo{cls: classSoft, lo: lo, hi: hi}
			}
		case c.Kind == solver.Disk:
			if r := par[0]; r > 0 {
				rows[0] = rowInfo{cls: classSoft, lo: -inf, hi: inf, cone: 2, mu: r}
				rows[1] = rowInfo{cls: classSoft, lo: -inf, hi: inf}
			} else {
				rows[0], rows[1] = rowInfo{cls: classFixed}, rowInfo{cls: classFixed}
			}
		}
	}
}
