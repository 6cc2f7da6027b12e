package constraint

import (
	"math"

	"github.com/stiction-sim/stiction/multibody"
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
		l := ac.Transmission.Jacobian(m, ws, g, local)
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
// one configuration, tree by tree (dense Cholesky factors of
// multibody.Workspace.MassMatrix). Make it with NewMassSolver; Factor
// allocates nothing.
type MassSolver struct {
	m *multibody.Model
	l [][]float64 // each tree's lower Cholesky factor, row-major
}

// NewMassSolver returns a solver sized for m.
func NewMassSolver(m *multibody.Model) *MassSolver {
	s := &MassSolver{m: m, l: make([][]float64, len(m.Trees))}
	for t, tr := range m.Trees {
		s.l[t] = make([]float64, tr.NV*tr.NV)
	}
	return s
}

// Factor factors M at the kinematics of ws.
func (s *MassSolver) Factor(ws *multibody.Workspace) error {
	for t, tr := range s.m.Trees {
		n, a := tr.NV, s.l[t]
		ws.MassMatrix(t, a)
		for j := range n {
			d := a[j*n+j]
			for k := range j {
				d -= a[j*n+k] * a[j*n+k]
			}
			if !(d > 0) {
				return errf("mass matrix of tree %d is not positive definite (pivot %d: %v)", t, j, d)
			}
			d = math.Sqrt(d)
			a[j*n+j] = d
			for i := j + 1; i < n; i++ {
				x := a[i*n+j]
				for k := range j {
					x -= a[i*n+k] * a[j*n+k]
				}
				a[i*n+j] = x / d
			}
		}
	}
	return nil
}

// Solve overwrites b (length NV) with M⁻¹ b.
func (s *MassSolver) Solve(b []float64) {
	for t, tr := range s.m.Trees {
		n, a, x := tr.NV, s.l[t], b[tr.VOffset:tr.VOffset+tr.NV]
		for i := range n { // L y = b
			for k := range i {
				x[i] -= a[i*n+k] * x[k]
			}
			x[i] /= a[i*n+i]
		}
		for i := n - 1; i >= 0; i-- { // Lᵀ x = y
			for k := i + 1; k < n; k++ {
				x[i] -= a[k*n+i] * x[k]
			}
			x[i] /= a[i*n+i]
		}
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
