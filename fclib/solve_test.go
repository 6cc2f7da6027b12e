package fclib

import (
	"math"
	"testing"

	"github.com/stiction-sim/stiction/solver"
)

// particle returns a unit point mass on the ground pushed by the impulse
// f = (fx, 0, −1) (velocities x, y, z; one contact with normal z, μ = 0.5):
// M = I, H maps (n, t1, t2) to (z, x, y), w = 0. Its local form has W = I,
// q = Hᵀ f.
func particle(fx float64) (global, local *Problem) {
	h := compress(3, 3, []int{2, 0, 1}, []int{0, 1, 2}, []float64{1, 1, 1})
	id := compress(3, 3, []int{0, 1, 2}, []int{0, 1, 2}, []float64{1, 1, 1})
	g := &GlobalProblem{SpaceDim: 3, M: id, H: h, F: []float64{fx, 0, -1}, W: make([]float64, 3), Mu: []float64{0.5}}
	l := &LocalProblem{SpaceDim: 3, W: id, Q: []float64{-1, fx, 0}, Mu: []float64{0.5}}
	return &Problem{Name: "particle", Global: g}, &Problem{Name: "particle-local", Local: l}
}

// TestSolveParticle checks the whole pipeline (orderings, signs) against
// the analytic solutions. Pushed with fx = 0.1 < μ the particle sticks:
// v = 0, r = (1, −0.1, 0). Pushed with fx = 3 it slides; the convex
// relaxation SAP solves then glides: v = (2, 0, 1), r = (2, −1, 0), with
// u_N = μ‖u_T‖ = 1 (Coulomb's answer would be v = (2.5, 0, 0)).
func TestSolveParticle(t *testing.T) {
	cases := []struct {
		fx      float64
		v, r    []float64
		sliding bool
	}{
		{0.1, []float64{0, 0, 0}, []float64{1, -0.1, 0}, false},
		{3, []float64{2, 0, 1}, []float64{2, -1, 0}, true},
	}
	for _, c := range cases {
		g, l := particle(c.fx)
		for _, p := range []*Problem{g, l} {
			s, err := Solve(p, Options{Eps: 1e-4, Refine: 50})
			if err != nil {
				t.Fatal(err)
			}
			if s.Stats.Status != solver.Converged || !near(s.R, c.r, 1e-9) || (p.Global != nil && !near(s.V, c.v, 1e-9)) {
				t.Errorf("%s, fx = %v: %v, v = %v, r = %v; want v = %v, r = %v", p.Name, c.fx, s.Stats.Status, s.V, s.R, c.v, c.r)
			}
			if (s.Slide == 1) != c.sliding || s.Residuals.Relaxed() > 1e-10 {
				t.Errorf("%s, fx = %v: %d sliding, residuals %+v", p.Name, c.fx, s.Slide, s.Residuals)
			}
		}
	}
}

func near(a, b []float64, tol float64) bool {
	for i := range a {
		if math.Abs(a[i]-b[i]) > tol {
			return false
		}
	}
	return len(a) == len(b)
}

// logSolution prints one row of results.
func logSolution(t *testing.T, name string, s *Solution) {
	t.Helper()
	r := s.Residuals
	t.Logf("%-44s ε %.1e %-10s passes %2d iters %3d %9v eq %.2e relaxed %.2e regularized %.2e Coulomb %.2e stick/slide/separate %d/%d/%d",
		name, s.Mapping.Eps, s.Stats.Status, s.Passes, s.Iterations, s.Wall, r.Equation, r.Relaxed(), r.Regularized(), r.Coulomb(), s.Stick, s.Slide, s.Separate)
}

// localRegEps is the ε at which the local problem's regularised residual is
// checked: its u = W r + q turns SAP's momentum error e_m into a cone
// residual up to λmax(W) ≈ 2700 times larger (relative to ‖r‖), so it needs
// the smaller round-off floor of a larger ε (e_m ≈ 1e-13 at ε = 1e-3).
const localRegEps = 1e-3

// TestSolveRegularized solves the five samples once (no refinement): SAP
// converges and the regularised residual, the optimality condition of the
// problem SAP solves, is at most 1e-10. Global problems use DefaultEps and
// DefaultTol, the local one localRegEps.
func TestSolveRegularized(t *testing.T) {
	for _, name := range sampleFiles {
		p := readProblem(t, name)
		opt := Options{}
		if p.Local != nil {
			opt.Eps = localRegEps
		}
		s, err := Solve(p, opt)
		if err != nil {
			t.Fatal(err)
		}
		logSolution(t, name, s)
		if s.Stats.Status != solver.Converged || s.Residuals.Regularized() > 1e-10 {
			t.Errorf("%s: status %v, regularised residual %.3g (want converged, ≤ 1e-10)", name, s.Stats.Status, s.Residuals.Regularized())
		}
	}
}

// sweepTol is SAP's relative tolerance in the ε sweep: "converged" then
// means e_m < 1e-8, consistent with the 1e-8 target of the relaxed
// residual, whose equation part is ≈ e_m.
const sweepTol = 1e-8

// TestSweepRelaxed finds, for each sample, the smallest ε of SweepEps for
// which a single SAP solve still converges, and checks that the residual
// of the convex relaxation is at most 1e-8 there, and the Coulomb residual
// too when no contact slides. The local problem cannot meet this target
// with a single solve (see the package documentation: its best relaxed
// residual is ≈ 2e-6); TestRefineRelaxed checks it with refinement.
func TestSweepRelaxed(t *testing.T) {
	for _, name := range sampleFiles {
		p := readProblem(t, name)
		sols, err := Sweep(p, Options{Tol: sweepTol})
		if err != nil {
			t.Fatal(err)
		}
		s := SmallestConverged(sols)
		if s == nil {
			t.Errorf("%s: SAP does not converge at ε = %g", name, sols[0].Mapping.Eps)
			continue
		}
		logSolution(t, name, s)
		if p.Local != nil {
			continue // documented limitation, checked by TestRefineRelaxed
		}
		if r := s.Residuals; r.Relaxed() > 1e-8 || (s.Slide == 0 && r.Coulomb() > 1e-8) {
			t.Errorf("%s at ε = %.1e: relaxed residual %.3g, Coulomb %.3g with %d sliding (want ≤ 1e-8)", name, s.Mapping.Eps, r.Relaxed(), r.Coulomb(), s.Slide)
		}
	}
}

// TestRefineRelaxed solves the five samples at ε = 1e-4 with proximal
// refinement: every solve converges, the relaxed residual is at most 1e-8
// (the refinement aims at 1e-10), the Coulomb residual too when no contact
// slides, and the regularised residual of the last solve at most 1e-10.
func TestRefineRelaxed(t *testing.T) {
	for _, name := range sampleFiles {
		s, err := Solve(readProblem(t, name), Options{Eps: 1e-4, Refine: 100})
		if err != nil {
			t.Fatal(err)
		}
		logSolution(t, name, s)
		r := s.Residuals
		if s.Stats.Status != solver.Converged || r.Relaxed() > 1e-8 || r.Regularized() > 1e-10 || (s.Slide == 0 && r.Coulomb() > 1e-8) {
			t.Errorf("%s: %v, residuals relaxed %.3g, regularised %.3g, Coulomb %.3g with %d sliding", name, s.Stats.Status, r.Relaxed(), r.Regularized(), r.Coulomb(), s.Slide)
		}
	}
}
