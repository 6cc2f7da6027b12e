package pgs

import (
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/stiction-sim/stiction/internal/fixtures"
	"github.com/stiction-sim/stiction/opt/socp"
	"gonum.org/v1/gonum/mat"
)

// TestMaxEig checks the 3×3 eigenvalue formula against gonum's EigenSym.
func TestMaxEig(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for range 1000 {
		var a [3][3]float64
		s := mat.NewSymDense(3, nil)
		for i := range 3 {
			for j := i; j < 3; j++ {
				v := rng.NormFloat64()
				if rng.IntN(4) == 0 && i != j {
					v = 0
				}
				a[i][j], a[j][i] = v, v
				s.SetSym(i, j, v)
			}
		}
		var e mat.EigenSym
		e.Factorize(s, false)
		want := e.Values(nil)[2]
		if got := maxEigSym3(a); math.Abs(got-want) > 1e-12*(1+math.Abs(want)) {
			t.Fatalf("λmax(%v) = %v, want %v", a, got, want)
		}
	}
}

// particle is a point mass m on the plane with one contact: W = I/m,
// b = v* in (n, t1, t2) = (z, x, y), pushed by (fx, fy) for a step h.
func particle(m, mu, fx, fy, h float64) *Problem {
	return &Problem{
		W:  mat.NewSymDense(3, []float64{1 / m, 0, 0, 0, 1 / m, 0, 0, 0, 1 / m}),
		B:  []float64{-9.81 * h, fx * h / m, fy * h / m},
		Mu: []float64{mu},
	}
}

// TestParticleCoulomb checks Coulomb's law on a particle against its
// closed form: at rest below μ m g; above, sliding with u_n = 0 and
// u_t = v*_t − μ g h t̂ (friction opposite to the slip, at the cone's
// boundary). The relaxed law instead projects v* onto the dual cone.
func TestParticleCoulomb(t *testing.T) {
	const m, mu, h, g = 2.0, 0.5, 0.01, 9.81
	s := NewSolver()
	s.Settings.Tol = 1e-14
	for _, push := range []float64{2, 9, 12, 40} {
		fx, fy := push*0.8, push*0.6
		res, err := s.Solve(particle(m, mu, fx, fy, h), nil)
		if err != nil || res.Stats.Status != Converged {
			t.Fatalf("push %v: %v %v", push, err, res.Stats.Status)
		}
		want := []float64{0, 0, 0}
		if push > mu*m*g {
			sl := push*h/m - mu*g*h
			want = []float64{0, sl * 0.8, sl * 0.6}
		}
		if maxDiff(res.U, want) > 1e-13 || math.Abs(res.Gamma[0]-m*g*h) > 1e-13 {
			t.Errorf("push %v: u = %v, want %v; γ_n = %v", push, res.U, want, res.Gamma[0])
		}
		t.Logf("push %v: %d sweeps, residual %.1e", push, res.Iterations, res.Residual)
	}
}

// perm maps SAP's contact row order (t1, t2, n) to PGS's (n, t1, t2):
// SAP row r is PGS row perm[r].
var perm = [3]int{1, 2, 0}

// TestRelaxedMatchesIPM solves random regularized problems with the
// relaxed law and compares γ with the interior-point solution of SAP's
// primal (package opt/socp) on the same (A, J, v*, R, μ).
func TestRelaxedMatchesIPM(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	ipm := socp.NewSAPSolver()
	s := NewSolver()
	s.Settings.Model, s.Settings.Tol, s.Settings.MaxIter = Relaxed, 1e-13, 100000
	worst, maxSweeps := 0.0, 0
	for trial := range 30 {
		nv, nc := 6, 1+rng.IntN(4)
		f := randomDense(rng, nv, nv)
		a := mat.NewSymDense(nv, nil)
		a.SymOuterK(1, f)
		for i := range nv {
			a.SetSym(i, i, a.At(i, i)+1)
		}
		j := randomDense(rng, 3*nc, nv)
		vstar := make([]float64, nv)
		for i := range vstar {
			vstar[i] = rng.NormFloat64()
		}
		fx := fixtures.Contact{A: a, J: j, VStar: vstar, Mu: make([]float64, nc)}
		w, b, _ := fx.Delassus()
		r, mu := make([]float64, 3*nc), make([]float64, nc)
		for k := range r {
			r[k] = (0.05 + 0.2*rng.Float64()) * w.At(k, k)
		}
		for c := range mu {
			mu[c] = []float64{0, 0.3, 1}[rng.IntN(3)]
		}
		res, err := s.Solve(&Problem{W: w, B: b, Mu: mu, R: r}, nil)
		if err != nil || res.Stats.Status != Converged {
			t.Fatalf("trial %d: %v %v after %d sweeps (residual %.1e)", trial, err, res.Stats.Status, res.Iterations, res.Residual)
		}
		maxSweeps = max(maxSweeps, res.Iterations)
		// The same problem for the IPM, SAP order.
		js := fx.SAPOrder()
		rs := make([]float64, 3*nc)
		for c := range nc {
			for q := range 3 {
				rs[3*c+q] = r[3*c+perm[q]]
			}
		}
		sol, err := ipm.Solve(&socp.SAP{A: a, VStar: vstar, J: js, R: rs, VHat: make([]float64, 3*nc), Mu: mu})
		if err != nil || sol.Status != socp.Solved {
			t.Fatalf("trial %d: IPM %v %v", trial, err, sol.Status)
		}
		d := 0.0
		for c := range nc {
			for q := range 3 {
				d = max(d, math.Abs(sol.Gamma[3*c+q]-res.Gamma[3*c+perm[q]]))
			}
		}
		d /= 1 + maxAbs(res.Gamma)
		worst = max(worst, d)
		if d > 1e-9 {
			t.Errorf("trial %d: PGS and IPM impulses differ by %.1e", trial, d)
		}
	}
	t.Logf("30 problems: PGS ≤ %d sweeps to 1e-13; worst relative difference from the IPM %.1e", maxSweeps, worst)
}

// TestBadInput checks the errors.
func TestBadInput(t *testing.T) {
	good := func() *Problem { return particle(1, 0.5, 1, 0, 0.01) }
	cases := map[string]func(p *Problem, s *Solver){
		"b has length 2":          func(p *Problem, s *Solver) { p.B = p.B[:2] },
		"μ[0] = NaN":              func(p *Problem, s *Solver) { p.Mu[0] = math.NaN() },
		"R[1] = -1":               func(p *Problem, s *Solver) { p.R = []float64{0, -1, 0} },
		"Omega = 2":               func(p *Problem, s *Solver) { s.Settings.Omega = 2 },
		"W[0][0] = +Inf":          func(p *Problem, s *Solver) { p.W.(*mat.SymDense).SetSym(0, 0, math.Inf(1)) },
		"zero block":              func(p *Problem, s *Solver) { p.W = mat.NewSymDense(3, nil) },
		"b[2] = NaN":              func(p *Problem, s *Solver) { p.B[2] = math.NaN() },
		"LocalIter = 0":           func(p *Problem, s *Solver) { s.Settings.LocalIter = 0 },
		"W is nil":                func(p *Problem, s *Solver) { p.W = nil },
		"warm start has length 2": nil,
	}
	for want, mutate := range cases {
		p, s := good(), NewSolver()
		var warm []float64
		if mutate == nil {
			warm = []float64{1, 2}
		} else {
			mutate(p, s)
		}
		_, err := s.Solve(p, warm)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: err = %v", want, err)
		}
	}
}
