package sap

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stiction-sim/stiction/solver"
	"github.com/stiction-sim/stiction/solver/internal/problems"
)

// TestDenseHessianSkipsZeroColumns: the dense Newton system, which adds
// J_iᵀ G_i J_i only over the non-zero columns of each J block, assembles
// the same H as the sum over every column, on random problems whose J
// blocks have columns zeroed (a joint limit's row has one non-zero column,
// a contact on a tree those of the path to the root), whether the columns
// are read at each assembly or once per solve by setup, and with a third
// of the G_i zero (assemble skips those constraints).
func TestDenseHessianSkipsZeroColumns(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 23))
	kinds := []solver.Kind{solver.ContactCone, solver.ContactLagged, solver.Bilateral, solver.Interval}
	for trial := range 20 {
		p := problems.Random(rng, 1+trial%4, kinds, 0.025)
		zeroed := 0
		for b := range p.JBlock {
			jb := p.JBlockData(b)
			k := p.Constraints[p.JBlock[b].Constraint].Size
			n := len(jb) / k
			for c := range n {
				if rng.IntN(3) > 0 {
					for r := range k {
						jb[r*n+c] = 0
					}
					zeroed++
				}
			}
		}
		goff := make([]int, len(p.Constraints)+1)
		for i, c := range p.Constraints {
			goff[i+1] = goff[i] + c.Size*c.Size
		}
		g := make([]float64, goff[len(p.Constraints)])
		for i, c := range p.Constraints { // symmetric G_i, a third of them zero (assemble skips those)
			gi := g[goff[i]:goff[i+1]]
			if rng.IntN(3) == 0 {
				continue
			}
			for r := range c.Size {
				for s := r; s < c.Size; s++ {
					x := rng.NormFloat64()
					gi[r*c.Size+s], gi[s*c.Size+r] = x, x
				}
			}
		}
		want := fullHessian(p, g, goff)
		for k := range 3 { // columns read per assembly, or once by setup; the full or the upper H
			setup, upper := k > 0, k == 2
			d := denseSystem{upper: upper}
			if setup {
				if err := d.setup(p); err != nil {
					t.Fatal(err)
				}
			}
			d.assemble(p, g, goff)
			for i, x := range d.h {
				if upper && i/p.NV > i%p.NV {
					continue // below the diagonal: not assembled
				}
				if x != want[i] {
					t.Fatalf("trial %d (%d columns zeroed, setup %v): H[%d] = %v, every column gives %v", trial, zeroed, setup, i, x, want[i])
				}
			}
		}
	}
}

// fullHessian is denseSystem.assemble summing over every column of every
// J block, in the same order.
func fullHessian(p *solver.Problem, g []float64, goff []int) []float64 {
	n := p.NV
	h := make([]float64, n*n)
	maxSize := 0
	for c, q := range p.Cliques {
		maxSize = max(maxSize, q.Size)
		a := p.ABlock(c)
		for i := range q.Size {
			copy(h[(q.Offset+i)*n+q.Offset:][:q.Size], a[i*q.Size:(i+1)*q.Size])
		}
	}
	tmp := make([]float64, maxRows(p)*maxSize)
	for lo, hi := 0, 0; lo < len(p.JBlock); lo = hi {
		hi = constraintEnd(p, lo)
		ci := p.JBlock[lo].Constraint
		gi := g[goff[ci]:goff[ci+1]]
		for b2 := lo; b2 < hi; b2++ {
			mulGJ(p, gi, b2, tmp)
			for b1 := lo; b1 <= b2; b1++ {
				q1, q2 := p.Cliques[p.JBlock[b1].Clique], p.Cliques[p.JBlock[b2].Clique]
				k, j1 := p.Constraints[ci].Size, p.JBlockData(b1)
				for a := range q1.Size {
					for b := range q2.Size {
						s := 0.0
						for r := range k {
							s += j1[r*q1.Size+a] * tmp[r*q2.Size+b]
						}
						h[(q1.Offset+a)*n+q2.Offset+b] += s
						if b1 != b2 {
							h[(q2.Offset+b)*n+q1.Offset+a] += s
						}
					}
				}
			}
		}
	}
	return h
}

// TestMulJOverNonzeroColumns: mulJ and mulJT over the non-zero columns of
// each J block (after denseSystem.setup) give J v and Jᵀ γ with the same
// bits as solver.Problem's MulJ and MulJT, which sum over every column, on
// random problems with columns of J zeroed, v and γ of both signs (so that
// the skipped products include −0) and a third of γ zero.
func TestMulJOverNonzeroColumns(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 5))
	kinds := []solver.Kind{solver.ContactCone, solver.ContactLagged, solver.Bilateral, solver.Interval}
	skipped := 0
	for trial := range 30 {
		p := problems.Random(rng, 1+trial%5, kinds, 0.025)
		for b := range p.JBlock {
			jb := p.JBlockData(b)
			k := p.Constraints[p.JBlock[b].Constraint].Size
			n := len(jb) / k
			for c := range n {
				if rng.IntN(2) == 0 {
					for r := range k {
						jb[r*n+c] = 0
					}
					skipped++
				}
			}
		}
		var d denseSystem
		if err := d.setup(p); err != nil {
			t.Fatal(err)
		}
		v, gamma := make([]float64, p.NV), make([]float64, p.NR)
		for i := range v {
			v[i] = rng.NormFloat64()
		}
		for i := range gamma {
			if rng.IntN(3) > 0 {
				gamma[i] = rng.NormFloat64()
			}
		}
		want, got := make([]float64, p.NR), make([]float64, p.NR)
		p.MulJ(v, want)
		mulJ(p, &d, v, got)
		for i := range want {
			if math.Float64bits(got[i]) != math.Float64bits(want[i]) {
				t.Fatalf("trial %d: (J v)[%d] = %v over non-zero columns, %v over all", trial, i, got[i], want[i])
			}
		}
		wantT, gotT := make([]float64, p.NV), make([]float64, p.NV)
		p.MulJT(gamma, wantT)
		mulJT(p, &d, gamma, gotT)
		for i := range wantT {
			if math.Float64bits(gotT[i]) != math.Float64bits(wantT[i]) {
				t.Fatalf("trial %d: (Jᵀ γ)[%d] = %v over non-zero columns, %v over all", trial, i, gotT[i], wantT[i])
			}
		}
	}
	if skipped == 0 {
		t.Fatal("no column zeroed: the test does not exercise the skip")
	}
}
