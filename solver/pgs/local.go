package pgs

import (
	"math"

	"github.com/stiction-sim/stiction/solver"
	"gonum.org/v1/gonum/blas"
	gonumlapack "gonum.org/v1/gonum/lapack/gonum"
)

// local is the scratch memory of one block's solve. For block i with
// Delassus block W = W_ii and a = J_i v − Wγ_i (the other blocks' share of
// its velocity), the block's impulse solves the fixed point
//
//	r(γ) = γ − γ_i(a + Wγ) = 0,
//
// the optimality condition of the block's dual subproblem, whose cost is,
// up to a constant, F(γ) = ½γᵀWγ + ℓ_i(a + Wγ) with gradient W r(γ) and
// generalized Hessian W + W G W (G = ∂²ℓ_i, Problem.Eval). Newton's
// direction solves (I + G W) d = −r, which is W⁻¹ times the Newton system
// of F when W is invertible; an Armijo backtracking search on F keeps each
// step a descent (with −r instead when d is not a descent direction, which
// happens only for singular W). ℓ_i is C¹, so this semismooth Newton
// method converges, quadratically near the solution. The block's new
// impulse is γ_i(a + Wγ) at the last iterate, so it lies in the block's
// impulse set.
type local struct {
	x, a, old, gam, gx, r, d, t, wr []float64
	g, m                            []float64 // G and I + G W, k×k
	piv                             []int     // LU pivots of m
}

// resize sizes the scratch for blocks of up to k rows.
func (l *local) resize(k int) {
	for _, s := range []*[]float64{&l.x, &l.a, &l.old, &l.gam, &l.gx, &l.r, &l.d, &l.t, &l.wr} {
		*s = solver.Resize(*s, k)
	}
	l.g, l.m = solver.Resize(l.g, k*k), solver.Resize(l.m, k*k)
	if cap(l.piv) < k {
		l.piv = make([]int, k)
	}
	l.piv = l.piv[:k]
}

// Armijo's constant, the line search's limits, and the relative residual
// ‖γ − γ_i(a + Wγ)‖ at which a block's solve stops (the sweeps that follow
// solve it further: the fixed point is the same).
const (
	localTol      = 1e-12
	armijoC       = 1e-4
	maxBacktracks = 40
)

// solve runs at most iters Newton steps from γ (overwritten with the
// result) for block i with Delassus block w and offset a.
func (l *local) solve(p *solver.Problem, i int, w, a, gamma []float64, iters int) {
	k := len(gamma)
	gam, gx, r, d := l.gam[:k], l.gx[:k], l.r[:k], l.d[:k]
	copy(gam, gamma)
	f := l.eval(p, i, w, a, gam, gx, true)
	for range iters {
		for j := range k {
			r[j] = gam[j] - gx[j]
		}
		if norm2(r) <= localTol*(norm2(gam)+norm2(gx)) {
			break
		}
		slope := l.direction(w, r, d)
		if !(slope < 0) {
			break // W r = 0: γ_i(a + Wγ) is the fixed point (below)
		}
		fNew, ok := l.search(p, i, w, a, gam, d, f, slope)
		if !ok {
			break
		}
		f = fNew
	}
	copy(gamma, gx) // γ_i(a + Wγ) at the last iterate (eval and search keep gx current)
}

// direction sets d to the Newton direction, or −r when that is not a
// descent direction of F, and returns the slope ∇Fᵀd = (W r)ᵀd.
func (l *local) direction(w, r, d []float64) float64 {
	k := len(r)
	wr := l.wr[:k]
	for j := range k {
		wr[j] = dot(w[j*k:(j+1)*k], r)
	}
	m, g := l.m[:k*k], l.g[:k*k]
	for row := range k { // M = I + G W
		for col := range k {
			s := 0.0
			for j := range k {
				s += g[row*k+j] * w[j*k+col]
			}
			m[row*k+col] = s
		}
		m[row*k+row]++
	}
	for j := range k {
		d[j] = -r[j]
	}
	if !solveDense(m, d, l.piv[:k], k) {
		for j := range k {
			d[j] = -r[j]
		}
	}
	if slope := dot(wr, d); slope < 0 {
		return slope
	}
	for j := range k {
		d[j] = -r[j]
	}
	return dot(wr, d)
}

// search backtracks from the full step until Armijo's condition holds on
// F; it updates γ, G and γ_i(a + Wγ) and returns the new F.
func (l *local) search(p *solver.Problem, i int, w, a, gam, d []float64, f, slope float64) (float64, bool) {
	k := len(gam)
	t, trial, gx := 1.0, l.t[:k], l.gx[:k]
	r0 := residual(gam, gx)
	for range maxBacktracks {
		for j := range k {
			trial[j] = gam[j] + t*d[j]
		}
		ft := l.eval(p, i, w, a, trial, gx, true)
		// Armijo on F; near the solution F's changes fall below its
		// round-off, and a full step that halves ‖r‖ is taken instead.
		if ft <= f+armijoC*t*slope || (t == 1 && residual(trial, gx) <= 0.5*r0) {
			copy(gam, trial)
			return ft, true
		}
		t *= 0.5
	}
	l.eval(p, i, w, a, gam, gx, true) // restore γ_i and G at γ
	return f, false
}

// eval sets x = a + Wγ, out = γ_i(x) (and G when hess) and returns
// F(γ) = ½γᵀWγ + ℓ_i(x).
func (l *local) eval(p *solver.Problem, i int, w, a, gam, out []float64, hess bool) float64 {
	k := len(gam)
	x := l.x[:k]
	quad := 0.0
	for j := range k {
		wg := dot(w[j*k:(j+1)*k], gam)
		x[j] = a[j] + wg
		quad += 0.5 * gam[j] * wg
	}
	var g []float64
	if hess {
		g = l.g[:k*k]
	}
	return quad + p.Eval(i, x, out, g)
}

// solveDense solves the k×k system m y = b in place (b becomes y) by LU
// with partial pivoting (gonum's unblocked Dgetf2 and Dgetrs, which do not
// allocate); m is overwritten and piv holds k pivots. It reports false for
// a singular m.
func solveDense(m, b []float64, piv []int, k int) bool {
	if !lapackImpl.Dgetf2(k, k, m, k, piv) {
		return false
	}
	lapackImpl.Dgetrs(blas.NoTrans, k, 1, m, k, piv, b, 1)
	return true
}

// lapackImpl is gonum's pure-Go LAPACK.
var lapackImpl gonumlapack.Implementation

func norm2(x []float64) float64 { return math.Sqrt(dot(x, x)) }

// residual returns ‖γ − γ_i‖.
func residual(gam, gx []float64) float64 {
	s := 0.0
	for j, g := range gam {
		d := g - gx[j]
		s += d * d
	}
	return math.Sqrt(s)
}

// projectFeasible projects the impulse g of block i (Euclidean norm) onto
// the set of impulses its kind can take: the friction cone (ContactCone,
// ContactSimilar), the disk of radius μ n0 times the half-line γn ≥ 0
// (ContactLagged), the interval (Interval), the disk (Disk); Bilateral
// impulses are free. Over-relaxation (ω > 1) can leave the set.
func projectFeasible(p *solver.Problem, i int, g []float64) {
	c := p.Constraints[i]
	par := p.Par(i)
	switch c.Kind {
	case solver.ContactCone, solver.ContactSimilar:
		y, _ := solver.Project([3]float64{g[0], g[1], g[2]}, par[0], 1, 1)
		copy(g, y[:])
	case solver.ContactLagged:
		clipDisk(g[:2], par[0]*par[1])
		g[2] = max(g[2], 0)
	case solver.Interval:
		g[0] = min(max(g[0], par[0]), par[1])
	case solver.Disk:
		clipDisk(g, par[0])
	}
}

// clipDisk scales g (2 entries) onto the disk of radius rho if outside.
func clipDisk(g []float64, rho float64) {
	if n := math.Hypot(g[0], g[1]); n > rho {
		s := rho / n
		g[0], g[1] = s*g[0], s*g[1]
	}
}
