package solver

import (
	"fmt"
	"math"
)

// Clique is one diagonal block of A: the generalized velocities
// v[Offset : Offset+Size] of one kinematic tree.
type Clique struct {
	Offset int // first generalized velocity of the clique
	Size   int // number of generalized velocities
	AOff   int // offset of the clique's Size×Size row-major block in Problem.A
}

// JBlock is the non-zero 3×Size block of J that couples contact Contact
// with clique Clique, stored row-major at Problem.JData[Off:Off+3*Size].
// Rows are (t1, t2, n).
type JBlock struct {
	Contact int
	Clique  int
	Off     int
}

// Problem is the discrete contact problem of one time step (SAP eq. 24).
// All slices are owned by the caller and may be reused across steps.
type Problem struct {
	NV      int       // number of generalized velocities
	Cliques []Clique  // diagonal blocks of A, in increasing Offset, covering [0, NV)
	A       []float64 // concatenated row-major clique blocks of A (SPD)
	VStar   []float64 // free-motion velocities v*, length NV
	MDiag   []float64 // diag(M), length NV, for the scaling D = diag(M)^(−1/2) of eq. 25

	NC     int       // number of contacts
	JBlock []JBlock  // non-zero blocks of J, sorted by Contact then Clique
	JData  []float64 // storage for the blocks
	VHat   []float64 // stabilization velocities v̂, length 3·NC, (t1, t2, n) per contact
	R      []float64 // diagonal of R, length 3·NC, (Rt, Rt, Rn) per contact
	Mu     []float64 // friction coefficient per contact, length NC
}

// Reset empties the problem for reuse, keeping capacity.
func (p *Problem) Reset(nv int) {
	p.NV = nv
	p.Cliques = p.Cliques[:0]
	p.A = p.A[:0]
	p.VStar = resize(p.VStar, nv)
	p.MDiag = resize(p.MDiag, nv)
	p.NC = 0
	p.JBlock = p.JBlock[:0]
	p.JData = p.JData[:0]
	p.VHat = p.VHat[:0]
	p.R = p.R[:0]
	p.Mu = p.Mu[:0]
}

// resize returns s with length n, reusing its storage when it can. The
// first min(len(s), n) elements are kept; growth is amortized (at least
// doubling), so that a slice grown block by block allocates O(log n) times.
func resize(s []float64, n int) []float64 {
	if cap(s) < n {
		ns := make([]float64, n, max(n, 2*cap(s)))
		copy(ns, s)
		return ns
	}
	return s[:n]
}

// Resize returns s with length n, reusing its storage when it can and
// keeping the first min(len(s), n) elements; new elements are not cleared
// when storage is reused.
func Resize(s []float64, n int) []float64 { return resize(s, n) }

// ABlock returns the row-major Size×Size block of A for clique c.
func (p *Problem) ABlock(c int) []float64 {
	q := p.Cliques[c]
	return p.A[q.AOff : q.AOff+q.Size*q.Size]
}

// JBlockData returns the row-major 3×Size data of block b.
func (p *Problem) JBlockData(b int) []float64 {
	blk := p.JBlock[b]
	n := p.Cliques[blk.Clique].Size
	return p.JData[blk.Off : blk.Off+3*n]
}

// MulA sets out = A x. out and x must not alias.
func (p *Problem) MulA(x, out []float64) {
	for c, q := range p.Cliques {
		a := p.ABlock(c)
		xs := x[q.Offset : q.Offset+q.Size]
		for i := range q.Size {
			s := 0.0
			row := a[i*q.Size : (i+1)*q.Size]
			for j, aij := range row {
				s += aij * xs[j]
			}
			out[q.Offset+i] = s
		}
	}
}

// MulJ sets vc = J v (length 3·NC).
func (p *Problem) MulJ(v, vc []float64) {
	clear(vc[:3*p.NC])
	for b, blk := range p.JBlock {
		q := p.Cliques[blk.Clique]
		d := p.JBlockData(b)
		vs := v[q.Offset : q.Offset+q.Size]
		for r := range 3 {
			s := 0.0
			row := d[r*q.Size : (r+1)*q.Size]
			for j, jij := range row {
				s += jij * vs[j]
			}
			vc[3*blk.Contact+r] += s
		}
	}
}

// MulJT sets out = Jᵀ γ (length NV).
func (p *Problem) MulJT(gamma, out []float64) {
	clear(out[:p.NV])
	for b, blk := range p.JBlock {
		q := p.Cliques[blk.Clique]
		d := p.JBlockData(b)
		g := gamma[3*blk.Contact : 3*blk.Contact+3]
		for r := range 3 {
			row := d[r*q.Size : (r+1)*q.Size]
			for j, jij := range row {
				out[q.Offset+j] += jij * g[r]
			}
		}
	}
}

// DenseA returns A as a dense row-major NV×NV matrix (for tests and small
// problems; it allocates).
func (p *Problem) DenseA() []float64 {
	a := make([]float64, p.NV*p.NV)
	for c, q := range p.Cliques {
		blk := p.ABlock(c)
		for i := range q.Size {
			for j := range q.Size {
				a[(q.Offset+i)*p.NV+q.Offset+j] = blk[i*q.Size+j]
			}
		}
	}
	return a
}

// DenseJ returns J as a dense row-major 3NC×NV matrix (for tests; it
// allocates).
func (p *Problem) DenseJ() []float64 {
	jd := make([]float64, 3*p.NC*p.NV)
	for b, blk := range p.JBlock {
		q := p.Cliques[blk.Clique]
		d := p.JBlockData(b)
		for r := range 3 {
			for j := range q.Size {
				jd[(3*blk.Contact+r)*p.NV+q.Offset+j] += d[r*q.Size+j]
			}
		}
	}
	return jd
}

// Validate checks the shapes of all slices, that cliques tile [0, NV), that
// J blocks are sorted and in range, that every number is finite, that R > 0,
// μ ≥ 0, diag(M) > 0, and each contact's two tangential entries of R are
// equal. It does not check that A is positive definite; the
// solver's factorization reports that.
func (p *Problem) Validate() error {
	off, aoff := 0, 0
	for c, q := range p.Cliques {
		if q.Offset != off || q.Size <= 0 || q.AOff != aoff {
			return fmt.Errorf("solver: clique %d {Offset %d, Size %d, AOff %d} does not tile the velocities (want Offset %d, AOff %d)",
				c, q.Offset, q.Size, q.AOff, off, aoff)
		}
		off += q.Size
		aoff += q.Size * q.Size
	}
	switch {
	case off != p.NV:
		return fmt.Errorf("solver: cliques cover %d velocities, want NV = %d", off, p.NV)
	case len(p.A) != aoff:
		return fmt.Errorf("solver: len(A) = %d, want %d", len(p.A), aoff)
	case len(p.VStar) != p.NV || len(p.MDiag) != p.NV:
		return fmt.Errorf("solver: len(VStar) = %d, len(MDiag) = %d, want NV = %d", len(p.VStar), len(p.MDiag), p.NV)
	case len(p.VHat) != 3*p.NC || len(p.R) != 3*p.NC || len(p.Mu) != p.NC:
		return fmt.Errorf("solver: len(VHat) = %d, len(R) = %d, len(Mu) = %d for NC = %d", len(p.VHat), len(p.R), len(p.Mu), p.NC)
	}
	prev := JBlock{Contact: -1, Clique: -1}
	for b, blk := range p.JBlock {
		if blk.Contact < 0 || blk.Contact >= p.NC || blk.Clique < 0 || blk.Clique >= len(p.Cliques) {
			return fmt.Errorf("solver: J block %d (contact %d, clique %d) out of range", b, blk.Contact, blk.Clique)
		}
		if blk.Contact < prev.Contact || (blk.Contact == prev.Contact && blk.Clique <= prev.Clique) {
			return fmt.Errorf("solver: J blocks not sorted by (contact, clique) at block %d", b)
		}
		if n := p.Cliques[blk.Clique].Size; blk.Off < 0 || blk.Off+3*n > len(p.JData) {
			return fmt.Errorf("solver: J block %d data [%d, %d) outside JData (len %d)", b, blk.Off, blk.Off+3*n, len(p.JData))
		}
		prev = blk
	}
	if i, ok := firstNonFinite(p.A); !ok {
		return fmt.Errorf("solver: A[%d] = %v is not finite", i, p.A[i])
	}
	if i, ok := firstNonFinite(p.VStar); !ok {
		return fmt.Errorf("solver: VStar[%d] = %v is not finite", i, p.VStar[i])
	}
	if i, ok := firstNonFinite(p.JData); !ok {
		return fmt.Errorf("solver: JData[%d] = %v is not finite", i, p.JData[i])
	}
	if i, ok := firstNonFinite(p.VHat); !ok {
		return fmt.Errorf("solver: VHat[%d] = %v is not finite", i, p.VHat[i])
	}
	for i, m := range p.MDiag {
		if !(m > 0) || math.IsInf(m, 0) {
			return fmt.Errorf("solver: MDiag[%d] = %v must be positive and finite", i, m)
		}
	}
	for i, r := range p.R {
		if !(r > 0) || math.IsInf(r, 0) {
			return fmt.Errorf("solver: R[%d] = %v must be positive and finite", i, r)
		}
	}
	for i := 0; i+1 < len(p.R); i += 3 {
		if p.R[i] != p.R[i+1] {
			return fmt.Errorf("solver: contact %d has unequal tangential regularization R = (%v, %v); R_i must be diag(Rt, Rt, Rn)", i/3, p.R[i], p.R[i+1])
		}
	}
	for i, mu := range p.Mu {
		if !(mu >= 0) || math.IsInf(mu, 0) {
			return fmt.Errorf("solver: Mu[%d] = %v must be non-negative and finite", i, mu)
		}
	}
	return nil
}

func firstNonFinite(s []float64) (int, bool) {
	// x − x is 0 for finite x and NaN for ±Inf and NaN, and a NaN stays in
	// the sum: one branch-free pass over s (it runs on every solve), and
	// the search for the index only when something is wrong.
	acc := 0.0
	for _, x := range s {
		acc += x - x
	}
	if acc == 0 {
		return 0, true
	}
	for i, x := range s {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return i, false
		}
	}
	return 0, true
}
