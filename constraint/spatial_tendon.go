package constraint

import (
	"math"

	"github.com/stiction-sim/stiction/multibody"
	"github.com/stiction-sim/stiction/tendon"
)

// validatePath checks a spatial tendon's path or a slider-crank: valid
// for m. Its moving bodies may be in any number of trees (a constraint
// block has one J block per tree it touches).
func validatePath(m *multibody.Model, p tendon.Transmission) error {
	if err := p.Validate(m); err != nil {
		return errf("transmission: %w", err)
	}
	return nil
}

// addPath adds s·G to row r of the block being built, G the Jacobian of
// path p (a spatial tendon or a slider-crank) at the kinematics c.kin, and
// returns L, s G v0 and s G v*.
func (a *Assembler) addPath(c *asmCtx, p tendon.Transmission, r int, s float64) (l, jv0, jvs float64) {
	l = a.pathJacobian(c, p)
	jv0, jvs = a.addG(c, r, s)
	return l, jv0, jvs
}

// pathJacobian computes G, the Jacobian of path p at the kinematics c.kin,
// into a.tenG and returns L.
func (a *Assembler) pathJacobian(c *asmCtx, p tendon.Transmission) float64 {
	if len(a.tenG) != c.m.NV {
		a.tenG, a.tenLocal = make([]float64, c.m.NV), make([]float64, 3*c.m.NV)
	}
	return tendon.JacobianAt(p, c.m, c.kin, c.in.Q0, a.tenG, a.tenLocal) // q for a compound joint's ball part
}

// addG adds s·G (a.tenG, pathJacobian's) to row r of the block being
// built and returns s G v0 and s G v*.
func (a *Assembler) addG(c *asmCtx, r int, s float64) (jv0, jvs float64) {
	for t := range c.m.Trees {
		tr := &c.m.Trees[t]
		g := a.tenG[tr.VOffset : tr.VOffset+tr.NV]
		if allZero(g) {
			continue
		}
		row := a.slot(c.m, t)[r*tr.NV : (r+1)*tr.NV]
		for j, gj := range g {
			row[j] += s * gj
			jv0 += s * gj * elem(c.in.V0, tr.VOffset+j)
			jvs += s * gj * elem(c.p.VStar, tr.VOffset+j)
		}
	}
	return jv0, jvs
}

func allZero(x []float64) bool {
	for _, v := range x {
		if v != 0 {
			return false
		}
	}
	return true
}

// spatialLimit appends the blocks of the finite bounds of a spatial
// tendon's limit: g = L − Lower with J = G, g = Upper − L with −J, as
// tendonLimit does for a fixed tendon. L and G are computed once for
// both bounds. Its entry is filled in place (next): nothing below adds an
// entry.
func (a *Assembler) spatialLimit(c *asmCtx, l *TendonLimit, i int) {
	e := a.next()
	e.typ, e.item, e.block, e.bound, e.vec = TypeTendonLimit, int32(i), -1, math.Inf(1), -1
	L, known := 0.0, false
	for side, bound := range [2]float64{l.Lower, l.Upper} {
		if math.IsInf(bound, 0) {
			continue
		}
		sign := 1.0
		if side == 1 {
			sign = -1
		}
		if !known {
			L, known = a.pathJacobian(c, l.Path), true
		}
		g := sign*(L-bound) - l.Margin
		if a.noRow(c, &l.Compliance, g) {
			continue
		}
		a.begin(1)
		jv0, jvs := a.addG(c, 0, sign)
		a.tendonLimitSide(c, e, &l.Compliance, sign, g, jv0, jvs)
	}
}
