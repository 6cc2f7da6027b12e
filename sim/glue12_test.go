package sim

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stiction-sim/stiction/solver"
)

// products is momentum's clique part for the tests of its r and av
// (TestProductsMatchMassProducts, TestPortglue5MulA2): momentum, its e_m
// left unread.
func (m *pgsMomentum) products(p *solver.Problem, v []float64) { m.momentum(p, v) }

// oldMomentumError is stats' e_m before momentum took its norms (pass
// 184): products (rows two at a time, an odd clique's last row paired
// with itself), then the three norms over diag(A)^−½ in stats, kept to
// check momentum against, bit for bit.
func oldMomentumError(m *pgsMomentum, p *solver.Problem, v []float64) float64 {
	diff := m.diff[:len(v)]
	for i, x := range v {
		diff[i] = x - p.VStar[i]
	}
	for c := range p.Cliques {
		o, n := p.Cliques[c].Offset, p.Cliques[c].Size
		a, x := p.ABlock(c), diff[o:o+n]
		y, r, av := v[o : o+n][:len(x)], m.r[o : o+n][:len(x)], m.av[o : o+n][:len(x)]
		for i := 0; i < len(x); i += 2 {
			i1 := min(i+1, len(x)-1)
			r0, r1 := a[i*n:][:len(x)], a[i1*n:][:len(x)]
			s0, t0, s1, t1 := 0.0, 0.0, 0.0, 0.0
			for j, xj := range x {
				yj := y[j]
				s0 += r0[j] * xj
				t0 += r0[j] * yj
				s1 += r1[j] * xj
				t1 += r1[j] * yj
			}
			r[i1], av[i1] = s1, t1
			r[i], av[i] = s0, t0
		}
	}
	nv := len(v)
	r, av, jc := m.r[:nv], m.av[:nv], m.jc[:nv]
	gn, pn, jn := 0.0, 0.0, 0.0
	for i, mi := range p.MDiag[:nv] {
		d := 1 / math.Sqrt(mi)
		g := d * (r[i] - jc[i])
		gn += g * g
		pn += d * av[i] * d * av[i]
		jn += d * jc[i] * d * jc[i]
	}
	if gn > 0 {
		return math.Sqrt(gn) / math.Sqrt(max(pn, jn))
	}
	return 0
}

// TestGlue12MomentumMatchesOld: pgsMomentum.momentum's e_m, r and av are
// the old form's (products, then stats' norms), bit for bit, on random
// problems of 1–3 cliques of sizes 1–9 with ±0 entries, random Jᵀγ, and
// diag(A) with zeros, negatives, ±Inf and NaN among positives; v with
// NaN and ±Inf now and then; v = v* (e_m 0) and Jᵀγ = A(v − v*) too.
func TestGlue12MomentumMatchesOld(t *testing.T) {
	rng := rand.New(rand.NewPCG(184, 12))
	special := []float64{0, math.Copysign(0, -1), -1, math.Inf(1), math.Inf(-1), math.NaN()}
	seen := map[string]bool{}
	for trial := range 6000 {
		p := randomCliques(rng, 3, 9, func() float64 { return randomEntry(rng) })
		nv := len(p.VStar)
		v, jc := make([]float64, nv), make([]float64, nv)
		for i := range v {
			v[i], p.VStar[i], jc[i] = randomEntry(rng), randomEntry(rng), randomEntry(rng)
			p.MDiag[i] = 0.1 + rng.Float64()
			if rng.IntN(20) == 0 {
				p.MDiag[i] = special[rng.IntN(len(special))]
			}
		}
		switch trial % 10 {
		case 1:
			v[rng.IntN(nv)] = special[3+rng.IntN(3)]
		case 2:
			copy(v, p.VStar) // diff = +0: r = 0, e_m 0 when Jᵀγ = 0
			clear(jc)
		}
		var got, want pgsMomentum
		got.size(nv)
		want.size(nv)
		copy(got.jc, jc)
		copy(want.jc, jc)
		if trial%10 == 3 { // Jᵀγ = A(v − v*): g = 0 on every row
			oldMomentumError(&want, p, v)
			copy(want.jc, want.r)
			copy(got.jc, want.r)
		}
		em, old := got.momentum(p, v), oldMomentumError(&want, p, v)
		if !sameBits([]float64{em}, []float64{old}) || !sameBits(got.r, want.r) || !sameBits(got.av, want.av) || !sameBits(got.diff, want.diff) {
			t.Fatalf("trial %d: momentum %v (r %v av %v), old %v (r %v av %v)", trial, em, got.r, got.av, old, want.r, want.av)
		}
		switch {
		case em != em:
			seen["NaN"] = true
		case em == 0:
			seen["0"] = true
		case math.IsInf(em, 1):
			seen["Inf"] = true
		default:
			seen["finite"] = true
		}
	}
	for _, k := range []string{"NaN", "0", "Inf", "finite"} {
		if !seen[k] {
			t.Errorf("no trial gave e_m %s", k)
		}
	}
}

// TestGlue12GrowMax: growMax(e, a) is max(e, a), bit for bit, for every e
// curvatureSubsteps' running maximum can hold (+0, positive, +Inf, NaN)
// and any a (±0, negative, positive, ±Inf, NaN), and a running maximum of
// random sequences from +0 through it is max's.
func TestGlue12GrowMax(t *testing.T) {
	nz, nan := math.Copysign(0, -1), math.NaN()
	es := []float64{0, 1e-300, 0.5, 3, math.MaxFloat64, math.Inf(1), nan}
	as := []float64{0, nz, -1, 1e-300, 0.5, 3, 7, math.Inf(1), math.Inf(-1), nan}
	for _, e := range es {
		for _, a := range as {
			if got, want := growMax(e, a), max(e, a); math.Float64bits(got) != math.Float64bits(want) && !(got != got && want != want) {
				t.Fatalf("growMax(%v, %v) = %v, max %v", e, a, got, want)
			}
		}
	}
	rng := rand.New(rand.NewPCG(184, 13))
	for trial := range 20000 {
		e, m := 0.0, 0.0
		for range 1 + rng.IntN(8) {
			a := as[rng.IntN(len(as))]
			if rng.IntN(2) == 0 {
				a = rng.ExpFloat64() * math.Pow(10, float64(rng.IntN(9)-4))
			}
			e, m = growMax(e, a), max(m, a)
			if math.Float64bits(e) != math.Float64bits(m) && !(e != e && m != m) {
				t.Fatalf("trial %d: running growMax %v, max %v", trial, e, m)
			}
		}
	}
}
