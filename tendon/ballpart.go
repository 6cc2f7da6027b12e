package tendon

import (
	"fmt"

	"github.com/stiction-sim/stiction/multibody"
	"github.com/stiction-sim/stiction/spatial"
)

// ConfigJacobian is a Transmission whose Jacobian needs the coordinates
// q besides the kinematics: a joint transmission on a ball part of a
// compound joint, whose quaternion the poses do not give.
type ConfigJacobian interface {
	// JacobianAt is Transmission.Jacobian at the coordinates q of the
	// kinematics ws.
	JacobianAt(m *multibody.Model, ws *multibody.Workspace, q, g, local []float64) float64
}

// JacobianAt writes p's Jacobian G into g and returns its length at the
// coordinates q of the kinematics ws: ConfigJacobian.JacobianAt when p
// has it, else p.Jacobian.
func JacobianAt(p Transmission, m *multibody.Model, ws *multibody.Workspace, q, g, local []float64) float64 {
	if sp, ok := p.(*Path); ok { // a spatial tendon's, without the interface assertion's lookup
		return sp.Jacobian(m, ws, g, local)
	}
	if c, ok := p.(ConfigJacobian); ok {
		return c.JacobianAt(m, ws, q, g, local)
	}
	return p.Jacobian(m, ws, g, local)
}

// JacobianAt is Jacobian, and on a ball part of a compound joint MuJoCo
// 2.2.2's joint transmission on that ball (mj_transmission, mjTRN_JOINT,
// mjTRN_JOINTINPARENT, as on a ball joint): with q_k the part's
// quaternion (the frame after it in the frame before it) and r its
// rotation vector (mju_quat2Vel), the length is r·g and MuJoCo's moment
// is g on the ball's velocities in the frame after it (q_k⁻¹ g with
// jointinparent); our part's velocities are ω in the frame before it
// (multibody.JointPart), so G = q_k g, or G = g with InParent, on the
// part's three velocities (DOF on).
func (s *JointTransmission) JacobianAt(m *multibody.Model, ws *multibody.Workspace, q, g, local []float64) float64 {
	b := &m.Bodies[s.Body]
	if b.Joint.Type != multibody.JointCompound {
		return s.Jacobian(m, ws, g, local)
	}
	clear(g[:m.NV])
	_, qi, _, _ := b.Joint.BallOfDOF(s.DOF)
	qk := q[b.QOff+qi:]
	rot := spatial.Quat{W: qk[0], X: qk[1], Y: qk[2], Z: qk[3]}
	gear := spatial.Vec3{s.Gear[0], s.Gear[1], s.Gear[2]}
	col := gear
	if !s.InParent {
		col = rot.Rotate(gear)
	}
	copy(g[b.VOff+s.DOF:b.VOff+s.DOF+3], col[:])
	return rot.RotationVector().Dot(gear)
}

// validateBallPart checks that DOF is the first velocity of a ball part
// of body b's compound joint.
func (s *JointTransmission) validateBallPart(m *multibody.Model, b *multibody.Body) error {
	ok, _, axis, _ := b.Joint.BallOfDOF(s.DOF)
	if s.DOF < 0 || s.DOF >= b.Joint.NV() || !ok || axis != 0 {
		return fmt.Errorf("joint transmission: velocity %d of the compound joint of %q is not the first of a ball part", s.DOF, b.Name)
	}
	return nil
}
