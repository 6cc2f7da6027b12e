package socp

import (
	"fmt"
	"math"
	"slices"

	"gonum.org/v1/gonum/floats"
)

// Solver is a primal-dual interior-point method for Problem on the
// homogeneous embedding of Clarabel (Goulart and Chen 2024), with
// Nesterov–Todd scaling and Mehrotra's predictor–corrector. Its workspace
// is sized on the first Solve and reused: a later Solve of a problem of the
// same sizes allocates nothing. A Solver is not safe for concurrent use.
type Solver struct {
	Settings Settings

	n, m  int
	cones Cones
	sc    *scaling
	kkt   *kkt
	prob  *Problem
	bnorm float64
	qnorm float64

	x, s, z              []float64
	tau, kappa           float64
	rx, rz, ax, px, atz  []float64
	rtau, xpx            float64
	x1, z1, x2, z2       []float64
	dx, ds, dz           []float64
	dxa, dsa, dza        []float64
	dtau, dkap           float64
	dtaua, dkapa         float64
	dsT, dzT, dsTa, dzTa []float64 // scaled directions W⁻ᵀΔs, WΔz
	cs, u, wu            []float64
	negQ                 []float64
	result               Result
	best                 iterate // best iterate so far
	pol                  *polisher
	rx0, rz0             []float64
}

// iterate is a copy of the homogeneous iterate and its statistics.
type iterate struct {
	x, s, z    []float64
	tau, kappa float64
	stats      Stats
	merit      float64
	it         int
}

// NewSolver returns a solver with DefaultSettings.
func NewSolver() *Solver { return &Solver{Settings: DefaultSettings()} }

// Solve solves p. Invalid input (dimensions, NaN or infinite data,
// settings) gives an error; a solve that does not succeed returns a Result
// whose Status says why, with the statistics of the last iterate.
func (sv *Solver) Solve(p *Problem) (Result, error) {
	if err := sv.Settings.check(); err != nil {
		return Result{}, fmt.Errorf("socp: %w", err)
	}
	n, m, err := p.dims()
	if err != nil {
		return Result{}, fmt.Errorf("socp: %w", err)
	}
	sv.setup(p, n, m)
	if !sv.initialize() {
		sv.finish(NumericalError)
		return sv.result, nil
	}
	st := sv.iterate()
	sv.finish(st)
	if st != PrimalInfeasible && st != DualInfeasible {
		sv.conclude(st)
	}
	return sv.result, nil
}

// conclude polishes the solution when enabled, evaluates the returned
// point and sets the status: Solved when it meets the tolerances, the
// iteration's status otherwise.
func (sv *Solver) conclude(st Status) {
	r := &sv.result
	its, refs := r.Stats.Iterations, r.Stats.Refinements
	sv.evaluatePoint(r.X, r.S, r.Z)
	polished, pk := false, 0
	if sv.Settings.Polish {
		var ok bool
		if pk, ok = sv.pol.run(sv, r.X, r.Z); ok {
			copy(r.X, sv.pol.x)
			copy(r.S, sv.pol.s)
			copy(r.Z, sv.pol.z)
			polished = true
		}
		sv.evaluatePoint(r.X, r.S, r.Z)
	}
	if sv.solved() {
		st = Solved
	} else if st == Solved {
		st = Inaccurate
	}
	r.Stats.Iterations, r.Stats.Refinements = its, refs
	r.Stats.Polished, r.Stats.PolishIter = polished, pk
	r.Status = st
}

// setup sizes the workspace for (n, m, cones), reusing it when they match,
// and copies P and A.
func (sv *Solver) setup(p *Problem, n, m int) {
	set := sv.Settings
	if sv.kkt == nil || n != sv.n || m != sv.m || !sameCones(sv.cones, p.Cones) || sv.kkt.delta != set.StaticReg {
		// Resize in place: a problem of another size reuses the buffers'
		// capacity, so a warmed-up solver allocates nothing when the
		// number of contacts changes within what it has seen.
		sv.n, sv.m = n, m
		sv.cones = Cones{Zero: p.Cones.Zero, NonNeg: p.Cones.NonNeg, SOC: append(sv.cones.SOC[:0], p.Cones.SOC...)}
		if sv.kkt == nil {
			sv.sc, sv.kkt, sv.pol = &scaling{}, &kkt{}, &polisher{}
		}
		sv.sc.reset(sv.cones, n)
		a, pm := sv.kkt.a, sv.kkt.p
		sv.kkt.reset(n, p.Cones.Zero, m, set.StaticReg, set.RefineIter, set.RefineTol)
		for _, v := range []*[]float64{&sv.x, &sv.rx, &sv.px, &sv.atz, &sv.x1, &sv.x2, &sv.dx, &sv.dxa, &sv.negQ, &sv.rx0, &sv.best.x, &sv.result.X} {
			*v = grow(*v, n)
		}
		for _, v := range []*[]float64{&sv.s, &sv.z, &sv.rz, &sv.ax, &sv.z1, &sv.z2, &sv.ds, &sv.dz, &sv.dsa, &sv.dza, &sv.cs, &sv.u, &sv.wu, &sv.rz0,
			&sv.dsT, &sv.dzT, &sv.dsTa, &sv.dzTa, &sv.best.s, &sv.best.z, &sv.result.S, &sv.result.Z} {
			*v = grow(*v, m)
		}
		sv.pol.reset(n, m)
		sv.kkt.a = nil
		if m*n > 0 {
			sv.kkt.a = grow(a, m*n)
		}
		sv.kkt.p = nil
		if p.P != nil {
			sv.kkt.p = grow(pm, n*n)
		}
	}
	sv.kkt.refine, sv.kkt.tol = set.RefineIter, set.RefineTol
	sv.prob = p
	if p.P != nil {
		if sv.kkt.p == nil {
			sv.kkt.p = make([]float64, n*n)
		}
		for i := range n {
			for j := range n {
				sv.kkt.p[i*n+j] = p.P.At(i, j)
			}
		}
	} else {
		sv.kkt.p = nil
	}
	if p.A != nil {
		for i := range m {
			for j := range n {
				sv.kkt.a[i*n+j] = p.A.At(i, j)
			}
		}
	}
	for i, v := range p.Q {
		sv.negQ[i] = -v
	}
	sv.bnorm, sv.qnorm = infNorm(p.B), infNorm(p.Q)
}

func sameCones(a, b Cones) bool {
	return a.Zero == b.Zero && a.NonNeg == b.NonNeg && slices.Equal(a.SOC, b.SOC)
}

// initialize sets the starting point: with W = I, solve
// [P A_Eᵀ A_Cᵀ; A_E 0 0; A_C 0 −I] (x, z) = (−q, b), take s = −z on the
// cone rows and shift s and z into the interior of K by a multiple of e
// (as CVXOPT and Clarabel start); τ = κ = 1. It returns false if the
// scaling of that point cannot be formed.
func (sv *Solver) initialize() bool {
	sc := sv.sc
	sc.identity()
	ok := sv.kkt.factor(sc)
	clear(sv.x)
	clear(sv.z)
	if ok {
		sv.kkt.solve(sc, sv.x, sv.z, sv.negQ, sv.prob.B)
	}
	clear(sv.s)
	for i := sv.cones.Zero; i < sv.m; i++ {
		sv.s[i] = -sv.z[i]
	}
	for _, v := range [2][]float64{sv.s, sv.z} {
		if e := sv.cones.minEig(v); e <= 0 || math.IsNaN(e) {
			sv.cones.addIdentity(v, 1-e)
		}
	}
	sv.tau, sv.kappa = 1, 1
	sv.result.Stats = Stats{}
	return sc.init(sv.s, sv.z)
}

// iterate runs the interior-point iterations and returns the status. It
// keeps the best iterate (by merit) and returns to it when the iteration
// stops without converging.
func (sv *Solver) iterate() Status {
	set := sv.Settings
	st := &sv.result.Stats
	sv.best.merit, sv.best.it = math.Inf(1), 0
	for it := 0; ; it++ {
		st.Iterations = it
		mu := sv.residuals()
		status, done := sv.converged(mu)
		if done {
			return status
		}
		if m := merit(st); m < sv.best.merit {
			sv.save(it, m)
		}
		switch {
		case it == set.MaxIter:
			return sv.restore(MaxIterations)
		case it-sv.best.it >= set.StallIter && sv.best.merit <= stallBelow && sv.tau >= sv.kappa:
			// Round-off bound: no progress in the end game. (τ < κ: heading
			// for an infeasibility certificate, whose merit grows as τ → 0.)
			return sv.restore(Inaccurate)
		case !sv.step(mu):
			return sv.restore(Inaccurate)
		}
	}
}

// step computes the predictor–corrector direction and takes the step; it
// returns false on a failed factorization, a collapsed step or a scaling
// that leaves the cone.
func (sv *Solver) step(mu float64) bool {
	set := sv.Settings
	st := &sv.result.Stats
	if !sv.kkt.factor(sv.sc) {
		return false
	}
	sv.kkt.solve(sv.sc, sv.x2, sv.z2, sv.negQ, sv.prob.B)
	st.Refinements += sv.kkt.refined
	// Predictor (affine) step: d_s = −λ∘λ, d_κ = −τκ.
	lam := sv.sc.lam
	sv.cones.jordanProd(sv.cs, lam, lam)
	floats.Scale(-1, sv.cs[sv.cones.Zero:])
	sv.direction(1, sv.cs, -sv.tau*sv.kappa, sv.dxa, sv.dsa, sv.dza, sv.dsTa, sv.dzTa, &sv.dtaua, &sv.dkapa)
	aa := sv.stepLength(sv.dsTa, sv.dzTa, sv.dtaua, sv.dkapa, 1)
	sigma := math.Pow(1-aa, 3)
	// Corrector: d_s = −λ∘λ − (W⁻ᵀΔs_a)∘(WΔz_a) + σμe (Mehrotra).
	sv.cones.jordanProd(sv.u, sv.dsTa, sv.dzTa)
	for i := sv.cones.Zero; i < sv.m; i++ {
		sv.cs[i] -= sv.u[i]
	}
	sv.cones.addIdentity(sv.cs, sigma*mu)
	dk := -sv.tau*sv.kappa - sv.dtaua*sv.dkapa + sigma*mu
	sv.direction(1-sigma, sv.cs, dk, sv.dx, sv.ds, sv.dz, sv.dsT, sv.dzT, &sv.dtau, &sv.dkap)
	a := min(1, set.StepFraction*sv.stepLength(sv.dsT, sv.dzT, sv.dtau, sv.dkap, math.Inf(1)))
	if !(a > 1e-12) {
		return false
	}
	floats.AddScaled(sv.x, a, sv.dx)
	floats.AddScaled(sv.s, a, sv.ds)
	floats.AddScaled(sv.z, a, sv.dz)
	sv.tau += a * sv.dtau
	sv.kappa += a * sv.dkap
	return sv.sc.update(sv.dsT, sv.dzT, a)
}

// stallBelow is the merit below which a lack of progress counts as a
// stall (the end game, where round-off rather than the path bounds
// progress); above it only MaxIter stops the iteration.
const stallBelow = 1e-6

// merit is max(primal residual, dual residual, gap / max(1, min |cost|)).
func merit(st *Stats) float64 {
	return max(st.PrimalResidual, st.DualResidual, st.Gap/max(1, min(math.Abs(st.PrimalCost), math.Abs(st.DualCost))))
}

// save records the current iterate as the best.
func (sv *Solver) save(it int, m float64) {
	b := &sv.best
	copy(b.x, sv.x)
	copy(b.s, sv.s)
	copy(b.z, sv.z)
	b.tau, b.kappa, b.stats, b.merit, b.it = sv.tau, sv.kappa, sv.result.Stats, m, it
}

// restore returns to the best iterate and returns st.
func (sv *Solver) restore(st Status) Status {
	b := &sv.best
	if math.IsInf(b.merit, 1) {
		return st
	}
	its, refs := sv.result.Stats.Iterations, sv.result.Stats.Refinements
	copy(sv.x, b.x)
	copy(sv.s, b.s)
	copy(sv.z, b.z)
	sv.tau, sv.kappa, sv.result.Stats = b.tau, b.kappa, b.stats
	sv.result.Stats.Iterations, sv.result.Stats.Refinements = its, refs
	return st
}

// residuals computes r_x = Px + Aᵀz + qτ, r_z = Ax + s − bτ and
// r_τ = κ + qᵀx + bᵀz + xᵀPx/τ of the homogeneous embedding, and returns
// μ = (sᵀz + τκ)/(ν + 1).
func (sv *Solver) residuals() float64 {
	n, m, k, p := sv.n, sv.m, sv.kkt, sv.prob
	clear(sv.px)
	if k.p != nil {
		for i := range n {
			sv.px[i] = floats.Dot(k.p[i*n:(i+1)*n], sv.x)
		}
	}
	clear(sv.atz)
	for i := range m {
		row := k.a[i*n : (i+1)*n]
		sv.ax[i] = floats.Dot(row, sv.x)
		floats.AddScaled(sv.atz, sv.z[i], row)
	}
	for i := range n {
		sv.rx[i] = sv.px[i] + sv.atz[i] + p.Q[i]*sv.tau
	}
	for i := range m {
		sv.rz[i] = sv.ax[i] + sv.s[i] - p.B[i]*sv.tau
	}
	sv.xpx = floats.Dot(sv.x, sv.px)
	sv.rtau = sv.kappa + floats.Dot(p.Q, sv.x) + floats.Dot(p.B, sv.z) + sv.xpx/sv.tau
	sz := floats.Dot(sv.s[sv.cones.Zero:], sv.z[sv.cones.Zero:])
	return (sz + sv.tau*sv.kappa) / float64(sv.cones.Degree()+1)
}

// direction solves the Newton system of the embedding for the right-hand
// side scaled by eta (1 for the predictor, 1 − σ for the corrector), the
// complementarity term ds (λ∘(WΔz + W⁻ᵀΔs) = ds) and dk (κΔτ + τΔκ = dk).
// With K (x₂, z₂) = (−q, b) solved once per iteration:
//
//	K (x₁, z₁) = (−η r_x, −η r_z − Wᵀ(λ \ ds)),
//	Δτ = (−η r_τ − dk/τ − c₁ᵀx₁ − bᵀz₁) / (−κ/τ + c₁ᵀx₂ + bᵀz₂ − ξᵀPξ),
//
// with ξ = x/τ, c₁ = q + 2Pξ; then (Δx, Δz) = (x₁, z₁) + Δτ (x₂, z₂), the
// scaled steps dzT = WΔz and dsT = W⁻ᵀΔs = λ \ ds − dzT, Δs = Wᵀ dsT and
// Δκ = (dk − κΔτ)/τ. The denominator equals
// −κ/τ − z₂ᵀHz₂ − (x₂ − ξ)ᵀP(x₂ − ξ) < 0.
func (sv *Solver) direction(eta float64, ds []float64, dk float64, dx, dsOut, dz, dsT, dzT []float64, dtau, dkap *float64) {
	c, p, tau := sv.cones, sv.prob, sv.tau
	c.jordanDiv(sv.u, sv.sc.lam, ds)
	sv.sc.apply(opWT, sv.wu, sv.u)
	for i := range sv.n {
		sv.rx0[i] = -eta * sv.rx[i]
	}
	for i := range sv.m {
		sv.rz0[i] = -eta * sv.rz[i]
		if i >= c.Zero {
			sv.rz0[i] -= sv.wu[i]
		}
	}
	sv.kkt.solve(sv.sc, sv.x1, sv.z1, sv.rx0, sv.rz0)
	sv.result.Stats.Refinements += sv.kkt.refined
	num, den := -eta*sv.rtau-dk/tau, -sv.kappa/tau-sv.xpx/(tau*tau)
	for i := range sv.n {
		c1 := p.Q[i] + 2*sv.px[i]/tau
		num -= c1 * sv.x1[i]
		den += c1 * sv.x2[i]
	}
	num -= floats.Dot(p.B, sv.z1)
	den += floats.Dot(p.B, sv.z2)
	*dtau = num / den
	for i := range sv.n {
		dx[i] = sv.x1[i] + *dtau*sv.x2[i]
	}
	for i := range sv.m {
		dz[i] = sv.z1[i] + *dtau*sv.z2[i]
	}
	sv.sc.apply(opW, dzT, dz)
	for i := c.Zero; i < sv.m; i++ {
		dsT[i] = sv.u[i] - dzT[i]
	}
	clear(dsOut[:c.Zero])
	sv.sc.apply(opWT, dsOut, dsT)
	*dkap = (dk - sv.kappa**dtau) / tau
}

// stepLength returns the largest α ≤ amax keeping s + αΔs and z + αΔz in
// K, measured in the scaled space (λ + α dsT, λ + α dzT: the same cone,
// without the cancellation of s near its boundary), and τ, κ ≥ 0.
func (sv *Solver) stepLength(dsT, dzT []float64, dtau, dkap, amax float64) float64 {
	a := sv.cones.maxStep(sv.sc.lam, dsT, amax)
	a = sv.cones.maxStep(sv.sc.lam, dzT, a)
	if dtau < 0 {
		a = min(a, -sv.tau/dtau)
	}
	if dkap < 0 {
		a = min(a, -sv.kappa/dkap)
	}
	return a
}

// grow returns s resized to n elements, all zero, reusing its capacity
// when it suffices.
func grow[T any](s []T, n int) []T {
	if cap(s) < n {
		return make([]T, n)
	}
	s = s[:n]
	clear(s)
	return s
}
