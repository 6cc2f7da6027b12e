package sim

import (
	"errors"
	"fmt"
	"math"

	"github.com/stiction-sim/stiction/multibody"
	"github.com/stiction-sim/stiction/solver"
)

// gyroJacobian is the velocity Jacobian ∂C/∂v of the Coriolis,
// centrifugal and gyroscopic forces C(q, v) per tree (the layout of
// Problem.A), and the scratch of the LU solve with M̂ = A + h ∂C/∂v.
type gyroJacobian struct {
	jac        []float64 // ∂C/∂v per tree block
	lu         []float64 // one tree block's LU factors
	piv        []int
	vp, cp, cm []float64 // perturbed v, C(v + e_j), C(v − e_j)
}

// jacobian fills g.jac at (q, v) using kin as scratch. C is quadratic in v,
// so the central difference (C(v + e_j) − C(v − e_j))/2 is its exact
// derivative along e_j (to round-off); column j of every tree is done at
// once, trees being independent.
func (g *gyroJacobian) jacobian(m *multibody.Model, kin *multibody.Workspace, q, v []float64) {
	n, maxNV := 0, 0
	for _, t := range m.Trees {
		n += t.NV * t.NV
		maxNV = max(maxNV, t.NV)
	}
	if len(g.jac) != n {
		g.jac, g.lu = make([]float64, n), make([]float64, maxNV*maxNV)
		g.piv = make([]int, maxNV)
		g.vp, g.cp, g.cm = make([]float64, m.NV), make([]float64, m.NV), make([]float64, m.NV)
	}
	for j := range maxNV {
		for sign, c := range [2][]float64{g.cp, g.cm} {
			copy(g.vp, v)
			for _, t := range m.Trees {
				if j < t.NV {
					g.vp[t.VOffset+j] += 1 - 2*float64(sign)
				}
			}
			kin.Update(q, g.vp)
			kin.VelocityForces(c)
		}
		off := 0
		for _, t := range m.Trees {
			if j < t.NV {
				for i := range t.NV {
					g.jac[off+i*t.NV+j] = (g.cp[t.VOffset+i] - g.cm[t.VOffset+i]) / 2
				}
			}
			off += t.NV * t.NV
		}
	}
}

// errSingular reports a singular M̂.
var errSingular = errors.New("M̂ = M + h(D + ∂C/∂v) is singular")

// solve overwrites r with (A_c + h ∂C/∂v_c)⁻¹ r for clique c of p (a tree),
// by LU with partial pivoting.
func (g *gyroJacobian) solve(p *solver.Problem, c solver.Clique, h float64, r []float64) error {
	n := c.Size
	a := g.lu[:n*n]
	for i := range a {
		a[i] = p.A[c.AOff+i] + h*g.jac[c.AOff+i]
	}
	for k := range n {
		piv := k
		for i := k + 1; i < n; i++ {
			if math.Abs(a[i*n+k]) > math.Abs(a[piv*n+k]) {
				piv = i
			}
		}
		if !(math.Abs(a[piv*n+k]) > 0) {
			return fmt.Errorf("tree at v[%d]: %w", c.Offset, errSingular)
		}
		if piv != k {
			for j := range n {
				a[k*n+j], a[piv*n+j] = a[piv*n+j], a[k*n+j]
			}
			r[k], r[piv] = r[piv], r[k]
		}
		for i := k + 1; i < n; i++ {
			f := a[i*n+k] / a[k*n+k]
			for j := k; j < n; j++ {
				a[i*n+j] -= f * a[k*n+j]
			}
			r[i] -= f * r[k]
		}
	}
	for i := n - 1; i >= 0; i-- {
		s := r[i]
		for j := i + 1; j < n; j++ {
			s -= a[i*n+j] * r[j]
		}
		r[i] = s / a[i*n+i]
	}
	return nil
}
