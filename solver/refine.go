package solver

import (
	"math"
	"time"

	"github.com/stiction-sim/stiction/internal/fmath"
)

// LaggedRefiner is a Solver that solves a problem with an inner solver and
// then, while the normal impulses of its ContactLagged blocks differ from
// their lagged impulses n0, sets n0 to them and solves again, warm-started
// from the last solution, at most MaxResolves times. Each solve is of a
// convex problem and certified by the inner solver; the fixed point it
// iterates towards is Coulomb friction bounded by the step's own normal
// impulse. With MaxResolves = 0 it is the inner solver.
//
// A block's n0 is updated when |γ_n − n0| > Tolerance·max(γ_n, n0, s), s
// being the block's normal impulse scale parameter; blocks within the
// tolerance keep their n0, so that a problem's independent parts (islands)
// do not change because another part did. Wrapped in an island solver,
// the refinement runs island by island.
//
// A sliding block, whose friction impulse is at its bound μ n0 (to within
// slideBound), takes SlideTolerance instead when it is positive: its
// friction is μ n0 itself, so a lag of n0 is a lag of the friction force,
// and the lags of a sliding body's several contacts differ, which turns
// its velocity (issue 22's isotropy). A sticking block's n0 only caps a
// friction impulse that stays below it.
type LaggedRefiner struct {
	Inner          Solver
	Tolerance      float64 // relative change of n0 that triggers a re-solve
	SlideTolerance float64 // the same for a sliding block; 0: Tolerance
	MaxResolves    int     // re-solves per Solve
	profile        bool    // time the re-solves (SetProfile)
	warm           []float64
}

// slideBound is the fraction of its bound μ n0 at which a block's friction
// impulse counts as sliding.
const slideBound = 0.99

var _ Solver = (*LaggedRefiner)(nil)

// Around returns a refiner with l's settings around another inner solver.
func (l *LaggedRefiner) Around(inner Solver) *LaggedRefiner {
	return &LaggedRefiner{Inner: inner, Tolerance: l.Tolerance, SlideTolerance: l.SlideTolerance, MaxResolves: l.MaxResolves, profile: l.profile}
}

// SetProfile implements Profiler: with on, Solve reports the wall time of
// its re-solves in Stats.ResolveTime.
func (l *LaggedRefiner) SetProfile(on bool) { l.profile = on }

// Solve implements Solver. Statistics are those of the last solve, with
// the iterations of all solves summed and the re-solves counted
// (Stats.Resolves) and, when profiling, timed (Stats.ResolveTime).
func (l *LaggedRefiner) Solve(p *Problem, v0 []float64, res *Result) error {
	if err := l.Inner.Solve(p, v0, res); err != nil {
		return err
	}
	var t0 time.Time
	resolves := 0
	for k := 0; k < l.MaxResolves && l.relag(p, res.Gamma); k++ {
		if l.profile && k == 0 {
			t0 = time.Now()
		}
		l.warm = Resize(l.warm, p.NV)
		copy(l.warm, res.V)
		prev := res.Stats
		if err := l.resolve(p, res); err != nil {
			return err
		}
		res.Stats.Iterations += prev.Iterations
		res.Stats.LineSearchIterations += prev.LineSearchIterations
		resolves++
	}
	res.Stats.Resolves = resolves
	if l.profile && resolves > 0 {
		res.Stats.ResolveTime = time.Since(t0)
	}
	return nil
}

// resolve solves p again from l.warm into res after relag: through the
// inner solver's Resolve when it has one (the problem changed only in its
// lagged impulses), else its Solve.
func (l *LaggedRefiner) resolve(p *Problem, res *Result) error {
	if r, ok := l.Inner.(Resolver); ok {
		return r.Resolve(p, l.warm, res)
	}
	return l.Inner.Solve(p, l.warm, res)
}

// relag sets n0 of every ContactLagged block whose normal impulse moved
// beyond the tolerance, and reports whether any did.
func (l *LaggedRefiner) relag(p *Problem, gamma []float64) bool {
	changed := false
	for _, c := range p.Constraints {
		if c.Kind != ContactLagged {
			continue
		}
		// The block's parameters read once (μ, n0, v_s, scale: kind.go's
		// ContactLagged), not through four accessors per contact per
		// re-solve; μ n0 is FrictionBound's product.
		par := p.Params[c.Par : c.Par+4]
		n, n0 := max(gamma[c.Row+2], 0), par[1]
		tol := l.Tolerance
		if l.SlideTolerance > 0 && fmath.Hypot(gamma[c.Row], gamma[c.Row+1]) >= slideBound*(par[0]*n0) {
			tol = l.SlideTolerance // sliding: friction is μ n0 itself
		}
		if math.Abs(n-n0) > tol*max(n, n0, par[3]) {
			par[1] = n // SetLaggedNormal
			changed = true
		}
	}
	return changed
}
