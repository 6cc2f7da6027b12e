package constraint

import (
	"math"

	"github.com/stiction-sim/stiction/linalg"
	"github.com/stiction-sim/stiction/multibody"
	"github.com/stiction-sim/stiction/tendon"
)

// Moment writes the actuator's moment arm g = ∂l/∂v (length m.NV: Gear on
// a joint's velocity, Gear·coef_k on a fixed tendon's, Gear·G for a
// spatial tendon or slider-crank; MuJoCo's actuator_moment) into g and
// returns its length l (MuJoCo's actuator_length), at the kinematics of
// ws (updated at q); local is scratch of length ≥ 3 NV. It allocates
// nothing.
func (ac *Actuator) Moment(m *multibody.Model, ws *multibody.Workspace, q, g, local []float64) float64 {
	clear(g[:m.NV])
	gear := ac.gear()
	switch {
	case ac.Transmission != nil:
		l := tendon.JacobianAt(ac.Transmission, m, ws, q, g, local)
		for k := range g[:m.NV] {
			g[k] *= gear
		}
		return gear * l
	case len(ac.Tendon) > 0:
		l := 0.0
		for _, t := range ac.Tendon {
			qi, vi, _ := scalarDOF(m, t.Body, t.DOF)
			g[vi] += gear * t.Coef
			l += gear * t.Coef * q[qi]
		}
		return l
	}
	qi, vi, _ := scalarDOF(m, ac.Body, ac.DOF)
	g[vi] = gear
	return gear * q[qi]
}

// MassSolver solves M x = b with the joint-space mass matrix of a model at
// one configuration, tree by tree (the dense factors M_t = UᵀU of
// multibody.Workspace.MassMatrix, linalg.CholUpper). Make it with
// NewMassSolver; Factor and Solve allocate nothing.
type MassSolver struct {
	m *multibody.Model
	u [][]float64 // each tree's upper Cholesky factor, row-major
}

// NewMassSolver returns a solver sized for m.
func NewMassSolver(m *multibody.Model) *MassSolver {
	s := &MassSolver{m: m, u: make([][]float64, len(m.Trees))}
	for t, tr := range m.Trees {
		s.u[t] = make([]float64, tr.NV*tr.NV)
	}
	return s
}

// Factor factors M at the kinematics of ws.
func (s *MassSolver) Factor(ws *multibody.Workspace) error {
	for t, tr := range s.m.Trees {
		ws.MassMatrix(t, s.u[t])
		if !linalg.CholUpper(tr.NV, s.u[t]) {
			return errf("the mass matrix of tree %d is not positive definite", t)
		}
	}
	return nil
}

// Solve overwrites b (length NV) with M⁻¹ b.
func (s *MassSolver) Solve(b []float64) {
	for t, tr := range s.m.Trees {
		linalg.SolveUpper(tr.NV, s.u[t], b[tr.VOffset:tr.VOffset+tr.NV], 1)
	}
}

// Acc0 is ‖M⁻¹ g‖ for the actuator's moment arm g at the configuration q
// (ws's kinematics updated at q): MuJoCo's actuator_acc0 when q is the
// model's reference configuration (engine_setconst.c, set0), which a
// muscle with a negative force divides its scale by.
func (ac *Actuator) Acc0(m *multibody.Model, ws *multibody.Workspace, q []float64) (float64, error) {
	s := NewMassSolver(m)
	if err := s.Factor(ws); err != nil {
		return 0, err
	}
	g := make([]float64, m.NV)
	ac.Moment(m, ws, q, g, make([]float64, 3*m.NV))
	s.Solve(g)
	n := 0.0
	for _, x := range g {
		n += x * x
	}
	return math.Sqrt(n), nil
}
