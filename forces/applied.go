package forces

import (
	"math"

	"github.com/stiction-sim/stiction/spatial"
)

// Profile is a scalar function of time, s(t) = Offset + Amplitude
// sin(2π Frequency t + Phase) for Start ≤ t < Stop and 0 outside (Stop = 0:
// no end). Profile{Offset: 1} is the constant 1.
type Profile struct {
	Offset, Amplitude float64
	Frequency         float64 // Hz
	Phase             float64 // rad
	Start, Stop       float64 // s
}

// At returns s(t).
func (p Profile) At(t float64) float64 {
	if t < p.Start || (p.Stop > 0 && t >= p.Stop) {
		return 0
	}
	return p.Offset + p.Amplitude*math.Sin(2*math.Pi*p.Frequency*t+p.Phase)
}

// BodyWrench applies the world-frame force s(t)·Force at the body-frame
// point Point of body Body and the world-frame torque s(t)·Torque:
// τ = J_pᵀ f + J_ωᵀ t. It hands over K = D = 0 (its only configuration
// dependence is the geometric term (∂J/∂q) f, dropped).
type BodyWrench struct {
	Body          int
	Point         spatial.Vec3
	Force, Torque spatial.Vec3
	Profile       Profile
}

// Apply adds the generalized force.
func (e *BodyWrench) Apply(c *Context, out *Output) {
	s := e.Profile.At(c.T)
	if s == 0 || c.Model.Bodies[e.Body].Tree < 0 {
		return
	}
	x := c.WS.Pose(e.Body).Apply(e.Point)
	out.addWrench(c, e.Body, x, e.Force.Scale(s), e.Torque.Scale(s))
}

// PotentialEnergy is 0: the wrench is not conservative in general.
func (e *BodyWrench) PotentialEnergy(*Context) float64 { return 0 }

// JointMotor applies the generalized forces s(t)·Torque (one per degree of
// freedom) to body Body's joint. The joint's effort limit is stored in the
// model but not enforced in this version. K = D = 0.
type JointMotor struct {
	Body    int
	Torque  []float64
	Profile Profile
}

// Apply adds the motor torques.
func (e *JointMotor) Apply(c *Context, out *Output) {
	s := e.Profile.At(c.T)
	off := c.Model.Bodies[e.Body].VOff
	for k, t := range e.Torque {
		out.F[off+k] += s * t
	}
}

// PotentialEnergy is 0.
func (e *JointMotor) PotentialEnergy(*Context) float64 { return 0 }
