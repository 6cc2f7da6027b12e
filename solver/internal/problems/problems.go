// Package problems builds and loads solver.Problem values for the tests of
// the solvers: random problems with every constraint kind, and problems
// captured from simulations (gob files of {P, V0}).
package problems

import (
	"encoding/gob"
	"fmt"
	"math"
	"math/rand/v2"
	"os"

	"github.com/stiction-sim/stiction/solver"
)

// Captured is a problem captured from a simulation step with its warm
// start, in the gob format of solver/sap/testdata.
type Captured struct {
	P  *solver.Problem
	V0 []float64
}

// Load reads a Captured problem from a gob file.
func Load(path string) (*Captured, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	var c Captured
	if err := gob.NewDecoder(f).Decode(&c); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return &c, nil
}

// Save writes c to a gob file.
func Save(path string, c *Captured) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := gob.NewEncoder(f).Encode(c); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// Random returns a problem of nc cliques of 6 velocities (A = diag of
// masses and inertias of order 1 with a random SPD coupling inside each
// clique), v* of order 1, and the given constraint kinds, each on one or
// two random cliques with random J entries of order 1, v̂ of order 0.1 and
// R = rf·w per row, w the diagonal of W = J A⁻¹ Jᵀ (SAP eq. 29's
// near-rigid regularization is rf = β²/(4π²) ≈ 0.025 for β = 1),
// averaged over the tangential rows of a contact and over the rows of a
// disk, which need equal R. Interval blocks cycle through the bound
// patterns [0, ∞), [−1, 1]·0.1, (−∞, 0.2], (−∞, ∞) and [0.05, 0.3]; Lagged
// blocks are anchored (stick 1).
func Random(rng *rand.Rand, nc int, kinds []solver.Kind, rf float64) *solver.Problem {
	p := &solver.Problem{}
	p.Reset(6 * nc)
	for c := range nc {
		p.Cliques = append(p.Cliques, solver.Clique{Offset: 6 * c, Size: 6, AOff: len(p.A)})
		p.A = append(p.A, spd(rng, 6)...)
	}
	for i := range p.NV {
		p.VStar[i] = rng.NormFloat64()
		p.MDiag[i] = p.A[p.Cliques[i/6].AOff+(i%6)*7]
	}
	for n, k := range kinds {
		addRandom(rng, p, k, n)
	}
	regularize(p, rf)
	return p
}

// regularize sets R = rf·diag(J A⁻¹ Jᵀ), with equal tangential R in
// contacts and equal R in disks.
func regularize(p *solver.Problem, rf float64) {
	var cf solver.CliqueFactor
	if err := cf.Factor(p); err != nil {
		panic(err)
	}
	clear(p.R)
	for b, blk := range p.JBlock {
		q := p.Cliques[blk.Clique]
		c := p.Constraints[blk.Constraint]
		d := p.JBlockData(b)
		for r := range c.Size {
			x := append([]float64(nil), d[r*q.Size:(r+1)*q.Size]...)
			cf.Solve(q, x, 1)
			s := 0.0
			for j, v := range x {
				s += v * d[r*q.Size+j]
			}
			p.R[c.Row+r] += rf * s
		}
	}
	for _, c := range p.Constraints {
		if c.Kind.IsContact() || c.Kind == solver.Disk {
			m := (p.R[c.Row] + p.R[c.Row+1]) / 2
			p.R[c.Row], p.R[c.Row+1] = m, m
		}
	}
}

// spd returns a random symmetric positive definite n×n matrix B Bᵀ + I.
func spd(rng *rand.Rand, n int) []float64 {
	b := make([]float64, n*n)
	for i := range b {
		b[i] = 0.5 * rng.NormFloat64()
	}
	a := make([]float64, n*n)
	for i := range n {
		for j := range n {
			s := 0.0
			for k := range n {
				s += b[i*n+k] * b[j*n+k]
			}
			a[i*n+j] = s
		}
		a[i*n+i]++
	}
	return a
}

// addRandom appends one random block of kind k (n is its index among the
// random blocks, which picks the Interval pattern).
func addRandom(rng *rand.Rand, p *solver.Problem, k solver.Kind, n int) {
	var size int
	var par []float64
	switch k {
	case solver.ContactCone:
		size, par = 3, []float64{0.2 + rng.Float64()}
	case solver.ContactLagged:
		size, par = 3, []float64{0.5, 0.5 + rng.Float64(), 1e-4, 1, 1}
	case solver.ContactSimilar:
		size, par = 3, []float64{0.5, 1e-4}
	case solver.Bilateral:
		size = 1 + rng.IntN(3)
	case solver.Interval:
		size = 1
		pat := [][2]float64{{0, math.Inf(1)}, {-0.1, 0.1}, {math.Inf(-1), 0.2}, {math.Inf(-1), math.Inf(1)}, {0.05, 0.3}}
		b := pat[n%len(pat)]
		par = b[:]
	case solver.Disk:
		size, par = 2, []float64{0.3}
	}
	c := p.AddConstraint(k, size, par...)
	lo, hi := p.Rows(c)
	for row := lo; row < hi; row++ {
		p.VHat[row] = 0.1 * rng.NormFloat64()
	}
	q1 := rng.IntN(len(p.Cliques))
	qs := []int{q1}
	if q2 := rng.IntN(len(p.Cliques)); q2 != q1 {
		qs = append(qs, q2)
	}
	if len(qs) == 2 && qs[1] < qs[0] {
		qs[0], qs[1] = qs[1], qs[0]
	}
	for _, q := range qs {
		d := p.AddJBlock(c, q)
		for i := range d {
			d[i] = rng.NormFloat64()
		}
	}
}
