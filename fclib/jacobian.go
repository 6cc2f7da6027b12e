package fclib

import (
	"math"
	"slices"

	"github.com/stiction-sim/stiction/solver"
)

// jEntry is one non-zero of J: row (0, 1, 2 = t1, t2, n) of contact, and a
// velocity index in SAP order.
type jEntry struct {
	row, col int
	val      float64
}

// cliqueIndex maps every SAP velocity to its clique and its position in it.
type cliqueIndex struct {
	clique, local []int
}

func newCliqueIndex(p *solver.Problem) cliqueIndex {
	ix := cliqueIndex{clique: make([]int, p.NV), local: make([]int, p.NV)}
	for c, q := range p.Cliques {
		for k := range q.Size {
			ix.clique[q.Offset+k], ix.local[q.Offset+k] = c, k
		}
	}
	return ix
}

// addContact appends to p the J blocks of one contact from its non-zeros:
// one 3×Size block per clique it touches, in increasing clique order.
// Contacts must be added in increasing order.
func addContact(p *solver.Problem, ix cliqueIndex, contact int, entries []jEntry) {
	var cliques []int
	for _, e := range entries {
		cliques = append(cliques, ix.clique[e.col])
	}
	slices.Sort(cliques)
	cliques = slices.Compact(cliques)
	for _, c := range cliques {
		size := p.Cliques[c].Size
		off := len(p.JData)
		p.JData = append(p.JData, make([]float64, 3*size)...)
		for _, e := range entries {
			if ix.clique[e.col] == c {
				p.JData[off+e.row*size+ix.local[e.col]] += e.val
			}
		}
		p.JBlock = append(p.JBlock, solver.JBlock{Constraint: contact, Clique: c, Off: off})
	}
}

// delassusRMS returns w_i = ‖W_ii‖_F / 3 for every contact (SAP §V-A, the
// estimate of eq. 29): W_ii = Σ_c J_ic A_c⁻¹ J_icᵀ over the cliques c the
// contact touches, with A factored clique by clique in cf.
func delassusRMS(p *solver.Problem, cf *solver.CliqueFactor) []float64 {
	w := make([]float64, p.NumConstraints())
	wii := make([][9]float64, p.NumConstraints())
	for b, blk := range p.JBlock {
		q := p.Cliques[blk.Clique]
		jb := p.JBlockData(b)
		x := make([]float64, 3*q.Size) // J_bᵀ, Size×3 row-major, then A⁻¹ J_bᵀ
		for r := range 3 {
			for k := range q.Size {
				x[k*3+r] = jb[r*q.Size+k]
			}
		}
		cf.Solve(q, x, 3)
		for r := range 3 {
			for s := range 3 {
				for k := range q.Size {
					wii[blk.Constraint][3*r+s] += jb[r*q.Size+k] * x[k*3+s]
				}
			}
		}
	}
	for i := range wii {
		f := 0.0
		for _, v := range wii[i] {
			f += v * v
		}
		w[i] = math.Sqrt(f) / 3
	}
	return w
}
