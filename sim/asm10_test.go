package sim

import (
	"math"
	"math/rand/v2"
	"testing"

	"github.com/stiction-sim/stiction/solver"
)

// TestAsm10PyramidDecodeUnrolled checks pyramidDecode, whose condim-3
// contacts (four edges, no spin or rolling block) take an unrolled form,
// against pyramidDecodePlain, its loops as they were, to the bit: random
// problems of contacts with 1, 4 (with and without spin or rolling
// blocks), 6, 8 and 10 edges and copied blocks, impulses, μ and tangents
// drawn with ±0, ±Inf and NaN among them (a quarter of the
// problems with impulses of signed zeros only).
func TestAsm10PyramidDecodeUnrolled(t *testing.T) {
	rng := rand.New(rand.NewPCG(10, 182))
	pick := func() float64 {
		switch rng.IntN(12) {
		case 0:
			return 0
		case 1:
			return math.Copysign(0, -1)
		case 2:
			return math.Inf(1 - 2*rng.IntN(2))
		case 3:
			return math.NaN()
		}
		return 4*rng.Float64() - 2
	}
	fast := 0
	for trial := range 3000 {
		var p solver.Problem
		var pw pyramidWork
		p.Reset(1)
		pw.p.Reset(1)
		nc := 1 + rng.IntN(4)
		for range nc { // the contacts, then their spin and rolling blocks, then copied blocks
			p.AddConstraint(solver.ContactCone, 3, 0)
		}
		pw.blocks = make([]pyramidBlock, nc)
		for i := range nc {
			blk := &pw.blocks[i]
			blk.edges = []int{1, 4, 4, 4, 6, 8, 10}[rng.IntN(7)]
			blk.spin, blk.roll = -1, -1
			if blk.edges >= 6 || (blk.edges == 4 && rng.IntN(3) == 0) {
				blk.spin = p.AddConstraint(solver.Interval, 1, 0, 0)
				pw.blocks = append(pw.blocks, pyramidBlock{edges: -1})
			}
			if blk.edges >= 10 || (blk.edges == 4 && rng.IntN(3) == 0) {
				blk.roll = p.AddConstraint(solver.Interval, 2, 0, 0)
				pw.blocks = append(pw.blocks, pyramidBlock{edges: -1})
			}
			for k := range blk.mu {
				blk.mu[k] = pick()
			}
			blk.rot = [2][2]float64{{pick(), pick()}, {pick(), pick()}}
			blk.first = len(pw.p.Constraints)
			for range blk.edges {
				pw.p.AddConstraint(solver.Interval, 1, 0, math.Inf(1))
			}
			if blk.edges == 4 && blk.spin < 0 && blk.roll < 0 {
				fast++
			}
		}
		for range rng.IntN(3) {
			c := p.AddConstraint(solver.Interval, 1+rng.IntN(3), 0, 0)
			pw.blocks = append(pw.blocks, pyramidBlock{first: pw.p.AddConstraint(solver.Interval, p.Constraints[c].Size, 0, 0)})
		}
		pw.jstart = make([]int, len(pw.blocks)+1)
		pw.res.Gamma = make([]float64, pw.p.NR)
		zeros := rng.IntN(4) == 0 // signed zeros only: the sums' leading 0 shows
		for k := range pw.res.Gamma {
			pw.res.Gamma[k] = pick()
			if zeros {
				pw.res.Gamma[k] = math.Copysign(0, float64(rng.IntN(2))-0.5)
			}
		}
		pw.res.Stats.Status = solver.Failed // VC = p.MulJ's (no J blocks: zeros)
		var got, want solver.Result
		got.Gamma = []float64{math.NaN()} // resized and every entry written
		pyramidDecode(&p, &pw, &got)
		pyramidDecodePlain(&p, &pw, &want)
		for k := range want.Gamma {
			x, y := got.Gamma[k], want.Gamma[k]
			if math.Float64bits(x) != math.Float64bits(y) && !(math.IsNaN(x) && math.IsNaN(y)) {
				t.Fatalf("trial %d: Gamma[%d] = %v, plain form %v", trial, k, x, y)
			}
		}
	}
	if fast < 1000 {
		t.Fatalf("%d condim-3 contacts without spin or rolling blocks decoded, want ≥ 1000", fast)
	}
}

// pyramidDecodePlain is pyramidDecode before its condim-3 contacts were
// unrolled: every pyramid contact through the loops.
func pyramidDecodePlain(p *solver.Problem, pw *pyramidWork, res *solver.Result) {
	pr, pp := &pw.res, &pw.p
	startDecode(p, pr, res)
	vcCopied := pyramidVC(p, pw, res)
	for i := range pw.blocks {
		blk := &pw.blocks[i]
		if blk.edges != 0 && vcCopied {
			p.MulJBlocks(pw.jstart[i], pw.jstart[i+1], res.V, res.VC)
		}
		c := p.Constraints[i]
		g := res.Gamma[c.Row : c.Row+c.Size]
		switch {
		case blk.edges < 0:
			continue
		case blk.edges == 0:
			from := pp.Constraints[blk.first].Row
			copy(g, pr.Gamma[from:from+c.Size])
			if vcCopied {
				copy(res.VC[c.Row:c.Row+c.Size], pr.VC[from:from+c.Size])
			}
			continue
		}
		from := pp.Constraints[blk.first].Row
		f := pr.Gamma[from : from+blk.edges]
		g[0], g[1], g[2] = 0, 0, 0
		for _, fe := range f {
			g[2] += fe
		}
		var fk [5]float64
		for k := range blk.edges / 2 {
			fk[k] = blk.mu[k] * (f[2*k] - f[2*k+1])
		}
		for k := range 2 {
			g[0] += fk[k] * blk.rot[k][0]
			g[1] += fk[k] * blk.rot[k][1]
		}
		if blk.spin >= 0 {
			res.Gamma[p.Constraints[blk.spin].Row] = fk[2]
		}
		if blk.roll >= 0 {
			gr := res.Gamma[p.Constraints[blk.roll].Row:]
			gr[0], gr[1] = 0, 0
			for k := range 2 {
				gr[0] += fk[3+k] * blk.rot[k][0]
				gr[1] += fk[3+k] * blk.rot[k][1]
			}
		}
	}
}

// TestAsm10SlidingCoefficientsUnrolled checks slidingCoefficients, its
// edges unrolled, against edgeCoefficients' entries 0 and 1, to the bit,
// for contacts of 1 and 4 edges with μ and tangents drawn with ±0, ±Inf
// and NaN among them.
func TestAsm10SlidingCoefficientsUnrolled(t *testing.T) {
	rng := rand.New(rand.NewPCG(182, 10))
	pick := func() float64 {
		switch rng.IntN(10) {
		case 0:
			return 0
		case 1:
			return math.Copysign(0, -1)
		case 2:
			return math.Inf(1 - 2*rng.IntN(2))
		case 3:
			return math.NaN()
		}
		return 4*rng.Float64() - 2
	}
	var coef [10][5]float64
	for trial := range 20000 {
		blk := pyramidBlock{edges: []int{1, 4}[rng.IntN(2)], spin: -1, roll: -1}
		for k := range blk.mu {
			blk.mu[k] = pick()
		}
		blk.rot = [2][2]float64{{pick(), pick()}, {pick(), pick()}}
		for e := range coef {
			coef[e] = [5]float64{math.NaN(), math.NaN(), math.NaN(), math.NaN(), math.NaN()}
		}
		slidingCoefficients(&blk, &coef)
		for e := range blk.edges {
			want := edgeCoefficients(&blk, e)
			for j := range 2 {
				x, y := coef[e][j], want[j]
				if math.Float64bits(x) != math.Float64bits(y) && !(math.IsNaN(x) && math.IsNaN(y)) {
					t.Fatalf("trial %d: edge %d of %d, entry %d: %v, edgeCoefficients %v", trial, e, blk.edges, j, x, y)
				}
			}
		}
	}
}
