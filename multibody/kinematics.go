package multibody

import "github.com/stiction-sim/stiction/spatial"

// frames returns the world poses of joint frames F and M and of body b,
// given the world pose xp of its parent (identity for the world).
func (m *Model) frames(q []float64, b int, xp spatial.Pose) (xf, xm, xb spatial.Pose) {
	j := &m.Bodies[b].Joint
	qj := q[m.Bodies[b].QOff:]
	if j.Type == JointFree {
		xb = j.motion(qj)
		return spatial.PoseIdentity(), xb, xb
	}
	xf = xp.Compose(j.ParentFrame)
	xm = xf.Compose(j.motion(qj))
	return xf, xm, xm.Compose(j.ChildFrame.Inverse())
}

// kin returns the world pose, angular velocity and origin velocity of body b
// at (q, v), walking up its chain (v may be nil: zero velocities).
func (m *Model) kin(q, v []float64, b int) (x spatial.Pose, w, vb spatial.Vec3) {
	body := &m.Bodies[b]
	if body.Tree < 0 {
		return body.Pose, w, vb
	}
	xp, wp, vp := spatial.PoseIdentity(), spatial.Vec3{}, spatial.Vec3{}
	if body.Joint.Parent >= 0 {
		xp, wp, vp = m.kin(q, v, body.Joint.Parent)
	}
	xf, xm, xb := m.frames(q, b, xp)
	if v == nil {
		return xb, w, vb
	}
	var cw, cl [6]spatial.Vec3
	body.Joint.subspace(q[body.QOff:], nil, &cw, &cl)
	R := xf.R.RotMat()
	var wj, lj spatial.Vec3
	for k := range body.Joint.NV() {
		wj = wj.AddScaled(v[body.VOff+k], R.MulVec(cw[k]))
		lj = lj.AddScaled(v[body.VOff+k], R.MulVec(cl[k]))
	}
	w = wp.Add(wj)
	vm := vp.Add(wp.Cross(xm.P.Sub(xp.P))).Add(lj)
	return xb, w, vm.Add(w.Cross(xb.P.Sub(xm.P)))
}

// BodyPose returns the world pose of body b.
func (m *Model) BodyPose(s *State, b int) spatial.Pose {
	x, _, _ := m.kin(s.Q, nil, b)
	return x
}

// BodyVelocity returns the angular velocity and the velocity of the origin
// of body b, in the world frame.
func (m *Model) BodyVelocity(s *State, b int) (w, v spatial.Vec3) {
	_, w, v = m.kin(s.Q, s.V, b)
	return w, v
}

// PointVelocity returns the world velocity of the material point of body b
// that is at world position p.
func (m *Model) PointVelocity(s *State, b int, p spatial.Vec3) spatial.Vec3 {
	x, w, v := m.kin(s.Q, s.V, b)
	return v.Add(w.Cross(p.Sub(x.P)))
}

// PointJacobian writes into out the 3×NV_t block (row-major, NV_t the size
// of the body's tree) of the Jacobian of the world velocity of the material
// point of body b that is at world position p, with respect to its tree's
// velocities: v_p = J v_t. Column k of a joint between frames F and M is
// R_F l_k + (R_F w_k) × (p − x_M) (the joint's motion subspace, shifted to
// p); columns of joints not on b's path to the root are zero. For a free
// body, J = [−[r]×, I] with r = p − x. It returns the tree index, or −1 (and
// writes nothing) for a body welded to the world.
func (m *Model) PointJacobian(s *State, b int, p spatial.Vec3, out []float64) int {
	if m.Bodies[b].Tree < 0 {
		return -1
	}
	// It allocates a Workspace: in loops, Update one Workspace and call its
	// PointJacobian instead.
	ws := NewWorkspace(m)
	ws.Update(s.Q, nil)
	return ws.PointJacobian(b, p, out)
}
