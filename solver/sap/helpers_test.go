package sap

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stiction-sim/stiction/solver"

	"gonum.org/v1/gonum/mat"
)

// contactSpec is one contact of a test problem: the cliques it touches, in
// increasing order, and its 3×Size Jacobian block per clique (row-major).
type contactSpec struct {
	cliques []int
	j       [][]float64
}

// buildProblem assembles a solver.Problem from clique blocks of A (row-major
// Size×Size) and contact specs (ContactCone constraints). VStar, MDiag
// (= diag A), VHat, R and μ (Params[i]) are left for the caller, sized.
func buildProblem(aBlocks [][]float64, contacts []contactSpec) *solver.Problem {
	p := &solver.Problem{}
	off, aoff := 0, 0
	for _, a := range aBlocks {
		n := int(math.Round(math.Sqrt(float64(len(a)))))
		p.Cliques = append(p.Cliques, solver.Clique{Offset: off, Size: n, AOff: aoff})
		p.A = append(p.A, a...)
		for i := range n {
			p.MDiag = append(p.MDiag, a[i*n+i])
		}
		off += n
		aoff += n * n
	}
	p.NV = off
	p.VStar = make([]float64, p.NV)
	for _, c := range contacts {
		i := p.AddConstraint(solver.ContactCone, 3, 0)
		for k, cl := range c.cliques {
			copy(p.AddJBlock(i, cl), c.j[k])
		}
	}
	return p
}

// randSPD returns a random symmetric positive definite n×n matrix
// BᵀB/n + shift·I, row-major.
func randSPD(rng *rand.Rand, n int, shift float64) []float64 {
	b := make([]float64, n*n)
	for i := range b {
		b[i] = rng.NormFloat64()
	}
	a := make([]float64, n*n)
	for i := range n {
		for j := range n {
			s := 0.0
			for k := range n {
				s += b[k*n+i] * b[k*n+j]
			}
			a[i*n+j] = s / float64(n)
		}
		a[i*n+i] += shift
	}
	return a
}

// randNormal returns n standard normal numbers times scale.
func randNormal(rng *rand.Rand, n int, scale float64) []float64 {
	x := make([]float64, n)
	for i := range x {
		x[i] = scale * rng.NormFloat64()
	}
	return x
}

// uniform returns a number uniform in [lo, hi).
func uniform(rng *rand.Rand, lo, hi float64) float64 { return lo + (hi-lo)*rng.Float64() }

// randomContacts returns nc contacts over nCliques cliques of size n, each
// touching one clique or (with probability ½) two.
func randomContacts(rng *rand.Rand, nCliques, n, nc int) []contactSpec {
	cs := make([]contactSpec, nc)
	for i := range cs {
		c1 := rng.IntN(nCliques)
		cs[i].cliques = []int{c1}
		if nCliques > 1 && rng.IntN(2) == 0 {
			c2 := rng.IntN(nCliques - 1)
			if c2 >= c1 {
				c2++
			}
			cs[i].cliques = []int{min(c1, c2), max(c1, c2)}
		}
		for range cs[i].cliques {
			cs[i].j = append(cs[i].j, randNormal(rng, 3*n, 1))
		}
	}
	return cs
}

// randomProblem is a random problem with nCliques cliques of size n and nc
// contacts: random SPD A, random J, R in [0.2, 2], μ in [0, 1] with every
// fourth contact frictionless, random v* and v̂.
func randomProblem(rng *rand.Rand, nCliques, n, nc int) *solver.Problem {
	blocks := make([][]float64, nCliques)
	for c := range blocks {
		blocks[c] = randSPD(rng, n, 0.5)
	}
	p := buildProblem(blocks, randomContacts(rng, nCliques, n, nc))
	copy(p.VStar, randNormal(rng, p.NV, 1))
	copy(p.VHat, randNormal(rng, p.NR, 1))
	for i := range p.NumConstraints() {
		rt, rn := uniform(rng, 0.2, 2), uniform(rng, 0.2, 2)
		p.R[3*i], p.R[3*i+1], p.R[3*i+2] = rt, rt, rn
		if i%4 != 3 {
			p.Params[i] = uniform(rng, 0.1, 1)
		}
	}
	return p
}

// placeY sets v̂_i so that y_i(v) = y: v̂_i = (J v)_i + R_i y.
func placeY(p *solver.Problem, v []float64, i int, y [3]float64) {
	vc := make([]float64, p.NR)
	p.MulJ(v, vc)
	for k := range 3 {
		p.VHat[3*i+k] = vc[3*i+k] + p.R[3*i+k]*y[k]
	}
}

// symDense wraps a row-major n×n symmetric matrix.
func symDense(n int, a []float64) *mat.SymDense {
	return mat.NewSymDense(n, append([]float64(nil), a...))
}

// solveA returns A⁻¹ b with gonum's mat.Cholesky (independent of the
// solver's factorization).
func solveA(t *testing.T, p *solver.Problem, b []float64) []float64 {
	t.Helper()
	var ch mat.Cholesky
	if !ch.Factorize(symDense(p.NV, p.DenseA())) {
		t.Fatal("A is not SPD")
	}
	x := mat.NewVecDense(p.NV, nil)
	if err := ch.SolveVecTo(x, mat.NewVecDense(p.NV, append([]float64(nil), b...))); err != nil {
		t.Fatal(err)
	}
	return x.RawVector().Data
}

// matVec returns the product of the row-major r×c matrix m and x.
func matVec(m []float64, r, c int, x []float64) []float64 {
	y := make([]float64, r)
	for i := range r {
		for j := range c {
			y[i] += m[i*c+j] * x[j]
		}
	}
	return y
}

// matTVec returns mᵀx for the row-major r×c matrix m.
func matTVec(m []float64, r, c int, x []float64) []float64 {
	y := make([]float64, c)
	for i := range r {
		for j := range c {
			y[j] += m[i*c+j] * x[i]
		}
	}
	return y
}

// norm2 returns the Euclidean norm of x.
func norm2(x []float64) float64 {
	s := 0.0
	for _, xi := range x {
		s += xi * xi
	}
	return math.Sqrt(s)
}

// sub returns x − y.
func sub(x, y []float64) []float64 {
	z := make([]float64, len(x))
	for i := range x {
		z[i] = x[i] - y[i]
	}
	return z
}

// relDiff returns ‖x − y‖/max(‖y‖, floor).
func relDiff(x, y []float64, floor float64) float64 {
	return norm2(sub(x, y)) / max(norm2(y), floor)
}

// manufactured builds a problem whose exact solution is known: for each
// contact it picks γ_i and y_i with P_F(y_i) = γ_i strictly inside region
// regs[i] (from the geometry of the cone, not from solver.Project), a solution
// v_sol, and sets v̂ = J v_sol + R y and v* = v_sol − A⁻¹Jᵀγ, so that
// ∇ℓp(v_sol) = 0 (SAP eq. 21a). It returns the problem, v_sol and γ.
func manufactured(t *testing.T, rng *rand.Rand, p *solver.Problem, regs []solver.Region) (vsol, gamma []float64) {
	t.Helper()
	vsol = randNormal(rng, p.NV, 1)
	gamma = make([]float64, p.NR)
	for i := range p.NumConstraints() {
		mu, Rt, Rn := p.Params[i], p.R[3*i], p.R[3*i+2]
		th := uniform(rng, 0, 2*math.Pi)
		c, s := math.Cos(th), math.Sin(th)
		var y, g [3]float64
		switch regs[i] {
		case solver.Stiction: // γ = y in the interior of F
			gn := uniform(rng, 0.5, 1.5)
			gt := uniform(rng, 0.1, 0.7) * mu * gn
			g = [3]float64{gt * c, gt * s, gn}
			y = g
		case solver.Sliding: // γ on the boundary of F, R(y − γ) along its outer normal (t̂, −μ)
			gn := uniform(rng, 0.5, 1.5)
			g = [3]float64{mu * gn * c, mu * gn * s, gn}
			lam := uniform(rng, 0.3, 1)
			y = [3]float64{g[0] + lam*c/Rt, g[1] + lam*s/Rt, g[2] - lam*mu/Rn}
		case solver.NoContact: // R y = −z with z in the interior of the dual cone F*
			zn := uniform(rng, 0.3, 1)
			zt := uniform(rng, 0, 0.7) * zn / max(mu, 1e-300)
			zt = min(zt, 2)
			y = [3]float64{-zt * c / Rt, -zt * s / Rt, -zn / Rn}
		}
		copy(gamma[3*i:], g[:])
		placeY(p, vsol, i, y)
	}
	jtg := make([]float64, p.NV)
	p.MulJT(gamma, jtg)
	dv := solveA(t, p, jtg)
	for i := range p.VStar {
		p.VStar[i] = vsol[i] - dv[i]
	}
	return vsol, gamma
}

// realisticProblem is a 40-body-like scene: nBodies free rigid bodies
// (6 velocities each, A = M block diagonal with rotated inertias), nContacts
// body–body or body–ground contacts with Jacobians v_c = Cᵀ(v_B − v_A) at
// random points and frames, and the paper's parameters (SAP §V-B): near-rigid
// Rn = w/(4π²) (β = 1), Rt = σ w with σ = 10⁻³, τd = δt/π, δt = 10 ms,
// v̂_n = −φ0/(δt + τd) for random φ0 ∈ [−2, 1] mm, μ ∈ [0.3, 1], gravity in
// v*. It returns the problem and the previous velocities (a warm start).
func realisticProblem(rng *rand.Rand, nBodies, nContacts int) (*solver.Problem, []float64) {
	const dt, g = 0.01, 9.81
	blocks := make([][]float64, nBodies)
	minv := make([][]float64, nBodies)
	for b := range blocks {
		m := uniform(rng, 0.5, 2)
		q := randRotation(rng)
		var pr [3]float64
		for k := range pr {
			pr[k] = m * uniform(rng, 0.002, 0.02)
		}
		a := make([]float64, 36)
		ai := make([]float64, 36)
		for i := range 3 {
			for j := range 3 {
				for k := range 3 {
					a[i*6+j] += q[i][k] * pr[k] * q[j][k]
					ai[i*6+j] += q[i][k] / pr[k] * q[j][k]
				}
			}
			a[(3+i)*6+3+i] = m
			ai[(3+i)*6+3+i] = 1 / m
		}
		blocks[b], minv[b] = a, ai
	}
	contacts := make([]contactSpec, nContacts)
	for i := range contacts {
		b := rng.IntN(nBodies)
		a := -1
		if rng.Float64() < 0.6 && nBodies > 1 {
			a = rng.IntN(nBodies - 1)
			if a >= b {
				a++
			}
		}
		frame := randRotation(rng) // columns t1, t2, n
		jb := pointJacobian(frame, randVec(rng, 0.1), 1)
		if a < 0 {
			contacts[i] = contactSpec{cliques: []int{b}, j: [][]float64{jb}}
			continue
		}
		ja := pointJacobian(frame, randVec(rng, 0.1), -1)
		if a < b {
			contacts[i] = contactSpec{cliques: []int{a, b}, j: [][]float64{ja, jb}}
		} else {
			contacts[i] = contactSpec{cliques: []int{b, a}, j: [][]float64{jb, ja}}
		}
	}
	p := buildProblem(blocks, contacts)
	v0 := make([]float64, p.NV)
	for b := range nBodies {
		for k := range 3 {
			v0[6*b+k] = uniform(rng, -1, 1)
			v0[6*b+3+k] = uniform(rng, -0.5, 0.5)
		}
	}
	copy(p.VStar, v0)
	for b := range nBodies {
		p.VStar[6*b+5] -= g * dt
	}
	taud := dt / math.Pi
	for i, c := range contacts {
		w := delassusRMS(c, minv)
		rn, rt := w/(4*math.Pi*math.Pi), 1e-3*w
		p.R[3*i], p.R[3*i+1], p.R[3*i+2] = rt, rt, rn
		p.VHat[3*i+2] = -uniform(rng, -2e-3, 1e-3) / (dt + taud)
		p.Params[i] = uniform(rng, 0.3, 1)
	}
	return p, v0
}

// delassusRMS is w_i = ‖W_ii‖_F/3 with W_ii = Σ_t J_it M_t⁻¹ J_itᵀ (SAP §V-B).
func delassusRMS(c contactSpec, minv [][]float64) float64 {
	var w [3][3]float64
	for k, cl := range c.cliques {
		j := c.j[k]
		mi := minv[cl]
		for r := range 3 {
			for s := range 3 {
				for a := range 6 {
					for b := range 6 {
						w[r][s] += j[r*6+a] * mi[a*6+b] * j[s*6+b]
					}
				}
			}
		}
	}
	f := 0.0
	for r := range 3 {
		for s := range 3 {
			f += w[r][s] * w[r][s]
		}
	}
	return math.Sqrt(f) / 3
}

// pointJacobian returns sign·Cᵀ[−[r]× | I], the 3×6 Jacobian (angular
// velocity first) of the velocity of the body point at offset r, in the
// contact frame whose axes are the columns of C.
func pointJacobian(c [3][3]float64, r [3]float64, sign float64) []float64 {
	skew := [3][3]float64{{0, -r[2], r[1]}, {r[2], 0, -r[0]}, {-r[1], r[0], 0}}
	j := make([]float64, 18)
	for row := range 3 { // row-th axis of the frame: column row of C
		for k := range 3 {
			ang := 0.0
			for l := range 3 {
				ang -= c[l][row] * skew[l][k]
			}
			j[row*6+k] = sign * ang
			j[row*6+3+k] = sign * c[k][row]
		}
	}
	return j
}

// randRotation returns a uniformly random rotation matrix.
func randRotation(rng *rand.Rand) [3][3]float64 {
	w, x, y, z := rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64(), rng.NormFloat64()
	n := math.Sqrt(w*w + x*x + y*y + z*z)
	w, x, y, z = w/n, x/n, y/n, z/n
	return [3][3]float64{
		{1 - 2*(y*y+z*z), 2 * (x*y - w*z), 2 * (x*z + w*y)},
		{2 * (x*y + w*z), 1 - 2*(x*x+z*z), 2 * (y*z - w*x)},
		{2 * (x*z - w*y), 2 * (y*z + w*x), 1 - 2*(x*x+y*y)},
	}
}

// randVec returns a vector uniform in [−s, s]³.
func randVec(rng *rand.Rand, s float64) [3]float64 {
	return [3]float64{uniform(rng, -s, s), uniform(rng, -s, s), uniform(rng, -s, s)}
}

// solveOK solves p from v0 and fails the test on an error.
func solveOK(t testing.TB, s *Solver, p *solver.Problem, v0 []float64) *solver.Result {
	t.Helper()
	var res solver.Result
	if err := s.Solve(p, v0, &res); err != nil {
		t.Fatalf("Solve: %v", err)
	}
	return &res
}

// finiteResult reports whether every number in res is finite.
func finiteResult(res *solver.Result) bool {
	st := res.Stats
	return allFinite(res.V) && allFinite(res.Gamma) && allFinite(res.VC) &&
		allFinite([]float64{st.Cost, st.InitialCost, st.MomentumError, st.ComplementarityError})
}

// contact returns μ, Rt and Rn of contact i of a problem of ContactCone
// constraints.
func contact(p *solver.Problem, i int) (mu, Rt, Rn float64) {
	return p.Params[i], p.R[3*i], p.R[3*i+2]
}

// yOf returns y_i = −R_i⁻¹(v_c,i − v̂_i) (SAP §III-B) for contact i with
// contact velocity vc.
func yOf(p *solver.Problem, i int, vc [3]float64) [3]float64 {
	var y [3]float64
	for k := range 3 {
		y[k] = -(vc[k] - p.VHat[3*i+k]) / p.R[3*i+k]
	}
	return y
}
