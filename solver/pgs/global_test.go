package pgs

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stiction-sim/stiction/solver"
	"github.com/stiction-sim/stiction/solver/internal/problems"
	"github.com/stiction-sim/stiction/solver/ipm"
	"github.com/stiction-sim/stiction/solver/sap"
)

// relDiff returns ‖a − b‖∞ / ‖b‖∞.
func relDiff(a, b []float64) float64 { return maxDiff(a, b) / maxAbs(b) }

// randomBlocks returns a random problem with n blocks drawn from kinds on
// 2n cliques (loosely coupled, so that Gauss–Seidel converges in a few
// hundred sweeps).
func randomBlocks(rng *rand.Rand, n int, kinds []solver.Kind) *solver.Problem {
	ks := make([]solver.Kind, n)
	for i := range ks {
		ks[i] = kinds[rng.IntN(len(kinds))]
	}
	return problems.Random(rng, 2*n, ks, NearRigid)
}

// TestGlobalAgreesWithIPM: on random problems with friction cones,
// bilateral rows, intervals of every bound pattern, disks and anchored
// Lagged contacts, PGS (εr = 1e-10) reaches the interior-point solver's
// velocities to 1e-6 relative, with plain Gauss–Seidel and with ω = 1.3.
func TestGlobalAgreesWithIPM(t *testing.T) {
	kinds := []solver.Kind{solver.ContactCone, solver.Bilateral, solver.Interval, solver.Disk, solver.ContactLagged}
	rng := rand.New(rand.NewPCG(3, 5))
	ref := ipm.New()
	for trial := range 12 {
		p := randomBlocks(rng, 3+rng.IntN(6), kinds)
		var ri solver.Result
		if err := ref.Solve(p, nil, &ri); err != nil || ri.Stats.Status != solver.Converged {
			t.Fatalf("trial %d: IPM %v %v", trial, err, ri.Stats.Status)
		}
		for _, omega := range []float64{1, 1.3} {
			g := NewGlobal()
			g.Settings.RelTolerance, g.Settings.Omega = 1e-10, omega
			var rp solver.Result
			if err := g.Solve(p, nil, &rp); err != nil {
				t.Fatal(err)
			}
			d := relDiff(rp.V, ri.V)
			t.Logf("trial %d, ω = %g: %v after %d sweeps, e_m %.1e, ‖Δv‖/‖v‖ = %.1e", trial, omega, rp.Stats.Status, rp.Stats.Iterations, rp.Stats.MomentumError, d)
			if rp.Stats.Status != solver.Converged || d > 1e-6 {
				t.Errorf("trial %d, ω = %g: %v after %d sweeps, ‖Δv‖/‖v‖ = %.1e against the IPM", trial, omega, rp.Stats.Status, rp.Stats.Iterations, d)
			}
		}
	}
}

// TestGlobalSoftKindsAgreeWithSAP: the kinds the IPM cannot take (the
// Similar approximation, Lagged contacts without an anchor) are solved by
// PGS to SAP's velocities (both at εr = 1e-10) to 1e-6 relative.
func TestGlobalSoftKindsAgreeWithSAP(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 13))
	prm := sap.DefaultParams()
	prm.RelTolerance = 1e-10
	for trial := range 8 {
		p := randomBlocks(rng, 3+rng.IntN(5), []solver.Kind{solver.ContactSimilar, solver.ContactLagged, solver.ContactCone})
		for i, c := range p.Constraints {
			if c.Kind == solver.ContactLagged {
				p.Params[p.Constraints[i].Par+4] = 0 // soft-norm friction
			}
		}
		var rs, rp solver.Result
		if err := sap.New(prm).Solve(p, nil, &rs); err != nil || rs.Stats.Status != solver.Converged {
			t.Fatalf("trial %d: SAP %v %v", trial, err, rs.Stats.Status)
		}
		g := NewGlobal()
		g.Settings.RelTolerance = 1e-10
		if err := g.Solve(p, nil, &rp); err != nil {
			t.Fatal(err)
		}
		if d := relDiff(rp.V, rs.V); rp.Stats.Status != solver.Converged || d > 1e-6 {
			t.Errorf("trial %d: %v after %d sweeps, ‖Δv‖/‖v‖ = %.1e against SAP", trial, rp.Stats.Status, rp.Stats.Iterations, d)
		}
	}
}

// TestGlobalWarmStart: started from the solution, PGS needs fewer sweeps
// than from a cold start; from a poor warm start it still converges to the
// same velocities.
func TestGlobalWarmStart(t *testing.T) {
	rng := rand.New(rand.NewPCG(2, 9))
	p := randomBlocks(rng, 5, []solver.Kind{solver.ContactCone, solver.Interval})
	g := NewGlobal()
	g.Settings.RelTolerance = 1e-10
	var r1, r2 solver.Result
	if err := g.Solve(p, nil, &r1); err != nil || r1.Stats.Status != solver.Converged {
		t.Fatal(err, r1.Stats.Status)
	}
	if err := g.Solve(p, r1.V, &r2); err != nil || r2.Stats.Status != solver.Converged || r2.Stats.Iterations >= r1.Stats.Iterations {
		t.Errorf("warm start from the solution: %v, %v after %d sweeps (cold: %d)", err, r2.Stats.Status, r2.Stats.Iterations, r1.Stats.Iterations)
	}
	far := make([]float64, p.NV)
	for i := range far {
		far[i] = 100 * rng.NormFloat64()
	}
	if err := g.Solve(p, far, &r2); err != nil || r2.Stats.Status != solver.Converged || relDiff(r2.V, r1.V) > 1e-6 {
		t.Errorf("far warm start: %v, %v, ‖Δv‖/‖v‖ = %.1e", err, r2.Stats.Status, relDiff(r2.V, r1.V))
	}
}

// TestGlobalBadInput: malformed problems, warm starts and settings give
// errors, never a panic.
func TestGlobalBadInput(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 4))
	p := randomBlocks(rng, 3, []solver.Kind{solver.ContactCone})
	var res solver.Result
	g := NewGlobal()
	if err := g.Solve(p, make([]float64, p.NV+1), &res); err == nil {
		t.Error("warm start of the wrong length accepted")
	}
	if err := g.Solve(nil, nil, &res); err == nil {
		t.Error("nil problem accepted")
	}
	for _, set := range []GlobalSettings{
		{MaxIterations: 0, LocalIterations: 1, Omega: 1},
		{MaxIterations: 1, LocalIterations: 0, Omega: 1},
		{MaxIterations: 1, LocalIterations: 1, Omega: 2},
		{MaxIterations: 1, LocalIterations: 1, Omega: 1, RelTolerance: math.NaN()},
	} {
		g.Settings = set
		if err := g.Solve(p, nil, &res); err == nil {
			t.Errorf("settings %+v accepted", set)
		}
	}
	g.Settings = DefaultGlobalSettings()
	bad := p.Clone()
	bad.VStar[0] = math.NaN()
	if err := g.Solve(bad, nil, &res); err == nil {
		t.Error("NaN in v* accepted")
	}
	bad = p.Clone()
	bad.A[0] = -1
	if err := g.Solve(bad, nil, &res); err == nil {
		t.Error("A not positive definite accepted")
	}
}

// TestGlobalMaxIterations: a solve stopped by the sweep limit says so and
// returns finite values.
func TestGlobalMaxIterations(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	p := problems.Random(rng, 2, []solver.Kind{solver.ContactCone, solver.ContactCone, solver.ContactCone, solver.ContactCone}, 1e-3)
	g := NewGlobal()
	g.Settings.MaxIterations, g.Settings.RelTolerance = 3, 1e-14
	var res solver.Result
	if err := g.Solve(p, nil, &res); err != nil {
		t.Fatal(err)
	}
	if res.Stats.Status != solver.MaxIterations || res.Stats.Iterations != 3 {
		t.Errorf("%v after %d sweeps, want max-iterations after 3", res.Stats.Status, res.Stats.Iterations)
	}
	for _, x := range res.V {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			t.Fatal("non-finite velocity")
		}
	}
}

// TestGlobalAllocs: a second solve of a problem of the same shape
// allocates nothing.
func TestGlobalAllocs(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 1))
	p := randomBlocks(rng, 6, []solver.Kind{solver.ContactCone, solver.Bilateral, solver.Interval, solver.Disk, solver.ContactLagged, solver.ContactSimilar})
	g := NewGlobal()
	var res solver.Result
	if err := g.Solve(p, nil, &res); err != nil {
		t.Fatal(err)
	}
	if a := testing.AllocsPerRun(5, func() { g.Solve(p, res.V, &res) }); a != 0 {
		t.Errorf("%v allocations per solve, want 0", a)
	}
}

// NearRigid is SAP's near-rigid regularization factor β²/(4π²) for β = 1
// (eq. 29): R = NearRigid·w for a row whose Delassus diagonal is w.
const NearRigid = 1 / (4 * math.Pi * math.Pi)
