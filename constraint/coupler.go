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
//
// Scale, when not 0, multiplies the row: g = Scale (q_i − ρ q_j − offset)
// and J = Scale (e_i − ρ e_j), the same constraint, which matters only to a
// soft coupler (Compliance.SolRef: MuJoCo's impedance is a function of g,
// and its weight is the row's). MuJoCo's tendon equality c1 q1 + c2 q2 = a0
// is Scale = c1, ρ = −c2/c1, offset = a0/c1.
//
// With Terms set the coupler is instead Σ coef_k q_k = Offset over the
// terms' coordinates (a fixed tendon's length held at Offset, MuJoCo's
// tendon equality over any number of joints): g = Σ coef_k q_k − Offset,
// J = Σ coef_k e_k; BodyI, BodyJ, Ratio and Scale are then unused.
type Coupler struct {
	Name          string
	BodyI, DOFI   int
	BodyJ, DOFJ   int
	Ratio, Offset float64
	Scale         float64
	Terms         []TendonTerm
	Compliance    Compliance
}

func (cp *Coupler) validate(m *multibody.Model) error {
	if len(cp.Terms) > 0 {
		if err := validateTendon(m, cp.Terms); err != nil {
			return err
		}
		if !finite(cp.Offset) {
			return errf("offset %v must be finite", cp.Offset)
		}
		return cp.Compliance.validate()
	}
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
	if !finite(cp.Ratio, cp.Offset, cp.Scale) {
		return errf("ratio %v, offset %v and scale %v must be finite", cp.Ratio, cp.Offset, cp.Scale)
	}
	return cp.Compliance.validate()
}

// coupler appends the coupler's block.
func (a *Assembler) coupler(c *asmCtx, cp *Coupler, i int) {
	if len(cp.Terms) > 0 {
		a.tendonCoupler(c, cp, i)
		return
	}
	qi, vi := dofAt(c.m, cp.BodyI, cp.DOFI)
	qj, vj := dofAt(c.m, cp.BodyJ, cp.DOFJ)
	s := cp.Scale
	if s == 0 {
		s = 1
	}
	g := s * (c.q[qi] - cp.Ratio*c.q[qj] - cp.Offset)
	a.begin(1)
	a.addDOF(c, cp.BodyI, vi, 0, s)
	a.addDOF(c, cp.BodyJ, vj, 0, -s*cp.Ratio)
	k, row := a.emit(c, solver.Bilateral)
	a.setEq(c, row, 0, &cp.Compliance, g)
	a.addItem(TypeCoupler, i, k, math.Abs(g), math.Inf(1))
}

// tendonCoupler appends the block of a coupler given by its terms.
func (a *Assembler) tendonCoupler(c *asmCtx, cp *Coupler, i int) {
	L, _ := TendonLength(c.m, cp.Terms, c.q, nil)
	g := L - cp.Offset
	a.begin(1)
	for _, t := range cp.Terms {
		_, vi := dofAt(c.m, t.Body, t.DOF)
		a.addDOF(c, t.Body, vi, 0, t.Coef)
	}
	k, row := a.emit(c, solver.Bilateral)
	a.setEq(c, row, 0, &cp.Compliance, g)
	a.addItem(TypeCoupler, i, k, math.Abs(g), math.Inf(1))
}
