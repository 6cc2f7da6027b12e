package sap

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/stiction-sim/stiction/solver"
	"github.com/stiction-sim/stiction/solver/internal/problems"
)

// peers5Problem returns a random problem of 1–4 cliques with several
// ContactLagged blocks, half of them without an anchor (the soft-norm
// friction, stick 0), beside a cone and an interval block.
func peers5Problem(rng *rand.Rand, trial int) *solver.Problem {
	kinds := []solver.Kind{solver.ContactLagged, solver.ContactLagged, solver.ContactLagged,
		solver.ContactCone, solver.ContactLagged, solver.Interval}
	p := problems.Random(rng, 1+trial%4, kinds, 0.025)
	for _, c := range p.Constraints {
		if c.Kind == solver.ContactLagged && rng.IntN(2) == 0 {
			p.Params[c.Par+4] = 0 // no anchor: the soft norm (lagged.go)
		}
	}
	return p
}

// peers5Relag changes n0 of the problem's ContactLagged blocks as a
// refiner might and some more: kept, set to the solve's normal impulse,
// nudged by one part in 10⁶, scaled by 3, or set to 0; with stuck, only
// the anchored blocks whose friction is below half its bound, each nudged
// up by one part in 10⁶ (inside its disk at both radii). It returns how
// many blocks it changed.
func peers5Relag(rng *rand.Rand, p *solver.Problem, gamma []float64, stuck bool) int {
	changed := 0
	for i, c := range p.Constraints {
		if c.Kind != solver.ContactLagged {
			continue
		}
		n0 := p.LaggedNormal(i)
		if stuck {
			par := p.Params[c.Par : c.Par+5]
			if par[4] != 0 && math.Hypot(gamma[c.Row], gamma[c.Row+1]) < 0.5*par[0]*n0 {
				p.SetLaggedNormal(i, n0*(1+1e-6))
				changed++
			}
			continue
		}
		switch rng.IntN(5) {
		case 0:
			continue
		case 1:
			p.SetLaggedNormal(i, max(gamma[c.Row+2], 0))
		case 2:
			p.SetLaggedNormal(i, n0*(1+1e-6))
		case 3:
			p.SetLaggedNormal(i, 3*n0)
		case 4:
			p.SetLaggedNormal(i, 0)
		}
		changed++
	}
	return changed
}

// peers5SameIterate reports the first field in which a and b differ in a
// bit ("" if none).
func peers5SameIterate(a, b *iterate) string {
	vecs := []struct {
		name string
		x, y []float64
	}{{"v", a.v, b.v}, {"vc", a.vc, b.vc}, {"gamma", a.gamma, b.gamma}, {"g", a.g, b.g}, {"ci", a.ci, b.ci},
		{"r", a.r, b.r}, {"jc", a.jc, b.jc}, {"grad", a.grad, b.grad}}
	for _, f := range vecs {
		if !identical(f.x, f.y) {
			return f.name
		}
	}
	nums := []struct {
		name string
		x, y float64
	}{{"cost", a.cost, b.cost}, {"costA", a.costA, b.costA}, {"costC", a.costC, b.costC},
		{"gradNorm", a.gradNorm, b.gradNorm}, {"pNorm", a.pNorm, b.pNorm}, {"jcNorm", a.jcNorm, b.jcNorm}}
	for _, f := range nums {
		if !sameBit(f.x, f.y) {
			return f.name
		}
	}
	return ""
}

// peers5Clone returns a deep copy of it.
func peers5Clone(it *iterate) iterate {
	c := *it
	c.v, c.vc, c.gamma, c.g = slices.Clone(it.v), slices.Clone(it.vc), slices.Clone(it.gamma), slices.Clone(it.g)
	c.ci, c.r, c.jc, c.grad = slices.Clone(it.ci), slices.Clone(it.r), slices.Clone(it.jc), slices.Clone(it.grad)
	return c
}

// TestPeers5ReevaluateMatchesEvaluate: after a solve, with the lagged
// impulses n0 of some ContactLagged blocks changed, the re-solve's
// evaluation of the returned iterate (reevaluate, which keeps J v,
// A(v − v*), ½‖v − v*‖²_A and ‖D p‖ and evaluates only the Lagged blocks
// again) gives every field of the iterate with the bits of a whole
// evaluation at the same v, both when some block's γ, G or ℓ changed and
// when none did; both cases occur among the 400 random problems.
func TestPeers5ReevaluateMatchesEvaluate(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 65))
	kept, redone := 0, 0
	for trial := range 400 {
		p := peers5Problem(rng, trial)
		s := New(DefaultParams())
		var res solver.Result
		solveOK2(t, s.Solve, p, nil, &res)
		if peers5Relag(rng, p, res.Gamma, trial%2 == 0) == 0 {
			continue
		}
		before := peers5Clone(&s.ws.cur)
		got := peers5Clone(&s.ws.cur)
		okGot := s.ws.eval.reevaluate(&got)
		want := peers5Clone(&s.ws.cur)
		okWant := s.ws.eval.evaluate(&want)
		if f := peers5SameIterate(&got, &want); f != "" || okGot != okWant {
			t.Fatalf("trial %d: reevaluate differs from evaluate in %q (finite %v, %v)", trial, f, okGot, okWant)
		}
		if peers5SameIterate(&got, &before) == "" {
			kept++
		} else {
			redone++
		}
	}
	if kept == 0 || redone == 0 {
		t.Errorf("the random problems left %d iterates unchanged and changed %d: want both cases", kept, redone)
	}
}

// peers5SolveOnly hides the SAP solver's Resolve: a LaggedRefiner around
// it solves every re-solve from scratch (Solve).
type peers5SolveOnly struct{ s *Solver }

func (o peers5SolveOnly) Solve(p *solver.Problem, v0 []float64, res *solver.Result) error {
	return o.s.Solve(p, v0, res)
}

// TestPeers5RefinerResolveMatchesSolve: the Lagged refiner around SAP,
// whose re-solves go through Resolve (and so evaluate their warm start by
// reevaluate), returns the bits, statistics and lagged impulses of the
// same refiner whose re-solves are whole solves, on 300 random islands, on
// the dense and the sparse path; some of the re-solves end at their warm
// start (0 Newton iterations) and some iterate.
func TestPeers5RefinerResolveMatchesSolve(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 65))
	resolves := 0
	for trial := range 300 {
		prm := DefaultParams()
		prm.Linear = []Linear{DenseLinear, SparseLinear}[trial%2]
		p := peers5Problem(rng, trial)
		q := p.Clone()
		a := &solver.LaggedRefiner{Inner: New(prm), Tolerance: 0.01, MaxResolves: 8}
		b := &solver.LaggedRefiner{Inner: peers5SolveOnly{New(prm)}, Tolerance: 0.01, MaxResolves: 8}
		var got, want solver.Result
		solveOK2(t, a.Solve, p, nil, &got)
		solveOK2(t, b.Solve, q, nil, &want)
		if !sameResult(&got, &want) || !identical(p.Params, q.Params) {
			t.Fatalf("trial %d (%v): refiner through Resolve %+v, through Solve %+v", trial, prm.Linear, got.Stats, want.Stats)
		}
		resolves += got.Stats.Resolves
	}
	if resolves == 0 {
		t.Error("no re-solve in 300 random problems")
	}
}

// TestPeers5ResolveOtherWarmStart: a re-solve from a warm start that is
// not the returned iterate (here one bit of one velocity away) evaluates
// it whole and matches a fresh solver's Solve.
func TestPeers5ResolveOtherWarmStart(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 65))
	for trial := range 40 {
		p := peers5Problem(rng, trial)
		s := New(DefaultParams())
		var first, got, want solver.Result
		solveOK2(t, s.Solve, p, nil, &first)
		peers5Relag(rng, p, first.Gamma, false)
		warm := slices.Clone(first.V)
		warm[trial%len(warm)] = math.Nextafter(warm[trial%len(warm)], math.Inf(1))
		solveOK2(t, s.Resolve, p, warm, &got)
		solveOK2(t, New(DefaultParams()).Solve, p, warm, &want)
		if !sameResult(&got, &want) {
			t.Fatalf("trial %d: Resolve %+v, Solve %+v", trial, got.Stats, want.Stats)
		}
	}
}

// peers5RefDerivs is derivs' general loop over every constraint (a
// ContactLagged block's γ and G through Problem.Eval, its 3×3 G in full).
func peers5RefDerivs(l *line, alpha float64) (float64, float64) {
	s1, s2 := 0.0, 0.0
	for i := range l.p.Constraints {
		_, lo, hi := l.at(i, alpha, true)
		k := hi - lo
		dv := l.dvc[lo:hi]
		for r := range k {
			s1 += dv[r] * (l.gamma[r] - l.it.gamma[lo+r])
			t := 0.0
			for c, x := range l.g[r*k : (r+1)*k] {
				t += x * dv[c]
			}
			s2 += dv[r] * t
		}
	}
	return l.f0 + alpha*l.c2 - s1, l.c2 + s2
}

// TestPeers5DerivsMatchGeneralLoop: the line search's dℓ/dα and d²ℓ/dα²
// with the ContactLagged blocks packed once per line (packLagged,
// laggedTerms) have the bits of the general loop over every block, on 300
// random problems, all-Lagged and mixed with cones and intervals, at step
// lengths on both sides of the blocks' kinks, for two directions in turn
// on the same line storage (the packing redone for the second).
func TestPeers5DerivsMatchGeneralLoop(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 65))
	for trial := range 300 {
		p, s := laggedTrialSolve(t, rng, trial)
		ws := &s.ws
		var l line
		for dir := range 2 {
			dvc := signedVec(rng, p.NR)
			l = line{p: p, it: &ws.cur, dvc: dvc, f0: -1 - rng.Float64(), b: rng.NormFloat64(), c2: 1 + rng.Float64(),
				vc: ws.lvc, gamma: ws.lgamma, g: ws.lg, lag: l.lag}
			for _, alpha := range []float64{0, 1e-3, 0.1, 0.5, 1, 2, 10} {
				d1, d2 := l.derivs(alpha)
				w1, w2 := peers5RefDerivs(&l, alpha)
				if !sameBit(d1, w1) || !sameBit(d2, w2) {
					t.Fatalf("trial %d, direction %d, α %v: derivs (%v, %v), general loop (%v, %v)", trial, dir, alpha, d1, d2, w1, w2)
				}
			}
		}
	}
}

// TestPeers5GradientNorms: the evaluation's ‖D ∇ℓp‖, ‖D j_c‖ and ‖D p‖,
// formed in the pass that forms ∇ℓp, have the bits of scaledNorm over
// the finished vectors, at 200 random velocities of random problems.
func TestPeers5GradientNorms(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 65))
	for trial := range 200 {
		p := peers5Problem(rng, trial)
		s := New(DefaultParams())
		var res solver.Result
		solveOK2(t, s.Solve, p, nil, &res)
		e := &s.ws.eval
		it := peers5Clone(&s.ws.cur)
		for i := range it.v {
			it.v[i] = 2 * rng.NormFloat64()
		}
		e.evaluate(&it)
		pv := make([]float64, p.NV)
		for i := range pv {
			pv[i] = it.r[i] + e.avs[i]
		}
		if g, j, q := scaledNorm(e.dinv, it.grad), scaledNorm(e.dinv, it.jc), scaledNorm(e.dinv, pv); !sameBit(g, it.gradNorm) || !sameBit(j, it.jcNorm) || !sameBit(q, it.pNorm) {
			t.Fatalf("trial %d: norms (%v, %v, %v), scaledNorm (%v, %v, %v)", trial, it.gradNorm, it.jcNorm, it.pNorm, g, j, q)
		}
	}
}
