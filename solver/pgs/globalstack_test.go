package pgs

import (
	"math"
	"testing"
	"time"

	"github.com/stiction-sim/stiction/internal/fixtures"
	"github.com/stiction-sim/stiction/solver"
	"github.com/stiction-sim/stiction/solver/sap"
)

// stackProblem returns the sphere stack of fixtures.SphereStack (n spheres
// of radius 5 cm, the lowest 1 kg, each next one ratio times heavier,
// μ = 0.5, one step of 10 ms from rest) as a
// solver.Problem with SAP's near-rigid regularization (eq. 29–30, β = 1,
// σ = 1e-3: R_n = W_nn/(4π²), R_t = σ (W_t1t1 + W_t2t2)/2) and v̂ = 0.
func stackProblem(n int, ratio float64) *solver.Problem {
	c := fixtures.SphereStack(n, 0.05, 1, ratio, 0.5, 0.01)
	w, _, _ := c.Delassus()
	nv, _ := c.A.Dims()
	var p solver.Problem
	p.Reset(nv)
	for b := range n {
		p.Cliques = append(p.Cliques, solver.Clique{Offset: 6 * b, Size: 6, AOff: 36 * b})
		for i := range 6 {
			for j := range 6 {
				p.A = append(p.A, c.A.At(6*b+i, 6*b+j))
			}
		}
	}
	copy(p.VStar, c.VStar)
	for i := range nv {
		p.MDiag[i] = c.A.At(i, i)
	}
	order := [3]int{1, 2, 0} // SAP rows (t1, t2, n) from the fixture's (n, t1, t2)
	for k := range n {
		ci := p.AddConstraint(solver.ContactCone, 3, c.Mu[k])
		for _, b := range []int{k - 1, k} {
			if b < 0 {
				continue
			}
			d := p.AddJBlock(ci, b)
			for r, src := range order {
				for j := range 6 {
					d[r*6+j] = c.J.At(3*k+src, 6*b+j)
				}
			}
		}
		rn := w.At(3*k, 3*k) / (4 * math.Pi * math.Pi)
		rt := 1e-3 * (w.At(3*k+1, 3*k+1) + w.At(3*k+2, 3*k+2)) / 2
		p.R[3*k], p.R[3*k+1], p.R[3*k+2] = rt, rt, rn
	}
	return &p
}

// TestGlobalStiffStack measures how slowly PGS converges on a stack of
// spheres with SAP's near-rigid regularization, from a cold start: the
// sweeps to reach e_m ≤ 1e-6 (SAP's default εr) and 1e-9, against SAP's
// Newton iterations on the same problem (εr = 1e-12), and requires PGS to
// converge to SAP's velocities (1e-5 relative at 1e-6, 1e-8 at 1e-9). 10
// equal spheres; STICTION_LONG=1 (or -long) adds 20 and 40 and stacks
// whose masses double from one sphere to the next.
func TestGlobalStiffStack(t *testing.T) {
	type stack struct {
		n     int
		ratio float64
	}
	stacks := []stack{{10, 1}}
	if longRun() {
		stacks = append(stacks, stack{20, 1}, stack{40, 1}, stack{5, 2}, stack{10, 2})
	}
	prm := sap.DefaultParams()
	prm.RelTolerance = 1e-12
	for _, st := range stacks {
		p := stackProblem(st.n, st.ratio)
		var rs solver.Result
		t0 := time.Now()
		if err := sap.New(prm).Solve(p, nil, &rs); err != nil || rs.Stats.Status != solver.Converged {
			t.Fatalf("%d spheres: SAP %v %v", st.n, err, rs.Stats.Status)
		}
		ts := time.Since(t0)
		for _, c := range []struct{ tol, agree float64 }{{1e-6, 1e-5}, {1e-9, 1e-8}} {
			g := NewGlobal()
			g.Settings.MaxIterations, g.Settings.RelTolerance = 1000000, c.tol
			var rp solver.Result
			t0 = time.Now()
			if err := g.Solve(p, nil, &rp); err != nil {
				t.Fatal(err)
			}
			tp := time.Since(t0)
			d := relDiff(rp.V, rs.V)
			t.Logf("%d spheres, mass ratio %g: SAP %d Newton iterations (%v); PGS to e_m ≤ %g: %v after %d sweeps (%v); ‖Δv‖/‖v‖ = %.1e",
				st.n, st.ratio, rs.Stats.Iterations, ts.Round(time.Microsecond), c.tol, rp.Stats.Status, rp.Stats.Iterations, tp.Round(time.Microsecond), d)
			if rp.Stats.Status != solver.Converged || d > c.agree {
				t.Errorf("%d spheres: PGS %v after %d sweeps, ‖Δv‖/‖v‖ = %.1e against SAP", st.n, rp.Stats.Status, rp.Stats.Iterations, d)
			}
		}
	}
}
