package multibody

import "github.com/stiction-sim/stiction/spatial"

// TreeMassMatrix writes the NV_t×NV_t mass matrix block of tree t (row-major)
// into out. For a free body with origin at its centre of mass it is
// diag(I_W, m I) with I_W = R I_com Rᵀ (mechanics notes §0.1 with c = 0).
func (m *Model) TreeMassMatrix(s *State, t int, out []float64) {
	b := m.Trees[t].Bodies[0]
	in := m.Bodies[b].Inertia
	iw := spatial.RotateInertia(m.BodyPose(s, b).R.RotMat(), in.Icom)
	clear(out[:36])
	for i := range 3 {
		for j := range 3 {
			out[6*i+j] = iw[i][j]
		}
		out[6*(3+i)+3+i] = in.Mass
	}
}

// BiasForces writes into f (length NV) the generalized forces that do not
// depend on accelerations, moved to the right-hand side: gravity minus the
// gyroscopic term. For a free body, f = [−ω × (I_W ω), m g].
func (m *Model) BiasForces(s *State, f []float64) {
	for _, t := range m.Trees {
		b := t.Bodies[0]
		in := m.Bodies[b].Inertia
		w, _ := m.BodyVelocity(s, b)
		iw := spatial.RotateInertia(m.BodyPose(s, b).R.RotMat(), in.Icom)
		gyro := w.Cross(iw.MulVec(w))
		fb := f[t.VOffset : t.VOffset+6]
		for i := range 3 {
			fb[i] = -gyro[i]
			fb[3+i] = in.Mass * m.Gravity[i]
		}
	}
}

// MassDiagonal writes diag(M) (length NV) into d.
func (m *Model) MassDiagonal(s *State, d []float64) {
	var blk [36]float64
	for ti, t := range m.Trees {
		m.TreeMassMatrix(s, ti, blk[:])
		for i := range t.NV {
			d[t.VOffset+i] = blk[i*t.NV+i]
		}
	}
}

// IntegrateQ sets q = q0 + δt N(qθ) v (SAP eq. 12) for every tree, where the
// quaternion rate uses q̇ = ½ (0, ω) q (mechanics notes §0.2, eq. 0.1)
// evaluated at qθ, and renormalises the quaternions. q may alias q0; qθ may
// alias q0.
func (m *Model) IntegrateQ(q0, qTheta, v []float64, dt float64, q []float64) {
	for _, t := range m.Trees {
		a, u := t.QOffset, t.VOffset
		r := spatial.Quat{W: qTheta[a], X: qTheta[a+1], Y: qTheta[a+2], Z: qTheta[a+3]}
		rd := r.RateWorld(spatial.Vec3{v[u], v[u+1], v[u+2]})
		r0 := spatial.Quat{W: q0[a], X: q0[a+1], Y: q0[a+2], Z: q0[a+3]}
		rn := r0.Add(rd.Scale(dt)).Normalize()
		q[a], q[a+1], q[a+2], q[a+3] = rn.W, rn.X, rn.Y, rn.Z
		for i := range 3 {
			q[a+4+i] = q0[a+4+i] + dt*v[u+3+i]
		}
	}
}

// KineticEnergy returns ½ vᵀ M(q) v.
func (m *Model) KineticEnergy(s *State) float64 {
	e := 0.0
	for _, t := range m.Trees {
		b := t.Bodies[0]
		in := m.Bodies[b].Inertia
		w, v := m.BodyVelocity(s, b)
		iw := spatial.RotateInertia(m.BodyPose(s, b).R.RotMat(), in.Icom)
		e += 0.5*w.Dot(iw.MulVec(w)) + 0.5*in.Mass*v.Dot(v)
	}
	return e
}

// PotentialEnergy returns the gravitational potential energy −Σ m g·x_com,
// zero at the world origin.
func (m *Model) PotentialEnergy(s *State) float64 {
	e := 0.0
	for _, t := range m.Trees {
		b := t.Bodies[0]
		e -= m.Bodies[b].Inertia.Mass * m.Gravity.Dot(m.BodyPose(s, b).P)
	}
	return e
}
