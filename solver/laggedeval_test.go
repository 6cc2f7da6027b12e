package solver_test

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stiction-sim/stiction/internal/fmath"
	"github.com/stiction-sim/stiction/solver"
)

// refLagged is evalLagged as it was written before LaggedEval (main
// 55ec1ed: laggedStick through evalDisk's slices, laggedSlip, the normal
// row), kept as the reference that the scalar code must match bit for bit.
func refLagged(mu, n0, vs, stick, rt, rn float64, vhat, vc, gamma, g []float64) float64 {
	var cost float64
	if stick != 0 {
		f := mu * n0
		y0, y1 := -(vc[0]-vhat[0])/rt, -(vc[1]-vhat[1])/rt
		ny := fmath.Hypot(y0, y1)
		if ny <= f {
			gamma[0], gamma[1] = y0, y1
			g[0], g[1], g[3], g[4] = 1/rt, 0, 0, 1/rt
			cost = 0.5 * rt * ny * ny
		} else {
			s := f / ny
			gamma[0], gamma[1] = s*y0, s*y1
			h0, h1 := y0/ny, y1/ny
			c := s / rt
			g[0], g[1], g[3], g[4] = c*(1-h0*h0), -c*h0*h1, -c*h0*h1, c*(1-h1*h1)
			d := ny - f
			cost = 0.5*rt*ny*ny - 0.5*rt*d*d
		}
	} else {
		eps := max(vs, mu*rt*n0)
		u0, u1 := vc[0]-vhat[0], vc[1]-vhat[1]
		s := math.Sqrt(u0*u0 + u1*u1 + eps*eps)
		t0, t1 := u0/s, u1/s
		f := mu * n0
		gamma[0], gamma[1] = -f*t0, -f*t1
		c := f / s
		g01 := -c * t0 * t1
		g[0], g[1] = c*(1-t0*t0), g01
		g[3], g[4] = g01, c*(1-t1*t1)
		cost = f * (s - eps)
	}
	x := vhat[2] - vc[2]
	gnn := 0.0
	if x >= 0 {
		gamma[2] = x / rn
		cost += 0.5 * x * x / rn
		gnn = 1 / rn
	} else {
		gamma[2] = 0
	}
	g[2], g[5], g[6], g[7], g[8] = 0, 0, 0, 0, gnn
	return cost
}

// TestLaggedEvalMatchesReference checks that Problem.LaggedEval and Eval
// give a ContactLagged block's ℓ, γ and G with the bits of the code they
// replaced (refLagged), on both friction branches (soft norm, anchored
// disk inside and outside its radius) and both normal branches.
func TestLaggedEvalMatchesReference(t *testing.T) {
	rng := rand.New(rand.NewPCG(34, 1))
	same := func(a, b float64) bool { return math.Float64bits(a) == math.Float64bits(b) }
	for trial := range 20000 {
		p := randomKind(rng, solver.ContactLagged)
		par := p.Par(0)
		lo, hi := p.Rows(0)
		vhat, r := p.VHat[lo:hi], p.R[lo:hi]
		scale := math.Pow(10, float64(rng.IntN(7)-5)) // slips from 1e-5 (inside the disk) to 10
		vc := []float64{vhat[0] + scale*rng.NormFloat64(), vhat[1] + scale*rng.NormFloat64(), vhat[2] + rng.NormFloat64()}
		wantG, wantGamma := make([]float64, 9), make([]float64, 3)
		want := refLagged(par[0], par[1], par[2], par[4], r[0], r[2], vhat, vc, wantGamma, wantG)

		var b solver.LaggedBlock
		cost := p.LaggedEval(0, vc[0], vc[1], vc[2], &b)
		gotGamma, gotG := make([]float64, 3), make([]float64, 9)
		b.Put(gotGamma, gotG)
		evGamma, evG := make([]float64, 3), make([]float64, 9)
		ev := p.Eval(0, vc, evGamma, evG)
		if !same(cost, want) || !same(ev, want) {
			t.Fatalf("trial %d: cost LaggedEval %v, Eval %v, want %v", trial, cost, ev, want)
		}
		for k := range 9 {
			if k < 3 && (!same(gotGamma[k], wantGamma[k]) || !same(evGamma[k], wantGamma[k])) {
				t.Fatalf("trial %d: γ[%d] LaggedEval %v, Eval %v, want %v", trial, k, gotGamma[k], evGamma[k], wantGamma[k])
			}
			if !same(gotG[k], wantG[k]) || !same(evG[k], wantG[k]) {
				t.Fatalf("trial %d: G[%d] LaggedEval %v, Eval %v, want %v", trial, k, gotG[k], evG[k], wantG[k])
			}
		}
		noG := make([]float64, 3) // Eval without G: the same ℓ and γ
		if c := p.Eval(0, vc, noG, nil); !same(c, want) || !same(noG[0], wantGamma[0]) || !same(noG[1], wantGamma[1]) || !same(noG[2], wantGamma[2]) {
			t.Fatalf("trial %d: Eval without G gives %v, %v; want %v, %v", trial, c, noG, want, wantGamma)
		}
	}
}
