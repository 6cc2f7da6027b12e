package fclib

import (
	"math"
	"testing"

	"gonum.org/v1/gonum/mat"
)

func readProblem(t *testing.T, name string) *Problem {
	t.Helper()
	p, err := ReadFile(samplePath(name))
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func TestOrder(t *testing.T) {
	fc := []float64{1, 2, 3, 4, 5, 6} // (n, t1, t2) per contact
	ours, back := make([]float64, 6), make([]float64, 6)
	toSAP(fc, ours)
	toFCLIB(ours, back)
	if want := []float64{2, 3, 1, 5, 6, 4}; !equal(ours, want) || !equal(back, fc) {
		t.Errorf("toSAP = %v, want %v; round trip %v", ours, want, back)
	}
}

func equal(a, b []float64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// wantCliques are the clique sizes found in M's sparsity graph: Box_Stacks'
// M is diagonal (one clique per velocity), the LMGC90 meshes have two
// bodies each.
var wantCliques = map[string][]int{
	"Box_Stacks-i0122-82-5.hdf5":                  nil, // 450 cliques of size 1
	"CubeH8.hdf5":                                 {81, 81},
	"LMGC_GlobalFrictionContactProblem00046.hdf5": {81, 81},
	"LMGC_GFC3D-i00001-1-00000.hdf5":              {24, 24},
}

func TestMapGlobal(t *testing.T) {
	for _, name := range sampleFiles[:4] {
		p := readProblem(t, name)
		m, err := NewMapping(p, 1e-6)
		if err != nil {
			t.Fatal(err)
		}
		checkCliques(t, name, m)
		checkGlobalData(t, name, m)
		checkDelassus(t, name, m)
	}
}

// checkCliques checks the clique sizes, that A is M permuted, and that no
// entry of M couples two cliques.
func checkCliques(t *testing.T, name string, m *Mapping) {
	sp := m.SAP
	var sizes []int
	for _, q := range sp.Cliques {
		sizes = append(sizes, q.Size)
	}
	if want := wantCliques[name]; want == nil {
		if len(sizes) != sp.NV {
			t.Errorf("%s: %d cliques, want %d of size 1", name, len(sizes), sp.NV)
		}
	} else if !intsEqual(sizes, want) {
		t.Errorf("%s: clique sizes %v, want %v", name, sizes, want)
	}
	a, n := sp.DenseA(), sp.NV
	for i := range n {
		for j := range n {
			if got, want := a[i*n+j], m.Sym.At(m.perm[i], m.perm[j]); got != want {
				t.Fatalf("%s: A[%d,%d] = %v, M[%d,%d] = %v (outside a clique block or wrong)", name, i, j, got, m.perm[i], m.perm[j], want)
			}
		}
		if sp.MDiag[i] != m.Sym.At(m.perm[i], m.perm[i]) {
			t.Errorf("%s: MDiag[%d] = %v", name, i, sp.MDiag[i])
		}
	}
}

func intsEqual(a, b []int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// checkGlobalData checks J = P Hᵀ, v̂ = −P w, μ and M v* = f.
func checkGlobalData(t *testing.T, name string, m *Mapping) {
	sp, g := m.SAP, m.global
	jd, n := sp.DenseJ(), sp.NV
	for i := range sp.NumConstraints() {
		for r, c := range fromFCLIB {
			for k := range n {
				if got, want := jd[(3*i+r)*n+k], g.H.At(m.perm[k], 3*i+c); got != want {
					t.Fatalf("%s: J[%d,%d] = %v, H[%d,%d] = %v", name, 3*i+r, k, got, m.perm[k], 3*i+c, want)
				}
			}
			if sp.VHat[3*i+r] != -g.W[3*i+c] {
				t.Errorf("%s: v̂[%d] = %v, w[%d] = %v", name, 3*i+r, sp.VHat[3*i+r], 3*i+c, g.W[3*i+c])
			}
		}
		if sp.Params[i] != g.Mu[i] {
			t.Errorf("%s: μ[%d] = %v, want %v", name, i, sp.Params[i], g.Mu[i])
		}
	}
	v := make([]float64, n)
	for k, orig := range m.perm {
		v[orig] = sp.VStar[k]
	}
	mv := make([]float64, n)
	m.Sym.MulVec(v, mv)
	diff := 0.0
	for i := range mv {
		diff = math.Max(diff, math.Abs(mv[i]-g.F[i]))
	}
	if diff > 1e-12*maxAbs(g.F) {
		t.Errorf("%s: max |M v* − f| = %.3g, max |f| = %.3g", name, diff, maxAbs(g.F))
	}
}

// checkDelassus compares w_i and R with the exact Delassus operator
// W = J A⁻¹ Jᵀ formed densely.
func checkDelassus(t *testing.T, name string, m *Mapping) {
	sp := m.SAP
	n, nc := sp.NV, sp.NumConstraints()
	a := mat.NewDense(n, n, sp.DenseA())
	j := mat.NewDense(3*nc, n, sp.DenseJ())
	var ainvJt, w mat.Dense
	if err := ainvJt.Solve(a, j.T()); err != nil {
		t.Fatal(err)
	}
	w.Mul(j, &ainvJt)
	for i := range nc {
		f := 0.0
		for r := range 3 {
			for c := range 3 {
				f += w.At(3*i+r, 3*i+c) * w.At(3*i+r, 3*i+c)
			}
		}
		want := math.Sqrt(f) / 3
		if math.Abs(m.Delassus[i]-want) > 1e-10*want {
			t.Errorf("%s: w_%d = %v, dense Delassus gives %v", name, i, m.Delassus[i], want)
		}
		for r := range 3 {
			if sp.R[3*i+r] != m.Eps*m.Delassus[i] {
				t.Errorf("%s: R[%d] = %v, want ε w = %v", name, 3*i+r, sp.R[3*i+r], m.Eps*m.Delassus[i])
			}
		}
	}
}

// TestMapLocal checks the factor W = J Jᵀ of the rank-deficient local
// problem, A = I, v* = 0, v̂ = −P q.
func TestMapLocal(t *testing.T) {
	p := readProblem(t, localFile)
	m, err := NewMapping(p, 1e-6)
	if err != nil {
		t.Fatal(err)
	}
	sp, l := m.SAP, p.Local
	n, nc := sp.NV, sp.NumConstraints()
	a := sp.DenseA()
	for i := range n {
		for k := range n {
			if want := b2f(i == k); a[i*n+k] != want || sp.VStar[i] != 0 || sp.MDiag[i] != 1 {
				t.Fatalf("A, v* or MDiag wrong at %d, %d", i, k)
			}
		}
	}
	j := mat.NewDense(3*nc, n, sp.DenseJ())
	var jjt mat.Dense
	jjt.Mul(j, j.T())
	diff, scale := 0.0, maxAbs(l.W.Val)
	for i := range 3 * nc {
		ci, ri := i/3, fromFCLIB[i%3]
		for k := range 3 * nc {
			ck, rk := k/3, fromFCLIB[k%3]
			diff = math.Max(diff, math.Abs(jjt.At(i, k)-m.Sym.At(3*ci+ri, 3*ck+rk)))
		}
		if sp.VHat[i] != -l.Q[3*ci+ri] {
			t.Errorf("v̂[%d] = %v, want −q[%d] = %v", i, sp.VHat[i], 3*ci+ri, -l.Q[3*ci+ri])
		}
	}
	t.Logf("W: %d×%d, factor rank %d in %d clique(s), max |J Jᵀ − P W Pᵀ| = %.3g (max |W| = %.3g)", 3*nc, 3*nc, n, len(sp.Cliques), diff, scale)
	if diff > 1e-12*scale {
		t.Errorf("max |J Jᵀ − P W Pᵀ| = %.3g > 1e-12 max |W| = %.3g", diff, 1e-12*scale)
	}
	// 48 contacts between 12 boxes: W = H M⁻¹ Hᵀ has rank 6·12 = 72; its
	// other eigenvalues are ≈ 1e-12, the smallest kept ≈ 0.018, λmax ≈ 2712.
	if n != 72 {
		t.Errorf("factor rank %d, want 72", n)
	}
}

func b2f(b bool) float64 {
	if b {
		return 1
	}
	return 0
}

// maxAbs returns max |x_i|.
func maxAbs(x []float64) float64 {
	m := 0.0
	for _, v := range x {
		m = math.Max(m, math.Abs(v))
	}
	return m
}
