package pgs

import (
	"math"
	"math/rand/v2"

	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/mat"
)

// maxDiff returns max |a_i − b_i|.
func maxDiff(a, b []float64) float64 { return floats.Distance(a, b, math.Inf(1)) }

// maxAbs returns max |x_i|.
func maxAbs(x []float64) float64 { return floats.Norm(x, math.Inf(1)) }

func randomDense(rng *rand.Rand, r, c int) *mat.Dense {
	m := mat.NewDense(r, c, nil)
	for i := range r {
		for j := range c {
			m.Set(i, j, rng.NormFloat64())
		}
	}
	return m
}
