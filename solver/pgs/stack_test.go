package pgs

import (
	"flag"
	"fmt"
	"math"
	"os"
	"testing"
	"time"

	"github.com/stiction-sim/stiction/internal/fixtures"
	"github.com/stiction-sim/stiction/opt/socp"
	"gonum.org/v1/gonum/mat"
)

var long = flag.Bool("long", false, "run the long PGS experiments")

func longRun() bool { return *long || os.Getenv("STICTION_LONG") == "1" }

// nearRigid returns SAP's near-rigid regularization (eq. 29–30 with β = 1,
// σ = 1e-3, per-direction diagonal Delassus estimates as package contact
// uses by default): R_n = β² W_nn/(4π²), R_t = σ (W_t1t1 + W_t2t2)/2.
func nearRigid(w mat.Symmetric) []float64 {
	m := w.SymmetricDim()
	r := make([]float64, m)
	for c := 0; c < m; c += 3 {
		r[c] = w.At(c, c) / (4 * math.Pi * math.Pi)
		wt := (w.At(c+1, c+1) + w.At(c+2, c+2)) / 2
		r[c+1], r[c+2] = 1e-3*wt, 1e-3*wt
	}
	return r
}

// sweepsTo returns the first sweep whose residual is ≤ tol (−1 if none).
func sweepsTo(h []float64, tol float64) int {
	for i, r := range h {
		if r <= tol {
			return i + 1
		}
	}
	return -1
}

// rate returns the mean contraction of the residual per sweep over the
// last k sweeps of h.
func rate(h []float64, k int) float64 {
	n := len(h)
	k = min(k, n-1)
	if k < 1 || h[n-1-k] == 0 {
		return math.NaN()
	}
	return math.Pow(h[n-1]/h[n-1-k], 1/float64(k))
}

// TestStiffStack measures how slowly PGS converges on a stack of spheres
// with near-rigid regularization (SAP's relaxed problem, R from eq. 29–30
// with β = 1, σ = 1e-3) and rigid (Coulomb, R = 0): sweeps to reach each
// tolerance and the asymptotic contraction per sweep, against the
// condition number of W + R. For ten spheres it requires convergence to
// 1e-8 and agreement of the relaxed velocities with the interior-point
// solution of the same problem to 1e-6. -long runs 20 and 40 spheres and a
// heavy-on-top stack.
func TestStiffStack(t *testing.T) {
	type stack struct {
		n     int
		ratio float64
	}
	stacks := []stack{{10, 1}}
	if longRun() {
		stacks = append(stacks, stack{10, 2}, stack{20, 1}, stack{40, 1})
	}
	for _, st := range stacks {
		c := fixtures.SphereStack(st.n, 0.05, 1, st.ratio, 0.5, 0.01)
		w, b, ainvJt := c.Delassus()
		r := nearRigid(w)
		wr := mat.NewSymDense(w.SymmetricDim(), nil)
		wr.CopySym(w)
		for i, v := range r {
			wr.SetSym(i, i, wr.At(i, i)+v)
		}
		for _, model := range []Model{Relaxed, Coulomb} {
			p := &Problem{W: w, B: b, Mu: c.Mu}
			cond := fixtures.Condition(w)
			if model == Relaxed {
				p.R, cond = r, fixtures.Condition(wr)
			}
			s := NewSolver()
			s.Settings.Model, s.Settings.Tol, s.Settings.MaxIter, s.Settings.History = model, 1e-8, 200000, true
			start := time.Now()
			res, err := s.Solve(p, nil)
			el := time.Since(start)
			if err != nil {
				t.Fatal(err)
			}
			h := res.History
			name := map[Model]string{Relaxed: "relaxed, near-rigid R", Coulomb: "Coulomb, rigid"}[model]
			t.Logf("%2d spheres (mass ratio %g), %s: cond %.2g; sweeps to 1e-4/1e-6/1e-8: %d/%d/%d; contraction %.5f per sweep; %v",
				st.n, st.ratio, name, cond, sweepsTo(h, 1e-4), sweepsTo(h, 1e-6), sweepsTo(h, 1e-8), rate(h, 50), el.Round(time.Millisecond))
			if st.n == 10 && st.ratio == 1 && res.Stats.Status != Converged {
				t.Errorf("%s: not converged to 1e-8 in %d sweeps", name, res.Iterations)
			}
			if model == Relaxed && st.n <= 20 {
				checkAgainstIPM(t, c, r, res.Gamma, ainvJt)
			}
		}
	}
}

// checkAgainstIPM compares the relaxed PGS solution's velocities with the
// interior-point solution of SAP's primal for the same R.
func checkAgainstIPM(t *testing.T, c fixtures.Contact, r, gamma []float64, ainvJt *mat.Dense) {
	t.Helper()
	rs := make([]float64, len(r))
	for k := 0; k < len(r); k += 3 {
		rs[k], rs[k+1], rs[k+2] = r[k+1], r[k+2], r[k]
	}
	sol, err := socp.NewSAPSolver().Solve(&socp.SAP{A: c.A, VStar: c.VStar, J: c.SAPOrder(), R: rs, VHat: make([]float64, len(r)), Mu: c.Mu})
	if err != nil || sol.Status != socp.Solved {
		t.Fatalf("IPM: %v %v", err, sol.Status)
	}
	v := fixtures.Velocities(ainvJt, c.VStar, gamma)
	if d := maxDiff(v, sol.V) / (1 + maxAbs(sol.V)); d > 1e-6 {
		t.Errorf("PGS and IPM velocities differ by %.1e (relative)", d)
	}
}

// TestOverRelaxation measures the sweeps of SOR on the ten-sphere stack
// (relaxed, near-rigid) for several ω, and requires each to converge.
func TestOverRelaxation(t *testing.T) {
	c := fixtures.SphereStack(10, 0.05, 1, 1, 0.5, 0.01)
	w, b, _ := c.Delassus()
	p := &Problem{W: w, B: b, Mu: c.Mu, R: nearRigid(w)}
	line := ""
	for _, omega := range []float64{0.8, 1, 1.2, 1.4, 1.6, 1.8} {
		s := NewSolver()
		s.Settings.Model, s.Settings.Tol, s.Settings.MaxIter, s.Settings.Omega = Relaxed, 1e-8, 50000, omega
		res, err := s.Solve(p, nil)
		if err != nil || res.Stats.Status != Converged {
			t.Errorf("ω = %v: %v %v", omega, err, res.Stats.Status)
		}
		line += fmt.Sprintf(" ω %.1f: %d;", omega, res.Iterations)
	}
	t.Logf("sweeps to 1e-8, ten spheres:%s", line)
}

// TestWarmStart checks that a solve warm-started from a solution stops
// after at most one sweep, and that a warm start outside K is projected.
func TestWarmStart(t *testing.T) {
	c := fixtures.BoxOnPlane(0.2, 0.1, 0.05, 3, 0.4, 20, 0.01)
	w, b, _ := c.Delassus()
	p := &Problem{W: w, B: b, Mu: c.Mu}
	s := NewSolver()
	s.Settings.Tol, s.Settings.MaxIter = 1e-10, 100000
	cold, _ := s.Solve(p, nil)
	sol := append([]float64(nil), cold.Gamma...)
	warm, _ := s.Solve(p, sol)
	if warm.Stats.Status != Converged || warm.Iterations > 1 {
		t.Errorf("warm start from the solution: %v after %d sweeps (cold: %d)", warm.Stats.Status, warm.Iterations, cold.Iterations)
	}
	bad := make([]float64, len(sol))
	for i := range bad {
		bad[i] = -1 // outside K: projected to 0
	}
	if res, _ := s.Solve(p, bad); res.Stats.Status != Converged {
		t.Errorf("warm start outside K: %v", res.Stats.Status)
	}
	t.Logf("box, 4 contacts, sliding: cold %d sweeps, warm %d", cold.Iterations, warm.Iterations)
}

// TestNoAllocation checks that a warm solver allocates nothing.
func TestNoAllocation(t *testing.T) {
	c := fixtures.SphereStack(5, 0.05, 1, 1, 0.5, 0.01)
	w, b, _ := c.Delassus()
	p := &Problem{W: w, B: b, Mu: c.Mu, R: nearRigid(w)}
	s := NewSolver()
	s.Settings.History = true
	s.Solve(p, nil)
	if a := testing.AllocsPerRun(10, func() { s.Solve(p, nil) }); a != 0 {
		t.Errorf("Solve allocates %v times per run once warmed up", a)
	}
}

// BenchmarkSweep measures one sweep and residual on a stack of 30 spheres
// (90×90 Delassus matrix).
func BenchmarkSweep(b *testing.B) {
	c := fixtures.SphereStack(30, 0.05, 1, 1, 0.5, 0.01)
	w, bv, _ := c.Delassus()
	p := &Problem{W: w, B: bv, Mu: c.Mu, R: nearRigid(w)}
	s := NewSolver()
	s.Settings.Model, s.Settings.MaxIter, s.Settings.Tol = Relaxed, 1, 0
	s.Solve(p, nil)
	b.ReportAllocs()
	for b.Loop() {
		s.Solve(p, nil)
	}
}

// BenchmarkSolveStack solves the ten-sphere stack (relaxed, near-rigid) to
// 1e-8 from a cold start.
func BenchmarkSolveStack(b *testing.B) {
	c := fixtures.SphereStack(10, 0.05, 1, 1, 0.5, 0.01)
	w, bv, _ := c.Delassus()
	p := &Problem{W: w, B: bv, Mu: c.Mu, R: nearRigid(w)}
	s := NewSolver()
	s.Settings.Model, s.Settings.MaxIter = Relaxed, 100000
	res, _ := s.Solve(p, nil)
	for b.Loop() {
		s.Solve(p, nil)
	}
	b.ReportMetric(float64(res.Iterations), "sweeps")
}
