package lcp

import (
	"gonum.org/v1/gonum/mat"
)

// stackContact is a stack of n equal boxes (half sizes a, b, c, mass m),
// the lowest on the plane z = 0, each resting on the one below on its four
// bottom corners, with velocities (ω, v) of each centre of mass; the top
// box is pushed along x. Rows (n, t1, t2) = (z, x, y) per contact; a
// contact's row is the velocity of the upper box's corner minus the lower
// box's material point there. At rest every contact sticks: the LCP is
// highly degenerate (many complementary pairs both zero).
func stackContact(nb int, a, b, c, m, mu, push, h float64) *Contact {
	nv, nc := 6*nb, 4*nb
	ix, iy, iz := m*(b*b+c*c)/3, m*(a*a+c*c)/3, m*(a*a+b*b)/3
	am := mat.NewSymDense(nv, nil)
	for k := range nb {
		for i, v := range []float64{ix, iy, iz, m, m, m} {
			am.SetSym(6*k+i, 6*k+i, v)
		}
	}
	j := mat.NewDense(3*nc, nv, nil)
	ci := 0
	for k := range nb {
		for _, sx := range []float64{-1, 1} {
			for _, sy := range []float64{-1, 1} {
				// Corner of box k relative to its centre; the same point
				// relative to box k−1's centre lies 2c higher.
				addPoint(j, ci, 6*k, [3]float64{sx * a, sy * b, -c}, 1)
				if k > 0 {
					addPoint(j, ci, 6*(k-1), [3]float64{sx * a, sy * b, c}, -1)
				}
				ci++
			}
		}
	}
	vstar := make([]float64, nv)
	for k := range nb {
		vstar[6*k+5] = -9.81 * h
	}
	vstar[6*(nb-1)+3] = push * h / m
	mu4 := make([]float64, nc)
	for i := range mu4 {
		mu4[i] = mu
	}
	return &Contact{A: am, J: j, VStar: vstar, Mu: mu4}
}

// addPoint adds sign × the Jacobian of the velocity of the point at offset
// r from the centre of the body whose velocities start at column col, to
// the rows (n, t1, t2) = (z, x, y) of contact ci.
func addPoint(j *mat.Dense, ci, col int, r [3]float64, sign float64) {
	for row, d := range []int{2, 0, 1} {
		e, f := (d+1)%3, (d+2)%3
		rr := 3*ci + row
		j.Set(rr, col+3+d, j.At(rr, col+3+d)+sign)
		j.Set(rr, col+e, j.At(rr, col+e)+sign*r[f])
		j.Set(rr, col+f, j.At(rr, col+f)-sign*r[e])
	}
}
