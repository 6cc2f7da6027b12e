package socp

import (
	"math"

	"gonum.org/v1/gonum/blas"
	"gonum.org/v1/gonum/blas/blas64"
	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/lapack/lapack64"
)

// Polishing. Near the solution the interior-point method's accuracy is
// bounded on second-order cones where s and z both end on the boundary
// (in contact problems: sliding contacts): the KKT system's accuracy falls
// like ε/μ while the gap falls like μ, so both meet near √ε ≈ 1e-8, and the
// solution's error along the curved boundary is of the order of √gap. The
// polisher then reads from the interior-point solution which face of K
// each cone's s and z lie on and solves the KKT conditions restricted to
// those faces by Newton's method, which converges quadratically from there
// (a solution of these equations with s ∈ K and z ∈ K* satisfies every KKT
// condition, so it is a solution whatever faces were guessed):
//
//   - s on a face with z = 0 ("inactive": orthant rows with s > z, cones
//     whose z is negligible): nothing to solve, z = 0;
//   - s = 0 ("active": zero-cone rows, orthant rows with z ≥ s, cones whose
//     s is negligible): A_r x = b_r, with z_r a free unknown;
//   - both on the boundary of Q^k: s = b − A x with sᵀJs = 0 and
//     z = β J s, β ≥ 0 an unknown (then sᵀz = β sᵀJs = 0).
//
// The unknowns (x, the free z_r and the β) and the equations
// (Px + q + Aᵀz = 0 and the face conditions) are as many. The result is
// kept when Newton's method converged (residual ≤ 1e-12 of the size of the
// terms) and s ∈ K, z ∈ K* hold.
type polisher struct {
	n, m     int
	x, s, z  []float64 // the polished point
	mult     []int     // row → index of its unknown (−1: none); β: first row of the cone
	mode     []int8    // per second-order cone: 0 inactive, 1 active, 2 boundary
	u, du, f []float64 // unknowns, Newton step, equations
	bestU    []float64
	js       []float64 // J s per boundary cone (rows as the cone's)
	jac      []float64 // the Jacobian (its LU lives in the KKT storage)
	r, c     []float64 // refinement residual and correction
	maxIter  int
}

const (
	modeInactive = 0
	modeActive   = 1
	modeBoundary = 2
)

func newPolisher(n, m int) *polisher {
	pl := &polisher{}
	pl.reset(n, m)
	return pl
}

// reset sizes pl for n unknowns and m cone rows, reusing its buffers'
// capacity (zeroed).
func (pl *polisher) reset(n, m int) {
	pl.n, pl.m, pl.maxIter = n, m, 10
	pl.x, pl.s, pl.z = grow(pl.x, n), grow(pl.s, m), grow(pl.z, m)
	pl.mult = grow(pl.mult, m)
	pl.u, pl.du, pl.f = grow(pl.u, n+m), grow(pl.du, n+m), grow(pl.f, n+m)
	pl.bestU, pl.js = grow(pl.bestU, n+m), grow(pl.js, m)
	pl.jac, pl.r, pl.c = grow(pl.jac, (n+m)*(n+m)), grow(pl.r, n+m), grow(pl.c, n+m)
}

// run polishes the solution (x0, z0) of sv's problem (s0 = sv's result S)
// and reports the Newton iterations and whether the polished point lies
// in K × K*.
func (pl *polisher) run(sv *Solver, x0, z0 []float64) (int, bool) {
	nu := pl.classify(sv, sv.result.S, z0)
	k1, ok := pl.newton(sv, nu, x0, z0, true)
	if ok {
		return k1, true
	}
	k2, ok := pl.newton(sv, nu, x0, z0, false)
	return k1 + k2, ok
}

// newton runs Newton's method from (x0, z0) and reports the iterations and
// whether it converged to a point of K × K*.
func (pl *polisher) newton(sv *Solver, nu int, x0, z0 []float64, regularize bool) (int, bool) {
	copy(pl.u, x0)
	pl.initMultipliers(sv, sv.result.S, z0)
	best, prev, k := math.Inf(1), math.Inf(1), 0
	for ; k <= pl.maxIter; k++ {
		fn := pl.equations(sv, nu)
		if fn < best {
			best = fn
			copy(pl.bestU[:nu], pl.u[:nu])
		}
		// Newton converges quadratically until round-off; stop when the
		// residual no longer halves.
		if fn == 0 || fn > prev/2 || k == pl.maxIter {
			break
		}
		prev = fn
		if !pl.newtonStep(sv, nu, regularize) {
			break
		}
	}
	copy(pl.u[:nu], pl.bestU[:nu])
	pl.equations(sv, nu)
	return k, best <= 1e-12*pl.termScale(sv) && pl.valid(sv)
}

// termScale returns the size of the terms of the KKT equations at the
// polished point: max(‖q‖∞, ‖b‖∞, ‖s‖∞, ‖z‖∞·max|A|) (not 1 + …: contact
// problems can be small in every unit).
func (pl *polisher) termScale(sv *Solver) float64 {
	amax := infNorm(sv.kkt.a)
	return max(sv.qnorm, sv.bnorm, infNorm(pl.s), infNorm(pl.z)*amax, math.SmallestNonzeroFloat64)
}

// classify sets the face of each row or cone and the unknowns' indices;
// it returns the number of unknowns.
func (pl *polisher) classify(sv *Solver, s, z []float64) int {
	c := sv.cones
	if cap(pl.mode) < len(c.SOC) {
		pl.mode = make([]int8, len(c.SOC))
	}
	pl.mode = pl.mode[:len(c.SOC)]
	idx := pl.n
	for i := range pl.mult {
		pl.mult[i] = -1
	}
	for i := range c.Zero {
		pl.mult[i], idx = idx, idx+1
	}
	for i := c.Zero; i < c.Zero+c.NonNeg; i++ {
		if z[i] >= s[i] {
			pl.mult[i], idx = idx, idx+1
		}
	}
	for b, k := range c.SOC {
		r := sv.sc.off[b]
		sb, zb := s[r:r+k], z[r:r+k]
		sl, zl := floats.Norm(sb[1:], 2), floats.Norm(zb[1:], 2)
		switch {
		case zb[0]+zl <= sb[0]-sl:
			pl.mode[b] = modeInactive
		case sb[0]+sl <= zb[0]-zl || k == 1:
			pl.mode[b] = modeActive
			for i := range k {
				pl.mult[r+i], idx = idx, idx+1
			}
		default:
			pl.mode[b] = modeBoundary
			pl.mult[r], idx = idx, idx+1
		}
	}
	return idx
}

// initMultipliers sets the multipliers' starting values from z0 (β by the
// least-squares fit of z ≈ β J s).
func (pl *polisher) initMultipliers(sv *Solver, s0, z0 []float64) {
	for i, j := range pl.mult {
		if j >= 0 {
			pl.u[j] = z0[i]
		}
	}
	for b, k := range sv.cones.SOC {
		if pl.mode[b] != modeBoundary {
			continue
		}
		r := sv.sc.off[b]
		sb, zb := s0[r:r+k], z0[r:r+k]
		num := sb[0]*zb[0] - floats.Dot(sb[1:], zb[1:])
		pl.u[pl.mult[r]] = max(num/floats.Dot(sb, sb), 0)
	}
}

// equations evaluates x, s = b − Ax, z and the equations from the
// unknowns and returns ‖F‖∞.
func (pl *polisher) equations(sv *Solver, nu int) float64 {
	n, a, p := pl.n, sv.kkt.a, sv.prob
	copy(pl.x, pl.u[:n])
	for i := range pl.m {
		pl.s[i] = p.B[i] - floats.Dot(a[i*n:(i+1)*n], pl.x)
		pl.z[i] = 0
		if j := pl.mult[i]; j >= 0 {
			pl.z[i] = pl.u[j]
		}
	}
	for b, k := range sv.cones.SOC {
		if pl.mode[b] != modeBoundary {
			continue
		}
		r := sv.sc.off[b]
		beta := pl.u[pl.mult[r]]
		pl.js[r] = pl.s[r]
		pl.z[r] = beta * pl.s[r]
		for i := 1; i < k; i++ {
			pl.js[r+i] = -pl.s[r+i]
			pl.z[r+i] = beta * pl.js[r+i]
		}
	}
	// F_x = Px + q + Aᵀz.
	f := pl.f[:nu]
	copy(f[:n], p.Q)
	if sv.kkt.p != nil {
		for i := range n {
			f[i] += floats.Dot(sv.kkt.p[i*n:(i+1)*n], pl.x)
		}
	}
	for i := range pl.m {
		floats.AddScaled(f[:n], pl.z[i], a[i*n:(i+1)*n])
	}
	// Face equations: −s_r = 0 for the rows with a free z, ½ sᵀJs = 0 for
	// the boundary cones.
	for i, j := range pl.mult {
		if j >= 0 {
			f[j] = -pl.s[i]
		}
	}
	for b, k := range sv.cones.SOC {
		if pl.mode[b] == modeBoundary {
			r := sv.sc.off[b]
			f[pl.mult[r]] = 0.5 * floats.Dot(pl.s[r:r+k], pl.js[r:r+k])
		}
	}
	// The norm weighs ½sᵀJs by 1/s₀, which makes it a velocity-like
	// (degree 1) residual like the others: s₀ − ‖s₁‖ to first order.
	// Newton's step does not depend on such row scaling.
	e := 0.0
	for j, v := range f {
		if b := pl.betaCone(sv, j); b >= 0 {
			v /= max(math.Abs(pl.s[sv.sc.off[b]]), math.SmallestNonzeroFloat64)
		}
		e = max(e, math.Abs(v))
	}
	return e
}

// betaCone returns the boundary cone whose β is unknown j, or −1.
func (pl *polisher) betaCone(sv *Solver, j int) int {
	if j < pl.n {
		return -1
	}
	for b := range sv.cones.SOC {
		if pl.mode[b] == modeBoundary && pl.mult[sv.sc.off[b]] == j {
			return b
		}
	}
	return -1
}

// newtonStep forms the Jacobian of the equations, solves J Δu = −F by LU
// (in the KKT factorization's storage, free once the iteration is over)
// and updates u. It returns false if J is singular.
func (pl *polisher) newtonStep(sv *Solver, nu int, regularize bool) bool {
	jac := blas64.General{Rows: nu, Cols: nu, Stride: nu, Data: sv.kkt.k.Data[:nu*nu]}
	pl.jacobian(sv, nu, jac.Data)
	return pl.solve(jac, nu, sv.kkt.ipiv[:nu], regularize)
}

// jacobian writes the Jacobian of the equations (nu×nu, row-major) into d.
func (pl *polisher) jacobian(sv *Solver, nu int, d []float64) {
	n, a := pl.n, sv.kkt.a
	clear(d)
	if sv.kkt.p != nil {
		for i := range n {
			copy(d[i*nu:i*nu+n], sv.kkt.p[i*n:(i+1)*n])
		}
	}
	for i, j := range pl.mult {
		if j < 0 {
			continue
		}
		row := a[i*n : (i+1)*n]
		isBeta := false
		for b := range sv.cones.SOC {
			if pl.mode[b] == modeBoundary && sv.sc.off[b] == i {
				isBeta = true
			}
		}
		if isBeta {
			continue
		}
		for c, v := range row { // ∂F_x/∂z_r = A_rᵀ, ∂(−s_r)/∂x = A_r
			d[c*nu+j] = v
			d[j*nu+c] = v
		}
	}
	for b, k := range sv.cones.SOC {
		if pl.mode[b] != modeBoundary {
			continue
		}
		pl.boundaryJacobian(sv, d, nu, sv.sc.off[b], k)
	}
}

// solve solves J Δu = −F and updates u. J may be singular but consistent
// (dependent active constraints: a degenerate vertex, where x is unique and
// z is not), so with regularize it factors J with −δI added on the
// multipliers' block and refines against J, which converges to a solution
// of the consistent system (iterated Tikhonov); without, it factors J
// itself. (When δ is not small against J's own Schur complement the first
// converges too slowly; run tries the second then.)
func (pl *polisher) solve(jac blas64.General, nu int, ipiv []int, regularize bool) bool {
	copy(pl.jac[:nu*nu], jac.Data)
	if regularize {
		delta := 1e-10 * (1 + floats.Norm(pl.jac[:nu*nu], math.Inf(1)))
		for j := pl.n; j < nu; j++ {
			jac.Data[j*nu+j] -= delta
		}
	}
	return luFactor(jac, ipiv) && pl.refine(jac, nu, ipiv)
}

// refine solves J Δu = −F with the factors of jac (J or its regularization)
// by iterative refinement against J (kept in pl.jac), adds Δu to u and
// reports whether Δu is finite.
func (pl *polisher) refine(jac blas64.General, nu int, ipiv []int) bool {
	du, rhs := pl.du[:nu], pl.c[:nu]
	floats.ScaleTo(rhs, -1, pl.f[:nu])
	clear(du)
	g := blas64.General{Rows: nu, Cols: nu, Stride: nu, Data: pl.jac[:nu*nu]}
	scale := 1e-14 * (1 + infNorm(rhs))
	prev, e := math.Inf(1), math.Inf(1)
	for range 30 {
		// r = −F − J Δu; Δu += jac⁻¹ r.
		copy(pl.r[:nu], rhs)
		blas64.Gemv(blas.NoTrans, -1, g, blas64.Vector{N: nu, Inc: 1, Data: du}, 1, blas64.Vector{N: nu, Inc: 1, Data: pl.r[:nu]})
		if e = infNorm(pl.r[:nu]); e <= scale || e >= prev || math.IsNaN(e) {
			break
		}
		prev = e
		lapack64.Getrs(blas.NoTrans, jac, blas64.General{Rows: nu, Cols: 1, Stride: 1, Data: pl.r[:nu]}, ipiv)
		floats.Add(du, pl.r[:nu])
	}
	if n := infNorm(du); math.IsNaN(n) || math.IsInf(n, 0) {
		return false
	}
	floats.Add(pl.u[:nu], du)
	return true
}

// boundaryJacobian adds the terms of a boundary cone at rows r…r+k−1:
// ∂F_x/∂x −= β A_bᵀ J A_b, ∂F_x/∂β = A_bᵀ J s, ∂(½sᵀJs)/∂x = −(J s)ᵀ A_b.
func (pl *polisher) boundaryJacobian(sv *Solver, d []float64, nu, r, k int) {
	n, a := pl.n, sv.kkt.a
	j := pl.mult[r]
	beta := pl.u[j]
	clear(pl.du[:n])
	for i := range k {
		sign := -1.0
		if i == 0 {
			sign = 1
		}
		ai := a[(r+i)*n : (r+i+1)*n]
		for c := range n {
			if ai[c] == 0 {
				continue
			}
			floats.AddScaled(d[c*nu:c*nu+n], -beta*sign*ai[c], ai)
		}
		floats.AddScaled(pl.du[:n], pl.js[r+i], ai) // du as scratch: A_bᵀ J s
	}
	for c := range n {
		d[c*nu+j] = pl.du[c]
		d[j*nu+c] = -pl.du[c]
		pl.du[c] = 0
	}
}

// valid reports whether s ∈ K and z ∈ K* up to round-off.
func (pl *polisher) valid(sv *Solver) bool {
	c := sv.cones
	tol := 1e-12 * (1 + max(infNorm(pl.s), infNorm(pl.z)))
	for i := range c.Zero {
		pl.s[i] = 0
	}
	for i := c.Zero; i < pl.m; i++ {
		if pl.mult[i] >= 0 && !pl.isBeta(sv, i) {
			pl.s[i] = 0 // active rows: s = 0 exactly (A_r x = b_r to round-off)
		}
	}
	return c.minEig(pl.s) >= -tol && c.minEig(pl.z) >= -tol
}

// isBeta reports whether row i holds the β of a boundary cone.
func (pl *polisher) isBeta(sv *Solver, i int) bool {
	for b := range sv.cones.SOC {
		if pl.mode[b] == modeBoundary && sv.sc.off[b] == i {
			return true
		}
	}
	return false
}
