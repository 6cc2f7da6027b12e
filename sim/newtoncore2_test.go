package sim

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stiction-sim/stiction/solver"
)

// TestMomentumErrorMatchesResiduals checks that the certificate's e_m
// (pgsWork.stats: Jᵀγ over pgsJac's non-zeros, A(v − v*) and A v in one
// pass; momentumNonFinite for a γ that is not finite) has the bits of solver.ResidualScratch.Momentum on random
// problems: cliques of sizes 1–7 (6, a free body's, takes linalg's own
// kernel), A, J, v, v* and γ with ±0 entries, rows of γ = 0, and a γ with
// ±Inf or NaN (which Momentum itself then answers).
func TestMomentumErrorMatchesResiduals(t *testing.T) {
	rng := rand.New(rand.NewPCG(44, 2))
	entry := signedZerosOrNormal(rng)
	var scr solver.ResidualScratch
	for trial := range 300 {
		p := randomMomentumProblem(rng, entry)
		v, gamma := make([]float64, p.NV), make([]float64, p.NR)
		for i := range v {
			v[i] = entry()
		}
		for i := range gamma {
			gamma[i] = entry()
		}
		switch trial % 10 {
		case 7:
			gamma[rng.IntN(p.NR)] = math.Inf(1 - 2*rng.IntN(2))
		case 8:
			gamma[rng.IntN(p.NR)] = math.NaN()
		case 9:
			clear(gamma) // e_m's numerator alone
		}
		var w pgsWork
		w.jac.build(p)
		w.sizeDynamics(p) // pgsSetup sizes e_m's scratch
		want, _, _, _ := scr.Momentum(p, v, gamma)
		copy(w.gv, gamma) // the γ stats' loop over the constraints would set
		var got float64
		if finiteCheck(gamma) != 0 {
			got = w.momentumNonFinite(p, v)
		} else {
			q := *p // without constraints, stats keeps w.gv as it is; J is in w.jac
			q.Constraints = nil
			res := solver.Result{V: v}
			w.stats(&q, &res, 0, false)
			got = res.Stats.MomentumError
		}
		if math.Float64bits(got) != math.Float64bits(want) && !(math.IsNaN(got) && math.IsNaN(want)) {
			t.Fatalf("trial %d: e_m %v (%#x), Momentum's %v (%#x)", trial, got, math.Float64bits(got), want, math.Float64bits(want))
		}
	}
}

// randomCliques returns a problem of 1 … most cliques of sizes 1 … size,
// their A blocks filled by entry, and no constraints.
func randomCliques(rng *rand.Rand, most, size int, entry func() float64) *solver.Problem {
	var p solver.Problem
	sizes := make([]int, 1+rng.IntN(most))
	nv := 0
	for i := range sizes {
		sizes[i] = 1 + rng.IntN(size)
		nv += sizes[i]
	}
	p.Reset(nv)
	off, aoff := 0, 0
	for _, n := range sizes {
		p.Cliques = append(p.Cliques, solver.Clique{Offset: off, Size: n, AOff: aoff})
		for range n * n {
			p.A = append(p.A, entry())
		}
		off, aoff = off+n, aoff+n*n
	}
	return &p
}

// randomMomentumProblem returns a problem of 1–4 cliques of sizes 1–7 and
// 1–8 constraints of sizes 1–3, each with J blocks on 1 or 2 cliques.
func randomMomentumProblem(rng *rand.Rand, entry func() float64) *solver.Problem {
	p := randomCliques(rng, 4, 7, entry)
	sizes, nv := p.Cliques, len(p.VStar)
	for i := range nv {
		p.VStar[i] = entry()
		p.MDiag[i] = 0.1 + rng.Float64()
	}
	for range 1 + rng.IntN(8) {
		k := p.AddConstraint(solver.Bilateral, 1+rng.IntN(3))
		q := rng.IntN(len(sizes))
		for _, c := range []int{q, (q + 1 + rng.IntN(len(sizes))) % len(sizes)}[:1+rng.IntN(2)] {
			if c == q && len(p.JBlock) > 0 && p.JBlock[len(p.JBlock)-1].Constraint == k && p.JBlock[len(p.JBlock)-1].Clique == c {
				continue
			}
			d := p.AddJBlock(k, c)
			for i := range d {
				d[i] = entry()
			}
		}
	}
	return p
}
