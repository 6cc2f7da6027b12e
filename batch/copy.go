package batch

import (
	"fmt"

	"github.com/stiction-sim/stiction/constraint"
	"github.com/stiction-sim/stiction/scene"
	"github.com/stiction-sim/stiction/sensor"
	"github.com/stiction-sim/stiction/sim"
)

// Alloc returns n float64s, zeroed, that stay valid as long as the Copy
// using them. Make is the Go heap's.
type Alloc func(n int) []float64

// Make allocates on the Go heap.
func Make(n int) []float64 { return make([]float64, n) }

// Copy is one simulator stepped with a control vector. Its actuator
// inputs are Ctrl: before every Step, Ctrl[i] is given to actuator i
// (sim.Simulator.SetControl with rate 0), so Ctrl replaces the scene's
// actuator targets, as MuJoCo's ctrl does. A new or reset Copy's Ctrl
// holds each actuator's target at the end of the first step (0 for an
// actuator without target).
type Copy struct {
	sim      *sim.Simulator
	ctrl     []float64
	initCtrl []float64
	init     *sim.Checkpoint
	stepped  bool // a step was taken since the copy was made, reset or restored
	dt       float64
	sensors  *sensor.Set // nil without sensors
	q0, v0   []float64   // the state at the start of the last step, for the sensors
}

// NewCopy makes a Copy of b, which it then owns: b's state is moved into
// memory from alloc, which is called three times, in this order, for the
// positions (NQ), the velocities (NV) and the controls (one per actuator). Build a
// new scene.Built for every Copy (scene.Build of the same Scene): copies
// must not share a model, a state or a solver.
func NewCopy(b *scene.Built, alloc Alloc) (*Copy, error) {
	if b == nil || b.Model == nil || b.State == nil {
		return nil, fmt.Errorf("batch: NewCopy needs a built scene")
	}
	if alloc == nil {
		alloc = Make
	}
	st := b.State
	q, v := alloc(len(st.Q)), alloc(len(st.V))
	copy(q, st.Q)
	copy(v, st.V)
	st.Q, st.V = q, v
	s, err := sim.New(b.Model, st, b.Config)
	if err != nil {
		return nil, fmt.Errorf("batch: scene %s: %w", b.Name, err)
	}
	nu := 0
	if set := b.Config.Constraints; set != nil {
		nu = len(set.Actuators)
	}
	c := &Copy{sim: s, ctrl: alloc(nu), initCtrl: InitialCtrl(b), init: s.Checkpoint(), dt: b.Config.DT}
	if len(b.Sensors) > 0 {
		if c.sensors, err = sensor.NewSet(b.Model, b.Sensors); err != nil {
			return nil, fmt.Errorf("batch: scene %s: %w", b.Name, err)
		}
		c.q0, c.v0 = make([]float64, len(q)), make([]float64, len(v))
	}
	copy(c.ctrl, c.initCtrl)
	return c, nil
}

// InitialCtrl returns the controls of b's initial state: each actuator's
// target at the end of the first step, 0 for an actuator without target.
func InitialCtrl(b *scene.Built) []float64 {
	set := b.Config.Constraints
	if set == nil {
		return nil
	}
	out := make([]float64, len(set.Actuators))
	t1 := b.State.T + b.Config.DT
	for i, a := range set.Actuators {
		if a.Target != nil {
			out[i], _ = a.Target.Eval(t1)
		}
	}
	return out
}

// Sim returns the copy's simulator (its Model, State, contacts, reports).
func (c *Copy) Sim() *sim.Simulator { return c.sim }

// Qpos returns the generalized positions: the engine's memory, valid as
// long as the Copy.
func (c *Copy) Qpos() []float64 { return c.sim.State.Q }

// Qvel returns the generalized velocities: the engine's memory.
func (c *Copy) Qvel() []float64 { return c.sim.State.V }

// Ctrl returns the actuator inputs applied at the next Step, one per
// actuator of the scene (sim.Config.Constraints.Actuators order).
func (c *Copy) Ctrl() []float64 { return c.ctrl }

// Stats returns the statistics of the last step (the zero value before the
// first, after a failed step, Reset, ResetTo and Restore). Step does not gather them
// (sim.Simulator.Advance): the first Stats after a step does, and its
// energies are those of the state at that call, so read them before
// writing Qpos or Qvel.
func (c *Copy) Stats() sim.StepStats {
	if !c.stepped {
		return sim.StepStats{}
	}
	return c.sim.Stats()
}

// Stepped reports whether a step was taken since the copy was made, reset
// or restored, without gathering the step's statistics.
func (c *Copy) Stepped() bool { return c.stepped }

// Step gives Ctrl to the actuators and takes one step with
// sim.Simulator.Advance: the same state to the bit as sim.Simulator.Step,
// the statistics gathered only when Stats reads them. On error (a control
// that is not finite, a step that fails) the state is unchanged.
func (c *Copy) Step() error {
	for i, u := range c.ctrl {
		if err := c.sim.SetControl(i, u, 0); err != nil {
			return fmt.Errorf("batch: ctrl[%d]: %w", i, err)
		}
	}
	if c.sensors != nil {
		copy(c.q0, c.sim.State.Q)
		copy(c.v0, c.sim.State.V)
	}
	if err := c.sim.Advance(); err != nil {
		c.stepped = false
		return err
	}
	c.stepped = true
	return nil
}

// Reset returns the copy to its initial state (time, step count, contact
// memory) and its initial controls.
func (c *Copy) Reset() error {
	if err := c.sim.Restore(c.init); err != nil {
		return fmt.Errorf("batch: reset: %w", err)
	}
	copy(c.ctrl, c.initCtrl)
	c.stepped = false
	return nil
}

// ResetTo makes q and v (the sizes of Qpos and Qvel) the state at time t,
// with no contact memory and the step count at 0, and ctrl the controls
// (nil: the initial ones): a keyframe reset.
func (c *Copy) ResetTo(q, v []float64, t float64, ctrl []float64) error {
	if ctrl != nil && len(ctrl) != len(c.ctrl) {
		return fmt.Errorf("batch: reset: %d controls for %d actuators", len(ctrl), len(c.ctrl))
	}
	k := *c.init
	k.Q, k.V, k.T, k.T0, k.Step, k.Contacts = q, v, t, t, 0, nil
	if err := c.sim.Restore(&k); err != nil {
		return fmt.Errorf("batch: reset: %w", err)
	}
	if ctrl == nil {
		ctrl = c.initCtrl
	}
	copy(c.ctrl, ctrl)
	c.stepped = false
	return nil
}

// Restore continues from checkpoint k (sim.Simulator.Restore); the
// controls are kept.
func (c *Copy) Restore(k *sim.Checkpoint) error {
	if err := c.sim.Restore(k); err != nil {
		return fmt.Errorf("batch: restore: %w", err)
	}
	c.stepped = false
	return nil
}

// Sensors returns the scene's sensors (nil for none).
func (c *Copy) Sensors() *sensor.Set { return c.sensors }

// EvalSensors writes the sensors' values (length Sensors().Len()) at the
// current state into out; before the first step (and after a reset)
// acceleration and force sensors read NaN. It does not allocate.
func (c *Copy) EvalSensors(out []float64) {
	if c.sensors == nil {
		return
	}
	var step *sensor.Step
	if c.stepped {
		s := c.sim
		step = &sensor.Step{DT: c.dt, Q0: c.q0, V0: c.v0, Contacts: s.Contacts(), Impulses: s.Impulses(), Reports: s.ConstraintReports()}
	}
	c.sensors.Evaluate(c.sim.State, step, out)
}

// ActuatorForces writes each actuator's force (or torque) over the last
// step, its impulse divided by δt in actuator units, into out (length
// len(Ctrl)); 0 before the first step.
func (c *Copy) ActuatorForces(out []float64) {
	clear(out)
	if !c.stepped {
		return
	}
	for _, r := range c.sim.ConstraintReports() {
		if r.Type == constraint.TypeActuator && r.Item < len(out) {
			out[r.Item] = r.Impulse[0] / c.dt
		}
	}
}
