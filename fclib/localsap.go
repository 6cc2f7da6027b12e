package fclib

import (
	"math"

	"gonum.org/v1/gonum/mat"

	"github.com/stiction-sim/stiction/solver"
)

// Eigenvalues λ ≤ eigenDropTol·m·λmax of W (m its size) are treated as zero
// and their eigenvectors dropped from the factor J; λ < −indefiniteTol·λmax
// means W is not positive semidefinite.
const (
	eigenDropTol  = 2.220446049250313e-16
	indefiniteTol = 1e-10
)

// mapLocal builds the SAP problem of a local problem through a factor
// W = J Jᵀ (in SAP order, P W Pᵀ = J Jᵀ) with A = I, v* = 0 and v̂ = −P q.
// SAP's dual (eq. 22) is then min ½γᵀ(J Jᵀ + R)γ + (P q)ᵀγ over the
// cones, whose optimality conditions are those of u = W r + q with r = Pᵀγ
// and the regularised velocity u + Pᵀ Rγ.
//
// W is symmetric positive semidefinite and often singular (rank-deficient
// stacks), so J comes from a symmetric eigendecomposition W = V Λ Vᵀ:
// J = V·sqrt(max(Λ, 0)) with the columns of round-off-sized eigenvalues
// dropped. W's sparsity graph is split by contacts into connected
// components, each factored on its own and giving one clique of A = I.
func mapLocal(l *LocalProblem, eps float64) (*Mapping, error) {
	if l.SpaceDim != 3 {
		return nil, unsupported("%d-D problem (spacedim %d; SAP needs 3)", l.SpaceDim, l.SpaceDim)
	}
	wsym, kind, err := symmetrize(l.W, "matrix W")
	if err != nil {
		return nil, err
	}
	m := &Mapping{Eps: eps, Symmetry: kind, Sym: wsym, local: l, SAP: &solver.Problem{}}
	comps := contactComponents(wsym)
	facs := make([]*mat.EigenSym, len(comps))
	lmin, lmax := 0.0, 0.0
	for c, contacts := range comps {
		if facs[c], err = eigenOf(wsym, contacts); err != nil {
			return nil, err
		}
		vals := facs[c].Values(nil)
		lmin, lmax = min(lmin, vals[0]), max(lmax, vals[len(vals)-1])
	}
	if lmin < -indefiniteTol*lmax {
		return nil, unsupported("indefinite matrix W (eigenvalue %.3g, largest %.3g)", lmin, lmax)
	}
	m.localFactor(comps, facs, eigenDropTol*float64(wsym.Cols)*lmax)
	p := m.SAP
	p.VHat = negatedSAP(l.Q)
	p.Params = append(p.Params[:0], l.Mu...)
	var cf solver.CliqueFactor
	if err := cf.Factor(p); err != nil {
		return nil, err
	}
	return m, m.regularize(&cf)
}

// contactComponents groups contacts coupled by W into connected components.
func contactComponents(w *Sparse) [][]int {
	u := newUnionFind(w.Cols / 3)
	for j := range w.Cols {
		for k := w.ColPtr[j]; k < w.ColPtr[j+1]; k++ {
			if w.Val[k] != 0 {
				u.union(w.RowIdx[k]/3, j/3)
			}
		}
	}
	return u.components()
}

// eigenOf returns the eigendecomposition of the block of W over contacts,
// in SAP order: row 3a+k is FCLIB component 3·contacts[a]+fromFCLIB[k].
func eigenOf(w *Sparse, contacts []int) (*mat.EigenSym, error) {
	n := 3 * len(contacts)
	idx := make([]int, n)
	for a, c := range contacts {
		for k, f := range fromFCLIB {
			idx[3*a+k] = 3*c + f
		}
	}
	s := mat.NewSymDense(n, nil)
	for a := range n {
		for b := a; b < n; b++ {
			s.SetSym(a, b, w.At(idx[a], idx[b]))
		}
	}
	var e mat.EigenSym
	if !e.Factorize(s, true) {
		return nil, malformed("eigendecomposition of W failed for contacts %d–%d", contacts[0], contacts[len(contacts)-1])
	}
	return &e, nil
}

// localFactor sets A = I clique by clique and J = V·sqrt(Λ) over the
// eigenvalues above drop, one clique per component, then v* = 0 and
// MDiag = 1.
func (m *Mapping) localFactor(comps [][]int, facs []*mat.EigenSym, drop float64) {
	p := m.SAP
	blocks := make([][]float64, m.Sym.Cols/3) // per contact: its 3 rows of J
	owner := make([]int, len(blocks))         // per contact: its clique, −1 if none
	for c, contacts := range comps {
		jc, k := factorOf(facs[c], drop)
		clique := -1
		if k > 0 {
			clique = addIdentityClique(p, k)
		}
		for a, ct := range contacts {
			owner[ct], blocks[ct] = clique, jc[3*a*k:3*(a+1)*k]
		}
	}
	setContacts(p, len(blocks))
	for i, b := range blocks {
		if owner[i] >= 0 {
			p.JBlock = append(p.JBlock, solver.JBlock{Constraint: i, Clique: owner[i], Off: len(p.JData)})
			p.JData = append(p.JData, b...)
		}
	}
	p.VStar = make([]float64, p.NV)
	p.MDiag = make([]float64, p.NV)
	for i := range p.MDiag {
		p.MDiag[i] = 1
	}
}

// factorOf returns J = V·sqrt(Λ) (row-major, n×k) over the k eigenvalues
// of e above drop.
func factorOf(e *mat.EigenSym, drop float64) (j []float64, k int) {
	vals := e.Values(nil)
	var vecs mat.Dense
	e.VectorsTo(&vecs)
	var keep []int
	for i, v := range vals {
		if v > drop {
			keep = append(keep, i)
		}
	}
	n := len(vals)
	k = len(keep)
	j = make([]float64, n*k)
	for r := range n {
		for c, i := range keep {
			j[r*k+c] = vecs.At(r, i) * math.Sqrt(vals[i])
		}
	}
	return j, k
}

// addIdentityClique appends a clique of the given size with A = I and
// returns its index.
func addIdentityClique(p *solver.Problem, size int) int {
	q := solver.Clique{Offset: p.NV, Size: size, AOff: len(p.A)}
	p.A = append(p.A, make([]float64, size*size)...)
	for k := range size {
		p.A[q.AOff+k*size+k] = 1
	}
	p.Cliques = append(p.Cliques, q)
	p.NV += size
	return len(p.Cliques) - 1
}
