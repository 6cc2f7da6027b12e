package pgs

import (
	"testing"

	"github.com/stiction-sim/stiction/internal/fixtures"
	"github.com/stiction-sim/stiction/opt/lcp"
	"gonum.org/v1/gonum/mat"
)

// problemOf returns the PGS problem of a fixtures scene and A⁻¹Jᵀ.
func problemOf(c fixtures.Contact) (*Problem, *mat.Dense) {
	w, b, ainvJt := c.Delassus()
	return &Problem{W: w, B: b, Mu: c.Mu}, ainvJt
}

// TestFrictionlessStackMatchesLemke solves frictionless box stacks (normal
// LCP with a singular Delassus matrix: four redundant contacts per box)
// with PGS and with Lemke's method on the normal rows; the velocities,
// which are unique, must agree.
func TestFrictionlessStackMatchesLemke(t *testing.T) {
	for _, nb := range []int{1, 3} {
		c := fixtures.BoxStack(nb, 0.2, 0.1, 0.05, 1, 0, 0, 0.01)
		p, ainvJt := problemOf(c)
		s := NewSolver()
		s.Settings.Tol, s.Settings.MaxIter = 1e-12, 200000
		res, err := s.Solve(p, nil)
		if err != nil || res.Stats.Status != Converged {
			t.Fatalf("%d boxes: %v %v (residual %.1e after %d sweeps)", nb, err, res.Stats.Status, res.Residual, res.Iterations)
		}
		v := fixtures.Velocities(ainvJt, c.VStar, res.Gamma)
		// Normal LCP: w_n = W_nn γ_n + b_n.
		nc := len(c.Mu)
		m := mat.NewDense(nc, nc, nil)
		q := make([]float64, nc)
		for i := range nc {
			q[i] = p.B[3*i]
			for j := range nc {
				m.Set(i, j, p.W.At(3*i, 3*j))
			}
		}
		var l lcp.Lemke
		lr, err := l.Solve(m, q)
		if err != nil || lr.Status != lcp.Solved {
			t.Fatalf("Lemke: %v %v", err, lr.Status)
		}
		gamma := make([]float64, 3*nc)
		for i := range nc {
			gamma[3*i] = lr.Z[i]
		}
		vl := fixtures.Velocities(ainvJt, c.VStar, gamma)
		if d := maxDiff(v, vl); d > 1e-9 {
			t.Errorf("%d boxes: PGS and Lemke velocities differ by %.1e", nb, d)
		}
		t.Logf("%d boxes, frictionless: PGS %d sweeps to 1e-12, Lemke %d pivots, |v_PGS − v_Lemke|∞ = %.1e", nb, res.Iterations, lr.Pivots, maxDiff(v, vl))
	}
}

// TestBoxMatchesPyramid compares PGS with the exact cone and the pivoting
// solution with the square pyramid on a box pushed along x, a vertex
// direction of the pyramid, where the two friction sets give the same
// answer: sticking below μ m g, sliding above (v unique, γ not).
func TestBoxMatchesPyramid(t *testing.T) {
	for _, push := range []float64{5, 20} {
		c := fixtures.BoxOnPlane(0.2, 0.1, 0.05, 3, 0.4, push, 0.01)
		p, ainvJt := problemOf(c)
		s := NewSolver()
		s.Settings.Tol, s.Settings.MaxIter = 1e-12, 100000
		res, err := s.Solve(p, nil)
		if err != nil || res.Stats.Status != Converged {
			t.Fatalf("push %v: %v %v", push, err, res.Stats.Status)
		}
		v := fixtures.Velocities(ainvJt, c.VStar, res.Gamma)
		f := lcp.FrictionLCP{Facets: 4}
		sol, err := f.Solve(&lcp.Contact{A: c.A, J: c.J, VStar: c.VStar, Mu: c.Mu})
		if err != nil || sol.LCP.Status != lcp.Solved {
			t.Fatalf("pyramid: %v", err)
		}
		if d := maxDiff(v, sol.V); d > 1e-9 {
			t.Errorf("push %v: PGS v = %v, pivoting v = %v", push, v, sol.V)
		}
		t.Logf("push %v N: PGS %d sweeps, v_x = %.6f; pivoting %d pivots; |Δv|∞ = %.1e", push, res.Iterations, v[3], sol.LCP.Pivots, maxDiff(v, sol.V))
	}
}
