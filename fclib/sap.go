package fclib

import (
	"fmt"

	"github.com/stiction-sim/stiction/solver"
)

// Mapping is an FCLIB problem written as the solver.Problem SAP minimises
// (SAP eq. 24), with what it takes to map SAP's solution back.
//
// Global problems: A = M (symmetrized, see Symmetry), with the velocities
// permuted so that every clique, a connected component of M's sparsity
// graph, is contiguous; J = P Hᵀ with P reordering each contact from (n,
// t1, t2) to (t1, t2, n); v* = M⁻¹ f; v̂ = −P w; diag(M) as MDiag. SAP's
// optimality conditions then read M v = f + H r and K* ∋ u + Rγ ⊥ r ∈ K with
// u = Hᵀ v + w and r = Pᵀ γ.
//
// Local problems: W = J Jᵀ with A = I, v* = 0 and v̂ = −P q, so that SAP's
// dual (eq. 22), min ½γᵀ(W + R)γ + (P q)ᵀγ, is the local problem with
// u = W r + q (see mapLocal).
//
// In both, R = Eps·w_i on all three directions of contact i, with w_i =
// ‖W_ii‖_F/3 the RMS of the 3×3 Delassus block (SAP eq. 29 without the
// compliance term), computed from the per-clique blocks of A⁻¹.
type Mapping struct {
	SAP      *solver.Problem
	Eps      float64
	Symmetry Symmetry // how M (global) or W (local) was stored
	Sym      *Sparse  // the symmetric M or W used for solving and residuals
	Delassus []float64

	global *GlobalProblem
	local  *LocalProblem
	perm   []int // global: SAP velocity k is FCLIB velocity perm[k]
}

// NewMapping maps p onto SAP with regularization parameter eps > 0.
func NewMapping(p *Problem, eps float64) (*Mapping, error) {
	if !(eps > 0) {
		return nil, fmt.Errorf("fclib: %s: regularization ε = %v must be positive", p.Name, eps)
	}
	var m *Mapping
	var err error
	if p.Global != nil {
		m, err = mapGlobal(p.Global, eps)
	} else {
		m, err = mapLocal(p.Local, eps)
	}
	if err != nil {
		return nil, fmt.Errorf("fclib: %s: %w", p.Name, err)
	}
	return m, nil
}

// mapGlobal builds the SAP problem of a global problem.
func mapGlobal(g *GlobalProblem, eps float64) (*Mapping, error) {
	if g.SpaceDim != 3 {
		return nil, unsupported("%d-D problem (spacedim %d; SAP needs 3)", g.SpaceDim, g.SpaceDim)
	}
	if g.G != nil {
		return nil, unsupported("bilateral constraints (matrix G, vector b)")
	}
	msym, kind, err := symmetrize(g.M, "matrix M")
	if err != nil {
		return nil, err
	}
	m := &Mapping{Eps: eps, Symmetry: kind, Sym: msym, global: g}
	p := &solver.Problem{}
	m.SAP = p
	pos := m.setCliques(sparsityComponents(msym))
	var cf solver.CliqueFactor
	if err := cf.Factor(p); err != nil {
		return nil, fmt.Errorf("matrix M: %w", err)
	}
	m.freeMotion(&cf)
	m.globalJacobian(pos)
	p.VHat = negatedSAP(g.W)
	p.Params = append(p.Params[:0], g.Mu...)
	return m, m.regularize(&cf)
}

// setCliques lays out the cliques (components of M, each ascending) one
// after the other, fills A and MDiag, and returns pos: FCLIB velocity →
// SAP velocity.
func (m *Mapping) setCliques(comps [][]int) []int {
	p, n := m.SAP, m.Sym.Cols
	p.Reset(n)
	pos := make([]int, n)
	for _, c := range comps {
		q := solver.Clique{Offset: len(m.perm), Size: len(c), AOff: len(p.A)}
		for k, orig := range c {
			pos[orig] = q.Offset + k
		}
		m.perm = append(m.perm, c...)
		p.Cliques = append(p.Cliques, q)
		p.A = append(p.A, make([]float64, q.Size*q.Size)...)
	}
	ix := newCliqueIndex(p)
	for j := range n {
		for k := m.Sym.ColPtr[j]; k < m.Sym.ColPtr[j+1]; k++ {
			i, v := pos[m.Sym.RowIdx[k]], m.Sym.Val[k]
			if i == pos[j] {
				p.MDiag[i] = v
			}
			q := p.Cliques[ix.clique[i]]
			p.A[q.AOff+ix.local[i]*q.Size+ix.local[pos[j]]] = v
		}
	}
	return pos
}

// freeMotion sets v* = M⁻¹ f in SAP order.
func (m *Mapping) freeMotion(cf *solver.CliqueFactor) {
	p := m.SAP
	for k, orig := range m.perm {
		p.VStar[k] = m.global.F[orig]
	}
	for _, q := range p.Cliques {
		cf.Solve(q, p.VStar[q.Offset:q.Offset+q.Size], 1)
	}
}

// globalJacobian fills J = P Hᵀ: row k of contact i is column 3i+fromFCLIB[k]
// of H.
func (m *Mapping) globalJacobian(pos []int) {
	p, h := m.SAP, m.global.H
	setContacts(p, h.Cols/3)
	ix := newCliqueIndex(p)
	var entries []jEntry
	for i := range p.NumConstraints() {
		entries = entries[:0]
		for r, c := range fromFCLIB {
			col := 3*i + c
			for k := h.ColPtr[col]; k < h.ColPtr[col+1]; k++ {
				entries = append(entries, jEntry{row: r, col: pos[h.RowIdx[k]], val: h.Val[k]})
			}
		}
		addContact(p, ix, i, entries)
	}
}

// regularize sets R = ε w_i per contact from the Delassus estimate.
func (m *Mapping) regularize(cf *solver.CliqueFactor) error {
	p := m.SAP
	m.Delassus = delassusRMS(p, cf)
	p.R = make([]float64, p.NR)
	for i, w := range m.Delassus {
		if !(w > 0) {
			return malformed("contact %d has a zero Delassus block (empty Jacobian rows)", i)
		}
		p.R[3*i], p.R[3*i+1], p.R[3*i+2] = m.Eps*w, m.Eps*w, m.Eps*w
	}
	return p.Validate()
}

// setContacts makes p's constraints nc SAP contact cones: contact i owns
// rows [3i, 3i+3) and its friction coefficient is Params[i].
func setContacts(p *solver.Problem, nc int) {
	p.Constraints = p.Constraints[:0]
	for i := range nc {
		p.Constraints = append(p.Constraints, solver.Constraint{Kind: solver.ContactCone, Row: 3 * i, Size: 3, Par: i})
	}
	p.NR = 3 * nc
}
