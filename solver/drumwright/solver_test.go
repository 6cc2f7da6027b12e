package drumwright

import (
	"math"
	"testing"

	"github.com/stiction-sim/stiction/solver"
	"github.com/stiction-sim/stiction/solver/sap"
)

// TestBilateralIsOneLinearSolve: with bilateral rows only, the impulses
// solve (W + R)γ = v̂ − J v* (D. eq. 60–61) to round-off, and agree with
// SAP's minimizer of the same problem.
func TestBilateralIsOneLinearSolve(t *testing.T) {
	p := particle(2, [3]float64{0.3, -0.1, -0.0981})
	addRows(p, solver.Bilateral, []int{0, 2}, []float64{0.01, -0.02}, []float64{1e-9, 1e-3})
	addRows(p, solver.Bilateral, []int{1}, []float64{0.05}, []float64{1e-6})
	res := solve(t, p, DefaultParams(0.01))
	if res.Stats.Status != solver.Converged || res.Stats.Iterations != 0 {
		t.Fatalf("status %v, %d interior-point iterations (want a linear solve)", res.Stats.Status, res.Stats.Iterations)
	}
	// W = I/m here: (1/m + R_i)γ_i = v̂_i − v*_i row by row.
	axes := []int{0, 2, 1}
	for i, ax := range axes {
		want := (p.VHat[i] - p.VStar[ax]) / (0.5 + p.R[i])
		if math.Abs(res.Gamma[i]-want) > 1e-12*math.Abs(want) {
			t.Errorf("row %d: γ = %.17g, want %.17g", i, res.Gamma[i], want)
		}
	}
	ref := &solver.Result{}
	if err := sap.New(sap.DefaultParams()).Solve(p, nil, ref); err != nil {
		t.Fatal(err)
	}
	for k := range res.V {
		if d := math.Abs(res.V[k] - ref.V[k]); d > 1e-9*(1+math.Abs(ref.V[k])) {
			t.Errorf("v[%d] = %g, SAP %g", k, res.V[k], ref.V[k])
		}
	}
}

// TestUnilateralClosedForm: one limit row gives D. eq. 68's
// γ = max(0, (v̂ − J v*)/(W + R)), pushing or not.
func TestUnilateralClosedForm(t *testing.T) {
	for _, vz := range []float64{-0.5, 0.5} {
		p := particle(3, [3]float64{0, 0, vz})
		addRows(p, solver.Interval, []int{2}, []float64{0.001}, []float64{1e-7}, 0, math.Inf(1))
		res := solve(t, p, DefaultParams(0.01))
		want := math.Max(0, (0.001-vz)/(1.0/3+1e-7))
		if res.Stats.Status != solver.Converged || math.Abs(res.Gamma[0]-want) > 1e-8*(1+want) {
			t.Errorf("v*_z = %g: γ = %.12g (%v), want %.12g", vz, res.Gamma[0], res.Stats.Status, want)
		}
	}
}

// TestContactStickSlip: a point mass on a plane pushed sideways. Sliding
// (μ = 0.1): the normal impulse is the spring's, mg h + the spring's
// response, friction is μγ_n against the slide. Sticking (μ = 1): the
// tangential velocity is that of the stiff friction damper, |v_t| ≤
// 2 R_t |γ_t|. The paper's joint weighting would instead raise γ_n a
// hundredfold to stop the slide (see qcqp.go).
func TestContactStickSlip(t *testing.T) {
	h, m, k := 0.01, 1.0, 1e8
	rn, rt := solver.CompliantR(k, 0, h), 1e-6
	for _, c := range []struct{ mu, vt float64 }{{0.1, 1}, {0.1, 0.001}, {1, 0.5}, {1, 0.01}} {
		p := particle(m, [3]float64{c.vt, 0, -9.81 * h})
		addRows(p, solver.ContactCone, []int{0, 1, 2}, []float64{0, 0, 0}, []float64{rt, rt, rn}, c.mu)
		res := solve(t, p, DefaultParams(h))
		gn := 9.81 * h / (1/m + rn) // spring law with v_n = v*_n + γ_n/m
		if res.Stats.Status != solver.Converged || math.Abs(res.Gamma[2]-gn) > 1e-7*gn {
			t.Fatalf("μ %g v_t %g: γ_n = %.10g (%v), want %.10g", c.mu, c.vt, res.Gamma[2], res.Stats.Status, gn)
		}
		if slide := c.mu*gn < m*c.vt; slide {
			if math.Abs(res.Gamma[0]+c.mu*gn) > 1e-7*gn || math.Abs(res.Gamma[1]) > 1e-9 {
				t.Errorf("μ %g v_t %g sliding: γ_t = (%g, %g), want (%g, 0)", c.mu, c.vt, res.Gamma[0], res.Gamma[1], -c.mu*gn)
			}
		} else if math.Abs(res.VC[0]) > 2*rt*math.Abs(res.Gamma[0]) {
			t.Errorf("μ %g v_t %g sticking: v_t = %g, γ_t = %g", c.mu, c.vt, res.VC[0], res.Gamma[0])
		}
		t.Logf("μ %g v*_t %g: γ = %.6g, v = %.6g, %d interior-point iterations", c.mu, c.vt, res.Gamma, res.V, res.Stats.Iterations)
	}
}

// TestBadInput: a malformed problem is an error, not a panic.
func TestBadInput(t *testing.T) {
	p := particle(1, [3]float64{math.NaN(), 0, 0})
	if err := New(DefaultParams(0.01)).Solve(p, nil, &solver.Result{}); err == nil {
		t.Error("NaN v*: no error")
	}
	p = particle(1, [3]float64{})
	addRows(p, solver.Bilateral, []int{0}, []float64{0}, []float64{-1})
	if err := New(DefaultParams(0.01)).Solve(p, nil, &solver.Result{}); err == nil {
		t.Error("negative R: no error")
	}
	if err := (Params{Zeta: 0, MaxOuter: 1, Tolerance: 1}).Validate(); err == nil {
		t.Error("ζ = 0: no error")
	}
}

// TestNoAllocations: a warmed-up solve of the same contact problem does not
// allocate.
func TestNoAllocations(t *testing.T) {
	h := 0.01
	p := particle(1, [3]float64{0.2, 0, -9.81 * h})
	addRows(p, solver.ContactCone, []int{0, 1, 2}, []float64{0, 0, 0}, []float64{1e-6, 1e-6, 1e-6}, 0.5)
	addRows(p, solver.Interval, []int{0}, []float64{0}, []float64{1e-6}, -0.01, 0.01)
	s := New(DefaultParams(h))
	res := &solver.Result{}
	if err := s.Solve(p, nil, res); err != nil {
		t.Fatal(err)
	}
	if n := testing.AllocsPerRun(20, func() { _ = s.Solve(p, nil, res) }); n != 0 {
		t.Errorf("%v allocations per warmed-up solve", n)
	}
}

// TestNonConvergedIsFinite: a cone solve cut short (2 interior-point
// iterations) reports it in the status and still returns finite v, γ, v_c.
func TestNonConvergedIsFinite(t *testing.T) {
	h := 0.01
	p := particle(1, [3]float64{1, 0.5, -9.81 * h})
	addRows(p, solver.ContactCone, []int{0, 1, 2}, []float64{0, 0, 0}, []float64{1e-6, 1e-6, 1e-6}, 0.3)
	prm := DefaultParams(h)
	prm.Cone.MaxIter, prm.Cone.Polish = 2, false
	res := solve(t, p, prm)
	if res.Stats.Status == solver.Converged {
		t.Errorf("status %v after a 2-iteration cone solve", res.Stats.Status)
	}
	for _, x := range [][]float64{res.V, res.Gamma, res.VC} {
		if !allFinite(x) {
			t.Fatalf("non-finite result %v", res)
		}
	}
	t.Logf("status %v, γ = %.4g", res.Stats.Status, res.Gamma)
}

// TestBoundedIntervalIsClampedSpring: a bounded interval row (an actuator
// with an effort limit) follows its spring law (v̂ − J v*)/(W + R) inside
// its bounds and stops at the bound outside them.
func TestBoundedIntervalIsClampedSpring(t *testing.T) {
	for _, vx := range []float64{0.001, -0.004, 0.05} {
		p := particle(2, [3]float64{vx, 0, 0})
		addRows(p, solver.Interval, []int{0}, []float64{0}, []float64{0.3}, -0.005, 0.005)
		res := solve(t, p, DefaultParams(0.01))
		want := math.Max(-0.005, math.Min(0.005, -vx/(0.5+0.3)))
		if res.Stats.Status != solver.Converged || math.Abs(res.Gamma[0]-want) > 1e-8*(1e-3+math.Abs(want)) {
			t.Errorf("v*_x = %g: γ = %.10g (%v), want %.10g", vx, res.Gamma[0], res.Stats.Status, want)
		}
	}
}

// TestRegistryParams: the parameters of a solver built by name are valid
// and carry the iteration limit and ζ = 1/h of the scene's time step
// (h = 10 ms when unknown).
func TestRegistryParams(t *testing.T) {
	for _, c := range []struct{ dt, zeta float64 }{{0, 100}, {0.001, 1000}, {0.02, 50}} {
		p := RegistryParams(c.dt, 7)
		if err := p.Validate(); err != nil || p.Cone.MaxIter != 7 || math.Abs(p.Zeta-c.zeta) > 1e-9*c.zeta {
			t.Errorf("dt %g: %+v: %v", c.dt, p, err)
		}
	}
}
