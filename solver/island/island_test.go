package island

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/stiction-sim/stiction/solver"
	"github.com/stiction-sim/stiction/solver/sap"
)

// randomProblem returns a problem with nCliques cliques of size 6 split
// into groups of `group` consecutive cliques; contacts join random pairs
// within a group (and some touch one clique only, like ground contacts).
// The last clique has no contact.
func randomProblem(rng *rand.Rand, nCliques, group, nc int) *solver.Problem {
	p := &solver.Problem{}
	p.Reset(6 * nCliques)
	for c := range nCliques {
		p.Cliques = append(p.Cliques, solver.Clique{Offset: 6 * c, Size: 6, AOff: len(p.A)})
		b := make([]float64, 36)
		for i := range b {
			b[i] = rng.Float64()*2 - 1
		}
		for i := range 6 {
			for j := range 6 {
				s := 0.0
				for k := range 6 {
					s += b[i*6+k] * b[j*6+k]
				}
				if i == j {
					s += 1
				}
				p.A = append(p.A, s)
			}
		}
	}
	for i := range p.NV {
		p.VStar[i] = rng.NormFloat64()
		p.MDiag[i] = p.A[p.Cliques[i/6].AOff+(i%6)*7]
	}
	type blk struct{ ct, cl int }
	for ct := range nc {
		g := rng.IntN(max(1, (nCliques-1)/group))
		a := g*group + rng.IntN(group)
		cls := []int{a}
		if rng.IntN(3) > 0 {
			if b := g*group + rng.IntN(group); b != a && b < nCliques-1 {
				cls = append(cls, b)
			}
		}
		slices.Sort(cls)
		addRandomConstraint(rng, p, ct, cls)
	}
	return p
}

// addRandomConstraint appends constraint ct on cliques cls (of 6 velocities
// each): a contact of one of the three approximations (most often SAP's
// cone), or a bilateral (1–6 rows), interval or disk constraint, with
// random J, v̂, R and parameters, so that the island tests cover every
// mix of kinds.
func addRandomConstraint(rng *rand.Rand, p *solver.Problem, ct int, cls []int) {
	kind, size := solver.ContactCone, 3
	switch rng.IntN(8) {
	case 0:
		kind = solver.ContactLagged
	case 1:
		kind = solver.ContactSimilar
	case 2:
		kind, size = solver.Bilateral, 1+rng.IntN(6)
	case 3:
		kind, size = solver.Interval, 1
	case 4:
		kind, size = solver.Disk, 2
	}
	var par []float64
	switch kind {
	case solver.ContactCone:
		par = []float64{rng.Float64()}
	case solver.ContactLagged:
		par = []float64{rng.Float64(), rng.Float64(), 0.01 + rng.Float64(), rng.Float64(), float64(rng.IntN(2))}
	case solver.ContactSimilar:
		par = []float64{rng.Float64(), 0.01 + rng.Float64()}
	case solver.Interval:
		par = []float64{-rng.Float64(), rng.Float64()}
	case solver.Disk:
		par = []float64{rng.Float64()}
	}
	c := p.AddConstraint(kind, size, par...)
	if c != ct {
		panic("constraint index")
	}
	for _, cl := range cls {
		d := p.AddJBlock(c, cl)
		for i := range d {
			d[i] = rng.Float64()*2 - 1
		}
	}
	lo, hi := p.Rows(c)
	r := 0.2 + rng.Float64()
	for k := lo; k < hi; k++ {
		p.VHat[k] = rng.NormFloat64()
		if kind == solver.Bilateral || (kind.IsContact() && k == hi-1) {
			p.R[k] = 0.2 + rng.Float64()
		} else {
			p.R[k] = r
		}
	}
}

func sapFactory(tol float64) func() solver.Solver {
	return func() solver.Solver {
		prm := sap.DefaultParams()
		prm.RelTolerance = tol
		return sap.New(prm)
	}
}

// TestIslandsMatchMonolithic: the island solution equals the monolithic
// SAP solution (both to εr = 1e-12) to 1e-8, cliques without contact get v*,
// the merged e_m is below 1e-10, and 1, 2 and 4 workers give bit-identical
// results.
func TestIslandsMatchMonolithic(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	for trial := range 10 {
		p := randomProblem(rng, 30, 4, 40)
		if err := p.Validate(); err != nil {
			t.Fatal(err)
		}
		var mono solver.Result
		if err := sapFactory(1e-12)().Solve(p, nil, &mono); err != nil {
			t.Fatal(err)
		}
		var ref solver.Result
		for _, w := range []int{1, 2, 4} {
			s := New(sapFactory(1e-12), w)
			var res solver.Result
			if err := s.Solve(p, nil, &res); err != nil {
				t.Fatal(err)
			}
			s.Close()
			if w == 1 {
				ref = res
				num, den := 0.0, 0.0
				for i := range res.V {
					num += (res.V[i] - mono.V[i]) * (res.V[i] - mono.V[i])
					den += mono.V[i] * mono.V[i]
				}
				if d := math.Sqrt(num / den); d > 1e-8 || res.Stats.Status != solver.Converged || res.Stats.MomentumError > 1e-10 {
					t.Errorf("trial %d: %d islands, |v − v_mono|/|v_mono| = %g, status %v, e_m %g (mono %g)",
						trial, s.Islands(), d, res.Stats.Status, res.Stats.MomentumError, mono.Stats.MomentumError)
				}
				last := p.Cliques[len(p.Cliques)-1]
				if !slices.Equal(res.V[last.Offset:], p.VStar[last.Offset:]) {
					t.Errorf("trial %d: clique without contact: v ≠ v*", trial)
				}
				if trial == 0 {
					t.Logf("%d islands; iterations %d (mono %d); e_m %.3g (mono %.3g)", s.Islands(),
						res.Stats.Iterations, mono.Stats.Iterations, res.Stats.MomentumError, mono.Stats.MomentumError)
				}
				continue
			}
			if !slices.Equal(res.V, ref.V) || !slices.Equal(res.Gamma, ref.Gamma) || !slices.Equal(res.VC, ref.VC) || res.Stats != ref.Stats {
				t.Errorf("trial %d: %d workers differ from 1 worker", trial, w)
			}
		}
	}
}

// TestIslandsAllocateNothing: a warmed-up island solve allocates nothing,
// serially and with 2 workers.
func TestIslandsAllocateNothing(t *testing.T) {
	rng := rand.New(rand.NewPCG(9, 10))
	p := randomProblem(rng, 30, 4, 40)
	for _, w := range []int{1, 2} {
		s := New(sapFactory(1e-6), w)
		var res solver.Result
		for range 3 {
			if err := s.Solve(p, nil, &res); err != nil {
				t.Fatal(err)
			}
		}
		allocs := testing.AllocsPerRun(20, func() { s.Solve(p, nil, &res) })
		s.Close()
		if allocs != 0 {
			t.Errorf("%d workers: %v allocations per solve", w, allocs)
		}
	}
}

// TestIslandsErrors: malformed calls are errors.
func TestIslandsErrors(t *testing.T) {
	var res solver.Result
	p := randomProblem(rand.New(rand.NewPCG(1, 1)), 4, 2, 3)
	if err := New(nil, 1).Solve(p, nil, &res); err == nil {
		t.Error("nil inner solver accepted")
	}
	if err := New(sapFactory(1e-6), 1).Solve(p, make([]float64, 3), &res); err == nil {
		t.Error("short v0 accepted")
	}
	p.R[0] = -1
	if err := New(sapFactory(1e-6), 1).Solve(p, nil, &res); err == nil {
		t.Error("malformed problem accepted")
	}
}

// TestSetTolerance: islands stopped by the iteration limit make the merged
// status MaxIterations, unless SetTolerance is given and the whole problem
// meets eq. (26) with it.
func TestSetTolerance(t *testing.T) {
	p := randomProblem(rand.New(rand.NewPCG(11, 12)), 12, 3, 15)
	one := func() solver.Solver {
		prm := sap.DefaultParams()
		prm.MaxIterations = 1
		return sap.New(prm)
	}
	var res solver.Result
	s := New(one, 1)
	if err := s.Solve(p, nil, &res); err != nil {
		t.Fatal(err)
	}
	if res.Stats.Status != solver.MaxIterations {
		t.Fatalf("status %v, want max-iterations", res.Stats.Status)
	}
	s.SetTolerance(0, 10*res.Stats.MomentumError)
	if err := s.Solve(p, nil, &res); err != nil {
		t.Fatal(err)
	}
	if res.Stats.Status != solver.Converged {
		t.Errorf("with εr = 10 e_m: status %v, want converged", res.Stats.Status)
	}
	s.SetTolerance(0, res.Stats.MomentumError/10)
	if err := s.Solve(p, nil, &res); err != nil {
		t.Fatal(err)
	}
	if res.Stats.Status != solver.MaxIterations {
		t.Errorf("with εr = e_m/10: status %v, want max-iterations", res.Stats.Status)
	}
}

// TestIslandsNoContacts: without contacts there are no islands, v = v*,
// the status is Converged and e_m = 0; an empty problem works too.
func TestIslandsNoContacts(t *testing.T) {
	p := randomProblem(rand.New(rand.NewPCG(13, 14)), 5, 2, 0)
	empty := &solver.Problem{}
	empty.Reset(0)
	for _, q := range []*solver.Problem{p, empty} {
		s := New(sapFactory(1e-6), 2)
		var res solver.Result
		if err := s.Solve(q, nil, &res); err != nil {
			t.Fatal(err)
		}
		if s.Islands() != 0 || !slices.Equal(res.V, q.VStar) || res.Stats.Status != solver.Converged || res.Stats.MomentumError != 0 {
			t.Errorf("NV %d: %d islands, status %v, e_m %g, v = v*: %v", q.NV, s.Islands(), res.Stats.Status, res.Stats.MomentumError, slices.Equal(res.V, q.VStar))
		}
	}
}

// TestOneIslandSolvedWhole: a problem whose contacts form a single island
// (here with a clique without contact too, which a split would leave at
// v*) gets the bits and the statistics of the inner solver alone, with 1
// and 2 workers, and Island(0) reports the solve.
func TestOneIslandSolvedWhole(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 23))
	seen := 0
	for trial := 0; seen < 20 && trial < 1000; trial++ {
		p := randomProblem(rng, 4, 3, 6)
		var alone solver.Result
		errAlone := sapFactory(1e-10)().Solve(p, nil, &alone)
		for _, w := range []int{1, 2} {
			s := New(sapFactory(1e-10), w)
			var res solver.Result
			err := s.Solve(p, nil, &res)
			s.Close()
			if s.Islands() != 1 {
				break
			}
			if w == 1 {
				seen++
			}
			if (err == nil) != (errAlone == nil) {
				t.Fatalf("trial %d, %d workers: error %v, the inner solver alone %v", trial, w, err, errAlone)
			}
			if err != nil {
				continue
			}
			if !slices.Equal(res.V, alone.V) || !slices.Equal(res.Gamma, alone.Gamma) || !slices.Equal(res.VC, alone.VC) || res.Stats != alone.Stats {
				t.Fatalf("trial %d, %d workers: one island's solution or statistics differ from the inner solver's alone (e_m %g, %g)",
					trial, w, res.Stats.MomentumError, alone.Stats.MomentumError)
			}
			if _, nc, st := s.Island(0); nc == 0 || st != alone.Stats {
				t.Fatalf("trial %d: Island(0) reports %d constraints, stats %+v", trial, nc, st)
			}
		}
	}
	if seen < 20 {
		t.Fatalf("only %d one-island problems drawn, want 20", seen)
	}
}
