package multibody

import "github.com/stiction-sim/stiction/spatial"

// BodyPose returns the world pose of body b.
func (m *Model) BodyPose(s *State, b int) spatial.Pose {
	body := &m.Bodies[b]
	if body.Joint == JointWeld {
		return body.Pose
	}
	q := s.Q[m.Trees[body.Tree].QOffset:]
	return spatial.Pose{R: spatial.Quat{W: q[0], X: q[1], Y: q[2], Z: q[3]}, P: spatial.Vec3{q[4], q[5], q[6]}}
}

// BodyVelocity returns the angular velocity and the velocity of the origin
// of body b, in the world frame.
func (m *Model) BodyVelocity(s *State, b int) (w, v spatial.Vec3) {
	body := &m.Bodies[b]
	if body.Joint == JointWeld {
		return
	}
	u := s.V[m.Trees[body.Tree].VOffset:]
	return spatial.Vec3{u[0], u[1], u[2]}, spatial.Vec3{u[3], u[4], u[5]}
}

// PointVelocity returns the world velocity of the material point of body b
// that is at world position p.
func (m *Model) PointVelocity(s *State, b int, p spatial.Vec3) spatial.Vec3 {
	w, v := m.BodyVelocity(s, b)
	x := m.BodyPose(s, b)
	return v.Add(w.Cross(p.Sub(x.P)))
}

// PointJacobian writes into out the 3×NV_t block (row-major, NV_t the size
// of the body's tree) of the Jacobian of the world velocity of the material
// point of body b that is at world position p, with respect to its tree's
// velocities: v_p = J v_t. For a free body, v_p = v + ω × r with r = p − x,
// so J = [−[r]×, I]. It returns the tree index, or −1 (and writes nothing)
// for a welded body, whose point velocities are zero.
func (m *Model) PointJacobian(s *State, b int, p spatial.Vec3, out []float64) int {
	body := &m.Bodies[b]
	if body.Joint == JointWeld {
		return -1
	}
	r := p.Sub(m.BodyPose(s, b).P)
	sk := spatial.Skew(r)
	for i := range 3 {
		row := out[6*i : 6*i+6]
		for j := range 3 {
			row[j] = -sk[i][j]
			row[3+j] = 0
		}
		row[3+i] = 1
	}
	return body.Tree
}
