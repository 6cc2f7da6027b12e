package constraint

import (
	"math"

	"github.com/stiction-sim/stiction/multibody"
	"github.com/stiction-sim/stiction/solver"
)

// Coupler ties two joint coordinates: q_i = Ratio·q_j + Offset (URDF mimic,
// MuJoCo's joint equality with a linear polynomial). g = q_i − ρ q_j −
// offset, J = e_i − ρ e_j (1 row, solver.Bilateral); the joints may be in
// different trees. The coordinates must be of revolute, prismatic, planar or
// universal joints.
type Coupler struct {
	Name          string
	BodyI, DOFI   int
	BodyJ, DOFJ   int
	Ratio, Offset float64
	Compliance    Compliance
}

func (cp *Coupler) validate(m *multibody.Model) error {
	_, vi, err := scalarDOF(m, cp.BodyI, cp.DOFI)
	if err != nil {
		return err
	}
	_, vj, err := scalarDOF(m, cp.BodyJ, cp.DOFJ)
	if err != nil {
		return err
	}
	if vi == vj {
		return errf("couples velocity %d with itself", vi)
	}
	if !finite(cp.Ratio, cp.Offset) {
		return errf("ratio %v and offset %v must be finite", cp.Ratio, cp.Offset)
	}
	return cp.Compliance.validate()
}

// coupler appends the coupler's block.
func (a *Assembler) coupler(c *asmCtx, cp *Coupler, i int) {
	qi, vi, _ := scalarDOF(c.m, cp.BodyI, cp.DOFI)
	qj, vj, _ := scalarDOF(c.m, cp.BodyJ, cp.DOFJ)
	g := c.q[qi] - cp.Ratio*c.q[qj] - cp.Offset
	a.begin(1)
	a.addDOF(c, cp.BodyI, vi, 0, 1)
	a.addDOF(c, cp.BodyJ, vj, 0, -cp.Ratio)
	k, row := a.emit(c, solver.Bilateral)
	a.setEq(c, row, 0, cp.Compliance, g)
	a.add(entry{typ: TypeCoupler, item: i, block: k, nblocks: 1, violation: math.Abs(g), bound: math.Inf(1), vec: -1})
}
