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
	// Act holds the activations of stateful actuators (MuJoCo's act: a
	// muscle's), one per actuator of the simulator's constraint set
	// (package sim sizes it; nil when no actuator has a state).
	Act []float64
}

// NewState returns the state with every joint at its initial configuration
// and velocity (Joint.Q0, Joint.V0), or at its neutral configuration (free
// bodies at the world origin with identity orientation) and at rest where
// those are not given.
func (m *Model) NewState() *State {
	s := &State{Q: make([]float64, m.NQ), V: make([]float64, m.NV)}
	for _, b := range m.Bodies {
		if b.Tree < 0 {
			continue
		}
		j := &b.Joint
		q := s.Q[b.QOff : b.QOff+j.NQ()]
		j.neutral(q)
		copy(q, j.Q0)
		copy(s.V[b.VOff:], j.V0)
	}
	return s
}

// JointQ returns the slice of q that holds body b's joint coordinates (nil
// for a body welded to the world).
func (m *Model) JointQ(s *State, b int) []float64 {
	body := &m.Bodies[b]
	if body.Tree < 0 {
		return nil
	}
	return s.Q[body.QOff : body.QOff+body.Joint.NQ()]
}

// JointV returns the slice of v that holds body b's joint velocities (nil
// for a body welded to the world).
func (m *Model) JointV(s *State, b int) []float64 {
	body := &m.Bodies[b]
	if body.Tree < 0 {
		return nil
	}
	return s.V[body.VOff : body.VOff+body.Joint.NV()]
}

// CopyFrom makes s an exact copy of o (same model), reusing s's storage.
func (s *State) CopyFrom(o *State) {
	s.Q = append(s.Q[:0], o.Q...)
	s.V = append(s.V[:0], o.V...)
	s.T = o.T
	if o.Act != nil || s.Act != nil {
		s.Act = append(s.Act[:0], o.Act...)
	}
}

// SetFreeBodyPose sets the pose of free body b (a body on a free joint).
func (m *Model) SetFreeBodyPose(s *State, b int, x spatial.Pose) {
	o := m.Bodies[b].QOff
	q := s.Q[o : o+7]
	r := x.R.Normalize()
	q[0], q[1], q[2], q[3] = r.W, r.X, r.Y, r.Z
	q[4], q[5], q[6] = x.P[0], x.P[1], x.P[2]
}

// SetFreeBodyVelocity sets the angular velocity w and the linear velocity v
// (world frame) of free body b.
func (m *Model) SetFreeBodyVelocity(s *State, b int, w, v spatial.Vec3) {
	o := m.Bodies[b].VOff
	copy(s.V[o:o+3], w[:])
	copy(s.V[o+3:o+6], v[:])
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
