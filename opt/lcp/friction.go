package lcp

import (
	"fmt"
	"math"

	"gonum.org/v1/gonum/mat"
)

// Contact is a frictional contact problem in velocities: find v and the
// impulses γ (normal γ_n, tangential γ_t per contact) with
//
//	A (v − v*) = Jᵀγ,   u = J v,   0 ≤ γ_n ⊥ u_n + b_n ≥ 0,
//
// and Coulomb friction by maximal dissipation over a friction set. Rows of
// J are ordered (n, t1, t2) per contact, as FCLIB and PGS order them.
type Contact struct {
	A     *mat.SymDense // nv×nv, positive definite
	VStar []float64     // v*, length nv
	J     *mat.Dense    // 3nc×nv
	Bn    []float64     // normal bias b_n per contact (nil: zero)
	Mu    []float64     // μ per contact
}

// FrictionSolution is the solution of a Contact problem. Its slices belong
// to the FrictionLCP and are overwritten by the next Solve.
type FrictionSolution struct {
	V     []float64 // velocities
	Gamma []float64 // impulses (n, t1, t2) per contact, γ_t = Σ_j β_j d_j
	U     []float64 // contact velocities J v
	Slip  []float64 // λ per contact: the sliding speed's bound (max_j −d_jᵀu_t)
	LCP   Result
}

// FrictionLCP solves Contact problems with a polyhedral friction cone, the
// pyramid of Facets facets inscribed in Coulomb's cone ‖γ_t‖ ≤ μγ_n: the
// friction impulse is γ_t = Σ_j β_j d_j with d_j = (cos 2πj/k, sin 2πj/k)
// in (t1, t2), β ≥ 0 and Σ_j β_j ≤ μγ_n. Maximal dissipation makes this the
// LCP of Stewart and Trinkle (1996; Anitescu and Potra 1997):
//
//	[w_n]   [N A⁻¹Nᵀ  N A⁻¹Dᵀ  0] [γ_n]   [N v* + b_n]
//	[w_β] = [D A⁻¹Nᵀ  D A⁻¹Dᵀ  E] [β  ] + [D v*      ]
//	[w_λ]   [μ        −Eᵀ      0] [λ  ]   [0         ]
//
// with N and D the normal and friction-direction rows of J and E the
// contact-wise sum. Its matrix is copositive but not a P-matrix: it is
// solved by Lemke's method. With μ = 0 it is the frictionless LCP.
type FrictionLCP struct {
	Facets int // k ≥ 3 (4: the square pyramid)
	Lemke  Lemke

	w             *mat.Dense // Delassus J A⁻¹ Jᵀ
	ainvJt        *mat.Dense
	m             *mat.Dense
	q, vt         []float64
	chol          mat.Cholesky
	sol           FrictionSolution
	nv, nc, facet int
}

// Solve solves c. Bad dimensions or values give an error.
func (f *FrictionLCP) Solve(c *Contact) (*FrictionSolution, error) {
	nv, nc, err := c.check()
	if err != nil {
		return nil, err
	}
	k := f.Facets
	if k < 3 {
		return nil, fmt.Errorf("friction lcp: Facets = %d (want ≥ 3)", k)
	}
	if !f.chol.Factorize(c.A) {
		return nil, fmt.Errorf("friction lcp: A is not positive definite")
	}
	f.size(nv, nc, k)
	if err := f.chol.SolveTo(f.ainvJt, c.J.T()); err != nil {
		return nil, fmt.Errorf("friction lcp: %w", err)
	}
	f.w.Mul(c.J, f.ainvJt)
	f.assemble(c)
	res, err := f.Lemke.Solve(f.m, f.q)
	if err != nil {
		return nil, fmt.Errorf("friction lcp: %w", err)
	}
	f.sol.LCP = res
	f.extract(c, res)
	return &f.sol, nil
}

func (c *Contact) check() (nv, nc int, err error) {
	if c.A == nil || c.J == nil {
		return 0, 0, fmt.Errorf("friction lcp: A or J is nil")
	}
	nv, nc = c.A.SymmetricDim(), len(c.Mu)
	if r, cols := c.J.Dims(); r != 3*nc || cols != nv || len(c.VStar) != nv || (c.Bn != nil && len(c.Bn) != nc) {
		return 0, 0, fmt.Errorf("friction lcp: J is %d×%d, v* %d, b_n %d, want %d×%d, %d, %d", r, cols, len(c.VStar), len(c.Bn), 3*nc, nv, nv, nc)
	}
	for i, mu := range c.Mu {
		if !(mu >= 0) || math.IsInf(mu, 0) {
			return 0, 0, fmt.Errorf("friction lcp: μ[%d] = %v (want finite ≥ 0)", i, mu)
		}
	}
	return nv, nc, nil
}

// size allocates the workspace.
func (f *FrictionLCP) size(nv, nc, k int) {
	if f.nv == nv && f.nc == nc && f.facet == k && f.m != nil {
		return
	}
	f.nv, f.nc, f.facet = nv, nc, k
	dim := nc * (k + 2)
	f.w, f.ainvJt = mat.NewDense(3*nc, 3*nc, nil), mat.NewDense(nv, 3*nc, nil)
	f.m, f.q, f.vt = mat.NewDense(dim, dim, nil), make([]float64, dim), make([]float64, 3*nc)
	f.sol.V, f.sol.Gamma, f.sol.U = make([]float64, nv), make([]float64, 3*nc), make([]float64, 3*nc)
	f.sol.Slip = make([]float64, nc)
}

// dir returns d_j (cos, sin).
func dir(j, k int) (float64, float64) {
	return math.Cos(2 * math.Pi * float64(j) / float64(k)), math.Sin(2 * math.Pi * float64(j) / float64(k))
}

// assemble writes the LCP matrix and vector; unknowns are ordered
// (γ_n for all contacts, β contact by contact, λ for all contacts).
func (f *FrictionLCP) assemble(c *Contact) {
	nc, k := f.nc, f.facet
	bOff, lOff := nc, nc+nc*k
	f.m.Zero()
	// dirRow(i, j, col) = (D row (i, j)) · (column col of W over the
	// contact's tangent rows).
	wt := func(i, j, r int) float64 {
		cx, sy := dir(j, k)
		return cx*f.w.At(3*i+1, r) + sy*f.w.At(3*i+2, r)
	}
	vt := f.vt // J v*
	for r := range 3 * nc {
		s := 0.0
		for l, v := range c.VStar {
			s += c.J.At(r, l) * v
		}
		vt[r] = s
	}
	for i := range nc {
		for l := range nc {
			f.m.Set(i, l, f.w.At(3*i, 3*l))
			for j := range k {
				cx, sy := dir(j, k)
				f.m.Set(i, bOff+l*k+j, cx*f.w.At(3*i, 3*l+1)+sy*f.w.At(3*i, 3*l+2))
				f.m.Set(bOff+l*k+j, i, wt(l, j, 3*i))
			}
		}
		for j := range k {
			for l := range nc {
				for jj := range k {
					cx, sy := dir(jj, k)
					f.m.Set(bOff+i*k+j, bOff+l*k+jj, cx*wt(i, j, 3*l+1)+sy*wt(i, j, 3*l+2))
				}
			}
			f.m.Set(bOff+i*k+j, lOff+i, 1)  // E
			f.m.Set(lOff+i, bOff+i*k+j, -1) // −Eᵀ
			cx, sy := dir(j, k)
			f.q[bOff+i*k+j] = cx*vt[3*i+1] + sy*vt[3*i+2]
		}
		f.m.Set(lOff+i, i, c.Mu[i])
		f.q[i] = vt[3*i]
		if c.Bn != nil {
			f.q[i] += c.Bn[i]
		}
		f.q[lOff+i] = 0
	}
}

// extract maps the LCP solution to γ, v = v* + A⁻¹Jᵀγ and u = J v.
func (f *FrictionLCP) extract(c *Contact, res Result) {
	nc, k := f.nc, f.facet
	for i := range nc {
		g := f.sol.Gamma[3*i : 3*i+3]
		g[0], g[1], g[2] = res.Z[i], 0, 0
		for j := range k {
			cx, sy := dir(j, k)
			b := res.Z[nc+i*k+j]
			g[1] += b * cx
			g[2] += b * sy
		}
		f.sol.Slip[i] = res.Z[nc+nc*k+i]
	}
	copy(f.sol.V, c.VStar)
	for l := range f.nv {
		s := 0.0
		for r, g := range f.sol.Gamma {
			s += f.ainvJt.At(l, r) * g
		}
		f.sol.V[l] += s
	}
	for r := range 3 * nc {
		s := 0.0
		for l, v := range f.sol.V {
			s += c.J.At(r, l) * v
		}
		f.sol.U[r] = s
	}
}
