package sim

import (
	"math"
	"math/rand"
	"testing"

	"github.com/stiction-sim/stiction/solver"
)

// blockClassByBounds is blockClass through Problem.IntervalBounds, the
// form before blockClass read [lo, hi] from p.Params itself.
func blockClassByBounds(p *solver.Problem, k int) pgsClass {
	switch p.Constraints[k].Kind {
	case solver.Bilateral:
		return pgsEquality
	case solver.Interval:
		lo, hi := p.IntervalBounds(k)
		switch {
		case lo == hi:
			return pgsFixed
		case lo == 0 && math.IsInf(hi, 1):
			return pgsLimit
		case lo == -hi && hi > 0 && !math.IsInf(hi, 1):
			return pgsFriction
		}
	}
	return pgsOther
}

// TestPortstatsBlockClass: blockClass against blockClassByBounds on
// blocks of every kind, the Interval ones with bounds drawn from the
// classes' edges (±0, ±Inf, NaN, lo = hi, lo = −hi) and blocks of other
// kinds (with their own parameters) between them, so that a parameter read
// at the wrong offset gives another class.
func TestPortstatsBlockClass(t *testing.T) {
	rng := rand.New(rand.NewSource(23))
	vals := []float64{0, math.Copysign(0, -1), 1, -1, 2.5, -2.5, math.Inf(1), math.Inf(-1), math.NaN()}
	var p solver.Problem
	seen := map[pgsClass]bool{}
	for trial := range 200 {
		p.Reset(3)
		for range 1 + rng.Intn(8) {
			switch rng.Intn(4) {
			case 0:
				p.AddConstraint(solver.Bilateral, 1+rng.Intn(3))
			case 1:
				p.AddConstraint(solver.ContactCone, 3, vals[rng.Intn(len(vals))])
			default:
				h := vals[rng.Intn(len(vals))]
				lo, hi := vals[rng.Intn(len(vals))], vals[rng.Intn(len(vals))]
				switch rng.Intn(3) {
				case 0:
					lo, hi = -h, h
				case 1:
					lo, hi = h, h
				}
				p.AddConstraint(solver.Interval, 1, lo, hi)
			}
		}
		for k := range p.Constraints {
			got, want := blockClass(&p, k), blockClassByBounds(&p, k)
			if got != want {
				t.Fatalf("trial %d block %d (%v, params %v): blockClass %d, by the bounds %d", trial, k, p.Constraints[k].Kind, p.Params[p.Constraints[k].Par:], got, want)
			}
			seen[got] = true
		}
	}
	for _, c := range []pgsClass{pgsEquality, pgsFriction, pgsLimit, pgsFixed, pgsOther} {
		if !seen[c] {
			t.Errorf("class %d never drawn", c)
		}
	}
}
