package sim

import (
	"errors"
	"fmt"

	"github.com/stiction-sim/stiction/multibody"
	"github.com/stiction-sim/stiction/solver"
	"gonum.org/v1/gonum/blas"
	gonumlapack "gonum.org/v1/gonum/lapack/gonum"
)

// gyroJacobian is the velocity Jacobian ∂C/∂v of the Coriolis,
// centrifugal and gyroscopic forces C(q, v) per tree (the layout of
// Problem.A), and the scratch of the LU solve with M̂ = A + h ∂C/∂v.
type gyroJacobian struct {
	jac        []float64 // ∂C/∂v per tree block
	lu         []float64 // one tree block's LU factors
	piv        []int
	vp, cp, cm []float64 // perturbed v, C(v + e_j), C(v − e_j)
	par        [][]int   // each tree's velocity parents, M's pattern (addActuatorDamping)
	mom, local []float64 // an actuator's moment and its scratch (addMomentDamping)
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
// by LU with partial pivoting (gonum's unblocked Dgetf2 and Dgetrs, which
// do not allocate).
func (g *gyroJacobian) solve(p *solver.Problem, c solver.Clique, h float64, r []float64) error {
	return g.solveWith(p.A, c, h, r)
}

// solveWith is solve with the blocks of a (the layout of Problem.A) in
// place of p.A: (a_c + h ∂C/∂v_c)⁻¹ r.
func (g *gyroJacobian) solveWith(a0 []float64, c solver.Clique, h float64, r []float64) error {
	n := c.Size
	a := g.lu[:n*n]
	for i := range a {
		a[i] = a0[c.AOff+i] + h*g.jac[c.AOff+i]
	}
	if !lapackImpl.Dgetf2(n, n, a, max(n, 1), g.piv[:n]) {
		return fmt.Errorf("tree at v[%d]: %w", c.Offset, errSingular)
	}
	lapackImpl.Dgetrs(blas.NoTrans, n, 1, a, max(n, 1), g.piv[:n], r[:n], 1)
	return nil
}

// lapackImpl is gonum's pure-Go LAPACK.
var lapackImpl gonumlapack.Implementation
