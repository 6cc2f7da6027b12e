package multibody

// TreeMassMatrix writes the NV_t×NV_t mass matrix block of tree t (row-major)
// into out (CRBA; see Workspace.MassMatrix). It allocates a Workspace; a
// stepper should keep one instead.
func (m *Model) TreeMassMatrix(s *State, t int, out []float64) {
	ws := NewWorkspace(m)
	ws.Update(s.Q, s.V)
	ws.MassMatrix(t, out)
}

// BiasForces writes into f (length NV) τ_g(q) − C(q, v): gravity minus the
// Coriolis, centrifugal and gyroscopic terms (see Workspace.BiasForces). It
// allocates a Workspace.
func (m *Model) BiasForces(s *State, f []float64) {
	ws := NewWorkspace(m)
	ws.Update(s.Q, s.V)
	ws.BiasForces(f)
}

// MassDiagonal writes diag(M) (length NV) into d. It allocates.
func (m *Model) MassDiagonal(s *State, d []float64) {
	ws := NewWorkspace(m)
	ws.Update(s.Q, s.V)
	for ti, t := range m.Trees {
		blk := make([]float64, t.NV*t.NV)
		ws.MassMatrix(ti, blk)
		for i := range t.NV {
			d[t.VOffset+i] = blk[i*t.NV+i]
		}
	}
}

// IntegrateQ sets q = q0 + δt N(qθ) v (SAP eq. 12) joint by joint, where
// quaternion rates are q̇ = ½ (0, ω) q (mechanics notes §0.2, eq. 0.1)
// evaluated at qθ, and renormalises the quaternions. q may alias q0; qθ may
// alias q0.
func (m *Model) IntegrateQ(q0, qTheta, v []float64, dt float64, q []float64) {
	if m.linearCoordinates() {
		integrateLinear(q0, v, dt, q[:m.NQ])
		return
	}
	m.integrateJoints(q0, qTheta, v, dt, q)
}

// integrateJoints is IntegrateQ joint by joint.
func (m *Model) integrateJoints(q0, qTheta, v []float64, dt float64, q []float64) {
	for i := range m.Bodies {
		b := &m.Bodies[i]
		if b.Tree < 0 || b.Joint.Type == JointWeld {
			continue
		}
		switch o := b.QOff; b.Joint.Type {
		case JointFree: // integrate's cases in line, on arrays
			integrateFree((*[7]float64)(q0[o:]), (*[4]float64)(qTheta[o:]), (*[6]float64)(v[b.VOff:]), dt, (*[7]float64)(q[o:]))
		case JointRevolute, JointPrismatic:
			q[o] = q0[o] + dt*v[b.VOff]
		default:
			b.Joint.integrate(q0[o:], qTheta[o:], v[b.VOff:], dt, q[o:])
		}
	}
}

// QRate writes q̇ = N(q) v into qd (length NQ).
func (m *Model) QRate(q, v, qd []float64) {
	for i := range m.Bodies {
		b := &m.Bodies[i]
		if b.Tree < 0 || b.Joint.Type == JointWeld {
			continue
		}
		b.Joint.rate(q[b.QOff:], v[b.VOff:], qd[b.QOff:])
	}
}

// KineticEnergy returns ½ vᵀ M(q) v = Σ_b ½ (ω·I_c ω + m |v_com|²) (see
// Workspace.KineticEnergy). It allocates a Workspace; a stepper should keep
// one instead.
func (m *Model) KineticEnergy(s *State) float64 {
	ws := NewWorkspace(m)
	ws.Update(s.Q, s.V)
	return ws.KineticEnergy()
}

// PotentialEnergy returns the gravitational potential energy −Σ m g·x_com,
// zero at the world origin.
func (m *Model) PotentialEnergy(s *State) float64 {
	e := 0.0
	for b := range m.Bodies {
		body := &m.Bodies[b]
		if body.Tree < 0 {
			continue
		}
		x, _, _ := m.kin(s.Q, nil, b)
		e -= body.Inertia.Mass * m.Gravity.Dot(x.Apply(body.Inertia.Com))
	}
	return e
}
