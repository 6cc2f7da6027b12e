package sim

import (
	"fmt"
	"math"

	"github.com/stiction-sim/stiction/constraint"
	"github.com/stiction-sim/stiction/contact"
	"github.com/stiction-sim/stiction/forces"
	"github.com/stiction-sim/stiction/multibody"
	"github.com/stiction-sim/stiction/spatial"
)

// LengthRangeOptions are MuJoCo's mjLROpt: how ActuatorLengthRange
// simulates the model to find an actuator's length range.
type LengthRangeOptions struct {
	Accel     float64 // target acceleration ‖M⁻¹ f‖ of the applied force
	MaxForce  float64 // bound on ‖f‖ (0: none)
	TimeConst float64 // velocity decay time constant, s (at least 0.01)
	Timestep  float64 // δt of the simulation, s
	IntTotal  float64 // simulated time per side, s
	IntEval   float64 // the final interval whose lengths are taken, s
	TolRange  float64 // convergence: the lengths of that interval within TolRange·range
	// Q0 is the configuration both sides start from, MuJoCo's qpos0 (a
	// free body at its pose in the file); nil starts from the model's
	// NewState, which puts free bodies at the world origin.
	Q0 []float64
}

// DefaultLengthRangeOptions returns MuJoCo 2.2.2's defaults
// (engine_io.c, mj_defaultLROpt).
func DefaultLengthRangeOptions() LengthRangeOptions {
	return LengthRangeOptions{Accel: 20, TimeConst: 1, Timestep: 0.01, IntTotal: 10, IntEval: 2, TolRange: 0.05}
}

// ActuatorLengthRange finds the length range of actuator i of
// cfg.Constraints as MuJoCo 2.2.2 does at compile time for a muscle
// without one (engine_setconst.c, mj_setLengthRange, with
// mjCModel::LengthRange's options): for each side, from the model's
// reference configuration (opt.Q0) at rest, it simulates with mujoco-euler steps of
// opt.Timestep with gravity, contact, joint and tendon springs and
// dampers, friction loss and actuators off (limits and equalities on),
// multiplying the velocities by exp(−δt/max(0.01, TimeConst)) before each
// step and applying the generalized force f = ∓Accel·g/‖M⁻¹ g‖ (g the
// actuator's moment arm at the step's start; ‖f‖ ≤ MaxForce when set),
// and takes the smallest (side 0) or largest (side 1) length at the start
// of the steps that end after IntTotal − IntEval. It fails, naming the
// actuator, when the range is empty or a side's lengths over that interval
// spread by more than TolRange times the range. The simulation uses
// cfg's solver and contact parameters.
func ActuatorLengthRange(m *multibody.Model, cfg Config, i int, opt LengthRangeOptions) ([2]float64, error) {
	var out [2]float64
	set := cfg.Constraints
	if set == nil || i < 0 || i >= len(set.Actuators) {
		return out, fmt.Errorf("sim: length range: no actuator %d", i)
	}
	ac := &set.Actuators[i]
	implicit := cfg.Scheme == MuJoCoImplicit
	mm := passiveFree(m, implicit)
	lr := &lengthRangeForce{ac: ac, accel: opt.Accel, maxForce: opt.MaxForce, g: make([]float64, m.NV),
		local: make([]float64, 3*m.NV), ms: constraint.NewMassSolver(mm)}
	c := cfg
	c.DT, c.Scheme, c.Forces, c.Relinearizations = opt.Timestep, MuJoCoEuler, []forces.Element{lr, undamped(mm)}, 0
	c.Contact.Sleep = contact.Sleep{} // MuJoCo's compile-time simulation: no sleeping (and mujoco-euler refuses it)
	if implicit {
		// mj_step2 integrates with mj_implicit, whose qDeriv has no damping with passive forces off
		c.Scheme, c.Forces = MuJoCoImplicit, []forces.Element{lr}
	}
	cs := *set
	cs.Actuators, cs.Frictions = nil, nil
	c.Constraints = &cs
	kin := multibody.NewWorkspace(mm)
	decay := math.Exp(-opt.Timestep / math.Max(0.01, opt.TimeConst))
	var lo, hi [2]float64
	for side := range 2 {
		lr.sign = float64(2*side - 1)
		st := mm.NewState()
		if opt.Q0 != nil {
			copy(st.Q, opt.Q0)
		}
		s, err := New(mm, st, c)
		if err != nil {
			return out, fmt.Errorf("sim: length range of actuator %q: %w", ac.Name, err)
		}
		updated := false
		for t := 0.0; t < opt.IntTotal; {
			for k := range st.V {
				st.V[k] *= decay
			}
			kin.Update(st.Q, st.V)
			l := ac.Moment(mm, kin, st.Q, lr.g, lr.local)
			if _, err := s.Step(); err != nil {
				return out, fmt.Errorf("sim: length range of actuator %q, side %d, t = %g: %w", ac.Name, side, t, err)
			}
			t += opt.Timestep
			if t > opt.IntTotal-opt.IntEval {
				if l < lo[side] || !updated {
					lo[side] = l
				}
				if l > hi[side] || !updated {
					hi[side] = l
				}
				updated = true
			}
		}
		if side == 0 {
			out[0] = lo[0]
		} else {
			out[1] = hi[1]
		}
	}
	dif := out[1] - out[0]
	if !(dif > 0) {
		return out, fmt.Errorf("sim: actuator %q: invalid length range (%g, %g)", ac.Name, out[0], out[1])
	}
	for side := range 2 {
		if hi[side]-lo[side] > opt.TolRange*dif {
			return out, fmt.Errorf("sim: actuator %q: length range computation did not converge on side %d: lengths (%g, %g) over the last %g s, range (%g, %g)",
				ac.Name, side, lo[side], hi[side], opt.IntEval, out[0], out[1])
		}
	}
	return out, nil
}

// passiveFree returns a copy of m without gravity, collision geometry and
// joint springs (MuJoCo's length-range simulation disables gravity,
// contact and passive forces). The joints keep their damping B unless
// noDamping: MuJoCo 2.2.2's mj_Euler still integrates with M + δt B when
// passive forces are off, without the damping force −B v, which undamped
// adds back; its mj_implicit (mj_step2 under the implicit integrator)
// takes no damping in qDeriv then (mjd_passive_vel returns when passive
// forces are disabled).
func passiveFree(m *multibody.Model, noDamping bool) *multibody.Model {
	mm := *m
	mm.Gravity = spatial.Vec3{}
	mm.Geometries = nil
	mm.Bodies = append([]multibody.Body(nil), m.Bodies...)
	for b := range mm.Bodies {
		j := &mm.Bodies[b].Joint
		j.Stiffness = 0
		if noDamping {
			j.Damping = 0
		}
		if j.Parts != nil {
			j.Parts = append([]multibody.JointPart(nil), j.Parts...)
			for k := range j.Parts {
				j.Parts[k].Stiffness = 0
				if noDamping {
					j.Parts[k].Damping = 0
				}
			}
		}
	}
	return &mm
}

// undamped returns the element that cancels the joints' damping force:
// F = +B v (explicit at the step's start, where mujoco-euler takes −B v
// into k and B into M + δt B).
func undamped(m *multibody.Model) *undamp {
	b := make([]float64, m.NV)
	for _, body := range m.Bodies {
		if body.Tree < 0 {
			continue
		}
		for k := range body.Joint.NV() {
			b[body.VOff+k] = body.Joint.DOFDamping(k)
		}
	}
	return &undamp{b: b}
}

// undamp adds B v to the generalized force.
type undamp struct{ b []float64 }

// Apply adds B v.
func (e *undamp) Apply(c *forces.Context, out *forces.Output) {
	for k, d := range e.b {
		out.F[k] += d * c.V[k]
	}
}

// PotentialEnergy is 0.
func (e *undamp) PotentialEnergy(*forces.Context) float64 { return 0 }

// lengthRangeForce is the generalized force of ActuatorLengthRange,
// sign·Accel·g/max(mjMINVAL, ‖M⁻¹ g‖) (MuJoCo's evalAct), bounded by
// MaxForce.
type lengthRangeForce struct {
	ac              *constraint.Actuator
	sign            float64
	accel, maxForce float64
	g, local, x     []float64
	ms              *constraint.MassSolver
}

// Apply adds the force at the context's configuration.
func (e *lengthRangeForce) Apply(c *forces.Context, out *forces.Output) {
	m := c.Model
	e.ac.Moment(m, c.WS, c.Q, e.g, e.local)
	if err := e.ms.Factor(c.WS); err != nil {
		return // a model's mass matrix is positive definite; New validated it
	}
	e.x = append(e.x[:0], e.g...)
	e.ms.Solve(e.x)
	s := e.sign * e.accel / math.Max(1e-15, norm(e.x))
	if n := math.Abs(s) * norm(e.g); e.maxForce > 0 && n > e.maxForce {
		s *= e.maxForce / math.Max(1e-15, n)
	}
	for k, gk := range e.g {
		out.F[k] += s * gk
	}
}

// PotentialEnergy is 0: the force is not conservative.
func (e *lengthRangeForce) PotentialEnergy(*forces.Context) float64 { return 0 }

func norm(x []float64) float64 {
	n := 0.0
	for _, v := range x {
		n += v * v
	}
	return math.Sqrt(n)
}
