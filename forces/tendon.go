package forces

import "github.com/stiction-sim/stiction/multibody"

// TendonCoord is one term coef·q of a fixed tendon's length: the
// coordinate QI and velocity VI (indices in q and v; q̇_QI = v_VI) with
// its coefficient.
type TendonCoord struct {
	QI, VI int
	Coef   float64
}

// FixedTendon is the spring–damper of a fixed tendon (MuJoCo's <fixed>
// stiffness, damping, springlength): with the length L = Σ coef_k q_k and
// L̇ = Σ coef_k v_k, the tendon force f = −k (L − L0) − b L̇ acts on each
// coordinate as τ_k = coef_k f (MuJoCo's mj_passive: qfrc_passive +=
// ten_moment·f). Its stiffness and damping matrices are K = k g gᵀ and
// D = b g gᵀ with g = (coef_k), SPD (positive semidefinite) for k, b ≥ 0;
// blocks between different trees are dropped from K and D (the force is
// exact).
type FixedTendon struct {
	Terms      []TendonCoord
	Stiffness  float64
	Damping    float64
	RestLength float64
}

// length returns L and L̇.
func (e *FixedTendon) length(c *Context) (l, ld float64) {
	for _, t := range e.Terms {
		l += t.Coef * c.Q[t.QI]
		ld += t.Coef * c.V[t.VI]
	}
	return l, ld
}

// Apply adds τ = g f and, with Jacobians, k g gᵀ to K and b g gᵀ to D.
func (e *FixedTendon) Apply(c *Context, out *Output) {
	l, ld := e.length(c)
	f := -e.Stiffness*(l-e.RestLength) - e.Damping*ld
	for _, t := range e.Terms {
		out.F[t.VI] += t.Coef * f
	}
	if !out.Jacobians {
		return
	}
	clear(out.row)
	for _, t := range e.Terms {
		out.row[t.VI] += t.Coef
	}
	if e.Stiffness > 0 {
		out.addOuter(out.K, out.row, e.Stiffness)
	}
	if e.Damping > 0 {
		out.addOuter(out.D, out.row, e.Damping)
	}
}

// PotentialEnergy returns ½ k (L − L0)².
func (e *FixedTendon) PotentialEnergy(c *Context) float64 {
	l, _ := e.length(c)
	d := l - e.RestLength
	return 0.5 * e.Stiffness * d * d
}

// NewTendonCoord returns the term of degree of freedom dof of body b's
// joint (a scalar coordinate: revolute, prismatic, planar, universal or a
// scalar part of a compound joint) and whether it is one.
func NewTendonCoord(m *multibody.Model, b, dof int, coef float64) (TendonCoord, bool) {
	if b < 0 || b >= len(m.Bodies) || m.Bodies[b].Tree < 0 {
		return TendonCoord{}, false
	}
	bd := &m.Bodies[b]
	j := &bd.Joint
	if dof < 0 || dof >= j.NV() {
		return TendonCoord{}, false
	}
	qi := dof
	switch j.Type {
	case multibody.JointRevolute, multibody.JointPrismatic, multibody.JointPlanar, multibody.JointUniversal:
	case multibody.JointCompound:
		if qi = j.ScalarCoordinate(dof); qi < 0 {
			return TendonCoord{}, false
		}
	default:
		return TendonCoord{}, false
	}
	return TendonCoord{QI: bd.QOff + qi, VI: bd.VOff + dof, Coef: coef}, true
}
