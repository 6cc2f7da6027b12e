package mjref

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stiction-sim/stiction/multibody"
	"github.com/stiction-sim/stiction/solver"
)

// TestTreeLTDLFactorsMuJoCosM: MuJoCo 2.2.2's own M at the initial state
// (mj_fullM of qM, from the C tool) of walker, ant and both humanoids,
// cut into Stiction's trees, has exactly the pattern of Stiction's
// velocity parents (the MuJoCo-port factor, solver.CliqueFactor with
// MuJoCo set, takes the tree factor on every tree, which it refuses for
// an entry off the pattern, and M is zero outside the trees' blocks):
// those parents are MuJoCo's dof_parentid. The factor of MuJoCo's M
// solves M x = b to 1e-12 of the scale, and its x equals that of
// Stiction's M(q0) (mapped to MuJoCo's coordinates, Tᵀ M T) to 1e-12.
func TestTreeLTDLFactorsMuJoCosM(t *testing.T) {
	rng := rand.New(rand.NewPCG(23, 49))
	for _, f := range []string{
		"testdata/dm_control/suite/walker.xml",
		"testdata/gymnasium/ant.xml",
		"testdata/dm_control/suite/humanoid.xml",
		"testdata/dm_control/suite/humanoid_CMU.xml",
	} {
		mj := run(t, f, Options{})
		b, mp := mappedModel(t, f, mj)
		m, n := b.Model, b.Model.NV
		ours := treeltdlFullM(m, mp, mj)
		for _, c := range []struct {
			name string
			full []float64
		}{{"MuJoCo's M", mj.M}, {"Stiction's M", ours}} {
			if off := treeltdlOffTrees(m, c.full); off != 0 {
				t.Fatalf("%s: %s: %g outside the trees' blocks", f, c.name, off)
			}
		}
		bvec := make([]float64, n)
		for i := range bvec {
			bvec[i] = 2*rng.Float64() - 1
		}
		xm := treeltdlSolve(t, f, m, mj.M, bvec)
		xs := treeltdlSolve(t, f, m, ours, bvec)
		if r := treeltdlResidual(n, mj.M, xm, bvec); r > 1e-12 {
			t.Errorf("%s: MuJoCo's M x = b to %.3g only", f, r)
		}
		if e := relErr(xm, xs); e > 1e-12 {
			t.Errorf("%s: M⁻¹ b of MuJoCo's M and of Stiction's differ by %.3g", f, e)
		}
		t.Logf("%s: nv %d: M⁻¹ b of MuJoCo's M and of Stiction's M(q0) agree to %.2g", f, n, relErr(xm, xs))
	}
}

// treeltdlFullM returns Stiction's M at MuJoCo's initial state in MuJoCo's
// velocity coordinates (Tᵀ M T, as compareMass forms it).
func treeltdlFullM(m *multibody.Model, mp *Map, mj *Run) []float64 {
	n := m.NV
	q, v := make([]float64, m.NQ), make([]float64, n)
	mp.QToStiction(mj.QInit, q)
	ws := multibody.NewWorkspace(m)
	ws.Update(q, v)
	full := make([]float64, n*n)
	for ti, tr := range m.Trees {
		blk := make([]float64, tr.NV*tr.NV)
		ws.MassMatrix(ti, blk)
		for a := range tr.NV {
			copy(full[(tr.VOffset+a)*n+tr.VOffset:], blk[a*tr.NV:(a+1)*tr.NV])
		}
	}
	return congruence(full, mp.Jacobian(mj.QInit), n)
}

// treeltdlOffTrees returns the largest |entry| of the n×n full outside the
// diagonal blocks of m's trees.
func treeltdlOffTrees(m *multibody.Model, full []float64) float64 {
	n := m.NV
	tree := make([]int, n)
	for ti, tr := range m.Trees {
		for i := range tr.NV {
			tree[tr.VOffset+i] = ti
		}
	}
	worst := 0.0
	for r := range n {
		for c := range n {
			if tree[r] != tree[c] {
				worst = math.Max(worst, math.Abs(full[r*n+c]))
			}
		}
	}
	return worst
}

// treeltdlSolve returns full⁻¹ b by the MuJoCo-port factor, one clique
// per tree of m with its velocity parents, failing t unless every tree
// is factored along the tree.
func treeltdlSolve(t *testing.T, file string, m *multibody.Model, full, b []float64) []float64 {
	t.Helper()
	n := m.NV
	p := &solver.Problem{}
	p.Reset(n)
	for ti, tr := range m.Trees {
		off := len(p.A)
		p.Cliques = append(p.Cliques, solver.Clique{Offset: tr.VOffset, Size: tr.NV, AOff: off, Parent: m.TreeVelocityParents(ti)})
		for a := range tr.NV {
			p.A = append(p.A, full[(tr.VOffset+a)*n+tr.VOffset:(tr.VOffset+a)*n+tr.VOffset+tr.NV]...)
		}
	}
	f := solver.CliqueFactor{MuJoCo: true}
	if err := f.Factor(p); err != nil {
		t.Fatalf("%s: %v", file, err)
	}
	x := append([]float64(nil), b...)
	for _, q := range p.Cliques {
		if _, tree := f.TreeFactor(q); !tree {
			t.Errorf("%s: the tree at velocity %d (%d velocities) does not have M's pattern", file, q.Offset, q.Size)
		}
		f.Solve(q, x[q.Offset:q.Offset+q.Size], 1)
	}
	return x
}

// treeltdlResidual returns ‖A x − b‖∞ / (‖A‖∞ ‖x‖∞ + ‖b‖∞) for the n×n
// row-major a.
func treeltdlResidual(n int, a, x, b []float64) float64 {
	na, nx, nb, res := 0.0, 0.0, 0.0, 0.0
	for i := range n {
		row, s := 0.0, -b[i]
		for j := range n {
			row += math.Abs(a[i*n+j])
			s += a[i*n+j] * x[j]
		}
		na, nx, nb, res = math.Max(na, row), math.Max(nx, math.Abs(x[i])), math.Max(nb, math.Abs(b[i])), math.Max(res, math.Abs(s))
	}
	return res / (na*nx + nb)
}
