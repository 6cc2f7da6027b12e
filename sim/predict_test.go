package sim_test

import (
	"math"
	"testing"

	"github.com/stiction-sim/stiction/sim"
	"github.com/stiction-sim/stiction/solver"
	"github.com/stiction-sim/stiction/solver/sap"
	"github.com/stiction-sim/stiction/solver/stack"
)

// prediction returns a maker of SAP solvers with the stick prediction on
// or off (sap.Params.StickPrediction).
func prediction(on bool) func(sap.Params) solver.Solver {
	return func(p sap.Params) solver.Solver {
		p.StickPrediction = on
		return sap.New(p)
	}
}

// agree is a solver.Solver that solves each problem with a and with b and
// measures how far apart their solutions are against what the stopping
// criterion allows: ℓp is strongly convex with ∇²ℓp ⪰ A, so any two
// points satisfy ‖v_a − v_b‖_A ≤ ‖∇ℓp(v_a)‖_A⁻¹ + ‖∇ℓp(v_b)‖_A⁻¹, the
// right side being small when both solves met eq. (26).
type agree struct {
	a, b        solver.Solver
	other       solver.Result
	fa          solver.CliqueFactor
	solves      int
	worstRel    float64 // max ‖v_a − v_b‖_A / ‖v_a‖_A
	worstBound  float64 // max ‖v_a − v_b‖_A / (‖g_a‖_A⁻¹ + ‖g_b‖_A⁻¹)
	worstEm     float64 // max e_m of both
	notConv     int     // solves of either that did not converge
	itersA      int
	itersB      int
	t           testing.TB
	scratch, dv []float64
}

func (c *agree) Solve(p *solver.Problem, v0 []float64, res *solver.Result) error {
	if err := c.a.Solve(p, v0, res); err != nil {
		return err
	}
	if err := c.b.Solve(p, v0, &c.other); err != nil {
		return err
	}
	c.solves++
	c.itersA += res.Stats.Iterations
	c.itersB += c.other.Stats.Iterations
	for _, st := range []solver.Stats{res.Stats, c.other.Stats} {
		if !st.OK() {
			c.notConv++
		}
		c.worstEm = max(c.worstEm, st.MomentumError)
	}
	if err := c.fa.Factor(p); err != nil {
		return err
	}
	c.dv = solver.Resize(c.dv, p.NV)
	for i, x := range res.V {
		c.dv[i] = x - c.other.V[i]
	}
	diff := math.Sqrt(c.normA(p, c.dv, false))
	size := math.Sqrt(c.normA(p, res.V, false))
	bound := math.Sqrt(c.gradNormAinv(p, res.V)) + math.Sqrt(c.gradNormAinv(p, c.other.V))
	c.worstRel = max(c.worstRel, diff/max(size, 1e-300))
	if bound > 0 {
		c.worstBound = max(c.worstBound, diff/bound)
	} else if diff > 0 {
		c.worstBound = math.Inf(1)
	}
	return nil
}

// normA returns xᵀA x, or xᵀA⁻¹x with inverse.
func (c *agree) normA(p *solver.Problem, x []float64, inverse bool) float64 {
	c.scratch = solver.Resize(c.scratch, p.NV)
	if inverse {
		copy(c.scratch, x)
		for _, q := range p.Cliques {
			c.fa.Solve(q, c.scratch[q.Offset:q.Offset+q.Size], 1)
		}
	} else {
		p.MulA(x, c.scratch)
	}
	s := 0.0
	for i, xi := range x {
		s += xi * c.scratch[i]
	}
	return s
}

// gradNormAinv returns ‖∇ℓp(v)‖²_A⁻¹.
func (c *agree) gradNormAinv(p *solver.Problem, v []float64) float64 {
	e, err := sap.Evaluate(p, v)
	if err != nil {
		c.t.Fatal(err)
	}
	return c.normA(p, e.Gradient, true)
}

// TestStickPredictionSameSolutions: every contact problem of the first
// 300 steps of clutter-40 (the drop and the pile's formation, where the
// prediction acts most) is solved with and without the stick prediction:
// both converge with e_m ≤ εr, and their solutions are as close as the
// stopping criterion allows, ‖v_a − v_b‖_A ≤ ‖∇ℓp(v_a)‖_A⁻¹ + ‖∇ℓp(v_b)‖_A⁻¹.
// The trajectory follows the predicted solves.
func TestStickPredictionSameSolutions(t *testing.T) {
	sc := loadPeerScene(t, "clutter-40")
	c := &agree{t: t}
	s, _ := withSolver(t, sc, func(p sap.Params) solver.Solver {
		c.a, c.b = prediction(true)(p), prediction(false)(p)
		return c
	})
	runSteps(t, s, 300)
	t.Logf("%d solves: worst ‖Δv‖_A/‖v‖_A = %.3g, worst ‖Δv‖_A / bound = %.3g, worst e_m %.3g, not converged %d; Newton iterations %d with prediction, %d without",
		c.solves, c.worstRel, c.worstBound, c.worstEm, c.notConv, c.itersA, c.itersB)
	if c.notConv > 0 || c.worstEm > 1e-6 {
		t.Errorf("%d solves did not converge, worst e_m %g", c.notConv, c.worstEm)
	}
	if c.worstBound > 1 {
		t.Errorf("solutions differ by %g times the stopping criterion's bound", c.worstBound)
	}
	if c.itersA >= c.itersB {
		t.Errorf("prediction took %d iterations, without %d", c.itersA, c.itersB)
	}
}

// TestStickPredictionTrajectory: the first second of clutter-40 (100
// steps: the drop, the first impacts and the start of the pile) with the
// stick prediction (new), without it (the previous code, old), and without
// it at a 10× tighter tolerance εr/10 (tight). The pile amplifies any
// difference by about 10× per 0.1 s, so "the same to solver tolerance" is
// measured against the solver tolerance's own effect: over every step, the
// largest body position difference between new and old is at most the
// largest between old and tight (measured: 6.4e-3 m against 4.9e-2 m over
// 100 steps).
func TestStickPredictionTrajectory(t *testing.T) {
	mk := func(on bool, tol float64) func(sap.Params) solver.Solver {
		return func(p sap.Params) solver.Solver {
			p.StickPrediction = on
			p.RelTolerance *= tol
			return sap.New(p)
		}
	}
	var sims [3]*sim.Simulator // new, old, tight
	for k, c := range []func(sap.Params) solver.Solver{mk(true, 1), mk(false, 1), mk(false, 0.1)} {
		sc := loadPeerScene(t, "clutter-40")
		// The number of substeps (contact.substep_tolerance) is another
		// discrete decision of the same kind: with substeps, |new − old|
		// 6.1e-4 m against |old − tight| 4.9e-4 m over 100 steps. All
		// three take whole steps.
		sc.Contact.SubstepTolerance = ptr(0.0)
		// The refiner's 1e-4 threshold for sliding contacts is a discrete
		// decision that a difference at the solver's tolerance flips, and
		// the pile amplifies each flip: with it, |new − old| and
		// |old − tight| both measure those flips (8.6e-3 m against 7.5e-3 m
		// after 100 steps, 2.3e-7 against 3.7e-7 after 50). The test
		// compares the prediction with the solver's tolerance, so all three
		// take the 1% threshold for every contact.
		sims[k], _ = withSolverLag(t, sc, c, func(l *stack.Lag) { l.SlideTolerance = 0 })
	}
	var iters [3]int
	worstNew, worstTight := 0.0, 0.0
	for step := 1; step <= 100; step++ {
		for k, s := range sims {
			st, err := s.Step()
			if err != nil {
				t.Fatal(err)
			}
			iters[k] += st.Iterations
		}
		dn, dt := bodyDistance(sims[0], sims[1]), bodyDistance(sims[1], sims[2])
		worstNew, worstTight = max(worstNew, dn), max(worstTight, dt)
		if step%10 == 0 {
			t.Logf("step %3d: |new − old| %.3g m, |old − tight| %.3g m", step, dn, dt)
		}
	}
	t.Logf("largest over 100 steps: |new − old| %.3g m, |old − tight| %.3g m; Newton iterations new %d, old %d, tight %d",
		worstNew, worstTight, iters[0], iters[1], iters[2])
	if worstNew > worstTight {
		t.Errorf("the prediction moved bodies by %g m, more than a 10× tighter tolerance does (%g m)", worstNew, worstTight)
	}
}

// bodyDistance returns the largest distance between the positions of the
// same body in a and b.
func bodyDistance(a, b *sim.Simulator) float64 {
	d := 0.0
	for k := range a.Model.Bodies {
		if a.Model.Bodies[k].Tree < 0 {
			continue // welded to the world
		}
		d = max(d, a.Model.BodyPose(a.State, k).P.Sub(b.Model.BodyPose(b.State, k).P).Norm())
	}
	return d
}
