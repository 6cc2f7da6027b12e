package sim_test

import (
	"math"
	"math/rand/v2"
	"testing"

	modelload "github.com/stiction-sim/stiction/model/load"
	"github.com/stiction-sim/stiction/multibody"
	"github.com/stiction-sim/stiction/scene"
	"github.com/stiction-sim/stiction/solver"
)

// treeltdlModels are the real trees of the MuJoCo-port factor's proofs:
// chains of branches (dm_control's walker), a free torso with four legs
// (Gymnasium's ant), and the two humanoids (27 and 62 velocities).
var treeltdlModels = []string{
	"../internal/mjref/testdata/dm_control/suite/walker.xml",
	"../internal/mjref/testdata/gymnasium/ant.xml",
	"../internal/mjref/testdata/dm_control/suite/humanoid.xml",
	"../internal/mjref/testdata/dm_control/suite/humanoid_CMU.xml",
}

// treeltdlModel loads file and returns its multibody model and initial q.
func treeltdlModel(t *testing.T, file string) (*multibody.Model, []float64) {
	t.Helper()
	s, _, err := modelload.Scene(file, nil, modelload.Options{})
	if err != nil {
		t.Fatal(err)
	}
	b, err := scene.Build(s)
	if err != nil {
		t.Fatal(err)
	}
	return b.Model, b.State.Q
}

// treeltdlProblem returns a problem with one clique per tree of m, its
// Parent the tree's velocity parents, and A's blocks from fill.
func treeltdlProblem(m *multibody.Model, fill func(ti int, blk []float64)) *solver.Problem {
	p := &solver.Problem{}
	p.Reset(m.NV)
	for ti, tr := range m.Trees {
		off := len(p.A)
		p.Cliques = append(p.Cliques, solver.Clique{Offset: tr.VOffset, Size: tr.NV, AOff: off, Parent: m.TreeVelocityParents(ti)})
		p.A = append(p.A, make([]float64, tr.NV*tr.NV)...)
		fill(ti, p.A[off:off+tr.NV*tr.NV])
	}
	return p
}

// treeltdlRandomSPD fills blk (n×n, n = len(parent)) with A = Lᵀ D L for
// a random unit lower L on the tree's pattern (L_ij ≠ 0 only for j an
// ancestor of i) and D in [0.1, 10]: a random SPD matrix with exactly
// the tree's sparsity (the LᵀDL factor of such a matrix has no fill-in).
func treeltdlRandomSPD(rng *rand.Rand, parent []int, blk []float64) {
	n := len(parent)
	l := make([]float64, n*n)
	for i := range n {
		l[i*n+i] = 1
		for j := parent[i]; j >= 0; j = parent[j] {
			l[i*n+j] = 2*rng.Float64() - 1
		}
	}
	d := make([]float64, n)
	for i := range d {
		d[i] = 0.1 + 9.9*rng.Float64()
	}
	for r := range n {
		for c := range n {
			s := 0.0
			for k := range n {
				s += l[k*n+r] * d[k] * l[k*n+c]
			}
			blk[r*n+c] = s
		}
	}
}

// treeltdlCheck factors p with the MuJoCo-port factor and the default
// one, solves random right-hand sides (1 and 3 columns) with both, and
// checks that every tree took the tree factor, that A x = b to round-off
// (‖A x − b‖∞ ≤ 1e-12 (‖A‖∞ ‖x‖∞ + ‖b‖∞)) and that the two solutions
// agree to 1e-10 of their scale. It returns the largest residual ratio.
func treeltdlCheck(t *testing.T, name string, rng *rand.Rand, p *solver.Problem) float64 {
	t.Helper()
	mj, dense := solver.CliqueFactor{MuJoCo: true}, solver.CliqueFactor{}
	if err := mj.Factor(p); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	if err := dense.Factor(p); err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	worst := 0.0
	for _, q := range p.Cliques {
		if _, tree := mj.TreeFactor(q); !tree {
			t.Errorf("%s: clique at %d (%d velocities) not factored along its tree", name, q.Offset, q.Size)
		}
		a := p.A[q.AOff : q.AOff+q.Size*q.Size]
		for _, cols := range []int{1, 3} {
			b := make([]float64, q.Size*cols)
			for i := range b {
				b[i] = 2*rng.Float64() - 1
			}
			x, y := append([]float64(nil), b...), append([]float64(nil), b...)
			mj.Solve(q, x, cols)
			dense.Solve(q, y, cols)
			r := treeltdlResidual(q.Size, cols, a, x, b)
			worst = max(worst, r)
			if r > 1e-12 {
				t.Errorf("%s: clique at %d, %d columns: residual %.3g of scale", name, q.Offset, cols, r)
			}
			scale, diff := 0.0, 0.0
			for i := range x {
				scale, diff = max(scale, math.Abs(y[i])), max(diff, math.Abs(x[i]-y[i]))
			}
			if diff > 1e-10*scale {
				t.Errorf("%s: clique at %d, %d columns: tree and dense solutions differ by %.3g (scale %.3g)", name, q.Offset, cols, diff, scale)
			}
		}
	}
	return worst
}

// treeltdlResidual returns ‖A x − b‖∞ / (‖A‖∞ ‖x‖∞ + ‖b‖∞) for the n×n
// row-major a and the row-major n×cols x and b.
func treeltdlResidual(n, cols int, a, x, b []float64) float64 {
	na, nx, nb, res := 0.0, 0.0, 0.0, 0.0
	for i := range n {
		row := 0.0
		for j := range n {
			row += math.Abs(a[i*n+j])
		}
		na = max(na, row)
	}
	for i := range x {
		nx, nb = max(nx, math.Abs(x[i])), max(nb, math.Abs(b[i]))
	}
	for i := range n {
		for c := range cols {
			s := -b[i*cols+c]
			for j := range n {
				s += a[i*n+j] * x[j*cols+c]
			}
			res = max(res, math.Abs(s))
		}
	}
	return res / (na*nx + nb)
}

// TestTreeLTDLSolvesRealTrees: the MuJoCo-port factor
// (solver.CliqueFactor.MuJoCo: mj_factorI and mj_solveLD along the tree,
// chains included) solves, on the trees of walker, ant and both
// humanoids, (1) the mass matrix at the initial q and at 5 random
// configurations near it and (2) 5 random SPD matrices with the tree's
// pattern each, with A x = b to 1e-12 of the scale and the dense
// Cholesky factor's x to 1e-10.
func TestTreeLTDLSolvesRealTrees(t *testing.T) {
	rng := rand.New(rand.NewPCG(23, 49))
	for _, f := range treeltdlModels {
		m, q0 := treeltdlModel(t, f)
		ws := multibody.NewWorkspace(m)
		q, v, zero := make([]float64, m.NQ), make([]float64, m.NV), make([]float64, m.NV)
		worst := 0.0
		for k := range 6 {
			copy(q, q0)
			if k > 0 {
				for i := range v {
					v[i] = 2*rng.Float64() - 1
				}
				m.IntegrateQExp(q0, v, 0.5, q)
			}
			ws.Update(q, zero)
			p := treeltdlProblem(m, func(ti int, blk []float64) { ws.MassMatrix(ti, blk) })
			worst = max(worst, treeltdlCheck(t, f+" M(q)", rng, p))
			p = treeltdlProblem(m, func(ti int, blk []float64) { treeltdlRandomSPD(rng, m.TreeVelocityParents(ti), blk) })
			worst = max(worst, treeltdlCheck(t, f+" random SPD", rng, p))
		}
		t.Logf("%s: nv %d, %d trees, largest residual %.2g", f, m.NV, len(m.Trees), worst)
	}
}
