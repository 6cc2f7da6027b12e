package sap

import (
	"math"

	"github.com/stiction-sim/stiction/internal/fmath"

	"github.com/stiction-sim/stiction/solver"
)

// line is ℓ(α) = ℓp(v_m + αΔv) along one Newton direction, evaluated in
// O(n) with the quantities of SAP §IV-C precomputed once per direction.
type line struct {
	p   *solver.Problem
	it  *iterate  // v_m
	dvc []float64 // Δv_c = J Δv
	f0  float64   // dℓ/dα(0) = Δvᵀ∇ℓp(v_m)
	b   float64   // Δpᵀ(v_m − v*) = Δvᵀ A(v_m − v*)
	c2  float64   // ΔvᵀΔp = Δvᵀ A Δv

	// scratch for one constraint at α: v_c, γ and G
	vc, gamma, g []float64

	// lag holds the numbers of the ContactLagged blocks that derivs reads,
	// packed in constraint order on its first call (packLagged); packed
	// says whether it has been. Its storage is kept across lines (search).
	lag    []float64
	packed bool
	// lagSolve says whether lag holds the numbers that stay the same
	// through a solve (all but v_c, Δv_c and γ(0)) and allLagged is set:
	// kept across a solve's lines with lag, cleared when a solve or
	// re-solve starts (resetLag).
	lagSolve bool
	// allLagged: every constraint is ContactLagged (derivs runs over lag alone).
	allLagged bool
}

// carry returns a line without a direction that keeps l's packed
// ContactLagged storage and, within a solve, its solve-constant numbers.
func (l *line) carry() line {
	return line{lag: l.lag, lagSolve: l.lagSolve, allLagged: l.allLagged}
}

// resetLag marks l's solve-constant numbers as stale: the next line packs
// all of a block's numbers again (a new solve, or a re-solve whose n0
// changed).
func (l *line) resetLag() { l.lagSolve = false }

// lsResult is the outcome of a line search.
type lsResult struct {
	alpha     float64 // accepted step; 0 means no acceptable step was found
	iters     int     // evaluations of ℓ or dℓ/dα
	dAlpha    float64 // dℓ/dα at alpha (exact search only)
	collapsed bool    // exact search stopped on bracket width
	nonFinite bool    // a non-finite derivative or cost was met
}

// at evaluates constraint i at v_c,i(α) = v_c,i + αΔv_c,i into the
// scratch γ (and G when withG) and returns its cost and row range.
func (l *line) at(i int, alpha float64, withG bool) (cost float64, lo, hi int) {
	c := l.p.Constraints[i]
	lo, hi = c.Row, c.Row+c.Size
	vc, gamma := l.vc[:c.Size], l.gamma[:c.Size]
	for k := range c.Size {
		vc[k] = l.it.vc[lo+k] + alpha*l.dvc[lo+k]
	}
	var g []float64
	if withG {
		g = l.g[:c.Size*c.Size]
	}
	return l.p.Eval(i, vc, gamma, g), lo, hi
}

// costDiff returns ℓ(α) − ℓ(0). The quadratic part is expanded,
//
//	½‖v(α) − v*‖²_A − ½‖v_m − v*‖²_A = α Δpᵀ(v_m − v*) + ½α² ΔvᵀΔp,
//
// and the constraint part is differenced constraint by constraint; for
// contact cones (ContactCone, ContactEllipticN) as ½(γ(α) − γ(0))ᵀR(γ(α) + γ(0)), so that the difference
// is not formed by subtracting two costs.
//
// A ContactLagged block's ℓ_i(α) is formed from its packed numbers
// (packLagged, laggedCost), as derivs forms its γ and G: the numbers Eval
// reads, without its slices and dispatch.
func (l *line) costDiff(alpha float64) float64 {
	if !l.packed {
		l.packLagged()
	}
	p := l.p
	dC := 0.0
	k := 0 // the next ContactLagged block in lag
	for i, c := range p.Constraints {
		if c.Kind == solver.ContactLagged {
			dC += laggedCost(l.lag[k:k+lagStride], alpha) - l.it.ci[i]
			k += lagStride
			continue
		}
		cost, lo, hi := l.at(i, alpha, false)
		if c.Kind == solver.ContactCone || c.Kind == solver.ContactEllipticN {
			dC += solver.ConeCostDiffN(p.R[lo:hi], l.gamma[:hi-lo], l.it.gamma[lo:hi])
		} else {
			dC += cost - l.it.ci[i]
		}
	}
	return alpha*l.b + 0.5*alpha*alpha*l.c2 + dC
}

// derivs returns dℓ/dα and d²ℓ/dα² at α (SAP §IV-C):
//
//	dℓ/dα   = Δpᵀ(v(α) − v*) − Δv_cᵀγ(α) = f0 + α ΔvᵀΔp − Δv_cᵀ(γ(α) − γ(0)),
//	d²ℓ/dα² = ΔvᵀΔp + Δv_cᵀ G(α) Δv_c.
//
// The first form of dℓ/dα is the paper's; the second, evaluated here, is
// the same quantity rearranged with f0 = Δvᵀ∇ℓp(v_m) =
// Δpᵀ(v_m − v*) − Δv_cᵀγ(0), so that the large, nearly cancelling terms
// Δpᵀ(v_m − v*) and Δv_cᵀγ(0) are never formed and dℓ/dα stays accurate
// relative to dℓ/dα(0) close to the optimum.
func (l *line) derivs(alpha float64) (d1, d2 float64) {
	if !l.packed {
		l.packLagged()
	}
	s1, s2 := 0.0, 0.0
	if l.allLagged { // one call for all the blocks
		s1, s2 = laggedTerms(l.lag, alpha, s1, s2)
		return l.f0 + alpha*l.c2 - s1, l.c2 + s2
	}
	p := l.p
	k := 0 // the next ContactLagged block in lag
	for i, c := range p.Constraints {
		if c.Kind == solver.Interval { // one row (limits, pyramid edges): the sums below for k = 1, inline
			j := c.Row
			dv := l.dvc[j]
			_, gm, gg := solver.IntervalEval(p.Params[c.Par], p.Params[c.Par+1], p.R[j], p.VHat[j], l.it.vc[j]+alpha*dv)
			s1 += dv * (gm - l.it.gamma[j])
			t := 0.0
			t += gg * dv
			s2 += dv * t
			continue
		}
		if c.Kind == solver.ContactLagged {
			s1, s2 = laggedTerms(l.lag[k:k+lagStride], alpha, s1, s2)
			k += lagStride
			continue
		}
		_, lo, hi := l.at(i, alpha, true)
		k := hi - lo
		dv := l.dvc[lo:hi]
		for r := range k {
			s1 += dv[r] * (l.gamma[r] - l.it.gamma[lo+r])
			gr := l.g[r*k : (r+1)*k]
			t := 0.0
			for c, x := range gr {
				t += x * dv[c]
			}
			s2 += dv[r] * t
		}
	}
	return l.f0 + alpha*l.c2 - s1, l.c2 + s2
}

// lagStride is the count of numbers packLagged keeps per ContactLagged
// block: v_c (3), Δv_c (3), γ(0) (3), v̂ (3), R_t, R_n, μ, n0, v_s, the
// stick parameter and μ n0, at offsets 0, 3, 6, 9, 12, 13, …, 18.
const lagStride = 19

// packLagged packs, for each ContactLagged block in constraint order, the
// numbers of laggedTerms into l.lag (they do not change along the line:
// v_c and γ at v_m, Δv_c and the problem's data) and sets l.allLagged. A
// line search evaluates each block some four times (clutter-40: 1.98 M
// evaluations in 0.47 M line searches of a block), each of which sliced
// six arrays with their bounds checks; packed, an evaluation reads one
// slice. (clutter-40's first 300 steps: 81 238 evaluations in 19 181 line
// searches, 1.98 M evaluations of a Lagged block.) Ten of a block's
// numbers (v̂, R_t, R_n, μ, n0, v_s, the stick parameter, μ n0) are the
// problem's and stay the same through a solve: the solve's first line packs
// all nineteen (packLaggedSolve), the later lines rewrite v_c, Δv_c and
// γ(0) only.
func (l *line) packLagged() {
	l.packed = true
	if !l.lagSolve {
		l.packLaggedSolve()
		return
	}
	p := l.p
	lag := l.lag
	for _, c := range p.Constraints {
		if c.Kind != solver.ContactLagged {
			continue
		}
		j := c.Row
		d, vc, g0 := l.dvc[j:j+3], l.it.vc[j:j+3], l.it.gamma[j:j+3]
		b := lag[:lagStride]
		b[0], b[1], b[2], b[3], b[4], b[5], b[6], b[7], b[8] = vc[0], vc[1], vc[2], d[0], d[1], d[2], g0[0], g0[1], g0[2]
		lag = lag[lagStride:]
	}
}

// packLaggedSolve packs all lagStride numbers of each ContactLagged block
// into l.lag (its size set) and sets l.allLagged and l.lagSolve.
func (l *line) packLaggedSolve() {
	p := l.p
	l.lag = l.lag[:0]
	l.allLagged = true
	for _, c := range p.Constraints {
		if c.Kind != solver.ContactLagged {
			l.allLagged = false
			continue
		}
		j := c.Row
		par := p.Params[c.Par : c.Par+5] // μ, n0, v_s, scale, stick (solver.ContactLagged)
		vh, r := p.VHat[j:j+3], p.R[j:j+3]
		d, vc, g0 := l.dvc[j:j+3], l.it.vc[j:j+3], l.it.gamma[j:j+3]
		l.lag = append(l.lag, vc[0], vc[1], vc[2], d[0], d[1], d[2], g0[0], g0[1], g0[2],
			vh[0], vh[1], vh[2], r[0], r[2], par[0], par[1], par[2], par[4], par[0]*par[1])
	}
	l.lagSolve = true
}

// laggedTerms adds the terms of derivs' sums s1 and s2 at α of one or
// more ContactLagged blocks, in order, and returns them; lag holds the
// blocks' numbers as packLagged packs them, lagStride a block (all of a
// line's blocks in one call when every constraint is Lagged, not a call
// per block). It is, block by block, derivs' general loop over a 3×3 G,
// the same bits, without the products with G's entries that are zero
// (G_tn = G_nt = 0). Leaving
// out a product ±0 changes at most the sign of a zero partial sum t, and
// s2 (which starts at +0 and so is never −0) then gets s2 + d·t = s2
// either way. γ and G are Problem.LaggedEval's (its friction,
// DiskEval or LaggedSlip, and its normal row) on the same numbers (μ n0
// formed once per line, the same product), written out here without a
// call: Go keeps no float in a register across a call, so each call of the
// chain spilled and reloaded the block's numbers (the fifty-eighth pass of
// BENCHMARKS.md; the last call, to DiskEval or LaggedSlip, cost about a
// third of an evaluation on clutter-40). ℓ(α) is not needed and its
// friction part is dropped.
func laggedTerms(lag []float64, alpha, s1, s2 float64) (float64, float64) {
	for ; len(lag) >= lagStride; lag = lag[lagStride:] {
		b := lag[:lagStride]
		d0, d1, d2 := b[3], b[4], b[5]
		v0, v1, v2 := b[0]+alpha*d0, b[1]+alpha*d1, b[2]+alpha*d2
		var gm0, gm1, g00, g01, g11 float64
		if b[17] != 0 { // anchored: the disk of radius μ n0
			// solver.DiskEval's γ and G (withG; the cost is not needed)
			// written out, the same expressions in the same order.
			rho, r := b[18], b[12]
			y0, y1 := -(v0-b[9])/r, -(v1-b[10])/r
			ny := fmath.Hypot(y0, y1)
			if ny <= rho {
				gm0, gm1, g00, g11 = y0, y1, 1/r, 1/r
			} else {
				sc := rho / ny
				h0, h1 := y0/ny, y1/ny
				c := sc / r
				gm0, gm1 = sc*y0, sc*y1
				g00, g01, g11 = c*(1-h0*h0), -c*h0*h1, c*(1-h1*h1)
			}
		} else {
			// solver.LaggedSlip's γ and G (withG) written out likewise, μ n0
			// the packed product: eps = max(v_s, μ R_t n0), s = √(u² + eps²).
			mu, n0, r := b[14], b[15], b[12]
			eps := max(b[16], mu*r*n0)
			u0, u1 := v0-b[9], v1-b[10]
			sn := math.Sqrt(u0*u0 + u1*u1 + eps*eps)
			t0, t1 := u0/sn, u1/sn
			f := b[18]
			c := f / sn
			gm0, gm1 = -f*t0, -f*t1
			g00, g01, g11 = c*(1-t0*t0), -c*t0*t1, c*(1-t1*t1)
		}
		gm2, gnn := 0.0, 0.0
		if x := b[11] - v2; x >= 0 {
			gm2, gnn = x/b[13], 1/b[13]
		}
		s1 += d0 * (gm0 - b[6])
		s1 += d1 * (gm1 - b[7])
		s1 += d2 * (gm2 - b[8])
		s2 += d0 * (g00*d0 + g01*d1)
		s2 += d1 * (g01*d0 + g11*d1)
		s2 += d2 * (gnn * d2)
	}
	return s1, s2
}

// laggedCost returns a ContactLagged block's ℓ_i at α from its numbers as
// packLagged packs them: what Problem.Eval returns for it at v_c(α) =
// v_c + αΔv_c without G (LaggedEval's: DiskEval of radius μ n0 when
// anchored, else LaggedSlip, plus ½x²/R_n for x = v̂_n − v_n ≥ 0), on the
// same numbers in the same order, so the same bits (TestPeers8CostDiff).
func laggedCost(b []float64, alpha float64) float64 {
	b = b[:lagStride]
	v0, v1, v2 := b[0]+alpha*b[3], b[1]+alpha*b[4], b[2]+alpha*b[5]
	var cost float64
	if b[17] != 0 { // anchored: the disk of radius μ n0
		cost, _, _, _, _, _ = solver.DiskEval(b[18], b[12], b[9], b[10], v0, v1, false)
	} else {
		cost, _, _, _, _, _ = solver.LaggedSlip(b[14], b[15], b[16], b[12], b[9], b[10], v0, v1, false)
	}
	if x := b[11] - v2; x >= 0 {
		cost += 0.5 * x * x / b[13]
	}
	return cost
}

// exact is the exact line search of SAP §IV-B: safeguarded Newton–bisection
// (rtsafe, Numerical Recipes §9.4) for the root of dℓ/dα, which is
// increasing since ℓ(α) is strongly convex. The first evaluation is at the
// Newton step α = 1 (or AlphaMax if smaller): if dℓ/dα(1) > 0 the root is
// bracketed by [0, 1] ⊂ [0, AlphaMax]; otherwise the bracket is [1, AlphaMax]
// and its right end doubles while dℓ/dα < 0 there. It stops when
// |dℓ/dα| ≤ LineSearchTolerance·|dℓ/dα(0)| or when the bracket reaches
// machine precision. Requires f0 < 0.
func (l *line) exact(prm *Params) lsResult {
	var res lsResult
	tol := prm.LineSearchTolerance * math.Abs(l.f0)
	eval := func(a float64) (float64, float64) {
		res.iters++
		return l.derivs(a)
	}
	done := func(a, f float64, collapsed bool) lsResult {
		res.alpha, res.dAlpha, res.collapsed = a, f, collapsed
		return res
	}
	lo, flo := 0.0, l.f0
	hi := min(1, prm.AlphaMax)
	fhi, dfhi := eval(hi)
	if math.Abs(fhi) <= tol {
		return done(hi, fhi, false)
	}
	// Grow the bracket while ℓ still decreases at its right end.
	for isFinite(fhi) && fhi < 0 {
		if res.iters >= prm.MaxLineSearchIterations {
			return done(hi, fhi, false)
		}
		lo, flo = hi, fhi
		if hi < prm.AlphaMax {
			hi = prm.AlphaMax
		} else {
			hi *= 2
		}
		fhi, dfhi = eval(hi)
		if math.Abs(fhi) <= tol {
			return done(hi, fhi, false)
		}
	}
	if !isFinite(fhi) || !isFinite(dfhi) {
		res.nonFinite = true
		return done(0, l.f0, false)
	}
	// rtsafe on [lo, hi], f(lo) < 0 < f(hi), from x = hi.
	x, fx, dfx := hi, fhi, dfhi
	dx, dxold := hi-lo, hi-lo
	for res.iters < prm.MaxLineSearchIterations {
		if hi-lo <= 4*eps*hi {
			break
		}
		newton := dfx > 0 && ((x-hi)*dfx-fx)*((x-lo)*dfx-fx) < 0 && math.Abs(2*fx) <= math.Abs(dxold*dfx)
		dxold = dx
		if newton {
			dx = fx / dfx
			prev := x
			x -= dx
			if x == prev {
				return done(x, fx, true)
			}
		} else {
			dx = 0.5 * (hi - lo)
			x = lo + dx
		}
		fx, dfx = eval(x)
		if !isFinite(fx) || !isFinite(dfx) {
			res.nonFinite = true
			return done(0, l.f0, false)
		}
		if math.Abs(fx) <= tol {
			return done(x, fx, false)
		}
		if fx < 0 {
			lo, flo = x, fx
		} else {
			hi, fhi = x, fx
		}
	}
	// Bracket at machine precision or out of iterations: keep the better end.
	if math.Abs(flo) < math.Abs(fhi) {
		return done(lo, flo, true)
	}
	return done(hi, fhi, true)
}

// eps is the machine epsilon of float64.
const eps = 0x1p-52

// roundoffDecrease is the multiple of eps·ℓ below which the backtracking
// search considers the expected cost decrease to be round-off.
const roundoffDecrease = 50

// backtracking is the backtracking line search of SAP §IV-B: α starts at
// AlphaMax and is multiplied by Rho until Armijo's condition
// ℓ(α) < ℓ(0) + c α dℓ/dα(0) holds; once it holds, backtracking continues
// while the cost keeps decreasing and stops at the last α before it
// increases (as Drake's SAP does), so that with AlphaMax > 1 a full Newton
// step is not overshot. It returns α = 0 if Armijo's condition never holds.
// When |dℓ/dα(0)| is below the round-off of ℓ it returns the Newton step
// α = 1 without evaluating ℓ (as Drake's SAP does).
func (l *line) backtracking(prm *Params) lsResult {
	var res lsResult
	if -l.f0 <= roundoffDecrease*eps*math.Abs(l.it.cost) {
		// The expected decrease, about −½dℓ/dα(0), is below the round-off
		// of ℓ: cost comparisons cannot tell steps apart, and v_m is within
		// round-off of the optimum, where the Newton step is the right one.
		res.alpha = 1
		return res
	}
	armijo := func(a, d float64) bool { return d < prm.ArmijoC*a*l.f0 }
	a := prm.AlphaMax
	d := l.costDiff(a)
	res.iters = 1
	if !isFinite(d) {
		res.nonFinite = true
		return res
	}
	ok := armijo(a, d)
	for res.iters < prm.MaxLineSearchIterations {
		a2 := prm.Rho * a
		d2 := l.costDiff(a2)
		res.iters++
		if !isFinite(d2) {
			res.nonFinite = true
			return res
		}
		if ok && !(d2 < d) {
			break
		}
		a, d, ok = a2, d2, armijo(a2, d2)
	}
	if ok {
		res.alpha = a
	}
	return res
}
