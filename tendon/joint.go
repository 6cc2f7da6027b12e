package tendon

import (
	"fmt"

	"github.com/stiction-sim/stiction/multibody"
	"github.com/stiction-sim/stiction/spatial"
)

// JointTransmission is MuJoCo 2.2.2's joint transmission on a ball or
// free joint (mj_transmission, mjTRN_JOINT and mjTRN_JOINTINPARENT,
// engine_core_smooth.c): the gear is a torque (ball: Gear[0:3]) or a force
// and a torque (free: Gear[0:3] the force on the body origin in the world
// frame, Gear[3:6] the torque) per unit of actuator force, the torque in
// the joint's child frame M (MuJoCo's body frame), or in its parent frame
// F with InParent (jointinparent; for a free joint F is the world).
//
// Ball: with q the joint's quaternion (M in F) and r its rotation vector
// (mju_quat2Vel), the length is L = r·g, the same in either frame since q
// turns r into itself; L̇ is the relative angular velocity along g, which in
// our coordinates (v = ω of M relative to F, expressed in F) is G = R_FM g,
// or G = g with InParent. Free: L = 0, as in MuJoCo (no meaningful length),
// and G = (R g_τ, g_f) on our (ω, v) in the world frame, R the body's
// rotation (the identity with InParent).
//
// On a ball part of a compound joint (DOF its first velocity within the
// joint) the quaternion is the part's, read from q: JacobianAt
// (ballpart.go), which the constraint assembly calls; Jacobian, without
// q, gives G = 0 and length 0 there.
type JointTransmission struct {
	Body     int // the body whose ball or free joint is driven
	Gear     [6]float64
	InParent bool
	DOF      int // a compound joint's ball part: its first velocity within the joint (0 otherwise)
}

// Bodies lists the body: G has entries only on its joint's velocities.
func (s *JointTransmission) Bodies() []int { return []int{s.Body} }

// Validate checks that Body has a ball or free joint and the gear is
// finite.
func (s *JointTransmission) Validate(m *multibody.Model) error {
	if s.Body < 0 || s.Body >= len(m.Bodies) {
		return fmt.Errorf("joint transmission: body %d out of range", s.Body)
	}
	b := &m.Bodies[s.Body]
	switch t := b.Joint.Type; {
	case t == multibody.JointCompound:
		if err := s.validateBallPart(m, b); err != nil {
			return err
		}
	case t != multibody.JointBall && t != multibody.JointFree:
		return fmt.Errorf("joint transmission: body %q has a %s joint (want ball, free or a ball part of a compound joint)", b.Name, t)
	case s.DOF != 0:
		return fmt.Errorf("joint transmission: dof %d on the %s joint of %q (a ball or free joint's is 0)", s.DOF, t, b.Name)
	}
	return finiteGear("joint transmission", s.Gear)
}

// Jacobian writes G into g and returns the length (Transmission).
func (s *JointTransmission) Jacobian(m *multibody.Model, ws *multibody.Workspace, g, local []float64) float64 {
	clear(g[:m.NV])
	b := &m.Bodies[s.Body]
	if b.Joint.Type == multibody.JointCompound {
		return 0 // needs q: JacobianAt
	}
	if b.Joint.Type == multibody.JointFree {
		tau := spatial.Vec3{s.Gear[3], s.Gear[4], s.Gear[5]}
		if !s.InParent {
			tau = ws.Pose(s.Body).R.Rotate(tau)
		}
		copy(g[b.VOff:b.VOff+3], tau[:])
		copy(g[b.VOff+3:b.VOff+6], s.Gear[:3])
		return 0
	}
	q := s.ballQuat(m, ws)
	gear := spatial.Vec3{s.Gear[0], s.Gear[1], s.Gear[2]}
	col := gear
	if !s.InParent {
		col = q.Rotate(gear)
	}
	copy(g[b.VOff:b.VOff+3], col[:])
	return q.RotationVector().Dot(gear)
}

// ballQuat is the ball joint's quaternion, M in F, from the poses of the
// body and its parent: R_WF⁻¹ R_WM.
func (s *JointTransmission) ballQuat(m *multibody.Model, ws *multibody.Workspace) spatial.Quat {
	j := &m.Bodies[s.Body].Joint
	rf := j.ParentFrame.R
	if j.Parent >= 0 {
		rf = ws.Pose(j.Parent).R.Mul(rf)
	}
	return rf.Conj().Mul(ws.Pose(s.Body).R.Mul(j.ChildFrame.R))
}
