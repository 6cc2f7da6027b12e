package multibody

import (
	"fmt"
	"math"

	"github.com/stiction-sim/stiction/spatial"
)

// State is the dynamic state of a Model: generalized positions q,
// generalized velocities v, and time t. It holds no scratch memory, so it can
// be copied, saved and restored exactly.
type State struct {
	Q []float64
	V []float64
	T float64
}

// NewState returns the state with every free body at the world origin with
// identity orientation and at rest.
func (m *Model) NewState() *State {
	s := &State{Q: make([]float64, m.NQ), V: make([]float64, m.NV)}
	for _, t := range m.Trees {
		s.Q[t.QOffset] = 1
	}
	return s
}

// CopyFrom makes s an exact copy of o (same model), reusing s's storage.
func (s *State) CopyFrom(o *State) {
	s.Q = append(s.Q[:0], o.Q...)
	s.V = append(s.V[:0], o.V...)
	s.T = o.T
}

// SetFreeBodyPose sets the pose of free body b.
func (m *Model) SetFreeBodyPose(s *State, b int, x spatial.Pose) {
	t := m.Trees[m.Bodies[b].Tree]
	q := s.Q[t.QOffset : t.QOffset+7]
	r := x.R.Normalize()
	q[0], q[1], q[2], q[3] = r.W, r.X, r.Y, r.Z
	q[4], q[5], q[6] = x.P[0], x.P[1], x.P[2]
}

// SetFreeBodyVelocity sets the angular velocity w and the linear velocity v
// (world frame) of free body b.
func (m *Model) SetFreeBodyVelocity(s *State, b int, w, v spatial.Vec3) {
	t := m.Trees[m.Bodies[b].Tree]
	copy(s.V[t.VOffset:t.VOffset+3], w[:])
	copy(s.V[t.VOffset+3:t.VOffset+6], v[:])
}

// CheckFinite returns an error naming the first non-finite coordinate.
func (m *Model) CheckFinite(s *State) error {
	for i, x := range s.Q {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return fmt.Errorf("multibody: q[%d] = %v is not finite", i, x)
		}
	}
	for i, x := range s.V {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return fmt.Errorf("multibody: v[%d] = %v is not finite", i, x)
		}
	}
	return nil
}
