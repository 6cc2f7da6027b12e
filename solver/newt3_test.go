package solver

import (
	"math/rand"
	"slices"
	"testing"
)

// TestAddConstraintGrowth checks AddConstraint, whose growth is out of
// line (growConstraint), against the plain appends it stands for, on a
// problem reused across Resets with row counts and parameter lists that
// grow, shrink and are empty, and with VHat and R written between calls.
func TestAddConstraintGrowth(t *testing.T) {
	rng := rand.New(rand.NewSource(3))
	var p Problem
	for trial := range 200 {
		p.Reset(3)
		var cons []Constraint
		var vhat, r, params []float64
		for i := range rng.Intn(12) {
			size := rng.Intn(7)
			par := make([]float64, rng.Intn(6))
			for k := range par {
				par[k] = rng.NormFloat64()
			}
			if got := p.AddConstraint(Kind(rng.Intn(3)), size, par...); got != i {
				t.Fatalf("trial %d: AddConstraint returned %d, want %d", trial, got, i)
			}
			c := p.Constraints[i]
			cons = append(cons, Constraint{Kind: c.Kind, Row: len(vhat), Size: size, Par: len(params)})
			params = append(params, par...)
			for range size {
				x, y := rng.NormFloat64(), rng.NormFloat64()
				vhat, r = append(vhat, x), append(r, y)
			}
			for k := range size { // the caller's rows, over the zeros AddConstraint stored
				if p.VHat[c.Row+k] != 0 || p.R[c.Row+k] != 0 {
					t.Fatalf("trial %d: constraint %d row %d not zeroed", trial, i, k)
				}
				p.VHat[c.Row+k], p.R[c.Row+k] = vhat[c.Row+k], r[c.Row+k]
			}
		}
		if !slices.Equal(p.Constraints, cons) || p.NR != len(vhat) || !slices.Equal(p.VHat, vhat) || !slices.Equal(p.R, r) || !slices.Equal(p.Params, params) {
			t.Fatalf("trial %d: got %v NR %d %v %v %v, want %v %v %v %v", trial, p.Constraints, p.NR, p.VHat, p.R, p.Params, cons, vhat, r, params)
		}
	}
}
